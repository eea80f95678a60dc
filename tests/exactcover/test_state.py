"""Saving a search and resuming it: the same count, nothing found twice, wrong files refused."""

from __future__ import annotations

import functools
import io
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.exactcover import search as search_module
from slidelab.exactcover import state as state_module
from slidelab.exactcover.problem import Problem
from slidelab.exactcover.search import SolutionsFound, solve
from slidelab.exactcover.state import BITS, CELLS, LINKS, StateError, load_state
from slidelab.fileio import FileAccessError
from slidelab.runs import drive
from tests.exactcover.problems import pentominoes, queens
from tests.fuzzing import FUZZ_SETTINGS

MULTIPLICITIES = Problem.of_sets(
    [f"r{r}" for r in range(4)] + [f"c{c}" for c in range(5)],
    [[f"r{r}", f"c{c}"] for r in range(4) for c in range(5)],
    bounds={**{f"r{r}": (0, 2) for r in range(4)}, **{f"c{c}": (1, 3) for c in range(5)}},
)


def take(search, events):
    """Solutions from the next `events` events of `search` (which stays open)."""
    found = []
    for _ in range(events):
        event = next(search)
        if isinstance(event, SolutionsFound):
            found += event.solutions
    return found


def finish(search):
    found = []
    while True:
        try:
            event = next(search)
        except StopIteration as stop:
            return found, stop.value
        if isinstance(event, SolutionsFound):
            found += event.solutions


@pytest.mark.parametrize(
    ("problem", "engine", "seed"),
    [
        (queens(8), BITS, None),
        (queens(8), LINKS, 5),
        (pentominoes(3, 20), BITS, 2),
        (queens(8), CELLS, None),
        (pentominoes(3, 20), CELLS, 4),
        (MULTIPLICITIES, LINKS, None),
    ],
)
def test_cancelled_run_resumes_to_the_same_solutions(tmp_path, problem, engine, seed):
    everything, whole = finish(solve(problem, engine=engine, random_seed=seed))
    path = tmp_path / "run.npz"
    search = solve(problem, engine=engine, random_seed=seed, checkpoint=path, max_chunk_nodes=40)
    before = take(search, 12)
    search.close()  # cancelling saves the state
    state = load_state(path, problem)
    assert 0 < state.nodes < whole.nodes
    after, result = finish(solve(problem, state=state))
    assert result.count == whole.count and result.complete
    assert result.nodes == whole.nodes
    assert before + after == everything


def test_a_search_of_wide_rows_resumes_from_their_summaries(tmp_path, monkeypatch):
    """Rows read through their summaries (as rows wider than `BITS_WHOLE_ROW_WORDS` are)
    keep stale words a save carries along; the summaries a save keeps skip them."""
    monkeypatch.setattr(state_module, "BITS_WHOLE_ROW_WORDS", 0)
    problem = pentominoes(3, 20)
    everything, whole = finish(solve(problem, engine=BITS))
    path = tmp_path / "run.npz"
    search = solve(problem, engine=BITS, checkpoint=path, max_chunk_nodes=40)
    before = take(search, 30)
    search.close()
    state = load_state(path, problem)
    assert not state.whole_rows
    assert 0 < state.nodes < whole.nodes
    after, result = finish(solve(problem, state=state))
    assert (result.count, result.nodes) == (whole.count, whole.nodes)
    assert before + after == everything


def test_killed_run_loses_only_the_work_since_the_last_save(tmp_path):
    problem = pentominoes(4, 15)
    path = tmp_path / "run.npz"
    search = solve(
        problem, count_only=True, checkpoint=path, checkpoint_seconds=0, max_chunk_nodes=5000
    )
    take(search, 20)
    shutil.copy(path, tmp_path / "left.npz")  # what a kill at this moment leaves on disk
    _, uninterrupted = finish(search)
    assert uninterrupted.count == 1472
    resumed = drive(
        solve(problem, count_only=True, state=load_state(tmp_path / "left.npz", problem))
    )
    assert resumed.count == 1472
    assert resumed.nodes == uninterrupted.nodes


def test_finished_state_resumes_to_the_final_count_at_once(tmp_path):
    path = tmp_path / "done.npz"
    drive(solve(queens(6), checkpoint=path))
    state = load_state(path, queens(6))
    assert state.done and state.count == 4
    assert drive(solve(queens(6), state=state)).count == 4


def test_limit_then_resume_with_a_higher_limit(tmp_path):
    path = tmp_path / "limited.npz"
    first, result = finish(solve(queens(8), limit=10, checkpoint=path))
    assert result.count == 10 and not result.complete
    rest, final = finish(solve(queens(8), state=load_state(path, queens(8))))
    assert final.count == 92
    assert len(set(first + rest)) == 92


def test_state_of_another_problem_is_refused(tmp_path):
    path = tmp_path / "run.npz"
    drive(solve(queens(6), checkpoint=path))
    with pytest.raises(StateError, match="another problem"):
        load_state(path, queens(7))


def test_damaged_or_missing_files_are_reported(tmp_path):
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(b"not a search")
    with pytest.raises(StateError, match="not a saved exact-cover search"):
        load_state(damaged, queens(6))
    missing = tmp_path / "missing.npz"
    with pytest.raises(FileAccessError) as refused:
        load_state(missing, queens(6))
    assert str(refused.value) == f"{missing}: cannot read: No such file or directory"


@pytest.mark.parametrize("version", ["2", "3", "4", "6"])
def test_a_search_saved_by_another_format_version_is_refused(tmp_path, version):
    """A save from before the cells engine (format 2), from before narrow bits rows were
    read whole (3), from before the digest covered the settings (4), or from a newer
    slidelab."""
    path = tmp_path / "run.npz"
    drive(solve(queens(6), checkpoint=path))
    with np.load(path, allow_pickle=False) as saved:
        arrays = {name: saved[name] for name in saved.files}
    arrays["meta"] = np.array([version, *[str(v) for v in arrays["meta"][1:]]])
    other = tmp_path / "other.npz"
    np.savez(other, **arrays)
    assert load_state(path, queens(6)).fingerprint
    with pytest.raises(StateError) as refused:
        load_state(other, queens(6))
    assert (
        str(refused.value)
        == f"{other}: saved by another version of slidelab; start the search anew"
    )


DAMAGED = "the saved search is damaged (it changed after it was saved); start the search anew"

HOSTILE = settings(max_examples=150, deadline=None, database=None)


@functools.cache
def saved_mid_search(engine: str) -> bytes:
    """A search of 8 queens stopped part of the way, as `engine` saves it (a function, not a
    fixture: hypothesis would print the bytes with every failing example)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{engine}.npz"
        search = solve(
            queens(8), engine=engine, preprocess=False, checkpoint=path, max_chunk_nodes=40
        )
        take(search, 6)
        search.close()
        state = load_state(path, queens(8))
        assert state.nodes > 0 and not state.done
        return path.read_bytes()


def with_array_changed(saved: bytes, name: str, change) -> bytes:
    """`saved` with its array `name` replaced by `change(array)`, everything else as it was."""
    with np.load(io.BytesIO(saved), allow_pickle=False) as arrays:
        contents = {key: arrays[key] for key in arrays.files}
    contents[name] = change(contents[name])
    buffer = io.BytesIO()
    np.savez(buffer, **contents)
    return buffer.getvalue()


@HOSTILE
@given(
    st.sampled_from([BITS, CELLS, LINKS]),
    st.integers(0, 1000),
    st.sampled_from(["value", "cut", "type"]),
    st.integers(-(2**62), 2**62),
)
def test_a_save_whose_arrays_changed_is_refused(engine, pick, how, value):
    """A save rewritten whole (the zip's checksums hold) with one array changed: any changed
    value, a shorter array or another type is refused, never searched (the kernels trust
    their arrays: before the digest, such saves counted 0 or 305,827 Soma cubes, or crashed)."""
    saved = saved_mid_search(engine)
    with np.load(io.BytesIO(saved), allow_pickle=False) as arrays:
        names = [key for key in arrays.files if key != "meta" and arrays[key].size > 0]
        name = names[pick % len(names)]
        array = arrays[name]
    if how == "value":
        changed = array.copy().reshape(-1)
        index = pick % changed.size
        changed[index] = value % 2 if changed.dtype == np.bool_ else value % 256
        if changed[index] == array.reshape(-1)[index]:
            changed[index] = not changed[index] if changed.dtype == np.bool_ else changed[index] ^ 1
        changed = changed.reshape(array.shape)
    elif how == "cut":
        changed = array[: array.shape[0] - 1]
    else:
        changed = array.astype(np.int8 if array.dtype != np.int8 else np.int16)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.npz"
        path.write_bytes(with_array_changed(saved, name, lambda _: changed))
        with pytest.raises(StateError) as refused:
            load_state(path, queens(8))
    assert str(refused.value) == f"{path}: {DAMAGED}"


@HOSTILE
@given(
    st.sampled_from([BITS, CELLS, LINKS]),
    st.integers(1, 5),
    st.sampled_from(["0", "3", "-5", "100000", "abc", "", "links", "bits"]),
)
def test_a_save_whose_settings_changed_is_refused(engine, field, value):
    """A save whose settings (problem, engine, seed, numbers of items) were edited: before
    the digest covered them, 100000 items crashed the links kernel and 0 primary items
    counted 6,532,879 Soma cubes."""
    saved = saved_mid_search(engine)

    def edited(meta: np.ndarray) -> np.ndarray:
        fields = [str(v) for v in meta]
        fields[field] = value if value != fields[field] else value + "1"
        return np.array(fields)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.npz"
        path.write_bytes(with_array_changed(saved, "meta", edited))
        with pytest.raises(StateError) as refused:
            load_state(path, queens(8))
    refusals = (DAMAGED, OTHER_VERSION, NOT_A_SAVE)  # another engine's arrays are missing
    assert str(refused.value) in [f"{path}: {refusal}" for refusal in refusals]


OTHER_VERSION = "saved by another version of slidelab; start the search anew"
NOT_A_SAVE = "not a saved exact-cover search (or a damaged one)"


class Stop(Exception):
    """Stands for Ctrl-C (KeyboardInterrupt, which pytest would take as its own)."""


@pytest.mark.parametrize("engine", [BITS, CELLS, LINKS])
@pytest.mark.parametrize("where", ["while showing", "after a kernel call"])
def test_a_listing_stopped_between_finding_and_showing_resumes_with_every_solution(
    tmp_path, monkeypatch, engine, where
):
    """Ctrl-C comes between two Python steps: after a kernel call has found solutions, or
    while the caller shows them.  The save keeps what was not handed out, and the run that
    resumes hands it out first: every solution is shown once."""
    problem = queens(8)
    everything, _ = finish(solve(problem, engine=engine))
    path = tmp_path / "run.npz"
    shown: list[tuple[int, ...]] = []
    if where == "after a kernel call":
        chunk = search_module._Run.chunk

        def chunk_then_stop(run):
            chunk(run)
            if run.found and len(shown) >= 20:
                raise Stop

        monkeypatch.setattr(search_module._Run, "chunk", chunk_then_stop)

    def show(batch: SolutionsFound) -> None:
        if where == "while showing" and len(shown) >= 20:
            raise Stop
        shown.extend(batch.solutions)

    search = solve(problem, engine=engine, checkpoint=path, max_chunk_nodes=40)
    with pytest.raises(Stop):
        drive(search, on_found=show)
    search.close()
    monkeypatch.undo()
    state = load_state(path, problem)
    assert state.pending and state.count == len(shown) + len(state.pending)
    after, result = finish(solve(problem, state=state))
    assert shown + after == everything and result.count == 92


@pytest.mark.slow
@FUZZ_SETTINGS
@given(st.sampled_from([BITS, CELLS, LINKS]), st.data())
def test_a_save_damaged_byte_by_byte_is_refused_or_resumes_to_the_right_count(engine, data):
    """Bytes of the file overwritten, cut off or added: a refusal by name, or (where the
    damage missed everything read) the search resumed to all 92 solutions."""
    saved = bytearray(saved_mid_search(engine))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(saved) - 1))
        kind = data.draw(st.sampled_from(["overwrite", "cut", "insert"]))
        if kind == "overwrite":
            saved[at] = data.draw(st.integers(0, 255))
        elif kind == "cut":
            del saved[at:]
            if not saved:
                saved = bytearray(b"x")
        else:
            saved[at:at] = data.draw(st.binary(min_size=1, max_size=8))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.npz"
        path.write_bytes(bytes(saved))
        try:
            state = load_state(path, queens(8))
        except StateError as refusal:
            assert str(refusal).startswith(f"{path}: ")
            return
    _, result = finish(solve(queens(8), state=state))
    assert (result.count, result.complete) == (92, True)

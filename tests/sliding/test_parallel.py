"""The breadth-first search on several threads gives exactly what one thread gives.

Library puzzles are small, so most tests lower the threshold (and the sifting
buffers) to send every chunk through the threads, and count the chunks that went
there, so no test passes by never leaving one thread.  The hypothesis test
reuses the random puzzles of the reference comparison.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import given

from slidelab.errors import SlidelabError
from slidelab.library import load_shipped
from slidelab.runs import Progress, drive
from slidelab.sliding import search
from slidelab.sliding.encoding import build_tables
from slidelab.sliding.model import Puzzle
from slidelab.sliding.search import (
    SIFT_ROWS,
    SPLIT_PARENTS,
    SPLIT_SECONDS,
    SolveResult,
    analyze,
    solve,
)
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle
from tests.sliding.test_reference_agreement import RANDOM_PUZZLES, puzzles
from tests.sliding.test_search import single_blank


@dataclass(frozen=True)
class Splitting:
    """Values for the search's `SIFT_ROWS`, `SPLIT_SECONDS` and `SPLIT_PARENTS`."""

    rows: int
    seconds: float
    parents: int


EVERYWHERE = Splitting(rows=8, seconds=1e-12, parents=1)
"""Split every chunk of two parents or more; buffers so small they overflow, so slices are also
finished on one thread."""

DEFAULTS = Splitting(SIFT_ROWS, SPLIT_SECONDS, SPLIT_PARENTS)

LIBRARY = ["knuth-silly.slide", "klotski.slide", "century.slide", "mas-puzzle.slide"]

MANY_WORDS = (
    "8 x 8 (eleven pieces: keys of two words)\n1 = 1\n2 = 11\n3 = 1/1\n"
    + f"111223{'0' * 47}111220\n"
    + f"111223{'0' * 47}221110\n"
)
"""Six bits an anchor, ten anchors a word: eleven pieces need two words."""


@contextmanager
def counting_splits(splitting: Splitting) -> Iterator[list[int]]:
    """Search with these settings; yields a one-item count of the chunks split."""
    splits = [0]
    split = search._Expander._split

    def counted(self: search._Expander, *args: object) -> tuple[int, int]:
        splits[0] += 1
        return split(self, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "SIFT_ROWS", splitting.rows)
        patch.setattr(search, "SPLIT_SECONDS", splitting.seconds)
        patch.setattr(search, "SPLIT_PARENTS", splitting.parents)
        patch.setattr(search._Expander, "_split", counted)
        yield splits


def assert_same_on_threads(
    puzzle: Puzzle, style: MoveStyle, jobs: int, splitting: Splitting = EVERYWHERE, **options: int
) -> int:
    """analyze and solve agree with jobs=1 in every field; returns the chunks split."""
    alone = [
        drive(analyze(puzzle, style, jobs=1, **options)),
        drive(solve(puzzle, style, jobs=1, **options)),
    ]
    with counting_splits(splitting) as splits:
        together = [
            drive(analyze(puzzle, style, jobs=jobs, **options)),
            drive(solve(puzzle, style, jobs=jobs, **options)),
        ]
    for one, many in zip(alone, together, strict=True):
        if isinstance(one, SolveResult):  # how far past the goal it got depends on chunk times
            one = replace(one, memory_bytes=many.memory_bytes)
        assert many == one
    return splits[0]


@pytest.mark.parametrize("name", LIBRARY)
@pytest.mark.parametrize("style", [MoveStyle.STEP, MoveStyle.PATH, MoveStyle.SUPER_PATH])
def test_library_puzzles_give_the_same_results_on_two_threads(name: str, style: MoveStyle) -> None:
    assert assert_same_on_threads(load_shipped("sliding", name, parse_puzzle), style, 2) > 0


@pytest.mark.parametrize("style", [MoveStyle.SLIDE, MoveStyle.SUPER_STEP, MoveStyle.SUPER_SLIDE])
def test_three_threads_and_keys_of_several_words_under_a_state_limit(style: MoveStyle) -> None:
    puzzle = parse_puzzle(MANY_WORDS)
    assert build_tables(puzzle).words == 2
    big_buffers = Splitting(rows=4096, seconds=1e-12, parents=1)
    assert assert_same_on_threads(puzzle, style, 3, big_buffers, max_states=30_000) > 0


def states_in_order(puzzle: Puzzle, style: MoveStyle, jobs: int) -> bytes:
    """Every configuration an analysis meets, in the order it met them."""
    outcome = drive(search._bfs(puzzle, style, search.Limits.of(None, None), False, jobs))
    return outcome.space.states[: outcome.space.n].tobytes()


@pytest.mark.parametrize("jobs", [2, 3])
@pytest.mark.parametrize("style", [MoveStyle.STEP, MoveStyle.SUPER_SLIDE])
def test_pieces_inserted_while_others_are_sifted_keep_the_order(
    style: MoveStyle, jobs: int
) -> None:
    """The eight puzzle's space (181,440 configurations) outgrows the states and the table
    many times, often while pieces of a chunk are still being sifted: the tables grow once
    those are done, and the configurations come in the same order as on one thread.  Rows
    sifted before the table was rebuilt are probed for from their home slots again (the
    others from where sifting stopped)."""
    eight = parse_puzzle(single_blank(3, 3))
    alone = states_in_order(eight, style, 1)
    growths, rebuilt = [0], [0]
    room_after = search._Expander._room_after

    def counted(self: search._Expander, futures: Any, space: search._Space) -> bool:
        before = space.rebuilds
        grown = room_after(self, futures, space)
        growths[0] += 1
        rebuilt[0] += space.rebuilds > before
        return grown

    big_buffers = Splitting(rows=1 << 15, seconds=1e-12, parents=1)
    with counting_splits(big_buffers) as splits, pytest.MonkeyPatch.context() as patch:
        patch.setattr(search._Expander, "_room_after", counted)
        assert states_in_order(eight, style, jobs) == alone
    assert splits[0] > 0
    assert growths[0] > 0
    assert rebuilt[0] > 0


@RANDOM_PUZZLES
@given(puzzle=puzzles())
def test_random_puzzles_give_the_same_results_on_two_threads(puzzle: Puzzle) -> None:
    for style in MoveStyle.ALL:
        assert_same_on_threads(puzzle, style, 2)


def test_default_threshold_splits_big_layers_only() -> None:
    """Hughes's puzzle (under 530 configurations) is too small to split; the eight puzzle's
    big layers are split."""
    with counting_splits(DEFAULTS) as splits:
        hughes = load_shipped("sliding", "hughes.slide", parse_puzzle)
        for style in MoveStyle.ALL:
            drive(analyze(hughes, style, jobs=2))
    assert splits[0] == 0
    eight = parse_puzzle(single_blank(3, 3))
    assert assert_same_on_threads(eight, MoveStyle.STEP, 2, DEFAULTS) > 0


def test_threaded_search_yields_progress_and_stops_its_threads_when_closed() -> None:
    before = threading.active_count()
    with counting_splits(EVERYWHERE) as splits:
        run = analyze(parse_puzzle(single_blank(3, 3)), MoveStyle.STEP, jobs=2)
        for event in run:
            assert isinstance(event, Progress)
            if splits[0] > 3:
                break
        run.close()
    assert splits[0] > 3
    assert threading.active_count() == before


def test_jobs_must_be_positive() -> None:
    with pytest.raises(SlidelabError, match="the number of jobs must be at least 1, not 0"):
        drive(
            solve(
                load_shipped("sliding", "knuth-silly.slide", parse_puzzle), MoveStyle.STEP, jobs=0
            )
        )


def test_pieces_a_late_thread_never_takes_are_sifted_here() -> None:
    """Each thread takes the next piece nobody has taken, this one too while the piece due
    next is not sifted: with other threads that take none, every piece is sifted here, and
    the results are still those of one thread."""
    sifted = {True: 0, False: 0}
    sift = search._Expander._sift

    def counted(self: search._Expander, *args: Any) -> tuple[int, int]:
        sifted[threading.current_thread() is threading.main_thread()] += 1
        return sift(self, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search._Expander, "_sift_all", lambda self, space, pieces: None)
        patch.setattr(search._Expander, "_sift", counted)
        eight = parse_puzzle(single_blank(3, 3))
        splits = assert_same_on_threads(eight, MoveStyle.STEP, 3, DEFAULTS)
    assert splits > 0
    assert sifted == {True: sifted[True], False: 0}
    assert sifted[True] >= 2 * splits


class SiftingFailed(Exception):
    """What the sifting of a piece on another thread raises in the next test."""


def test_what_sifting_a_piece_elsewhere_raised_stops_the_search_here() -> None:
    def failing(self: search._Expander, *args: Any) -> tuple[int, int]:
        if threading.current_thread() is not threading.main_thread():
            raise SiftingFailed("a piece could not be sifted")
        return sift(self, *args)

    sift = search._Expander._sift
    eight = parse_puzzle(single_blank(3, 3))
    with counting_splits(EVERYWHERE), pytest.MonkeyPatch.context() as patch:
        patch.setattr(search._Expander, "_sift", failing)
        with pytest.raises(SiftingFailed, match="a piece could not be sifted"):
            drive(analyze(eight, MoveStyle.STEP, jobs=2))

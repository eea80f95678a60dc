"""Taking a list apart in chunks, on processes or resumed from a journal: the disassemblies
one process finds, in the same order."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.burrtools.assemblies import search_assemblies
from slidelab.burrtools.disassemblies import assembly_of
from slidelab.burrtools.packing import build_packing
from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.disassembly import batch, split
from slidelab.disassembly.batch import disassemble_all
from slidelab.disassembly.model import Assembly
from slidelab.disassembly.split import Chunk, DisassemblyJob, Shared, disassemble_split
from slidelab.exactcover.search import SolutionsFound, solve
from slidelab.parallel.journal import JournalError
from slidelab.runs import Progress, RunStopped, drive
from tests.burrtools.conftest import EXAMPLES
from tests.parallel.forging import FORGING, forged, refused_or_right


def cube_in_cage(examples, distinct: bool = False) -> list[Assembly]:
    """CubeInCage's 1,152 assemblies in the fixed result (12 come apart), or its 96 classes."""
    packing = build_packing(read_xmpuzzle(examples / "CubeInCage.xmpuzzle"), 0)
    found: list[tuple[int, ...]] = []

    def keep(batch: SolutionsFound) -> None:
        found.extend(batch.solutions)

    drive(
        search_assemblies(packing, listing=True) if distinct else solve(packing.exact_cover),
        on_found=keep,
    )
    return [assembly_of(packing, solution) for solution in found]


def at_once(patch: pytest.MonkeyPatch) -> None:
    """A run judges its pace at its first assembly, and any time left is too long to stay here:
    one assembly is taken apart here, the rest split (chunks on workers are never too long)."""
    patch.setattr(batch, "FIRST_LOOK", 0.0)
    patch.setattr(split, "ALONE_SECONDS", -1.0)
    patch.setattr(split, "CHUNK_SECONDS", 1e9)


@pytest.fixture
def split_at_once(monkeypatch):
    at_once(monkeypatch)


@pytest.mark.parametrize("size", [0, 1, 2, 15, 16, 17, 1151])
def test_chunks_cover_their_list_in_order_down_to_single_assemblies(size):
    job = DisassemblyJob((), False, None)

    def leaves(chunk: Chunk) -> list[Chunk]:
        kids = job.children(chunk)
        assert [k.key for k in kids] == [(*chunk.key, n) for n in range(len(kids))]
        assert len(kids) <= split.FANOUT
        sizes = {k.stop - k.start for k in kids}
        assert not kids or max(sizes) - min(sizes) <= 1
        return [leaf for kid in kids for leaf in leaves(kid)] if kids else [chunk]

    found = leaves(Chunk((), 0, size))
    assert [(c.start, c.stop) for c in found] == [(k, k + 1) for k in range(size)] or (
        size == 0 and found == [Chunk((), 0, 0)]
    )
    assert [c.key for c in found] == sorted(c.key for c in found)


def test_chunks_on_two_processes_give_what_one_process_gives(examples, split_at_once):
    listed = cube_in_cage(examples)
    here = drive(disassemble_all(listed))
    taken, shared = drive(disassemble_split(listed, jobs=2))
    assert taken.assemblies == here.assemblies and taken.disassemblies == here.disassemblies
    assert taken.separable == 12
    # One here, then the other 1,151: 16 chunks of 71 or 72, the first two of them split in
    # 16 again (splitting goes on breadth first until there are 32 subproblems or more).
    assert shared == Shared(here=1, subproblems=14 + 2 * 16, resumed=0)


def test_a_short_list_is_taken_apart_here_alone(examples, monkeypatch):
    monkeypatch.setattr(split, "ALONE_SECONDS", 1e9)
    listed = cube_in_cage(examples, distinct=True)
    taken, shared = drive(disassemble_split(listed, jobs=2))
    assert shared == Shared(here=96, subproblems=0, resumed=0)
    assert taken.disassemblies == drive(disassemble_all(listed)).disassemblies


def test_a_stopped_run_resumes_from_its_journal_without_redoing_its_chunks(
    examples, split_at_once, monkeypatch, tmp_path
):
    monkeypatch.setattr(batch, "PROGRESS_SECONDS", -1.0)  # progress after every assembly
    listed = cube_in_cage(examples)
    here = drive(disassemble_all(listed)).disassemblies
    journal = tmp_path / "cage.journal"

    def recorded() -> int:
        return len(journal.read_text().splitlines()) - 1  # after its header

    with pytest.raises(RunStopped):
        drive(disassemble_split(listed, journal=str(journal)), should_stop=lambda: recorded() >= 10)
    assert recorded() == 10
    explored: list[tuple[int, ...]] = []
    explore = DisassemblyJob.explore

    def counted(job: DisassemblyJob, chunk: Chunk, budget: int | None, growth: float | None = None):
        explored.append(chunk.key)
        return explore(job, chunk, budget, growth)

    monkeypatch.setattr(DisassemblyJob, "explore", counted)
    events: list[Progress] = []
    taken, shared = drive(
        disassemble_split(listed, journal=str(journal)), on_progress=events.append
    )
    assert taken.disassemblies == here
    # The root (one probe here, given up at once) split in 16 chunks, the first two in 16
    # again: 46 chunks, 10 of them in the journal, the other 36 taken apart now.
    assert shared == Shared(here=0, subproblems=46, resumed=10)
    assert len(explored) == 36 and () not in explored
    assert events[-1].explored == 1152 and events[-1].found == 12
    assert recorded() == 46


def test_a_damaged_journal_is_refused_with_its_line(examples, split_at_once, tmp_path):
    listed = cube_in_cage(examples, distinct=True)
    journal = tmp_path / "cage.journal"
    drive(disassemble_split(listed, journal=str(journal)))
    lines = journal.read_text().splitlines()
    lines[2] = lines[2].replace('"nodes":', '"nodes":1', 1)  # 6 assemblies become 16
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError) as refused:
        drive(disassemble_split(listed, journal=str(journal)))
    assert str(refused.value) == (
        f"{journal}:3: damaged journal record (checksum mismatch: changed, or from another "
        "journal); delete this line to search its subproblem again"
    )


def test_a_journal_of_another_list_is_refused(examples, split_at_once, tmp_path):
    journal = tmp_path / "cage.journal"
    drive(disassemble_split(cube_in_cage(examples, distinct=True), journal=str(journal)))
    with pytest.raises(JournalError, match="this journal belongs to another problem"):
        drive(disassemble_split(cube_in_cage(examples), journal=str(journal)))
    with pytest.raises(JournalError, match="this journal belongs to another problem"):
        drive(
            disassemble_split(
                cube_in_cage(examples, distinct=True), journal=str(journal), unit_steps=True
            )
        )


def test_a_list_s_fingerprint_is_the_same_in_every_process():
    """A rerun is another process, with other string hashes (PYTHONHASHSEED): the journal's
    fingerprint of the same list must not change, and must change with the list."""
    code = (
        "from slidelab.disassembly.model import Assembly, Piece\n"
        "from slidelab.disassembly.split import DisassemblyJob\n"
        "pieces = (Piece(((0, 0, 0), (0, 1, 0)), 'S1', frozenset({1, 2}), 3),"
        " Piece(((1, 0, 0),), 'S2'))\n"
        "listed = (Assembly(pieces), Assembly(pieces[::-1]))\n"
        "print(DisassemblyJob(listed, False, None).fingerprint())\n"
        "print(DisassemblyJob(listed[:1], False, None).fingerprint())\n"
    )
    printed = [
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True, text=True, check=True,
        ).stdout
        for seed in ("1", "2")
    ]  # fmt: skip
    whole, first = printed[0].split()
    assert printed[1] == printed[0] and whole != first


@pytest.fixture(scope="module")
def cage_journal(tmp_path_factory):
    """An honest journal of CubeInCage's 96 classes taken apart in chunks; the run resumed from
    a journal, and its answer (the assemblies that come apart, the disassemblies)."""
    if not EXAMPLES.is_dir():
        pytest.skip(f"BurrTools examples not found at {EXAMPLES}")
    listed = cube_in_cage(EXAMPLES, distinct=True)
    path = tmp_path_factory.mktemp("disassembly") / "cage.journal"

    def resumed(journal: str) -> tuple[int, int]:
        taken, _ = drive(disassemble_split(listed, journal=journal))
        return taken.separable, len(taken.disassemblies)

    with pytest.MonkeyPatch.context() as patch:
        at_once(patch)
        answer = resumed(str(path))
    assert answer == (1, 96) and len(path.read_text().splitlines()) > 30
    return path, resumed, answer, listed


@FORGING
@given(data=st.data())
def test_a_forged_payload_is_refused_with_its_line_or_changes_nothing(cage_journal, data):
    """A chunk holds one disassembly of each of its assemblies, each a whole record of a
    separation tree of its pieces, as many separable as counted."""
    path, resumed, answer, _ = cage_journal
    refused_or_right(data, path, resumed, answer, count=True)


@pytest.mark.parametrize(
    ("change", "count", "reason"),
    [
        (lambda records: {}, 1, "the payload must have the fields disassemblies"),
        (
            lambda records: {"disassemblies": records, "more": 1},
            1,
            "the payload must have the fields disassemblies",
        ),
        (
            lambda records: {"disassemblies": records[1:]},
            1,
            "disassemblies must hold {size} items, not {less}",
        ),
        (
            lambda records: {"disassemblies": [records[0][:-1], *records[1:]]},
            1,
            "disassemblies[0] ends too soon",
        ),
        (
            lambda records: {"disassemblies": [[*records[0], 0], *records[1:]]},
            1,
            "disassemblies[0] goes on after its disassembly",
        ),
        (
            lambda records: {"disassemblies": [[0, 1, 99, 0, 0, 0, 0], *records[1:]]},
            1,
            "disassemblies[0] is no disassembly of 6 pieces",
        ),
        (
            lambda records: {"disassemblies": records},
            2,
            "separable disassemblies add up to 1, not to the record's count 2",
        ),
    ],
)
def test_a_forged_payload_is_refused_for_what_it_holds(
    cage_journal, tmp_path, change, count, reason
):
    """A chunk's disassemblies: as many as its assemblies, each a whole record of one of them,
    as many separable as counted."""
    honest, _, _, listed = cage_journal
    lines = honest.read_text().splitlines()
    number = next(n for n, line in enumerate(lines[1:], 2) if '"count":1' in line)
    record = json.loads(lines[number - 1])
    records = record["payload"]["disassemblies"]
    payload = change(records)
    lines[number - 1] = forged(
        json.loads(lines[0])["fingerprint"], record["key"], count, record["nodes"], payload
    )
    journal = tmp_path / "cage.journal"
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError) as refused:
        drive(disassemble_split(listed, journal=str(journal)))
    assert str(refused.value) == (
        f"{journal}:{number}: damaged journal record "
        f"({reason.format(size=len(records), less=len(records) - 1)}); delete this line to "
        "search its subproblem again"
    )

"""`hardest_starts`: every placement of the start's pieces, searched part by part, agrees with
the reference, which builds the whole graph of placements in a dictionary."""

from __future__ import annotations

import itertools
import json
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.cli import main
from slidelab.library import shipped_text
from slidelab.memory import MemoryBudgetError
from slidelab.parallel import run
from slidelab.parallel.journal import JournalError
from slidelab.runs import drive
from slidelab.sliding import graph_kernels, hardest
from slidelab.sliding.hardest import HARDEST_SHOWN, hardest_starts
from slidelab.sliding.model import Axis, Configuration, Goal, PieceKind, Placement, Puzzle
from slidelab.sliding.reference import reference_hardest
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle
from tests.parallel.forging import FORGING, forged, refused_or_right
from tests.sliding.test_reference_agreement import RANDOM_PUZZLES, _show, puzzles

CARS = "4 x 4 cars\n1 = 11 h\n2 = 1/1 v\n3 = 111 h\n4 = 1\n20001000043\n******1\n"
"""A red car to bring to the right edge of row 1, a vertical car, a truck and a free unit
square on a 4 x 4 board: the cars' lines split the placements into many parts."""


def assert_agrees(puzzle: Puzzle, style: MoveStyle) -> None:
    farthest, hardest_set, components, placements = reference_hardest(puzzle, style)
    found = drive(hardest_starts(puzzle, style))
    assert found.limit_message is None
    assert (found.placements, found.components) == (placements, components)
    assert found.hardest_distance == farthest
    assert found.hardest_count == len(hardest_set)
    assert len(found.hardest) == min(HARDEST_SHOWN, len(hardest_set))
    assert set(found.hardest) <= hardest_set


@pytest.mark.parametrize("style", MoveStyle.ALL)
@RANDOM_PUZZLES
@given(puzzle=puzzles())
def test_hardest_starts_agree_with_the_reference(style: MoveStyle, puzzle: Puzzle) -> None:
    _show(puzzle)
    assert_agrees(puzzle, style)


@pytest.mark.parametrize(("batch", "parts"), [(1, 64), (1 << 18, 64), (1, 4), (1, 1)])
@pytest.mark.parametrize("style", [MoveStyle.STEP, MoveStyle.SLIDE, MoveStyle.SUPER_SLIDE])
def test_cars_split_the_placements_into_parts_searched_one_by_one(
    style: MoveStyle, batch: int, parts: int
) -> None:
    with patch.object(hardest, "BATCH", batch), patch.object(hardest, "MAX_PARTS", parts):
        events = list(hardest_starts(parse_puzzle(CARS), style))
        assert sorted({e.fraction for e in events}) == [d / parts for d in range(1, parts + 1)]
        assert_agrees(parse_puzzle(CARS), style)


def test_knuths_silly_example() -> None:
    assert_agrees(parse_puzzle(shipped_text("sliding", "knuth-silly.slide")), MoveStyle.SLIDE)


def test_klotski_pieces_fill_65880_placements_in_898_components() -> None:
    puzzle = parse_puzzle(shipped_text("sliding", "klotski.slide"))
    found = drive(hardest_starts(puzzle, MoveStyle.PATH))
    assert (found.placements, found.components, found.can_reach) == (65_880, 898, 53_954)
    assert (found.hardest_distance, found.hardest_count) == (93, 2)


def test_a_part_bigger_than_the_state_limit_stops_with_a_message() -> None:
    puzzle = parse_puzzle(shipped_text("sliding", "klotski.slide"))
    found = drive(hardest_starts(puzzle, MoveStyle.PATH, max_states=1000))
    assert found.limit_message == (
        "stopped: a part of the placements that moves cannot leave holds more than 1,000, "
        "the limit set by --max-states for each part"
    )
    assert found == hardest.HardestStarts(
        MoveStyle.PATH, 0, 0, 0, None, 0, (), found.limit_message
    )  # a stopped run decides nothing


FREE_FOUR = "8 x 8 four\n1 = 1\n2 = 1\n3 = 1\n4 = 1\n1234\n4321\n"
"""Four free unit squares: one part of 15,249,024 placements."""


def test_a_part_stops_at_the_state_limit_without_coding_the_rest(monkeypatch) -> None:
    coded = []

    def counted(*args: object) -> int:
        coded.append(keys(*args))
        return coded[-1]

    keys = graph_kernels.placement_keys
    monkeypatch.setattr(graph_kernels, "placement_keys", counted)
    found = drive(hardest_starts(parse_puzzle(FREE_FOUR), MoveStyle.STEP, max_states=1000))
    assert found.limit_message == (
        "stopped: a part of the placements that moves cannot leave holds more than 1,000, "
        "the limit set by --max-states for each part"
    )
    assert sum(coded) == 1001  # one past the limit, not 15,249,024


WIDE_FOUR = "64 x 64 four\n1 = 1\n2 = 1\n3 = 1\n4 = 1\n123400000\n432100000\n"
"""Four free unit squares on 4,096 cells: one part of about 2.8e14 placements."""


@pytest.mark.parametrize(
    ("jobs", "budget"),
    [
        (
            1,
            "needs at least 68.1 MiB to search, more than the limit set by --max-memory (64.0 MiB)",
        ),
        (
            2,
            "needs at least 38.4 MiB to search, more than 32.0 MiB, the share of each of 2 "
            "processes in the limit set by --max-memory (64.0 MiB)",
        ),
    ],
)
def test_a_part_too_big_for_the_memory_budget_stops_before_it_is_held(
    jobs: int, budget: str
) -> None:
    puzzle = parse_puzzle(WIDE_FOUR)
    found = drive(hardest_starts(puzzle, MoveStyle.STEP, max_memory=64 << 20, jobs=jobs))
    assert found.limit_message == (
        f"stopped: a part of the placements that moves cannot leave {budget}"
    )


@pytest.mark.parametrize("limit", [117, 116])  # the biggest of CARS's parts holds 117
def test_max_states_bounds_each_part_alike_on_every_path(tmp_path, monkeypatch, limit) -> None:
    monkeypatch.setattr(run, "ROOT_NODES", 100)  # the root gives up at once: every part a task
    searched = []

    def batch(*args: Any) -> object:
        searched.append(args[2].shape[0])
        return (yield from search_batch(*args))

    search_batch = hardest._search_batch
    monkeypatch.setattr(hardest, "_search_batch", batch)
    puzzle = parse_puzzle(CARS)
    here = drive(hardest_starts(puzzle, MoveStyle.SLIDE, max_states=limit))
    assert max(searched, default=0) <= limit  # batches of several parts too
    journal = str(tmp_path / "cars.journal")
    assert drive(hardest_starts(puzzle, MoveStyle.SLIDE, max_states=limit, jobs=2)) == here
    assert drive(hardest_starts(puzzle, MoveStyle.SLIDE, max_states=limit, journal=journal)) == here
    whole = drive(hardest_starts(puzzle, MoveStyle.SLIDE))
    if limit == 117:
        assert here == whole
    else:
        assert here.limit_message == (
            "stopped: a part of the placements that moves cannot leave holds more than 116, "
            "the limit set by --max-states for each part"
        )
        # the stop is not recorded: the journal resumes with another limit
        assert drive(hardest_starts(puzzle, MoveStyle.SLIDE, journal=journal)) == whole


def test_parts_that_do_not_fit_in_memory_together_are_searched_one_by_one(monkeypatch) -> None:
    searched = []

    def batch(*args: Any) -> object:
        searched.append(args[2].shape[0])
        if searched[-1] > 117:  # more than CARS's biggest part
            raise MemoryBudgetError("too big together")
        return (yield from search_batch(*args))

    puzzle = parse_puzzle(CARS)
    whole = drive(hardest_starts(puzzle, MoveStyle.SLIDE))
    search_batch = hardest._search_batch
    monkeypatch.setattr(hardest, "_search_batch", batch)
    assert drive(hardest_starts(puzzle, MoveStyle.SLIDE)) == whole
    assert searched[0] == 3456  # every part in one batch, then each on its own


def test_progress_says_how_much_is_done_and_closing_the_run_stops_it() -> None:
    puzzle = parse_puzzle(CARS)
    events = list(itertools.islice(hardest_starts(puzzle, MoveStyle.STEP), 10_000))
    fractions = [e.fraction for e in events if e.fraction is not None]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert len(set(fractions)) == 64  # a step per part: the cars' lines
    run = hardest_starts(puzzle, MoveStyle.STEP)
    next(run)
    run.close()
    with pytest.raises(StopIteration):
        next(run)


def test_parts_on_processes_or_resumed_from_a_journal_find_what_one_process_finds(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setattr(run, "ROOT_NODES", 100)  # the root gives up at once: every part a task
    puzzle = parse_puzzle(CARS)
    here = drive(hardest_starts(puzzle, MoveStyle.SLIDE))
    assert drive(hardest_starts(puzzle, MoveStyle.SLIDE, jobs=2)) == here
    journal = tmp_path / "cars.journal"
    assert drive(hardest_starts(puzzle, MoveStyle.SLIDE, journal=str(journal))) == here
    assert len(journal.read_text().splitlines()) == 1 + 64  # its header, then each part

    def searched_again(*args: object) -> None:
        raise AssertionError("a part the journal holds was searched again")

    monkeypatch.setattr(hardest, "_search_batch", searched_again)
    assert drive(hardest_starts(puzzle, MoveStyle.SLIDE, journal=str(journal))) == here


def test_only_hardest_is_split_by_the_command_line(tmp_path, capsys) -> None:
    path = tmp_path / "cars.slide"
    path.write_text(CARS)
    assert main(["slide", str(path), "--journal", str(tmp_path / "j")]) == 2
    assert capsys.readouterr().err == (
        "slidelab: --scheduler and --journal split the search of --hardest only\n"
    )


WIDE = Puzzle(
    rows=9,
    cols=8,
    kinds=(
        PieceKind("1", ((0, 0), (0, 1), (1, 0))),
        PieceKind("2", ((0, 0), (1, 0), (2, 0)), Axis.VERTICAL),
    ),
    obstacles=frozenset((r, c) for r in range(4) for c in range(8)),
    start=Configuration.of([Placement("1", 4, 0), Placement("2", 4, 3), Placement("2", 5, 5)]),
    goal=Goal((Placement("1", 7, 6),), frozenset(), partial=True),
)
"""A board of 72 cells (two words per bitset of cells, pieces crossing from one to the
other), its top half obstacles; the two bars stand in columns that split the placements
into parts, so one part can hold them out of the order of their cells."""


@pytest.mark.parametrize("style", [MoveStyle.STEP, MoveStyle.SLIDE, MoveStyle.SUPER_STEP])
def test_a_board_of_more_than_64_cells(style: MoveStyle) -> None:
    assert_agrees(WIDE, style)


@pytest.fixture(scope="module")
def cars_journal(tmp_path_factory):
    """An honest journal of the cars' hardest start, a record for each part; the search
    resumed from a journal, and its count of hardest placements."""
    path = tmp_path_factory.mktemp("hardest") / "cars.journal"
    puzzle = parse_puzzle(CARS)

    def resumed(journal: str) -> int:
        return drive(hardest_starts(puzzle, MoveStyle.SLIDE, journal=journal)).hardest_count

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(run, "ROOT_NODES", 100)  # the root gives up at once: every part a task
        count = resumed(str(path))
    assert len(path.read_text().splitlines()) == 1 + 64
    return path, resumed, count


@FORGING
@given(data=st.data())
def test_a_forged_payload_is_refused_with_its_line_or_changes_nothing(cars_journal, data):
    """A part's counts must fit one another and the record's, and its hardest codes be codes
    of placements of the pieces: the kernels decode them unchecked.  Its farthest distance
    is kept: nothing in a record can check it, and it decides which parts' hardest count."""
    path, resumed, count = cars_journal
    refused_or_right(data, path, resumed, count, count=True, kept=("farthest",))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"placements": -1}, "placements must be a whole number from 0"),
        ({"components": 10**9}, "components must be a whole number from 0 to {placements}"),
        ({"farthest": -1}, "farthest and hardest_count disagree"),
        ({"hardest_count": 0}, "hardest_count must be the record's count, {count}"),
        ({"hardest": []}, "hardest must hold {shown} items, not 0"),
        (
            {"hardest": [[2**64], [0]]},
            "hardest[0][0] must be a whole number from 0 to 18446744073709551615",
        ),
        ({"hardest": [[2**63], [2**63 + 1]]}, "hardest[0] codes no placement"),
    ],
)
def test_a_forged_payload_is_refused_for_what_it_holds(cars_journal, tmp_path, change, reason):
    honest, _, _ = cars_journal
    lines = honest.read_text().splitlines()
    number = next(n for n, line in enumerate(lines[1:], 2) if '"hardest_count":2,' in line)
    record = json.loads(lines[number - 1])
    payload = record["payload"] | change
    lines[number - 1] = forged(
        json.loads(lines[0])["fingerprint"],
        record["key"],
        record["count"],
        record["nodes"],
        payload,
    )
    journal = tmp_path / "cars.journal"
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError) as refused:
        drive(hardest_starts(parse_puzzle(CARS), MoveStyle.SLIDE, journal=str(journal)))
    said = reason.format(placements=record["payload"]["placements"], count=record["count"], shown=2)
    assert str(refused.value) == (
        f"{journal}:{number}: damaged journal record ({said}); delete this line to search its "
        "subproblem again"
    )

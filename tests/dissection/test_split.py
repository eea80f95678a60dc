"""The dissection search in subproblems finds the very solutions of the whole search, in order."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.cli import main
from slidelab.dissection import search
from slidelab.dissection.model import Dissection, Solution, square_source
from slidelab.dissection.search import (
    DissectionResult,
    SolutionsFound,
    branch_choices,
    count_solutions,
    find_solutions,
    solve,
)
from slidelab.dissection.shape import parse_shape, square
from slidelab.dissection.split import DissectionJob, solve_split
from slidelab.library import load_shipped
from slidelab.parallel import run
from slidelab.parallel.journal import JournalError
from slidelab.runs import drive
from tests.dissection.figures import TOY
from tests.parallel.forging import FORGING, forged, refused_or_right


def problem(name: str, pieces: int, **options: bool) -> Dissection:
    target = load_shipped("dissection", name, parse_shape)
    return Dissection(square_source(target), target, pieces, **options)


PROBLEMS = [
    pytest.param(problem("knuth-toy.dots", 2), id="toy-2"),
    pytest.param(problem("knuth-toy.dots", 3), id="toy-3"),
    pytest.param(problem("rectangle-2x8.dots", 3, connected=True), id="rectangle-3-connected"),
    pytest.param(problem("knuth-toy.dots", 3, connected=True, flips=True), id="toy-3-flips"),
    pytest.param(
        Dissection(load_shipped("dissection", "rectangle-2x8.dots", parse_shape), square(4), 3),
        id="from-rectangle",
    ),
    pytest.param(problem("knuth-toy.dots", 4), id="toy-4"),
    pytest.param(problem("rectangle-2x8.dots", 3), id="rectangle-3"),
    pytest.param(problem("l-shape-16.dots", 3, flips=True), id="l-shape-3-flips"),
]


def tiny(patch: pytest.MonkeyPatch) -> None:
    """Budgets so small that every search is split and split again (its kernel calls are kept
    short, so that it reports progress before it ends)."""
    patch.setattr(search, "CHUNK_SECONDS", 0)
    patch.setattr(run, "ROOT_NODES", 1)
    patch.setattr(run, "PROBE_NODES", 2)
    patch.setattr(run, "GROWTH", 1)
    patch.setattr(run, "ROOT_GROWTH", 1)


@pytest.fixture
def tiny_budgets(monkeypatch):
    tiny(monkeypatch)


def knuths_counts(result: DissectionResult) -> tuple[int, int, int, int]:
    return result.count, result.covers, result.tuples, result.searches


def as_row(solution: Solution) -> list[int]:
    """A solution as the split search's payload holds it."""
    maps = [value for m in solution.maps for value in m]
    return [*maps, *solution.source_colours, *solution.target_colours]


@pytest.mark.parametrize("dissection", PROBLEMS[:5])
def test_the_subtrees_of_every_prefix_partition_the_solutions(dissection):
    """Split down to single covering multisets: the leaves, in key order, are the whole search."""
    job = DissectionJob(dissection, listing=True)
    leaves = [job.root()]
    for _ in range(dissection.pieces):
        leaves = [child for leaf in leaves for child in job.children(leaf)]
    assert all(job.children(leaf) == [] for leaf in leaves)
    results = [drive(job.explore(leaf, None)) for leaf in leaves]
    split = [s for r in results for s in r.payload["solutions"]]
    assert split == [as_row(s) for s in find_solutions(dissection)]
    whole = count_solutions(dissection)
    assert sum(r.count for r in results) == whole.count
    assert sum(r.payload["covers"] for r in results) == whole.covers == len(leaves)
    assert sum(r.nodes for r in results) == whole.tuples


@pytest.mark.parametrize("dissection", PROBLEMS)
def test_split_search_finds_the_same_solutions_in_order(tiny_budgets, dissection):
    whole = drive(solve(dissection))
    split = drive(solve_split(dissection))
    assert split.found.solutions() == find_solutions(dissection)
    assert knuths_counts(split.result) == knuths_counts(whole)
    counted = drive(solve_split(dissection, listing=False))
    assert knuths_counts(counted.result) == knuths_counts(drive(solve(dissection, listing=False)))
    assert knuths_counts(counted.result)[:3] == knuths_counts(whole)[:3]
    assert split.result.shifts == whole.shifts
    assert split.subproblems > 1 or whole.tuples < 1024  # the first chunk ends small searches


def test_prefixes_may_reach_into_the_orientations():
    """Forcing all 2d levels: one subtree per covering map tuple, together the whole search."""
    toy = problem("knuth-toy.dots", 3, flips=True)
    prefixes: list[tuple[int, ...]] = [()]
    for _ in range(2 * toy.pieces):
        prefixes = [(*p, c) for p in prefixes for c in branch_choices(toy, p)]
    found = []
    for prefix in prefixes:
        for event in solve(toy, prefix=prefix):
            if isinstance(event, SolutionsFound):
                found += event.solutions()
    assert len(prefixes) == count_solutions(toy).tuples
    assert found == find_solutions(toy)


def test_a_forced_choice_the_search_would_not_make_finds_nothing():
    toy = problem("knuth-toy.dots", 3)
    assert drive(solve(toy, prefix=(5, 4))).count == 0  # placements in decreasing order
    assert drive(solve(toy, prefix=(0, 0, 0, 1))).count == 0  # colour 1 is never turned


def test_two_processes_give_the_same_count(tiny_budgets):
    split = drive(solve_split(problem("knuth-toy.dots", 4), listing=False, jobs=2))
    assert split.result.count == 149798 and split.subproblems > 2


def test_jobs_and_journal_from_the_command_line(tmp_path, capsys, tiny_budgets):
    shape = tmp_path / "toy.dots"
    shape.write_text(TOY)
    journal = tmp_path / "toy.journal"
    arguments = ["dissect", "4", str(shape), "--count", "--json", "--jobs", "2"]
    assert main([*arguments, "--journal", str(journal)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert (first["solutions"], first["resumed"]) == (149798, 0) and first["subproblems"] > 2
    assert main([*arguments, "--journal", str(journal)]) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["solutions"], again["tuples"]) == (first["solutions"], first["tuples"])
    assert again["resumed"] == again["subproblems"] == first["subproblems"]


def test_listing_in_subproblems_prints_what_the_whole_search_prints(tmp_path, capsys, tiny_budgets):
    shape = tmp_path / "toy.dots"
    shape.write_text(TOY)
    assert main(["dissect", "3", str(shape)]) == 0
    whole = capsys.readouterr().out
    assert main(["dissect", "3", str(shape), "--jobs", "1", "--journal", str(tmp_path / "j")]) == 0
    assert capsys.readouterr().out == whole


def test_min_pieces_is_refused_with_the_parallel_options(tmp_path, capsys):
    shape = tmp_path / "toy.dots"
    shape.write_text(TOY)
    assert main(["dissect", "3", str(shape), "--min-pieces", "--jobs", "2"]) == 2
    assert "--min-pieces tries 2, 3, ... pieces in turn" in capsys.readouterr().err


@pytest.fixture(scope="module", params=[False, True], ids=["counting", "listing"])
def toy_journal(request, tmp_path_factory):
    """An honest journal of the toy in 3 pieces, split small, whether it lists; the search
    resumed from a journal, and its answer (the count, and the number of solutions listed)."""
    listing = request.param
    path = tmp_path_factory.mktemp("dissection") / "toy3.journal"
    toy = problem("knuth-toy.dots", 3)

    def resumed(journal: str) -> tuple[int, int]:
        split = drive(solve_split(toy, listing=listing, journal=journal))
        return split.result.count, len(split.found)

    with pytest.MonkeyPatch.context() as patch:
        tiny(patch)
        answer = resumed(str(path))
    assert answer == (919, 919 if listing else 0) and len(path.read_text().splitlines()) > 10
    return path, resumed, answer, listing


@FORGING
@given(data=st.data())
def test_a_forged_payload_is_refused_with_its_line_or_changes_nothing(toy_journal, data):
    """Listed solutions must be as many as counted, each placement, orientation and colour
    one of the tables; Knuth's counts have nothing to check them by but their type, and a
    count alone has nothing but the checksum, so only a listing's count is forged."""
    path, resumed, answer, listing = toy_journal
    refused_or_right(data, path, resumed, answer, count=listing)


@pytest.mark.parametrize(
    ("listing", "payload", "count", "reason"),
    [
        (False, {}, 5, "the payload must have the fields covers, searches"),
        (False, {"covers": -1, "searches": 0}, 5, "covers must be a whole number from 0"),
        (
            True,
            {"covers": 1, "searches": 1, "solutions": []},
            1,
            "solutions must hold 1 items, not 0",
        ),
        (
            True,
            {"covers": 1, "searches": 1},
            0,
            "the payload must have the fields covers, searches, solutions",
        ),
        (
            True,
            {"covers": 1, "searches": 1, "solutions": [[0] * 24]},
            1,
            "solutions[0][6] must be a whole number from 1 to 3",
        ),
        (
            True,
            {"covers": 1, "searches": 1, "solutions": [[99] + [1] * 23]},
            1,
            "solutions[0][0] must be a whole number from 0 to 28",
        ),
    ],
)
def test_a_forged_payload_is_refused_for_what_it_holds(tmp_path, listing, payload, count, reason):
    toy = problem("knuth-toy.dots", 3)
    journal = tmp_path / "toy3.journal"
    drive(solve_split(toy, listing=listing, journal=str(journal)))
    lines = journal.read_text().splitlines()
    record = json.loads(lines[1])
    fingerprint = json.loads(lines[0])["fingerprint"]
    lines[1] = forged(fingerprint, record["key"], count, record["nodes"], payload)
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError) as refused:
        drive(solve_split(toy, listing=listing, journal=str(journal)))
    assert str(refused.value) == (
        f"{journal}:2: damaged journal record ({reason}); delete this line to search its "
        "subproblem again"
    )

"""Exact cover in subproblems: the branches partition the solutions, whatever the budgets."""

from __future__ import annotations

import pickle
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.exactcover import split
from slidelab.exactcover.problem import Problem
from slidelab.exactcover.reference import reference_solutions
from slidelab.exactcover.split import Branch, ExactCoverJob, search_split
from slidelab.parallel import run
from slidelab.runs import drive
from tests.exactcover.problems import SOMA, queens, soma
from tests.exactcover.test_reference_agreement import problems


@pytest.fixture
def tiny_budgets(monkeypatch):
    """Budgets so small that even tiny problems are split, probed and split again."""
    monkeypatch.setattr(run, "ROOT_NODES", 1)
    monkeypatch.setattr(run, "PROBE_NODES", 2)
    monkeypatch.setattr(run, "GROWTH", 1)
    monkeypatch.setattr(run, "ROOT_GROWTH", 1)


def all_solutions(problem) -> set[tuple[int, ...]]:
    outcome = drive(search_split(problem, listing=True))
    assert outcome.count == len(outcome.solutions)
    found = [tuple(sorted(s)) for s in outcome.solutions]
    assert len(found) == len(set(found))  # no solution in two branches
    return set(found)


FANOUTS = st.sampled_from([2, 3, split.FANOUT])
"""Fan-outs of the split: small ones cut the items of random problems (nine options at most)
into windows, or leave the rest of them to one child."""


@settings(max_examples=400, deadline=None)
@given(st.booleans().flatmap(lambda m: problems(multiplicities=m)), st.integers(0, 3), FANOUTS)
def test_children_partition_the_solutions(problem, depth, fanout):
    job = ExactCoverJob(problem, listing=True)
    branches = [job.root()]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(split, "FANOUT", fanout)
        for _ in range(depth):
            branches = [kid for b in branches for kid in split_once(job, b) or [b]]  # leaves stay
    found = []
    for branch in branches:
        result = drive(job.explore(branch, None))
        found += [tuple(sorted(s)) for s in result.payload["solutions"]]
    assert len(found) == len(set(found))
    assert set(found) == reference_solutions(problem)


def split_once(job: ExactCoverJob, branch: Branch) -> list[Branch]:
    """`branch`'s children, each checked to hold one option and one cut more at most, and at
    most `FANOUT` + 1 of them."""
    kids = job.children(branch)
    assert len(kids) <= split.FANOUT + 1
    assert all(size(kid) <= size(branch) + 2 for kid in kids)
    return kids


def size(branch: Branch) -> int:
    return len(branch.forced) + len(branch.floors) + len(branch.windows)


@settings(max_examples=200, deadline=None)
@given(problems(multiplicities=True), FANOUTS)
def test_split_search_agrees_with_the_reference_with_multiplicities(problem, fanout):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(split, "FANOUT", fanout)
        patch.setattr(run, "ROOT_NODES", 1)
        patch.setattr(run, "PROBE_NODES", 1)
        patch.setattr(run, "GROWTH", 1)
        patch.setattr(run, "ROOT_GROWTH", 1)
        assert all_solutions(problem) == reference_solutions(problem)


def test_queens_and_soma_counts_survive_splitting(tiny_budgets):
    outcome = drive(search_split(queens(8)))
    assert outcome.count == 92 and outcome.subproblems > 8
    assert drive(search_split(soma())).count == SOMA


def test_two_processes_give_the_same_solutions(monkeypatch):
    monkeypatch.setattr(split, "FIRST_LOOK", 0)
    monkeypatch.setattr(split, "ALONE_SECONDS", -1)  # split even the smallest search
    monkeypatch.setattr(run, "ROOT_NODES", 50)
    monkeypatch.setattr(run, "PROBE_NODES", 20)
    problem = queens(7)
    here = drive(search_split(problem, listing=True))
    there = drive(search_split(problem, listing=True, jobs=2))
    assert there.count == here.count == 40
    assert there.solutions == here.solutions  # merged by subproblem key: the same order
    assert there.subproblems == here.subproblems > 1


def test_a_small_search_on_two_processes_runs_here_alone():
    """Soma's 245,000 nodes take a twentieth of a second: splitting them costs more."""
    outcome = drive(search_split(soma(), jobs=2))
    assert (outcome.count, outcome.subproblems) == (SOMA, 1)
    listed = drive(search_split(queens(6), listing=True, jobs=2))
    assert listed.solutions == drive(search_split(queens(6), listing=True)).solutions


def test_a_root_found_big_alone_is_split_without_a_second_probe():
    job = ExactCoverJob(queens(6), listing=False, big_root=True)
    assert drive(job.explore(job.root(), run.ROOT_NODES, run.ROOT_GROWTH)) is None
    whole = drive(job.explore(job.root(), None))
    assert whole is not None and whole.count == 4


def many_options(d: int, bounds: tuple[int, int] = (1, 1)) -> Problem:
    """Item A (with `bounds`) in `d` options of its own, and B in one: a hostile tester's
    'A B', d lines 'A' and a line 'B'.  With d = 200,000 the split search once ran for
    minutes, and out of memory, where `--jobs 1` counts it in 2 s."""
    return Problem(("A", "B"), ((("A", None),),) * d + ((("B", None),),), (), (bounds, (1, 1)))


@pytest.mark.parametrize("bounds", [(1, 1), (0, 1), (1, 2), (0, 3)])
def test_the_children_of_an_item_of_many_options_take_less_room_than_its_options(bounds):
    """Child k of an item of d options excluded its k - 1 first ones one by one: d²/2 numbers
    (40 MB pickled for d = 5000)."""
    job = ExactCoverJob(many_options(5000, bounds), listing=False)
    (forcing_b,) = job.children(job.root())  # B, the item of fewest options, first
    assert len(pickle.dumps(job.children(forcing_b))) < 8 * 5000  # in all
    assert len(split_once(job, forcing_b)) >= split.FANOUT


@pytest.mark.parametrize("bounds", [(1, 1), (0, 1), (1, 2), (0, 3)])
def test_the_children_of_an_item_of_many_options_count_its_solutions(bounds):
    low, high = bounds
    job = ExactCoverJob(many_options(200, bounds), listing=False)
    (forcing_b,) = job.children(job.root())
    counts = [drive(job.explore(kid, None)).count for kid in job.children(forcing_b)]
    assert sum(counts) == sum(comb(200, k) for k in range(low, high + 1))


def test_an_item_of_200000_options_is_counted_by_the_split_search_in_seconds(monkeypatch):
    monkeypatch.setattr(split, "FIRST_LOOK", 0)
    monkeypatch.setattr(split, "ALONE_SECONDS", -1)  # split, however soon it would end alone
    outcome = drive(search_split(many_options(200_000), jobs=2))
    assert outcome.count == 200_000 and outcome.subproblems >= split.FANOUT  # A's windows
    assert outcome.seconds < 30  # was minutes, then out of memory

"""Exact cover in subproblems: the branches partition the solutions, whatever the budgets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.exactcover import split
from slidelab.exactcover.reference import reference_solutions
from slidelab.exactcover.split import ExactCoverJob, restrict, search_split
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


@settings(max_examples=300, deadline=None)
@given(problems(multiplicities=False), st.integers(0, 2))
def test_children_partition_the_solutions(problem, depth):
    job = ExactCoverJob(problem, listing=True)
    branches = [job.root()]
    for _ in range(depth):
        branches = [
            c for b in branches if restrict(problem, b).problem is not None for c in job.children(b)
        ] + [b for b in branches if restrict(problem, b).problem is None]
    found = []
    for branch in branches:
        result = drive(job.explore(branch, None))
        found += [tuple(sorted(s)) for s in result.payload["solutions"]]
    assert len(found) == len(set(found))
    assert set(found) == reference_solutions(problem)


@settings(max_examples=200, deadline=None)
@given(problems(multiplicities=True))
def test_split_search_agrees_with_the_reference_with_multiplicities(problem):
    with pytest.MonkeyPatch.context() as patch:
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

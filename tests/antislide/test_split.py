"""The antislide search in subproblems finds the very packings of the whole search, in order."""

from __future__ import annotations

import pytest

from slidelab.antislide.model import Box
from slidelab.antislide.search import solve
from slidelab.antislide.split import solve_split
from slidelab.parallel import run
from slidelab.runs import drive


@pytest.fixture
def tiny_budgets(monkeypatch):
    monkeypatch.setattr(run, "ROOT_NODES", 40)
    monkeypatch.setattr(run, "PROBE_NODES", 25)


@pytest.mark.parametrize(
    ("dims", "brick", "low", "high"),
    [
        ((3, 3, 4), (2, 2, 1), 0, None),
        ((4, 4, 4), (2, 2, 1), 0, None),
        ((4, 4, 4), (2, 2, 1), 13, 15),
        ((2, 3, 6), (1, 2, 3), 0, None),
        ((4, 3, 4), (2, 2, 1), 0, None),
    ],
)
def test_subproblems_find_the_same_packings(tiny_budgets, dims, brick, low, high):
    whole = drive(solve(Box(dims), brick, min_blocks=low, max_blocks=high, keep=True))
    split = drive(solve_split(Box(dims), brick, min_blocks=low, max_blocks=high, keep=True))
    assert split.result.by_blocks == whole.by_blocks
    assert split.result.packings == whole.packings
    assert split.subproblems > 1 or whole.nodes < 1024  # the first chunk ends small searches


def test_two_processes_count_4x4x5(tiny_budgets):
    split = drive(solve_split(Box((4, 4, 5)), jobs=2))
    assert split.result.solutions == 47403 and split.subproblems > 2


def test_workers_fork_when_alone_and_spawn_beside_threads_with_the_same_count(
    tiny_budgets, monkeypatch
):
    """The command line's forked workers run in tests/parallel/test_kill.py (a subprocess);
    here the choice, and a real run on spawned workers."""
    monkeypatch.setattr(run.threading, "active_count", lambda: 1)
    assert run._start_method() == "fork"
    monkeypatch.setattr(run.threading, "active_count", lambda: 2)
    assert run._start_method() == "spawn"
    split = drive(solve_split(Box((4, 4, 5)), jobs=2))
    assert split.result.solutions == 47403 and split.subproblems > 2

"""Journals: a stopped run resumes where it was, and a journal of another problem is refused."""

from __future__ import annotations

import pytest

from slidelab.exactcover.split import search_split
from slidelab.parallel import run
from slidelab.parallel.journal import Journal, JournalError
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import drive
from tests.exactcover.problems import queens


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch):
    monkeypatch.setattr(run, "ROOT_NODES", 1)
    monkeypatch.setattr(run, "PROBE_NODES", 2)
    monkeypatch.setattr(run, "GROWTH", 1)
    monkeypatch.setattr(run, "ROOT_GROWTH", 1)


def lines(path) -> int:
    return len(path.read_text().splitlines())


def test_a_stopped_run_resumes_from_its_journal(tmp_path):
    journal = tmp_path / "queens9.journal"
    search = search_split(queens(9), journal=str(journal))
    while not journal.exists() or lines(journal) < 6:
        next(search)
    search.close()  # as if the run were cancelled half way
    recorded = lines(journal) - 1
    outcome = drive(search_split(queens(9), journal=str(journal)))
    assert outcome.count == 352
    assert outcome.resumed == recorded >= 5
    assert lines(journal) - 1 == outcome.subproblems  # every subproblem recorded once
    again = drive(search_split(queens(9), journal=str(journal)))
    assert (again.count, again.resumed, again.nodes) == (352, outcome.subproblems, outcome.nodes)


def test_a_journal_of_another_problem_is_refused(tmp_path):
    journal = tmp_path / "run.journal"
    drive(search_split(queens(6), journal=str(journal), what="six queens"))
    with pytest.raises(JournalError) as caught:
        drive(search_split(queens(7), journal=str(journal)))
    assert str(caught.value) == (
        f"{journal}: this journal belongs to another problem (six queens); give another file, "
        "or delete this one to start afresh"
    )


def test_a_line_cut_short_by_a_crash_is_dropped(tmp_path):
    path = tmp_path / "j"
    first = Journal(path, "abc", "test")
    first.record(TaskResult((0,), 3, 10, {}))
    first.close()
    with open(path, "a") as stream:
        stream.write('{"key":[1],"cou')
    second = Journal(path, "abc", "test")
    assert list(second.done) == [(0,)]
    second.record(TaskResult((1,), 4, 5, {}))
    second.close()
    assert set(Journal(path, "abc", "test").done) == {(0,), (1,)}


def test_damage_inside_a_journal_is_reported_with_its_line(tmp_path):
    path = tmp_path / "j"
    Journal(path, "abc", "test").close()
    with open(path, "a") as stream:
        stream.write("nonsense\n")
    with pytest.raises(JournalError, match=r"j:2: damaged journal line$"):
        Journal(path, "abc", "test")
    path.write_text("hello\n")
    with pytest.raises(JournalError, match=r"j:1: not a slidelab journal$"):
        Journal(path, "abc", "test")

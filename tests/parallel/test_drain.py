"""How a split run hands subproblems to a Dask cluster (`run._drain`), and how local workers
are waited on."""

from __future__ import annotations

from dataclasses import dataclass
from time import perf_counter
from types import SimpleNamespace

from slidelab.exactcover.split import search_split
from slidelab.parallel import run
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress, drive
from tests.exactcover.problems import queens


@dataclass(frozen=True)
class Key:
    key: tuple[int, ...]


def task(*key: int) -> run._Task:
    return run._Task(Key(key), None)


def test_every_task_is_handed_out_at_once_and_follow_ups_as_they_come(monkeypatch):
    monkeypatch.setattr(run, "POLL_SECONDS", 0)
    started: list[tuple[int, ...]] = []

    def submit(job: run._Task) -> run._Task:
        started.append(job.branch.key)
        return job

    def outcome(job: run._Task, result: TaskResult | None) -> list[run._Task]:
        return [task(0, 0), task(0, 1)] if job.branch.key == (0,) else []

    drain = run._drain(
        submit,
        lambda handle: len(started) >= 3,
        lambda handle: None,
        [task(0), task(1), task(2)],
        outcome,
        lambda: Progress(phase="test", explored=0, elapsed=0.0),
    )
    drive(drain)
    assert started == [(0,), (1,), (2,), (0, 0), (0, 1)]


def test_spawned_workers_are_waited_on_not_polled_on_a_clock(monkeypatch, tmp_path):
    """Beside other threads the workers are spawned; the first process waits for their
    results with `select`, and never sleeps a poll."""

    def no_sleep(seconds: float) -> None:
        raise AssertionError(f"slept {seconds} s between polls")

    monkeypatch.setattr(run.threading, "active_count", lambda: 2)
    monkeypatch.setattr(run, "time", SimpleNamespace(sleep=no_sleep, perf_counter=perf_counter))
    monkeypatch.setattr(run, "ROOT_NODES", 20)
    monkeypatch.setattr(run, "PROBE_NODES", 10)
    journal = str(tmp_path / "queens.journal")  # split even so small a search
    outcome = drive(search_split(queens(8), listing=False, jobs=2, journal=journal))
    assert outcome.count == 92 and outcome.subproblems > 8

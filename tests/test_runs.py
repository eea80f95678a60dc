"""The solver contract: `drive` and `relay` hand progress and results out and stop runs."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

import pytest

from slidelab.runs import CHUNK_GROWTH, Found, Progress, RunStopped, drive, next_budget, relay


@dataclass(frozen=True)
class Numbers(Found):
    """A family's batch of results, for these tests."""

    numbers: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.numbers)


class Counter:
    """A solver that yields `steps` progress events, each after a batch of two numbers, and
    returns how many numbers it found; it records whether it was closed before its end."""

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.closed_early = False

    def run(self) -> Generator[Progress | Numbers, None, int]:
        found = 0
        try:
            for step in range(self.steps):
                yield Numbers((2 * step, 2 * step + 1))
                found += 2
                yield Progress("counting", explored=step + 1, elapsed=0.0, found=found)
        except GeneratorExit:
            self.closed_early = True
            raise
        return found


def test_found_batches_say_how_many_results_they_hold():
    assert len(Numbers((4, 5, 6))) == 3
    with pytest.raises(TypeError):
        Found()  # type: ignore[abstract]


def test_drive_hands_out_progress_and_batches_and_returns_the_result():
    progress: list[Progress] = []
    batches: list[Numbers] = []
    assert drive(Counter(3).run(), progress.append, batches.append) == 6
    assert [event.explored for event in progress] == [1, 2, 3]
    assert [batch.numbers for batch in batches] == [(0, 1), (2, 3), (4, 5)]


def test_drive_stops_and_closes_the_solver_when_asked():
    counter = Counter(10)
    progress: list[Progress] = []
    with pytest.raises(RunStopped):
        drive(counter.run(), progress.append, should_stop=lambda: len(progress) == 2)
    assert len(progress) == 2
    assert counter.closed_early


def test_relay_passes_progress_on_and_keeps_the_batches():
    batches: list[Numbers] = []

    def outer() -> Generator[Progress, None, int]:
        return (yield from relay(Counter(2).run(), batches.append))

    progress: list[Progress] = []
    assert drive(outer(), progress.append) == 4
    assert [event.found for event in progress] == [2, 4]
    assert len(batches) == 2


def test_relay_reports_progress_as_asked_and_may_stop_the_run():
    counter = Counter(10)

    def doubled(event: Progress) -> Progress:
        if event.explored > 3:
            raise RunStopped
        return Progress("twice", explored=2 * event.explored, elapsed=event.elapsed)

    events = relay(counter.run(), report=doubled)
    assert [next(events).explored for _ in range(3)] == [2, 4, 6]
    with pytest.raises(RunStopped):
        next(events)
    assert counter.closed_early


def test_closing_a_relay_closes_its_solver():
    counter = Counter(10)
    events = relay(counter.run())
    next(events)
    events.close()
    assert counter.closed_early


def test_a_kernel_calls_budget_follows_the_last_calls_pace():
    assert next_budget(1000, 0.1, 0.05, 16, 1 << 30) == 500
    assert next_budget(1000, 0.025, 0.05, 16, 1 << 30) == 2000


def test_a_kernel_calls_budget_grows_at_most_chunk_growth_times():
    """A first call that took next to nothing must not make the next a full chunk: a probe
    given a node budget can only stop between calls."""
    assert next_budget(1024, 1e-6, 0.05, 64, 1 << 30) == CHUNK_GROWTH * 1024
    assert next_budget(1024, 1e-6, 0.05, 64, 1 << 30, growth=4) == 4096


def test_a_kernel_calls_budget_stays_within_its_bounds_the_upper_one_first():
    assert next_budget(100, 10.0, 0.05, 64, 1 << 30) == 64
    assert next_budget(1 << 29, 0.01, 0.05, 64, 1 << 30) == 1 << 30
    assert next_budget(10, 1.0, 0.05, 16, 5) == 5

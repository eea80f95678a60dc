"""The contract every solver follows, and the one way to drive a solver.

A solver is a generator that yields `Progress` between bounded pieces of work,
and a `Found` batch whenever it has results to hand out as it goes (each family
subclasses `Found` for its solutions, packings or dissections); it returns its
result.  Closing the generator stops the run.

`drive` runs a solver to its end with callbacks for progress and results and a
stop check (the CLI, the GUI worker, the tests); `relay` does the same inside
another solver, which passes the progress on and keeps the results, and
`translate` inside one that passes changed results on as well.  A run
stopped early closes its solver and raises `RunStopped`.  No other code iterates
a solver by hand.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, TypeVar

ResultT = TypeVar("ResultT")
FoundT = TypeVar("FoundT", bound="Found")
PassedT = TypeVar("PassedT", bound="Found")


@dataclass(frozen=True)
class Progress:
    """A snapshot of a running search."""

    phase: str
    """What the solver is doing, in a few words ("breadth-first search")."""
    explored: int
    """Configurations, nodes or placements examined so far."""
    elapsed: float
    """Seconds since the run started."""
    depth: int = 0
    """Distance or depth reached (meaning depends on the family)."""
    found: int = 0
    """Solutions found so far."""
    fraction: float | None = None
    """Estimated fraction of the work done, when the solver can tell."""


@dataclass
class Pacer:
    """Paces a phase's progress events: one at most every `seconds`."""

    phase: str
    started: float
    """When the run began (events count their time from there)."""
    seconds: float = 0.05
    last: float = field(default_factory=time.perf_counter)

    def due(self, explored: int, fraction: float | None = None) -> Progress | None:
        """An event when the last one is `seconds` old, else None."""
        now = time.perf_counter()
        if now - self.last <= self.seconds:
            return None
        self.last = now
        return Progress(self.phase, explored, now - self.started, fraction=fraction)


CHUNK_GROWTH = 2
"""Most a kernel call's work budget grows over the last call's.  A first call's pace is mostly
the call's own cost, a poor guide, and a search given a node budget (a split search's probe)
can only stop between calls, so it may run up to this many times its budget: grown to a full
chunk at once, the dissection's root probe of 100,000 tuples ran 2.3 times as many, in a
run's serial part.  Doubling reaches a 50 ms chunk from a 0.1 ms one in nine calls."""


def next_budget(
    budget: int, took: float, seconds: float, low: int, high: int, growth: int = CHUNK_GROWTH
) -> int:
    """The work for a solver's next kernel call: what the last call's pace (`budget` units in
    `took` seconds) does in `seconds`, at most `growth` times `budget`, at least `low` and at
    most `high`."""
    paced = budget * seconds / max(took, 1e-4)
    return int(min(max(min(paced, growth * budget), low), high))


class Found(ABC):
    """A batch of results a solver hands out before it ends (solutions, packings...)."""

    @abstractmethod
    def __len__(self) -> int:
        """How many results the batch holds, so generic code can count them."""


Event = Progress | Found
Solver = Generator[Event, None, ResultT]


class RunStopped(Exception):
    """A run was stopped before its end because a stop check asked for it."""


def relay(
    solver: Generator[Progress | FoundT, None, ResultT],
    on_found: Callable[[FoundT], None] | None = None,
    report: Callable[[Progress], Progress] | None = None,
) -> Generator[Progress, None, ResultT]:
    """Pass `solver`'s progress on, hand its batches of results to `on_found`, and return its
    result.  `report` turns each progress event into the one passed on (running totals, say),
    or raises `RunStopped` to stop the run; the solver is closed however this ends."""

    def keep(batch: FoundT) -> None:
        if on_found is not None:
            on_found(batch)

    return (yield from translate(solver, keep, report))


def translate(
    solver: Generator[Progress | FoundT, None, ResultT],
    change: Callable[[FoundT], PassedT | None],
    report: Callable[[Progress], Progress] | None = None,
) -> Generator[Progress | PassedT, None, ResultT]:
    """`relay` that passes results on too: each batch as `change(batch)` (renumbered for an
    enclosing problem, or only the new ones; None passes nothing on), each progress event as
    `report` makes it.  The solver is closed however this ends."""
    try:
        while True:
            try:
                event = next(solver)
            except StopIteration as end:
                result: ResultT = end.value
                return result
            if isinstance(event, Found):
                try:
                    passed = change(event)
                except BaseException as error:
                    _throw_back(solver, error)
                    raise
                if passed is not None:
                    yield passed
            else:
                yield event if report is None else report(event)
    finally:
        solver.close()


def _throw_back(solver: Generator[Any, None, Any], error: BaseException) -> None:
    """Raise `error` in `solver` at the yield that handed out the batch whose handling raised
    it: a batch not taken (Ctrl-C while it was shown) is then told apart from one taken
    before the run was closed, so a solver that saves its state can keep it.  An error of
    the solver's own on its way out (a save that failed) is raised instead."""
    try:
        solver.throw(error)
    except BaseException as raised:
        if raised is not error:
            raise


def drive(
    solver: Generator[Progress | FoundT, None, ResultT],
    on_progress: Callable[[Progress], None] | None = None,
    on_found: Callable[[FoundT], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> ResultT:
    """Run `solver` to its end and return its result, reporting progress and results as they
    come; raise `RunStopped` (the solver closed) once `should_stop()` is true after a progress
    event."""

    def report(event: Progress) -> Progress:
        if on_progress is not None:
            on_progress(event)
        if should_stop is not None and should_stop():
            raise RunStopped
        return event

    progress = relay(solver, on_found, report)
    while True:
        try:
            next(progress)
        except StopIteration as end:
            result: ResultT = end.value
            return result

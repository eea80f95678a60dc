"""The contract every solver follows: a generator of progress events.

A solver is a generator that yields `Progress` between bounded pieces of work
and returns its result.  The CLI, the GUI worker and the tests all drive solvers
through `run_to_end`, or iterate them themselves to show progress and to stop
early (closing the generator is how a run is cancelled).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TypeVar

ResultT = TypeVar("ResultT")


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


Solver = Generator[Progress, None, ResultT]


def run_to_end(
    solver: Solver[ResultT], on_progress: Callable[[Progress], None] | None = None
) -> ResultT:
    """Drive `solver` to completion and return its result, reporting progress if asked."""
    while True:
        try:
            event = next(solver)
        except StopIteration as stop:
            return stop.value
        if on_progress is not None:
            on_progress(event)

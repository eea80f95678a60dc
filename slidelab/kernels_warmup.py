"""Compiling every family's numba kernels ahead of the first search, as a queue of steps.

Each family lists its warm-up as a few steps (`Family.warm_up`), each compiling (or loading
from numba's cache) some of its kernels on tiny inputs.  `WarmUpQueue` runs them one at a
time and counts them, so the app can show a real fraction done; a tab that asks for its
solvers moves its families' steps to the front (`prioritise`).  `python -m
slidelab.kernels_warmup` runs the whole queue with a console progress line; `scripts/run`
calls it after installing so that the first launch finds the kernels compiled.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from slidelab import native, registry
from slidelab.family import Family
from slidelab.runs import Progress

COLD_PHASE = "compiling solvers for this machine (first run only)"
"""What the app says while kernels compile because numba's cache has none of them."""
WARM_PHASE = "loading solvers"
"""What it says while kernels load from numba's cache."""


@dataclass(frozen=True)
class WarmUpStep:
    """One step of a family's warm-up."""

    family: str
    """The registry name of the family whose kernels the step compiles."""
    run: Callable[[], None]
    """Compile (or load) the step's kernels."""


def warm_up_steps(families: Iterable[Family] = registry.FAMILIES) -> list[WarmUpStep]:
    """Every step of every family's warm-up, in registry order."""
    return [WarmUpStep(family.name, step) for family in families for step in family.warm_up]


def kernel_families(name: str) -> tuple[str, ...]:
    """The families whose kernels a run of family `name` calls: its own and those it uses."""
    family = registry.family_named(name)
    return (family.name, *family.kernels_from)


def cache_is_warm(families: Iterable[Family] = registry.FAMILIES) -> bool:
    """Whether numba's cache holds compiled kernels of every family that has a warm-up.

    numba keeps a `kernels.*.nbi` index per kernel, beside the module in `__pycache__`, or,
    when `NUMBA_CACHE_DIR` is set, in a folder of that directory named after the package.
    """
    root = os.environ.get("NUMBA_CACHE_DIR")
    package = Path(__file__).parent
    for family in families:
        if not family.warm_up:
            continue
        if root:
            indexes = Path(root).glob(f"{family.name}_*/kernels.*.nbi")
        else:
            indexes = (package / family.name / "__pycache__").glob("kernels.*.nbi")
        if next(iter(indexes), None) is None:
            return False
    return True


class WarmUpQueue:
    """The warm-up steps still to run, safe to reorder from another thread while it runs."""

    def __init__(self, steps: Sequence[WarmUpStep], phase: str = COLD_PHASE) -> None:
        self.phase = phase
        """What the warm-up is doing, shown with its fraction."""
        self.total = len(steps)
        self.done = 0
        self._pending: deque[WarmUpStep] = deque(steps)
        self._current: WarmUpStep | None = None
        self._lock = threading.Lock()

    @classmethod
    def for_this_machine(cls) -> WarmUpQueue:
        """Every registered family's steps, phrased by whether numba's cache has them."""
        return cls(warm_up_steps(), COLD_PHASE if not cache_is_warm() else WARM_PHASE)

    @property
    def finished(self) -> bool:
        """Whether every step has run."""
        return self.done == self.total

    def order(self) -> list[str]:
        """The families of the steps still to run, in the order they will run."""
        with self._lock:
            return [step.family for step in self._pending]

    def waiting(self, families: Iterable[str]) -> bool:
        """Whether a step of one of `families` is still to run or running."""
        wanted = set(families)
        with self._lock:
            running = [self._current] if self._current is not None else []
            return any(step.family in wanted for step in [*running, *self._pending])

    def prioritise(self, families: Iterable[str]) -> None:
        """Run the steps of `families` next (in their current order), the others after."""
        wanted = set(families)
        with self._lock:
            first = [step for step in self._pending if step.family in wanted]
            rest = [step for step in self._pending if step.family not in wanted]
            self._pending = deque(first + rest)

    def _take(self) -> WarmUpStep | None:
        with self._lock:
            self._current = self._pending.popleft() if self._pending else None
            return self._current

    def _progress(self) -> Progress:
        return Progress(
            phase=f"{self.phase}: {self.done}/{self.total}",
            explored=self.done,
            elapsed=0.0,
            fraction=self.done / self.total if self.total else 1.0,
        )

    def compiling(self) -> Generator[Progress, None, int]:
        """A solver-shaped job running the steps one by one; yields the fraction done before
        each step and at the end, and returns how many steps ran."""
        while (step := self._take()) is not None:
            yield self._progress()
            step.run()
            with self._lock:
                self.done += 1
                self._current = None
        yield self._progress()
        return self.done


def native_modules(families: Iterable[Family] = registry.FAMILIES) -> list[str]:
    """The kernels modules that `slidelab.native_build` compiles ahead of time."""
    return [family.kernels for family in families if family.kernels]


def build_native(modules: Sequence[str]) -> list[str]:
    """Compile `modules` ahead of time (their kernels must have run) with a console progress
    line; returns what stopped a build, one line per module that failed."""
    from slidelab.native_build import NativeBuildError, build

    failures = []
    for done, module in enumerate(modules):
        print(f"\rbuilding native solvers: {done}/{len(modules)} …", end="", flush=True)
        try:
            build(module)
        except NativeBuildError as error:
            failures.append(str(error).splitlines()[0])
    if modules:
        print(f"\rbuilding native solvers: {len(modules)}/{len(modules)} …", flush=True)
    return failures


def main() -> int:
    """Run the whole warm-up with a console progress line (`compiling solvers: 3/11 …`), then
    build the native solvers from what it compiled; a build that fails leaves numba's kernels
    in use, and says so."""
    with native.switched_off():
        queue = WarmUpQueue(warm_up_steps())
        for event in queue.compiling():
            end = "\n" if queue.finished else ""
            print(f"\rcompiling solvers: {event.explored}/{queue.total} …", end=end, flush=True)
        failures = build_native(native_modules())
    for failure in failures:
        print(f"{failure}; numba's kernels will run instead (slower to start)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The benchmarks' one way of timing: the median of several runs, on a clock of one's choice."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def median_seconds(
    work: Callable[[], T], runs: int, clock: Callable[[], float] = time.process_time
) -> tuple[float, T]:
    """Median seconds of `runs` calls of `work` (CPU time unless another clock is given), and
    the value the last call returned."""
    times = []
    for _ in range(runs):
        started = clock()
        value = work()
        times.append(clock() - started)
    return statistics.median(times), value

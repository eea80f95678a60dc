"""A timer that beats every 10 ms and records the gaps between beats: the event loop's stalls.

Each gap is kept twice: as wall-clock time, and as the CPU time the main thread spent
in it.  On a quiet machine the two agree; on a shared, loaded one the wall-clock gaps
also hold the time the thread waited for a core, while the CPU gaps still show how
long the window's own work kept it from repainting.
"""

from __future__ import annotations

import time
from types import TracebackType

from PySide6.QtCore import QTimer

INTERVAL_MS = 10


class Heartbeat:
    """Use as a context manager around the work to watch; `longest` is the longest gap seen
    (seconds), a stall of the event loop when it is well above the 10 ms interval."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.busy: list[float] = []
        self._last = 0.0
        self._last_cpu = 0.0
        self._timer = QTimer()
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self._beat)

    def __enter__(self) -> Heartbeat:
        self._last = time.perf_counter()
        self._last_cpu = time.thread_time()
        self._timer.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._timer.stop()

    def _beat(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self.gaps.append(now - self._last)
        self.busy.append(cpu - self._last_cpu)
        self._last, self._last_cpu = now, cpu

    @property
    def longest(self) -> float:
        """The longest wall-clock gap (seconds)."""
        return max(self.gaps, default=0.0)

    @property
    def longest_busy(self) -> float:
        """The most CPU time the main thread spent between two beats (seconds)."""
        return max(self.busy, default=0.0)

    def summary(self) -> str:
        return (
            f"longest gap {self.longest * 1000:.0f} ms (busy {self.longest_busy * 1000:.0f} ms) "
            f"over {len(self.gaps)} beats"
        )

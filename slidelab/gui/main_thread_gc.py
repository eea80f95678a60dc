"""Python's cyclic garbage collection run on the main thread only, on a timer.

CPython collects cycles in whichever thread happens to allocate when a threshold is
passed.  When that is the solver thread and the garbage holds Qt objects (the
wrappers of closed widgets), their C++ destructors run there: one takes a Qt lock
and then waits for the GIL, while the main thread holds the GIL and waits for that
lock to delete other objects, and the program hangs for good.  So automatic
collection is switched off and the main thread collects instead, every
`INTERVAL_MS`, the generations whose thresholds the allocation counts passed, which
is what the automatic collector would have done.  Between two looks the young
generation grows unchecked (a stream of results makes many objects), so the looks are
frequent; and the objects that live as long as the window are set aside (`set_aside`),
so that a full collection walks only what was made since.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 100
"""How often the main thread looks at the allocation counts (at 500 ms, a stream of results
left 30 ms of young objects to walk in one pass)."""


class MainThreadCollector(QObject):
    """Collects garbage on the thread it lives in (the main thread), never elsewhere."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect_due)

    def start(self) -> None:
        """Switch automatic collection off and start collecting on the timer."""
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        """Stop the timer and give collection back to the interpreter."""
        self._timer.stop()
        gc.enable()

    @staticmethod
    def collect_due() -> int:
        """Collect the oldest generation whose count passed its threshold (younger ones with
        it); returns that generation, or -1 when none was due."""
        counts = gc.get_count()
        thresholds = gc.get_threshold()
        due = [g for g in range(3) if thresholds[g] and counts[g] > thresholds[g]]
        if not due:
            return -1
        generation = max(due)
        gc.collect(generation)
        return generation


def set_aside() -> None:
    """Collect everything now, then leave what survives (the modules, the window) out of
    later collections (`gc.freeze`): a full collection then walks only the newer objects,
    not the whole program (`bring_back` undoes it)."""
    gc.collect()
    gc.freeze()


def bring_back() -> None:
    """Put the objects `set_aside` left out back under collection."""
    gc.unfreeze()


def collect_in_main_thread(parent: QObject) -> MainThreadCollector:
    """Start main-thread collection for as long as `parent` (the application) lives."""
    collector = MainThreadCollector(parent)
    collector.start()
    return collector

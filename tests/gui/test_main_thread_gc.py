"""Garbage is collected on the main thread, never on a solver thread (see main_thread_gc)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Generator

from PySide6.QtCore import QObject

from slidelab.gui.main_thread_gc import MainThreadCollector
from slidelab.gui.worker import SolverRunner
from slidelab.runs import Progress


class _Cycle:
    """Garbage in a reference cycle, holding a Qt object; it notes which thread deleted it."""

    def __init__(self, deleted_on: list[str]) -> None:
        self.me = self
        self.qt_object = QObject()
        self.deleted_on = deleted_on

    def __del__(self) -> None:
        self.deleted_on.append(threading.current_thread().name)


def _allocating() -> Generator[Progress, None, list[list[int]]]:
    """A solver making enough new container objects, kept in its result, to pass every
    collection threshold."""
    kept: list[list[int]] = []
    for _ in range(20):
        kept += [[i] for i in range(5_000)]
        yield Progress("allocating", len(kept), 0.0)
    return kept


def test_cyclic_garbage_left_while_a_solver_allocates_dies_on_the_main_thread(qtbot):
    assert not gc.isenabled()  # the session collects on the main thread, as the app does
    deleted_on: list[str] = []
    runner = SolverRunner()
    gc.collect()  # the allocation counts start at 0: the solver passes the thresholds first
    _Cycle(deleted_on)
    try:
        with qtbot.waitSignal(runner.finished, timeout=30_000) as finished:
            runner.start(_allocating)
        qtbot.waitUntil(lambda: bool(deleted_on), timeout=5_000)
        assert len(finished.args[0]) == 100_000  # alive until now: the counts stay passed
    finally:
        runner.shutdown()
    assert deleted_on == [threading.main_thread().name]


def test_a_collection_is_made_only_when_a_threshold_is_passed():
    collector = MainThreadCollector()
    try:
        collector.start()
        gc.collect()
        assert collector.collect_due() == -1
        deleted_on: list[str] = []
        _Cycle(deleted_on)
        junk = [[i] for i in range(2 * gc.get_threshold()[0])]
        assert collector.collect_due() >= 0
        assert deleted_on == [threading.main_thread().name]
        assert junk
    finally:
        collector.stop()
        gc.disable()  # the session's own collector keeps it off

"""Run solver generators on a worker thread and report back through main-thread signals.

The worker drives a solver (`slidelab.runs.drive`) with the cancel flag as its stop
check, so a cancelled run stops within one kernel chunk.  `Progress` events go to
`progress` and `Found` batches (results so far) to `found`, so results can stream
into a view.  A batch is sent only once the main thread has taken the one before,
so batches never pile up in its event queue (a pile of them would be handled in
one go, and the window would stop repainting meanwhile).  The `SolverRunner` lives
in the main thread and re-emits everything the worker sends, so widgets and tests
connect to an object that belongs to their thread.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from slidelab.errors import SlidelabError
from slidelab.runs import Found, Progress, RunStopped, Solver, drive

SolverFactory = Callable[[], Solver[Any]]
HAND_OVER_POLL = 0.02
"""Seconds between the worker's looks at the cancel flag while a batch waits to be sent."""


class _Worker(QObject):
    """Lives in the worker thread; runs one job at a time."""

    progress = Signal(object)
    found = Signal(object)
    finished = Signal(object)
    failed = Signal(str)
    stopped = Signal()

    def __init__(self, cancel: threading.Event, taken: threading.Event) -> None:
        super().__init__()
        self._cancel = cancel
        self._taken = taken

    @Slot(object)
    def run(self, make_solver: SolverFactory) -> None:
        try:
            result = drive(make_solver(), self.progress.emit, self._hand_over, self._cancel.is_set)
        except RunStopped:
            self.stopped.emit()
        except SlidelabError as error:
            self.failed.emit(str(error))
        except Exception:  # a bug: report it instead of killing the thread
            self.failed.emit("internal error:\n" + traceback.format_exc())
        else:
            self.finished.emit(result)

    def _hand_over(self, batch: Found) -> None:
        """Send `batch` once the previous one was taken (or drop it once the run is cancelled)."""
        while not self._taken.wait(HAND_OVER_POLL):
            if self._cancel.is_set():
                return
        self._taken.clear()
        self.found.emit(batch)


class SolverRunner(QObject):
    """Starts solver runs on a background thread; one run at a time.

    Signals: `started()`, `progress(Progress)`, `found(Found)`, `finished(result)`,
    `failed(message)`, `stopped()` (after `cancel`), `busyChanged(bool)`; all emitted in
    the main thread.
    """

    started = Signal()
    progress = Signal(object)
    found = Signal(object)
    finished = Signal(object)
    failed = Signal(str)
    stopped = Signal()
    busyChanged = Signal(bool)
    _submit = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._taken = threading.Event()
        self._thread = QThread()
        self._thread.setObjectName("slidelab-solver")
        self._worker = _Worker(self._cancel, self._taken)
        self._worker.moveToThread(self._thread)
        self._submit.connect(self._worker.run)
        self._worker.progress.connect(self._on_progress)
        self._worker.found.connect(self._on_found)
        self._worker.finished.connect(self._on_finished)
        self._worker.failed.connect(self._on_failed)
        self._worker.stopped.connect(self._on_stopped)
        self._thread.start()
        self._busy = False
        self.started_at = 0.0

    @property
    def busy(self) -> bool:
        return self._busy

    def start(self, make_solver: SolverFactory) -> None:
        """Run the solver `make_solver()` returns; refuses while another run is going on."""
        if self._busy:
            raise RuntimeError("a run is already going on")
        self._cancel.clear()
        self._taken.set()
        self._set_busy(True)
        self.started_at = time.perf_counter()
        self.started.emit()
        self._submit.emit(make_solver)

    def cancel(self) -> None:
        """Ask the current run to stop at its next progress event (it then emits `stopped`)."""
        if self._busy:
            self._cancel.set()

    def shutdown(self) -> None:
        """Cancel any run and end the thread (call before the window closes)."""
        self.cancel()
        self._thread.quit()
        self._thread.wait()

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self.busyChanged.emit(busy)

    def _live(self) -> bool:
        """Whether events of the current run are still wanted (it runs and is not cancelled)."""
        return self._busy and not self._cancel.is_set()

    @Slot(object)
    def _on_progress(self, event: Progress) -> None:
        if self._live():
            self.progress.emit(event)

    @Slot(object)
    def _on_found(self, batch: Found) -> None:
        try:
            if self._live():
                self.found.emit(batch)
        finally:
            self._taken.set()  # the worker may send the next batch

    @Slot(object)
    def _on_finished(self, result: object) -> None:
        self._set_busy(False)
        self.finished.emit(result)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._set_busy(False)
        self.failed.emit(message)

    @Slot()
    def _on_stopped(self) -> None:
        self._set_busy(False)
        self.stopped.emit()

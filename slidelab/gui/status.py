"""A tab's status line: what its run is doing, how far it got, how fast, what it found, the
time left when the solver says how much is done, and a Cancel button.

Each tab has its own panel, so the figures of one tab's run never show on another tab.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from slidelab.runs import Progress
from slidelab.timeleft import TimeLeft, describe_time_left


class StatusPanel(QWidget):
    """Shows phase, depth, explored count, found so far, rate, elapsed time, time left and a
    progress bar (busy while the solver gives no fraction done)."""

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.phase = QLabel("ready")
        self.compiling = QLabel("")
        self.compiling.setVisible(False)
        self.details = QLabel("")
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(160)
        self.bar.setTextVisible(False)
        self.bar.setRange(0, 1)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancelRequested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.addWidget(self.phase)
        layout.addWidget(self.details, 1)
        layout.addWidget(self.compiling)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        self._started = 0.0
        self._reported_at = 0.0
        self._clock = QTimer(self)
        self._clock.setInterval(200)
        self._clock.timeout.connect(self._tick)
        self._last: Progress | None = None
        self._time_left = TimeLeft()

    def show_compiling(self, event: Progress) -> None:
        """The kernels' warm-up got to `event` (its phase says how many steps are done)."""
        self.compiling.setText(event.phase)
        self.compiling.setVisible(True)

    def compiling_first(self) -> None:
        """A run waits for its tab's kernels, which the warm-up compiles next."""
        self.phase.setText("compiling the solvers for this tab first…")

    def compiled(self) -> None:
        """Every kernel is compiled (or loaded): the warm-up's line goes."""
        self.compiling.setVisible(False)

    def ready(self, message: str = "ready") -> None:
        """Idle; `message` says how the last run ended."""
        if self._clock.isActive():
            self._last = None if self._last is None else _ended(self._last)
            self._tick()
        self._clock.stop()
        self.phase.setText(message)
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.cancel_button.setEnabled(False)

    def running(self, phase: str) -> None:
        """A run started: show `phase` and a busy bar until progress arrives."""
        self._started = time.perf_counter()
        self._last = None
        self._time_left = TimeLeft()
        self.phase.setText(phase)
        self.details.setText("")
        self.bar.setRange(0, 0)
        self.cancel_button.setEnabled(True)
        self._clock.start()

    def show_progress(self, event: Progress) -> None:
        """A progress report of this tab's run."""
        self._last = event
        self._reported_at = time.perf_counter()
        self._time_left.update(event.elapsed, event.fraction)
        self.phase.setText(event.phase)
        if event.fraction is not None:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(1000 * event.fraction))
        self._tick()

    def _tick(self) -> None:
        elapsed = time.perf_counter() - self._started
        event = self._last
        if event is None:
            self.details.setText(f"{elapsed:.1f} s")
            return
        rate = event.explored / event.elapsed if event.elapsed > 0 else 0.0
        parts = [f"depth {event.depth}"] if event.depth else []  # runs without depth say none
        parts.append(f"{event.explored:,} explored")
        if event.found:
            parts.append(f"{event.found:,} found")
        parts += [f"{rate:,.0f}/s", f"{elapsed:.1f} s"]
        left = self._time_left.seconds
        if event.fraction is not None and left is not None:
            parts.append(
                describe_time_left(max(0.0, left - (time.perf_counter() - self._reported_at)))
            )
        self.details.setText(" · ".join(parts))


def _ended(event: Progress) -> Progress:
    """The last report of a run that has ended: no time left, and no count found so far
    beside the message that gives the run's final count."""
    return Progress(event.phase, event.explored, event.elapsed, event.depth)

"""The status area: what a run is doing, how far it got, how fast, and a Cancel button."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from slidelab.runs import Progress


class StatusPanel(QWidget):
    """Shows phase, depth, explored count, rate, elapsed time and a busy bar."""

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
        self._clock = QTimer(self)
        self._clock.setInterval(200)
        self._clock.timeout.connect(self._tick)
        self._last: Progress | None = None

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
        self.phase.setText(phase)
        self.details.setText("")
        self.bar.setRange(0, 0)
        self.cancel_button.setEnabled(True)
        self._clock.start()

    def show_progress(self, event: Progress) -> None:
        self._last = event
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
        self.details.setText(
            f"depth {event.depth} · {event.explored:,} explored · {rate:,.0f}/s · {elapsed:.1f} s"
        )

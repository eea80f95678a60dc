"""Playback of a solution: pieces glide between configurations on a BoardView."""

from __future__ import annotations

import math
import time

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QSlider,
    QStyle,
    QToolButton,
    QWidget,
)

from slidelab.geometry.sliding_frames import current_move, solution_frame
from slidelab.gui.sliding.board_view import BoardView
from slidelab.sliding.model import Configuration, Puzzle

SLIDER_STEPS = 20
"""Slider positions per move, so scrubbing shows pieces mid-glide."""


class SolutionPlayer(QWidget):
    """Play/pause, step, scrub, speed and loop controls driving a `BoardView`.

    `position` counts moves from the start (0) to the goal (number of moves);
    `positionChanged(float)` reports it as it changes.
    """

    positionChanged = Signal(float)

    def __init__(self, view: BoardView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.puzzle: Puzzle | None = None
        self.path: tuple[Configuration, ...] = ()
        self.position = 0.0
        self._last_tick = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(16)
        self._timer.timeout.connect(self._advance)

        icon = QStyle.StandardPixmap
        self.home_button = self._button(
            icon.SP_MediaSkipBackward, "Go to the start (Home)", self.home
        )
        self.back_button = self._button(
            icon.SP_MediaSeekBackward, "One move back (Left)", lambda: self.step(-1)
        )
        self.play_button = self._button(icon.SP_MediaPlay, "Play or pause (Space)", self.toggle)
        self.forward_button = self._button(
            icon.SP_MediaSeekForward, "One move forward (Right)", lambda: self.step(1)
        )
        self.end_button = self._button(icon.SP_MediaSkipForward, "Go to the goal (End)", self.end)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setToolTip("Scrub through the solution")
        self.slider.valueChanged.connect(self._slider_moved)
        self.speed = QDoubleSpinBox()
        self.speed.setRange(0.25, 20.0)
        self.speed.setValue(2.0)
        self.speed.setSingleStep(0.5)
        self.speed.setSuffix(" moves/s")
        self.speed.setToolTip("Playback speed")
        self.loop = QCheckBox("Loop")
        self.counter = QLabel("")
        self._transport = (
            self.home_button,
            self.back_button,
            self.play_button,
            self.forward_button,
            self.end_button,
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in self._transport:
            layout.addWidget(widget)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.counter)
        layout.addWidget(self.speed)
        layout.addWidget(self.loop)
        for key, action in (
            (Qt.Key.Key_Space, self.toggle),
            (Qt.Key.Key_Left, lambda: self.step(-1)),
            (Qt.Key.Key_Right, lambda: self.step(1)),
            (Qt.Key.Key_Home, self.home),
            (Qt.Key.Key_End, self.end),
        ):
            shortcut = QShortcut(QKeySequence(key), view)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(action)
        self.set_solution(None, ())

    def _button(self, icon: QStyle.StandardPixmap, tip: str, action) -> QToolButton:
        button = QToolButton()
        button.setIcon(self.style().standardIcon(icon))
        button.setToolTip(tip)
        button.clicked.connect(action)
        return button

    @property
    def moves(self) -> int:
        return max(len(self.path) - 1, 0)

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def set_solution(self, puzzle: Puzzle | None, path: tuple[Configuration, ...]) -> None:
        """Show a new solution from its start (an empty path clears the player)."""
        self.pause()
        self.puzzle, self.path = puzzle, path
        self.slider.blockSignals(True)
        self.slider.setRange(0, self.moves * SLIDER_STEPS)
        self.slider.blockSignals(False)
        for widget in (*self._transport, self.slider):
            widget.setEnabled(bool(path) and self.moves > 0)
        self.seek(0.0)

    def seek(self, position: float) -> None:
        """Show the board `position` moves into the solution."""
        self.position = min(max(position, 0.0), float(self.moves))
        if self.puzzle is not None and self.path:
            self.view.set_frame(solution_frame(self.puzzle, self.path, self.position))
        self.slider.blockSignals(True)
        self.slider.setValue(round(self.position * SLIDER_STEPS))
        self.slider.blockSignals(False)
        self.counter.setText(f"{current_move(self.position)} / {self.moves}" if self.path else "")
        self.positionChanged.emit(self.position)

    def play(self) -> None:
        if self.moves == 0:
            return
        if self.position >= self.moves:
            self.seek(0.0)
        self._last_tick = time.perf_counter()
        self._timer.start()
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPause))

    def pause(self) -> None:
        self._timer.stop()
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay))

    def toggle(self) -> None:
        self.pause() if self.playing else self.play()

    def step(self, delta: int) -> None:
        self.pause()
        target = (
            math.floor(self.position) + delta if delta > 0 else math.ceil(self.position) + delta
        )
        self.seek(float(target))

    def home(self) -> None:
        self.pause()
        self.seek(0.0)

    def end(self) -> None:
        self.pause()
        self.seek(float(self.moves))

    def _slider_moved(self, value: int) -> None:
        self.pause()
        self.seek(value / SLIDER_STEPS)

    def _advance(self) -> None:
        now = time.perf_counter()
        position = self.position + (now - self._last_tick) * self.speed.value()
        self._last_tick = now
        if position >= self.moves:
            if self.loop.isChecked():
                position = 0.0
            else:
                self.seek(float(self.moves))
                self.pause()
                return
        self.seek(position)

"""Transport controls for anything that plays moves: play/pause, step, home/end, a slider
to scrub, speed and loop, a counter, and keyboard shortcuts.

`Transport.position` counts moves from the start (0) to the end (`moves`); a player
subclasses it and draws each position in `show_position`, and names it in
`counter_text`.  The sliding player and the polycube tab's disassembly player are both
transports.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QBoxLayout,
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QSlider,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

SLIDER_STEPS = 20
"""Slider positions per move, so scrubbing shows pieces mid-move."""
TICK_MS = 16


class Transport(QWidget):
    """Play/pause, step, scrub, speed and loop controls over positions 0 .. `moves`.

    `positionChanged(float)` reports the position as it changes.  The shortcuts (Space,
    Left, Right, Home, End) work while `shortcuts_on` or a child of it has the focus.
    With `stacked`, the controls take three rows (buttons, slider, counter) instead of
    one, for a narrow panel.
    """

    positionChanged = Signal(float)

    def __init__(
        self, shortcuts_on: QWidget, parent: QWidget | None = None, stacked: bool = False
    ) -> None:
        super().__init__(parent)
        self.position = 0.0
        self._moves = 0
        self._last_tick = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
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
        self.end_button = self._button(icon.SP_MediaSkipForward, "Go to the end (End)", self.end)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setToolTip("Scrub through the moves")
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
        self._lay_out(stacked)
        for key, action in (
            (Qt.Key.Key_Space, self.toggle),
            (Qt.Key.Key_Left, lambda: self.step(-1)),
            (Qt.Key.Key_Right, lambda: self.step(1)),
            (Qt.Key.Key_Home, self.home),
            (Qt.Key.Key_End, self.end),
        ):
            shortcut = QShortcut(QKeySequence(key), shortcuts_on)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(action)

    def _lay_out(self, stacked: bool) -> None:
        buttons = QHBoxLayout()
        for widget in self._transport:
            buttons.addWidget(widget)
        layout: QBoxLayout
        if stacked:
            layout = QVBoxLayout(self)
            buttons.addStretch(1)
            buttons.addWidget(self.speed)
            buttons.addWidget(self.loop)
            layout.addLayout(buttons)
            layout.addWidget(self.slider)
            layout.addWidget(self.counter)
        else:
            layout = QHBoxLayout(self)
            layout.addLayout(buttons)
            layout.addWidget(self.slider, 1)
            layout.addWidget(self.counter)
            layout.addWidget(self.speed)
            layout.addWidget(self.loop)
        layout.setContentsMargins(0, 0, 0, 0)

    def _button(
        self, icon: QStyle.StandardPixmap, tip: str, action: Callable[[], None]
    ) -> QToolButton:
        button = QToolButton()
        button.setIcon(self.style().standardIcon(icon))
        button.setToolTip(tip)
        button.clicked.connect(action)
        return button

    # What a player provides ---------------------------------------------------------------

    def show_position(self, position: float) -> None:
        """Draw the picture `position` moves in."""

    def counter_text(self, position: float) -> str:
        """The counter's text at `position`."""
        return ""

    # Controls -----------------------------------------------------------------------------

    @property
    def moves(self) -> int:
        return self._moves

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def set_moves(self, moves: int, enabled: bool = True) -> None:
        """Play `moves` moves from the start (the controls are off when there are none, or
        when not `enabled`)."""
        self.pause()
        self._moves = max(moves, 0)
        self.slider.blockSignals(True)
        self.slider.setRange(0, self._moves * SLIDER_STEPS)
        self.slider.blockSignals(False)
        for widget in (*self._transport, self.slider):
            widget.setEnabled(enabled and self._moves > 0)
        self.seek(0.0)

    def seek(self, position: float) -> None:
        """Show the picture `position` moves in."""
        self.position = min(max(position, 0.0), float(self._moves))
        self.show_position(self.position)
        self.slider.blockSignals(True)
        self.slider.setValue(round(self.position * SLIDER_STEPS))
        self.slider.blockSignals(False)
        self.counter.setText(self.counter_text(self.position))
        self.positionChanged.emit(self.position)

    def play(self) -> None:
        if self._moves == 0:
            return
        if self.position >= self._moves:
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
        self.seek(float(self._moves))

    def _slider_moved(self, value: int) -> None:
        self.pause()
        self.seek(value / SLIDER_STEPS)

    def _advance(self) -> None:
        now = time.perf_counter()
        position = self.position + (now - self._last_tick) * self.speed.value()
        self._last_tick = now
        if position >= self._moves:
            if self.loop.isChecked():
                position = 0.0
            else:
                self.seek(float(self._moves))
                self.pause()
                return
        self.seek(position)

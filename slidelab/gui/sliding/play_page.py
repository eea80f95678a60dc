"""Play mode's page: the board, the move counter, how far the goal is, undo/redo/reset, hints.

The page shows a `PlaySession` and forwards the buttons to it; the workbench makes the
session, computes its distance table in the background and runs "Solve from here"
(`solveRequested` carries the puzzle as it stands).
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from slidelab.gui.sliding.play_view import PlayView
from slidelab.sliding.distance import GoalDistances
from slidelab.sliding.play import Drop, PlaySession
from slidelab.sliding.render import describe_move
from slidelab.wording import numbered

WARNING_STYLE = "color: #b00020"


def moves_from_goal(distance: int) -> str:
    """The distance line: "N moves from the goal"."""
    if distance == 0:
        return "0 moves from the goal: solved!"
    return f"{numbered(distance, 'move')} from the goal"


class PlayPage(QWidget):
    """The board to play on and, beside it, the counter, the distance and the controls.

    `refused(str)` carries each refusal's explanation (for the status line);
    `solveRequested(Puzzle)` asks for a shortest solution from the current configuration.
    """

    refused = Signal(str)
    solveRequested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session: PlaySession | None = None
        self._distance_note = ""
        self.view = PlayView()
        self.view.played.connect(self._played)
        self.view.keyAction.connect(self._key_action)
        self.heading = QLabel("")
        self.heading.setWordWrap(True)
        self.counter = QLabel("")
        self.counter.setObjectName("play_counter")
        self.distance = QLabel("")
        self.distance.setObjectName("play_distance")
        font = self.distance.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.distance.setFont(font)
        self.distance.setWordWrap(True)
        self.warning = QLabel("")
        self.warning.setObjectName("play_warning")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(WARNING_STYLE)
        self.message = QLabel("")
        self.message.setObjectName("play_message")
        self.message.setWordWrap(True)
        self.undo_button = self._button("Undo", "Take back the last move (Ctrl+Z)", self.undo)
        self.redo_button = self._button("Redo", "Make the move taken back again", self.redo)
        self.reset_button = self._button(
            "Reset", "Back to the start (Redo replays the moves)", self.reset
        )
        self.hint_button = self._button(
            "Hint", "Show one move that brings the goal nearer", self.show_hint
        )
        self.solve_button = self._button(
            "Solve from here",
            "Find a shortest solution from the board as it is and watch it",
            self._solve_here,
        )
        self.view.hintShown.connect(self._update_buttons)

        panel = QGroupBox("Play")
        side = QGridLayout(panel)
        side.addWidget(self.heading, 0, 0, 1, 2)
        side.addWidget(self.counter, 1, 0, 1, 2)
        side.addWidget(self.distance, 2, 0, 1, 2)
        side.addWidget(self.warning, 3, 0, 1, 2)
        side.addWidget(self.undo_button, 4, 0)
        side.addWidget(self.redo_button, 4, 1)
        side.addWidget(self.reset_button, 5, 0)
        side.addWidget(self.hint_button, 5, 1)
        side.addWidget(self.solve_button, 6, 0, 1, 2)
        side.addWidget(self.message, 7, 0, 1, 2)
        side.setRowStretch(8, 1)
        panel.setFixedWidth(250)
        board = QVBoxLayout()
        board.addWidget(self.view, 1)
        layout = QHBoxLayout(self)
        layout.addLayout(board, 1)
        layout.addWidget(panel)
        self.show_unavailable("Draw a puzzle to play it.")

    def _button(self, text: str, tip: str, action) -> QPushButton:
        """A button that leaves the keyboard focus on the board, so that Ctrl+Z after a click
        still takes back a move rather than an edit of the puzzle."""
        button = QPushButton(text)
        button.setToolTip(tip)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.clicked.connect(action)
        return button

    # What the workbench tells the page -----------------------------------------------------

    def start(self, session: PlaySession) -> None:
        """Play `session` from where it is."""
        self.session = session
        how = session.style.explanation
        grouping = (
            " Shift-click or drag a band to select a group." if session.style.superpieces else ""
        )
        self.heading.setText(
            f"Style {session.style.number}: {how}. Drag a piece to move it.{grouping}"
        )
        self.view.set_session(session)
        self._say("")
        self._refresh()

    def show_unavailable(self, why: str) -> None:
        """No game: say why (the puzzle has problems, or the style cannot play it)."""
        self.session = None
        self.view.set_session(None)
        self.heading.setText(why)
        self._distance_note = ""
        self._say("")
        self._refresh()

    def distances_computing(self) -> None:
        self._distance_note = "computing distances…"
        self._refresh()

    def distances_waiting(self) -> None:
        self._distance_note = "distances wait for the run going on"
        self._refresh()

    def distances_stopped(self) -> None:
        self._distance_note = "distances not computed (stopped): come back to Play to compute them"
        self._refresh()

    def distances_known(self, result: GoalDistances) -> None:
        """The distance table of the session's puzzle and style, or why there is none."""
        session = self.session
        if session is None:
            return
        if result.table is not None:
            session.use_distances(result.table)
            self._distance_note = ""
        elif result.limit_message:
            self._distance_note = f"distances unknown: {result.limit_message}"
        else:
            self._distance_note = (
                f"the goal cannot be reached from the start in style {session.style.number}"
            )
        self._refresh()

    def set_solving_allowed(self, allowed: bool) -> None:
        """Solve from here needs the solver thread free."""
        self.solve_button.setEnabled(allowed and self.session is not None)

    # Actions -----------------------------------------------------------------------------

    def undo(self) -> None:
        if self.session is not None and self.session.can_undo:
            self.session.undo()
            self._after_step("")

    def redo(self) -> None:
        if self.session is not None and self.session.can_redo:
            self.session.redo()
            self._after_step("")

    def reset(self) -> None:
        if self.session is not None:
            self.session.reset()
            self._after_step("Back at the start: Redo replays the moves.")

    def show_hint(self) -> None:
        session = self.session
        if session is None:
            return
        after = session.hint()
        if after is None:
            self._say(self._no_hint())
            return
        self.view.show_hint(after)
        self._say(f"Hint: {describe_move(session.puzzle, session.config, after)}.")
        self._update_buttons()

    # Updates -----------------------------------------------------------------------------

    def _played(self, drop: Drop) -> None:
        if not drop.accepted:
            text = f"Not a move: {drop.message}."
            self._say(text, warning=True)
            self.refused.emit(text)
            return
        self._say("")
        self._refresh()
        if drop.away_from_goal:
            self.warning.setText(
                f"That move went away from the goal: {drop.before} → {drop.after} moves."
            )

    def _key_action(self, action: str) -> None:
        {"undo": self.undo, "redo": self.redo}[action]()

    def _after_step(self, message: str) -> None:
        self.view.refresh()
        self._say(message)
        self._refresh()

    def _solve_here(self) -> None:
        if self.session is not None:
            here = dataclasses.replace(self.session.puzzle, start=self.session.config)
            self.solveRequested.emit(here)

    def _say(self, text: str, warning: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(WARNING_STYLE if warning else "")

    def _no_hint(self) -> str:
        session = self.session
        assert session is not None
        if session.solved:
            return "No hint: the goal is reached."
        if session.table is None:
            return f"No hint: {self._distance_note or 'the distances are not known yet'}."
        return "No hint: the goal cannot be reached from here."

    def _refresh(self) -> None:
        session = self.session
        self.warning.setText("")
        if session is None:
            self.counter.setText("")
            self.distance.setText("")
        else:
            self.counter.setText(f"Moves made: {session.moves}")
            distance = session.distance()
            self.distance.setText(
                moves_from_goal(distance) if distance is not None else self._distance_note
            )
        self._update_buttons()

    def _update_buttons(self) -> None:
        session = self.session
        self.undo_button.setEnabled(session is not None and session.can_undo)
        self.redo_button.setEnabled(session is not None and session.can_redo)
        self.reset_button.setEnabled(session is not None and session.moves > 0)
        self.hint_button.setEnabled(session is not None and not self.view.animating)
        if session is None:
            self.solve_button.setEnabled(False)

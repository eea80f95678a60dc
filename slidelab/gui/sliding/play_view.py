"""The board of play mode: select pieces, drag them by whole cells, watch a hint glide.

The view keeps only what the mouse is doing (the selection, the drag, the rubber band);
every decision is the `PlaySession`'s.  A press on a piece selects it and starts a drag;
in the superpiece styles (3-5) Shift-click adds or removes pieces and a drag on empty
cells draws a rubber band, so a group can be moved together.  While dragging, the
selection is drawn where it would land, outlined green when that is a move and red when
it is not; on release the session takes the move or says why not (`played`).
"""

from __future__ import annotations

import dataclasses
import math
import time

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QKeyEvent, QKeySequence, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QWidget

from slidelab.geometry.palettes import HALO_COLOUR, HIGHLIGHT_COLOUR, KIND_COLOURS
from slidelab.geometry.sliding_frames import frame_between, goal_outline, still_frame
from slidelab.gui.sliding.board_view import (
    UNKNOWN_KIND_COLOUR,
    BoardGeometry,
    BoardView,
    piece_path,
    qcolour,
)
from slidelab.sliding.model import Cell, Configuration, Placement
from slidelab.sliding.play import PlaySession
from slidelab.sliding.routes import moved_pieces

HINT_SECONDS = 0.7
"""How long the hint's glide takes."""
LEGAL_COLOUR = (0, 140, 60)
ILLEGAL_COLOUR = (200, 0, 32)

KEY_ACTIONS = {
    QKeySequence.StandardKey.Undo: "undo",
    QKeySequence.StandardKey.Redo: "redo",
}
"""Keys the view takes from the window's Edit menu while it has the focus: in play mode
they undo and redo moves, not edits."""


@dataclasses.dataclass
class _Drag:
    """Pieces being dragged: the cell grabbed and the cell the pointer is over."""

    grabbed: Cell
    over: Cell


class PlayView(BoardView):
    """A `BoardView` on which the pieces of a `PlaySession` are moved by hand.

    Signals: `played(Drop)` after every drop that shifted the pieces, `keyAction(str)`
    for the undo and redo keys, `hintShown()` when a hint's glide has ended.
    """

    played = Signal(object)
    keyAction = Signal(str)
    hintShown = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session: PlaySession | None = None
        self.selection: list[Placement] = []
        self.hint: Configuration | None = None
        """The configuration the last hint showed, until the board changes."""
        self.hint_seconds = HINT_SECONDS
        self._drag: _Drag | None = None
        self._band: tuple[QPointF, QPointF] | None = None
        self._hint_started = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(16)
        self._timer.timeout.connect(self._glide)
        self.setCursor(Qt.CursorShape.OpenHandCursor)

    # API ---------------------------------------------------------------------------------

    def set_session(self, session: PlaySession | None) -> None:
        """Play `session` (None: an empty board)."""
        self.session = session
        self.refresh()

    def refresh(self) -> None:
        """Show the session's configuration; drops the selection of pieces no longer there,
        any drag and any hint."""
        self.stop_hint()
        self._drag = self._band = None
        session = self.session
        if session is None:
            self.selection = []
            self.set_frame(dataclasses.replace(self.frame(), pieces=(), goal=()))
            return
        present = set(session.config.placements)
        self.selection = [p for p in self.selection if p in present]
        self._show(session.config)

    @property
    def animating(self) -> bool:
        return self._timer.isActive()

    def show_hint(self, after: Configuration) -> None:
        """Glide the pieces of the move to `after` there, then outline where they go."""
        self.stop_hint()
        self.hint = after
        self._hint_started = time.perf_counter()
        self._timer.start()
        self._glide()

    def stop_hint(self) -> None:
        self._timer.stop()
        self.hint = None

    # Mouse -------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        session = self.session
        if event.button() != Qt.MouseButton.LeftButton or session is None:
            super().mousePressEvent(event)
            return
        event.accept()
        self.setFocus()
        if self.animating:  # the hint's glide ends at once; its outline stays
            self._end_glide()
        point = event.position()
        cell = self.cell_at(point)
        piece = self._piece_at(cell) if cell is not None else None
        adding = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        groups = session.style.superpieces
        if piece is None:
            if groups:
                self._band = (QPointF(point), QPointF(point))
                if not adding:
                    self.selection = []
            else:
                self.selection = []
        elif groups and adding:
            if piece in self.selection:
                self.selection.remove(piece)
            else:
                self.selection.append(piece)
        else:
            if piece not in self.selection or not groups:
                self.selection = [piece]
            assert cell is not None
            self._drag = _Drag(cell, cell)
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
        self._show(session.config)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag is not None:
            over = self._cell_under(event.position())
            if over != self._drag.over:
                self._drag.over = over
                self.update()
        elif self._band is not None:
            self._band = (self._band[0], QPointF(event.position()))
            self.update()
        else:
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        session = self.session
        if event.button() != Qt.MouseButton.LeftButton or session is None:
            super().mouseReleaseEvent(event)
            return
        event.accept()
        if self._band is not None:
            adding = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self._select_in_band(QRectF(self._band[0], event.position()).normalized(), adding)
            self._band = None
            self._show(session.config)
        elif self._drag is not None:
            drag, self._drag = self._drag, None
            drag.over = self._cell_under(event.position())
            self.setCursor(Qt.CursorShape.OpenHandCursor)
            shift = (drag.over[0] - drag.grabbed[0], drag.over[1] - drag.grabbed[1])
            if shift == (0, 0):
                self.update()
                return
            moving = list(self.selection)
            drop = session.drop(moving, shift)
            if drop.accepted:
                self.selection = [
                    Placement(p.kind, p.row + shift[0], p.col + shift[1]) for p in moving
                ]
            self.refresh()
            self.played.emit(drop)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and self._key_action(event):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        action = self._key_action(event)
        if action:
            event.accept()
            self.keyAction.emit(action)
        elif event.key() == Qt.Key.Key_Escape and (self._drag or self._band or self.selection):
            event.accept()
            self._drag = self._band = None
            self.selection = []
            self.setCursor(Qt.CursorShape.OpenHandCursor)
            if self.session is not None:
                self._show(self.session.config)
        else:
            super().keyPressEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        self.stop_hint()
        super().hideEvent(event)

    # Drawing -----------------------------------------------------------------------------

    def paint_overlay(self, painter: QPainter, geometry: BoardGeometry) -> None:
        session = self.session
        if session is None:
            return
        if self._drag is not None and self._drag.over != self._drag.grabbed:
            drag = self._drag
            shift = (drag.over[0] - drag.grabbed[0], drag.over[1] - drag.grabbed[1])
            legal = session.allows(self.selection, shift)
            for piece in self.selection:
                cells = tuple(
                    (r + shift[0], c + shift[1])
                    for r, c in session.puzzle.kind(piece.kind).cells_at(piece.anchor)
                )
                self._paint_ghost(painter, geometry, piece.kind, cells, legal)
        if self._band is not None:
            pen = QPen(qcolour(HALO_COLOUR), 1.5, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(qcolour(HIGHLIGHT_COLOUR, 60))
            painter.drawRect(QRectF(*self._band).normalized())
        if self.hint is not None and not self.animating:
            for _, target in moved_pieces(session.config, self.hint):
                cells = tuple(session.puzzle.kind(target.kind).cells_at(target.anchor))
                path = piece_path(geometry, cells)
                for colour, width, style in (
                    (HIGHLIGHT_COLOUR, 5.0, Qt.PenStyle.SolidLine),
                    (LEGAL_COLOUR, 3.0, Qt.PenStyle.DashLine),
                ):
                    painter.setPen(QPen(qcolour(colour), width, style))
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawPath(path)

    def _paint_ghost(
        self,
        painter: QPainter,
        geometry: BoardGeometry,
        kind: str,
        cells: tuple[Cell, ...],
        legal: bool,
    ) -> None:
        """The selection where it would land: the kind's colour, see-through, outlined green
        for a move and red for a refusal."""
        path = piece_path(geometry, cells)
        painter.setPen(QPen(qcolour(LEGAL_COLOUR if legal else ILLEGAL_COLOUR), 3.0))
        painter.setBrush(qcolour(KIND_COLOURS.get(kind, UNKNOWN_KIND_COLOUR), 140))
        painter.drawPath(path)

    # Helpers -----------------------------------------------------------------------------

    def _show(self, config: Configuration) -> None:
        session = self.session
        assert session is not None
        frame = still_frame(session.puzzle, config.placements)
        chosen = {tuple(session.puzzle.kind(p.kind).cells_at(p.anchor)) for p in self.selection}
        pieces = tuple(
            dataclasses.replace(piece, highlighted=piece.cells in chosen) for piece in frame.pieces
        )
        self.set_frame(dataclasses.replace(frame, pieces=pieces, goal=goal_outline(session.puzzle)))

    def _glide(self) -> None:
        session, hint = self.session, self.hint
        if session is None or hint is None:
            self._timer.stop()
            return
        t = (time.perf_counter() - self._hint_started) / max(self.hint_seconds, 1e-3)
        if t >= 1.0:
            self._end_glide()
            return
        frame = frame_between(session.puzzle, session.config, hint, t)
        self.set_frame(dataclasses.replace(frame, goal=goal_outline(session.puzzle)))

    def _end_glide(self) -> None:
        """Stop the hint's glide and show the board as it is, the hint outlined."""
        self._timer.stop()
        if self.session is not None:
            self._show(self.session.config)
        self.hintShown.emit()

    def _piece_at(self, cell: Cell) -> Placement | None:
        session = self.session
        assert session is not None
        for placement in session.config.placements:
            if cell in session.puzzle.kind(placement.kind).cells_at(placement.anchor):
                return placement
        return None

    def _cell_under(self, point: QPointF) -> Cell:
        """The cell under `point`, counted on past the board's edge (a drop there is refused
        with its reason rather than ignored)."""
        geometry = self.board_geometry()
        return (
            math.floor((point.y() - geometry.top) / geometry.size),
            math.floor((point.x() - geometry.left) / geometry.size),
        )

    def _select_in_band(self, band: QRectF, adding: bool) -> None:
        """Select the pieces with a cell whose centre lies in the rubber band."""
        session = self.session
        assert session is not None
        found = [
            p
            for p in session.config.placements
            if any(
                band.contains(self.cell_rect(cell).center())
                for cell in session.puzzle.kind(p.kind).cells_at(p.anchor)
            )
        ]
        chosen = list(self.selection) if adding else []
        self.selection = chosen + [p for p in found if p not in chosen]

    @staticmethod
    def _key_action(event: QEvent) -> str | None:
        if not isinstance(event, QKeyEvent):
            return None
        for key, action in KEY_ACTIONS.items():
            if event.matches(key):
                return action
        return None

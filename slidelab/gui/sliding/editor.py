"""The board editor: draw pieces, obstacles and the goal with the mouse, with undo.

The editor holds a `Draft` and changes it only through the draft's pure editing
operations; every change is a `gui/undo.Snapshot` holding the draft before and after,
pushed onto the undo stack the editor is given.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QPen, QUndoStack
from PySide6.QtWidgets import QWidget

from slidelab.geometry.palettes import HALO_COLOUR, KIND_COLOURS
from slidelab.geometry.sliding_frames import still_frame
from slidelab.gui.sliding.board_view import BoardGeometry, BoardView, qcolour
from slidelab.gui.undo import Snapshot
from slidelab.sliding.draft import Draft, DraftError, cell_name
from slidelab.sliding.model import KIND_NAMES, Cell, PieceKind, Placement, Problem

TOOLS = ("piece", "obstacle", "move", "erase", "goal_any", "goal_empty")
"""The editing tools, as `set_tool` names them."""

GOAL_TOOLS = {"goal_any": "any", "goal_empty": "empty"}
"""The tools that mark goal cells (clicked or dragged over), and the state they mark."""

NEUTRAL_PREVIEW = (150, 150, 150)

_CURSORS = {
    "piece": Qt.CursorShape.CrossCursor,
    "obstacle": Qt.CursorShape.PointingHandCursor,
    "move": Qt.CursorShape.OpenHandCursor,
    "erase": Qt.CursorShape.PointingHandCursor,
    "goal_any": Qt.CursorShape.PointingHandCursor,
    "goal_empty": Qt.CursorShape.PointingHandCursor,
}


@dataclass
class _Move:
    """A piece being dragged by the move tool."""

    piece: Placement
    grabbed: Cell
    over: Cell


class BoardEditor(BoardView):
    """A `BoardView` that edits a `Draft` with the mouse.

    `set_mode(goal)` chooses whether the start or the goal is edited; `set_tool` picks
    one of `TOOLS`.  Edits that cannot be made leave the draft alone and put a message
    in `last_error` (and emit `editFailed`).  `draftChanged(draft)` follows every change,
    including undo, redo and `set_draft`.
    """

    draftChanged = Signal(object)
    editFailed = Signal(str)

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._undo_stack = undo_stack
        self._draft = Draft.blank(4, 4)
        self._problems: list[Problem] = []
        self._goal = False
        self._tool = "piece"
        self._piece_kind: str | None = None
        self._stroke: list[Cell] | None = None
        self._last_point = QPointF()
        self._move: _Move | None = None
        self.last_error: str | None = None
        """Why the last edit attempt failed, or None if it succeeded."""
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCursor(_CURSORS[self._tool])
        self._refresh()

    # API ---------------------------------------------------------------------------------

    def undo_stack(self) -> QUndoStack:
        return self._undo_stack

    def set_draft(self, draft: Draft) -> None:
        """Show `draft` without an undo entry (the caller clears the stack for a new document)."""
        self._cancel_drag()
        self._show(draft)

    def draft(self) -> Draft:
        return self._draft

    def problems(self) -> list[Problem]:
        """The current draft's problems (all of them, start and goal)."""
        return list(self._problems)

    def set_mode(self, goal: bool) -> None:
        """Edit the goal (True) or the start (False)."""
        self._cancel_drag()
        self._goal = bool(goal)
        self._refresh()

    def goal_mode(self) -> bool:
        return self._goal

    def set_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            raise ValueError(f"unknown tool '{tool}': use one of {', '.join(TOOLS)}")
        self._cancel_drag()
        self._tool = tool
        self.setCursor(_CURSORS[tool])

    def tool(self) -> str:
        return self._tool

    def set_piece_kind(self, kind: str | None) -> None:
        """Draw pieces of this kind (None: reuse a kind of the drawn shape or make a new one)."""
        if kind is not None and kind not in KIND_NAMES:
            raise ValueError(f"bad piece kind '{kind}': use 1-9 or a-f")
        self._piece_kind = kind

    def piece_kind(self) -> str | None:
        return self._piece_kind

    def apply_edit(self, draft: Draft, text: str) -> None:
        """Make `draft` current as one undoable step named `text` (nothing if unchanged)."""
        self.last_error = None
        if draft != self._draft:
            self._undo_stack.push(Snapshot(self._show, self._draft, draft, text))

    # Mouse -------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        event.accept()
        self.last_error = None
        point = event.position()
        cell = self.cell_at(point)
        tool = self._tool
        if tool == "piece" or (tool in GOAL_TOOLS and self._goal):
            self._stroke = [cell] if cell is not None else []
            self._last_point = QPointF(point)
            self.update()
        elif cell is None:
            return
        elif tool == "obstacle":
            self._try(lambda d: d.toggled_obstacle(cell), "Toggle obstacle")
        elif tool == "move":
            piece = self._draft.piece_at(cell, self._goal)
            if piece is None:
                self._fail(f"no piece to move at {cell_name(cell)}: press on a piece and drag it")
                return
            self._move = _Move(piece, cell, cell)
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            self.update()
        elif tool == "erase":
            piece = self._draft.piece_at(cell, self._goal)
            if piece is None:
                self._fail(f"no piece to erase at {cell_name(cell)}: click on a piece")
                return
            self._try(lambda d: d.without_piece(piece, self._goal), f"Erase piece {piece.kind}")
        else:
            self._fail(
                "'Any' and 'Empty' mark cells of the goal: switch to the goal (Goal, above "
                "the board), then click or drag over cells"
            )

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        point = event.position()
        if self._stroke is not None:
            self._extend_stroke(point)
            self.update()
        elif self._move is not None:
            cell = self.cell_at(point)
            if cell is not None and cell != self._move.over:
                self._move.over = cell
                self.update()
        else:
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            super().mouseReleaseEvent(event)
            return
        event.accept()
        if self._stroke is not None:
            self._extend_stroke(event.position())
            cells = frozenset(self._stroke)
            self._stroke = None
            self.update()
            if cells and self._tool == "piece":
                self._draw_piece(cells)
            elif cells:
                state = GOAL_TOOLS[self._tool]
                text = f"Mark goal cell{'s' * (len(cells) > 1)} {state}"
                self._try(lambda d: d.with_goal_cells(sorted(cells), state), text)
        elif self._move is not None:
            cell = self.cell_at(event.position())
            if cell is not None:
                self._move.over = cell
            move, self._move = self._move, None
            self.setCursor(_CURSORS[self._tool])
            self.update()
            self._finish_move(move)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and (self._stroke is not None or self._move):
            self._cancel_drag()
            event.accept()
            return
        super().keyPressEvent(event)

    # Edits -------------------------------------------------------------------------------

    def _draw_piece(self, cells: frozenset[Cell]) -> None:
        before = self._draft
        try:
            after = before.with_piece(cells, self._goal, self._piece_kind)
        except DraftError as error:
            self._fail(error.message)
            return
        added = set(after.placements(self._goal)) - set(before.placements(self._goal))
        kind = next(iter(added)).kind if added else "?"
        self.apply_edit(after, f"Draw piece {kind}")

    def _finish_move(self, move: _Move) -> None:
        dr, dc = move.over[0] - move.grabbed[0], move.over[1] - move.grabbed[1]
        if (dr, dc) == (0, 0):
            return
        to = (move.piece.row + dr, move.piece.col + dc)
        moved = Placement(move.piece.kind, *to)
        if not all(self._draft.on_board(cell) for cell in self._draft.cells_of(moved)):
            self._fail(
                f"piece {move.piece.kind} would not fit on the board there: "
                "drop it where all its cells are on the board"
            )
            return
        self._try(lambda d: d.moved_piece(move.piece, to, self._goal), f"Move piece {moved.kind}")

    def _try(self, edit: Callable[[Draft], Draft], text: str) -> None:
        try:
            after = edit(self._draft)
        except DraftError as error:
            self._fail(error.message)
            return
        self.apply_edit(after, text)

    def _fail(self, message: str) -> None:
        self.last_error = message
        self.editFailed.emit(message)

    def _show(self, draft: Draft) -> None:
        self._draft = draft
        self._refresh()
        self.draftChanged.emit(draft)

    def _refresh(self) -> None:
        draft = self._draft
        self._problems = draft.problems()
        self.set_frame(
            still_frame(
                draft,
                draft.placements(self._goal),
                goal=self._goal,
                problems=draft.problems_in(self._goal),
            )
        )

    def _cancel_drag(self) -> None:
        if self._stroke is not None or self._move is not None:
            self._stroke = None
            self._move = None
            self.setCursor(_CURSORS[self._tool])
            self.update()

    def _extend_stroke(self, point: QPointF) -> None:
        """Add every cell on the segment from the last mouse position to `point`."""
        assert self._stroke is not None
        start, end = QPointF(self._last_point), QPointF(point)
        step = max(self.board_geometry().size / 4, 1.0)
        length = math.hypot(end.x() - start.x(), end.y() - start.y())
        count = max(1, math.ceil(length / step))
        for i in range(count + 1):
            t = i / count
            cell = self.cell_at(start + (end - start) * t)
            if cell is not None and cell not in self._stroke:
                self._stroke.append(cell)
        self._last_point = QPointF(point)

    # Preview -----------------------------------------------------------------------------

    def paint_overlay(self, painter: QPainter, geometry: BoardGeometry) -> None:
        if self._stroke:
            cells = frozenset(self._stroke)
            kind = self._preview_kind(cells) if self._tool == "piece" else None
            self._paint_preview(painter, geometry, cells, kind)
        elif self._move is not None and self._move.over != self._move.grabbed:
            move = self._move
            dr, dc = move.over[0] - move.grabbed[0], move.over[1] - move.grabbed[1]
            target = Placement(move.piece.kind, move.piece.row + dr, move.piece.col + dc)
            cells = frozenset(self._draft.cells_of(target))
            self._paint_preview(painter, geometry, cells, move.piece.kind)

    def _preview_kind(self, cells: frozenset[Cell]) -> str | None:
        """The kind a stroke would become, when that is known."""
        if self._piece_kind is not None:
            return self._piece_kind
        shape = PieceKind.from_cells("?", cells).cells
        for kind in self._draft.kinds:
            if kind.cells == shape:
                return kind.name
        used = {kind.name for kind in self._draft.kinds}
        return next((name for name in KIND_NAMES if name not in used), None)

    def _paint_preview(
        self, painter: QPainter, geometry: BoardGeometry, cells: frozenset[Cell], kind: str | None
    ) -> None:
        rgb = KIND_COLOURS.get(kind, NEUTRAL_PREVIEW) if kind else NEUTRAL_PREVIEW
        s = geometry.size
        pen = QPen(qcolour(HALO_COLOUR), max(1.5, s / 30), Qt.PenStyle.DashLine)
        painter.save()
        painter.setPen(pen)
        painter.setBrush(qcolour(rgb, 150))
        inset = s * 0.06
        for cell in cells:
            if self._draft.on_board(cell):
                rect: QRectF = geometry.rect(cell).adjusted(inset, inset, -inset, -inset)
                painter.drawRoundedRect(rect, s * 0.1, s * 0.1)
        painter.restore()

"""The source and the target side by side, each piece in its colour in both; pieces in motion.

Hovering a cell highlights its whole piece in both shapes (and names it); `animate`
moves every piece from the source to its place in the target, turning it on the way.
All geometry comes from `slidelab.geometry.dissection_frames`; this widget only paints.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from slidelab.dissection.model import Solution
from slidelab.dissection.shape import Shape
from slidelab.dissection.shifts import Tables
from slidelab.geometry.dissection_frames import (
    Layout,
    Panels,
    PieceMotion,
    Shapes,
    panel_cells,
    piece_motions,
    piece_outlines,
    piece_quads,
)
from slidelab.geometry.palettes import (
    EMPTY_COLOUR,
    GRID_COLOUR,
    HALO_COLOUR,
    HIGHLIGHT_COLOUR,
    piece_colour,
)

ANIMATION_MS = 2400
FRAME_MS = 30


class DissectionView(QWidget):
    """Paints a dissection; `pieceHovered(colour)` names the piece under the pointer (0: none)."""

    pieceHovered = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumSize(240, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.panels: Panels | None = None
        """What is drawn: the tables, or the shapes alone while they are built."""
        self.solution: Solution | None = None
        self.hovered = 0
        self.share = 1.0
        """How far the pieces have moved: 1 shows the finished dissection (no motion)."""
        self._motions: list[PieceMotion] = []
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._tick)

    def set_content(self, tables: Tables | None, solution: Solution | None) -> None:
        """Show `tables`' source and target, coloured by `solution` when there is one."""
        self._timer.stop()
        self.panels, self.solution = tables, solution
        self._motions = piece_motions(tables, solution) if tables and solution else []
        self.share = 1.0
        self.hovered = 0
        self.update()

    def set_shapes(self, source: Shape, target: Shape) -> None:
        """Show `source` and `target` uncoloured, before their tables are built."""
        self.set_content(None, None)
        self.panels = Shapes(source, target)

    # Geometry ----------------------------------------------------------------------------

    def _scale(self) -> tuple[float, QPointF]:
        """Pixels per cell, and where drawing coordinate (0, 0) is."""
        assert self.panels is not None
        layout = Layout.of(self.panels.source, self.panels.target)
        size = min((self.width() - 16) / layout.width, (self.height() - 16) / layout.height)
        size = max(size, 4.0)
        left = (self.width() - size * layout.width) / 2
        top = (self.height() - size * layout.height) / 2
        return size, QPointF(left, top)

    def point(self, x: float, y: float) -> QPointF:
        """Widget coordinates of drawing point (x, y) (cells)."""
        size, origin = self._scale()
        return QPointF(origin.x() + x * size, origin.y() + y * size)

    def colour_at(self, position: QPointF) -> int:
        """The piece colour of the cell under `position` (0 for none)."""
        if self.panels is None or self.solution is None:
            return 0
        size, origin = self._scale()
        x = (position.x() - origin.x()) / size
        y = (position.y() - origin.y()) / size
        for (cx, cy), colour, _ in panel_cells(self.panels, self.solution):
            if cx <= x < cx + 1 and cy <= y < cy + 1:
                return colour
        return 0

    # Animation ---------------------------------------------------------------------------

    def animate(self) -> None:
        """Move every piece from the source to the target (about 2.4 seconds)."""
        if self._motions:
            self.share = 0.0
            self._timer.start()

    def animating(self) -> bool:
        return self._timer.isActive()

    def set_share(self, share: float) -> None:
        """Show the pieces a share (0..1) of the way from the source to the target."""
        self.share = min(max(share, 0.0), 1.0)
        self.update()

    def _tick(self) -> None:
        self.set_share(self.share + FRAME_MS / ANIMATION_MS)
        if self.share >= 1.0:
            self._timer.stop()

    # Painting ----------------------------------------------------------------------------

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor(255, 255, 255))
        if self.panels is None:
            return
        size, _ = self._scale()
        moving = self.share < 1.0
        cells = panel_cells(self.panels, self.solution)
        painter.setPen(QPen(QColor(*GRID_COLOUR), 1))
        for (x, y), colour, _ in cells:
            fill = EMPTY_COLOUR if moving or not colour else piece_colour(colour - 1)
            painter.setBrush(QColor(*fill))
            painter.drawRect(QRectF(self.point(x, y), self.point(x + 1, y + 1)))
        if moving:
            for motion in self._motions:
                painter.setBrush(QColor(*piece_colour(motion.colour - 1)))
                painter.setPen(QPen(QColor(*HALO_COLOUR), 1.5))
                for quad in piece_quads(motion, self.share):
                    painter.drawPolygon(QPolygonF([self.point(x, y) for x, y in quad]))
            return
        painter.setPen(QPen(QColor(*HALO_COLOUR), max(2.0, size / 12)))
        for (x0, y0), (x1, y1) in piece_outlines(cells):
            painter.drawLine(self.point(x0, y0), self.point(x1, y1))
        if self.hovered:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor(*HIGHLIGHT_COLOUR), max(2.0, size / 8)))
            inset = size / 6
            for (x, y), colour, _ in cells:
                if colour == self.hovered:
                    rect = QRectF(self.point(x, y), self.point(x + 1, y + 1))
                    painter.drawRect(rect.adjusted(inset, inset, -inset, -inset))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        colour = self.colour_at(event.position())
        if colour != self.hovered:
            self.hovered = colour
            self.pieceHovered.emit(colour)
            self.update()

    def leaveEvent(self, _event) -> None:
        if self.hovered:
            self.hovered = 0
            self.pieceHovered.emit(0)
            self.update()

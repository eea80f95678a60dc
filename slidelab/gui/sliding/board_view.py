"""A widget that paints one `Frame` of a sliding-block board."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from slidelab.geometry.palettes import (
    ANY_HATCH_COLOUR,
    EMPTY_COLOUR,
    EMPTY_DOT_COLOUR,
    GRID_COLOUR,
    HALO_COLOUR,
    HIGHLIGHT_COLOUR,
    KIND_COLOURS,
    OBSTACLE_COLOUR,
    OBSTACLE_HATCH_COLOUR,
    PROBLEM_COLOUR,
    text_colour,
)
from slidelab.geometry.sliding_frames import DrawnPiece, Frame
from slidelab.sliding.model import Axis, Cell

MARGIN = 10
"""Pixels kept free around the board (less on tiny views)."""

GAP = 0.05
"""Half the gap between neighbouring pieces, as a fraction of a cell."""

RADIUS = 0.16
"""Corner rounding of pieces, as a fraction of a cell."""

UNKNOWN_KIND_COLOUR = (160, 160, 160)


def qcolour(rgb: tuple[int, int, int], alpha: int = 255) -> QColor:
    return QColor(rgb[0], rgb[1], rgb[2], alpha)


class BoardGeometry:
    """Where the cells of a rows x cols board go in a width x height picture."""

    def __init__(self, rows: int, cols: int, width: float, height: float) -> None:
        self.rows, self.cols = max(rows, 1), max(cols, 1)
        margin = min(MARGIN, min(width, height) / 16)
        size = min((width - 2 * margin) / self.cols, (height - 2 * margin) / self.rows)
        self.size = max(math.floor(size), 1) if size >= 8 else max(size, 0.5)
        self.left = round((width - self.size * self.cols) / 2)
        self.top = round((height - self.size * self.rows) / 2)

    def rect(self, cell: tuple[float, float]) -> QRectF:
        r, c = cell
        return QRectF(self.left + c * self.size, self.top + r * self.size, self.size, self.size)

    def board(self) -> QRectF:
        return QRectF(self.left, self.top, self.size * self.cols, self.size * self.rows)

    def cell_at(self, point: QPointF) -> Cell | None:
        r = math.floor((point.y() - self.top) / self.size)
        c = math.floor((point.x() - self.left) / self.size)
        return (r, c) if 0 <= r < self.rows and 0 <= c < self.cols else None


class BoardView(QWidget):
    """Paints a `Frame`: square cells scaled to fit, pieces coloured by kind.

    Cells of one piece merge into one rounded shape; neighbouring pieces, even of the
    same kind, stay apart by a small gap.  `render_image` paints offscreen, for exports
    and pixel tests.  Subclasses add transient marks by overriding `paint_overlay`.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._frame = Frame(4, 4, (), frozenset())
        self.setMinimumSize(160, 160)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setSizePolicy(policy)

    # API ---------------------------------------------------------------------------------

    def set_frame(self, frame: Frame) -> None:
        self._frame = frame
        self.update()

    def frame(self) -> Frame:
        return self._frame

    def geometry_for(self, width: float, height: float) -> BoardGeometry:
        """The board layout in a picture of the given size."""
        return BoardGeometry(self._frame.rows, self._frame.cols, width, height)

    def board_geometry(self) -> BoardGeometry:
        """The board layout in this widget as it is now."""
        return self.geometry_for(self.width(), self.height())

    def cell_at(self, pos: QPointF) -> Cell | None:
        """The board cell under a widget position, or None outside the board."""
        return self.board_geometry().cell_at(QPointF(pos))

    def cell_rect(self, cell: Cell, size: QSize | None = None) -> QRectF:
        """A cell's square in widget coordinates (or in a picture of `size`)."""
        if size is None:
            return self.board_geometry().rect(cell)
        return self.geometry_for(size.width(), size.height()).rect(cell)

    def render_image(self, width: int, height: int) -> QImage:
        """The current frame painted into a new width x height image."""
        image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(self.palette().window().color())
        painter = QPainter(image)
        try:
            self._paint(painter, width, height)
        finally:
            painter.end()
        return image

    def sizeHint(self) -> QSize:
        return QSize(400, 400)

    # Painting ----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            self._paint(painter, self.width(), self.height())
        finally:
            painter.end()

    def paint_overlay(self, painter: QPainter, geometry: BoardGeometry) -> None:
        """Hook for subclasses: drawn last, over the frame."""

    def _paint(self, painter: QPainter, width: int, height: int) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        frame = self._frame
        geometry = self.geometry_for(width, height)
        self._paint_board(painter, geometry, frame)
        resting = [piece for piece in frame.pieces if not piece.highlighted]
        moving = [piece for piece in frame.pieces if piece.highlighted]
        for piece in resting + moving:
            self._paint_piece(painter, geometry, piece)
        for piece in frame.goal:
            self._paint_goal_outline(painter, geometry, piece)
        self._paint_problems(painter, geometry, frame.problem_cells)
        self.paint_overlay(painter, geometry)

    def _paint_board(self, painter: QPainter, geometry: BoardGeometry, frame: Frame) -> None:
        s = geometry.size
        board = geometry.board()
        painter.fillRect(board, qcolour(EMPTY_COLOUR))
        for cell in frame.any_cells:
            hatch(painter, geometry.rect(cell), qcolour(ANY_HATCH_COLOUR), s / 5, max(1.0, s / 40))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(qcolour(EMPTY_DOT_COLOUR))
        for cell in frame.empty_required:
            painter.drawEllipse(geometry.rect(cell).center(), s * 0.07, s * 0.07)
        grid = QPen(qcolour(GRID_COLOUR), 1)
        grid.setCosmetic(True)
        painter.setPen(grid)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for r in range(1, geometry.rows):
            y = board.top() + r * s + 0.5
            painter.drawLine(QPointF(board.left(), y), QPointF(board.right(), y))
        for c in range(1, geometry.cols):
            x = board.left() + c * s + 0.5
            painter.drawLine(QPointF(x, board.top()), QPointF(x, board.bottom()))
        for cell in frame.obstacles:
            if 0 <= cell[0] < geometry.rows and 0 <= cell[1] < geometry.cols:
                rect = geometry.rect(cell)
                painter.fillRect(rect, qcolour(OBSTACLE_COLOUR))
                hatch(painter, rect, qcolour(OBSTACLE_HATCH_COLOUR), s / 4, max(1.0, s / 22))
        border = QPen(qcolour(GRID_COLOUR).darker(130), 2)
        painter.setPen(border)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(board.adjusted(-1, -1, 1, 1))

    def _paint_piece(self, painter: QPainter, geometry: BoardGeometry, piece: DrawnPiece) -> None:
        s = geometry.size
        rgb = KIND_COLOURS.get(piece.kind, UNKNOWN_KIND_COLOUR)
        colour = qcolour(rgb)
        path = piece_path(geometry, piece.cells)
        painter.save()
        painter.translate(piece.offset[1] * s, piece.offset[0] * s)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawPath(path)
        outline = QPen(colour.darker(150), max(1.0, s / 36))
        outline.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(outline)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
        if piece.highlighted:
            width = max(3.0, s / 9)
            for pen_colour, pen_width in ((HALO_COLOUR, width), (HIGHLIGHT_COLOUR, width / 2)):
                pen = QPen(qcolour(pen_colour), pen_width)
                pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
                painter.setPen(pen)
                painter.drawPath(path)
        if piece.axis is not Axis.ANY and piece.cells:
            paint_axis_mark(painter, geometry, piece.cells, piece.axis, qcolour(text_colour(rgb)))
        if piece.cells and s >= 14:
            anchor = geometry.rect(piece.cells[0])
            inset = s * (GAP + 0.07)
            font = QFont(painter.font())
            font.setPixelSize(max(8, round(s * 0.24)))
            font.setBold(True)
            painter.setFont(font)
            painter.setPen(qcolour(text_colour(rgb)))
            label = QRectF(anchor.left() + inset, anchor.top() + inset * 0.6, s / 2, s / 2)
            flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
            painter.drawText(label, int(flags), piece.kind)
        painter.restore()

    def _paint_goal_outline(
        self, painter: QPainter, geometry: BoardGeometry, piece: DrawnPiece
    ) -> None:
        """A dashed outline in the kind's colour, on a light halo so it shows over any piece."""
        s = geometry.size
        path = piece_path(geometry, piece.cells)
        width = min(max(1.5, s / 18), 4.0)
        colour = qcolour(KIND_COLOURS.get(piece.kind, UNKNOWN_KIND_COLOUR)).darker(130)
        painter.save()
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for pen in (
            QPen(qcolour(HIGHLIGHT_COLOUR, 200), width + 2),
            QPen(colour, width, Qt.PenStyle.DashLine),
        ):
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
            painter.drawPath(path)
        painter.restore()

    def _paint_problems(
        self, painter: QPainter, geometry: BoardGeometry, cells: frozenset[Cell]
    ) -> None:
        if not cells:
            return
        s = geometry.size
        width = max(2.0, s / 14)
        for pen_colour, pen_width in (((255, 255, 255), width + 2), (PROBLEM_COLOUR, width)):
            painter.setPen(QPen(qcolour(pen_colour), pen_width))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for cell in cells:
                inset = s * 0.12
                painter.drawRect(geometry.rect(cell).adjusted(inset, inset, -inset, -inset))


def paint_axis_mark(
    painter: QPainter, geometry: BoardGeometry, cells: tuple[Cell, ...], axis: Axis, colour: QColor
) -> None:
    """A double-headed arrow through the middle of the piece along the axis its kind keeps to,
    so a player sees at once which way it may move."""
    s = geometry.size
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    middle = geometry.rect((sum(rows) / len(rows), sum(cols) / len(cols))).center()
    if axis is Axis.HORIZONTAL:
        half = ((max(cols) - min(cols) + 1) * s) / 2 - s * 0.3
        ends = (QPointF(middle.x() - half, middle.y()), QPointF(middle.x() + half, middle.y()))
    else:
        half = ((max(rows) - min(rows) + 1) * s) / 2 - s * 0.3
        ends = (QPointF(middle.x(), middle.y() - half), QPointF(middle.x(), middle.y() + half))
    head = s * 0.14
    colour = QColor(colour)
    colour.setAlpha(170)
    pen = QPen(colour, max(1.5, s / 22))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.save()
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawLine(*ends)
    for tip, other in (ends, ends[::-1]):
        dx, dy = other.x() - tip.x(), other.y() - tip.y()
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        for side in (1, -1):
            barb = QPointF(tip.x() + head * (ux - side * uy), tip.y() + head * (uy + side * ux))
            painter.drawLine(tip, barb)
    painter.restore()


def piece_path(geometry: BoardGeometry, cells: tuple[Cell, ...]) -> QPainterPath:
    """One outline for the cells of a piece: each cell shrunk by the gap, except towards
    neighbouring cells of the same piece, with the outer corners rounded."""
    s = geometry.size
    g = max(1.0, s * GAP)
    radius = min(s * RADIUS, (s - 2 * g) / 2)
    own = set(cells)
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    for r, c in cells:
        rect = geometry.rect((r, c))
        north, south = (r - 1, c) in own, (r + 1, c) in own
        west, east = (r, c - 1) in own, (r, c + 1) in own
        inner = rect.adjusted(g, g, -g, -g)
        path.addPath(
            _rounded_rect(
                inner,
                radius,
                top_left=not (north or west),
                top_right=not (north or east),
                bottom_right=not (south or east),
                bottom_left=not (south or west),
            )
        )
        # Bridges towards same-piece neighbours, and corner squares where a 2x2 block is full.
        if north:
            path.addRect(QRectF(inner.left(), rect.top(), inner.width(), g))
        if south:
            path.addRect(QRectF(inner.left(), inner.bottom(), inner.width(), g))
        if west:
            path.addRect(QRectF(rect.left(), inner.top(), g, inner.height()))
        if east:
            path.addRect(QRectF(inner.right(), inner.top(), g, inner.height()))
        for dr, dc, x, y in (
            (-1, -1, rect.left(), rect.top()),
            (-1, 1, inner.right(), rect.top()),
            (1, -1, rect.left(), inner.bottom()),
            (1, 1, inner.right(), inner.bottom()),
        ):
            if (r + dr, c) in own and (r, c + dc) in own and (r + dr, c + dc) in own:
                path.addRect(QRectF(x, y, g, g))
    return path.simplified()


def _rounded_rect(
    rect: QRectF,
    radius: float,
    *,
    top_left: bool,
    top_right: bool,
    bottom_right: bool,
    bottom_left: bool,
) -> QPainterPath:
    """A rectangle with only the chosen corners rounded."""
    path = QPainterPath()
    left, top, right, bottom = rect.left(), rect.top(), rect.right(), rect.bottom()
    d = 2 * radius
    if top_left:
        path.moveTo(left, top + radius)
        path.arcTo(QRectF(left, top, d, d), 180, -90)
    else:
        path.moveTo(left, top)
    if top_right:
        path.lineTo(right - radius, top)
        path.arcTo(QRectF(right - d, top, d, d), 90, -90)
    else:
        path.lineTo(right, top)
    if bottom_right:
        path.lineTo(right, bottom - radius)
        path.arcTo(QRectF(right - d, bottom - d, d, d), 0, -90)
    else:
        path.lineTo(right, bottom)
    if bottom_left:
        path.lineTo(left + radius, bottom)
        path.arcTo(QRectF(left, bottom - d, d, d), 270, -90)
    else:
        path.lineTo(left, bottom)
    path.closeSubpath()
    return path


def hatch(painter: QPainter, rect: QRectF, colour: QColor, spacing: float, width: float) -> None:
    """Diagonal lines (rising to the right) across `rect`, clipped to it."""
    painter.save()
    painter.setClipRect(rect, Qt.ClipOperation.IntersectClip)
    painter.setPen(QPen(colour, width))
    spacing = max(spacing, 2.0)
    x = rect.left() - rect.height()
    while x < rect.right():
        painter.drawLine(QPointF(x, rect.bottom()), QPointF(x + rect.height(), rect.top()))
        x += spacing
    painter.restore()

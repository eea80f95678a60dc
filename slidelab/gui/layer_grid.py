"""A grid of one z layer of a 3D box of cells, for building shapes by clicking.

The workbenches use it to edit polycube pieces and boxes and antislide packings:
the grid paints each cell in the colour the workbench gives it and reports the
cells the user presses or drags across; what a click means is up to the caller.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QSpinBox, QVBoxLayout, QWidget

from slidelab.geometry.palettes import GRID_COLOUR, PROBLEM_COLOUR, RGB

Cell = tuple[int, int, int]
BLANK: RGB = (255, 255, 255)


class _Canvas(QWidget):
    """The painted grid of the current layer (x to the right, y downwards)."""

    pressed = Signal(int, int)
    dragged = Signal(int, int)

    def __init__(self, grid: LayerGrid) -> None:
        super().__init__(grid)
        self.grid = grid
        self.setMinimumSize(160, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._last: tuple[int, int] | None = None

    def sizeHint(self) -> QSize:
        return QSize(240, 240)

    def cell_size(self) -> float:
        columns, rows, _ = self.grid.dims
        return max(4.0, min((self.width() - 1) / columns, (self.height() - 1) / rows))

    def cell_rect(self, x: int, y: int) -> QRectF:
        size = self.cell_size()
        return QRectF(x * size, y * size, size, size)

    def cell_at(self, point: QPoint) -> tuple[int, int] | None:
        size = self.cell_size()
        x, y = int(point.x() // size), int(point.y() // size)
        columns, rows, _ = self.grid.dims
        return (x, y) if 0 <= x < columns and 0 <= y < rows and point.x() >= 0 else None

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        columns, rows, _ = self.grid.dims
        z = self.grid.layer
        painter.setPen(QPen(QColor(*GRID_COLOUR), 1))
        for y in range(rows):
            for x in range(columns):
                colour = self.grid.colours.get((x, y, z), self.grid.background)
                painter.setBrush(QColor(*colour))
                painter.drawRect(self.cell_rect(x, y))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(*PROBLEM_COLOUR), 3))
        for x, y, cz in self.grid.marked:
            if cz == z:
                painter.drawRect(self.cell_rect(x, y).adjusted(2, 2, -2, -2))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        self._last = self.cell_at(event.position().toPoint())
        if self._last is not None:
            self.pressed.emit(*self._last)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if not event.buttons() & Qt.MouseButton.LeftButton:
            return
        cell = self.cell_at(event.position().toPoint())
        if cell is not None and cell != self._last:
            self._last = cell
            self.dragged.emit(*cell)


class LayerGrid(QWidget):
    """One z layer of an X x Y x Z block of cells, with a spin box to pick the layer.

    Signals `cellPressed(x, y, z)` when the left button goes down on a cell and
    `cellDragged(x, y, z)` for each further cell the pointer drags across.
    """

    cellPressed = Signal(int, int, int)
    cellDragged = Signal(int, int, int)

    def __init__(self, dims: Cell = (4, 4, 4), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.dims = dims
        self.layer = 0
        self.colours: dict[Cell, RGB] = {}
        self.marked: set[Cell] = set()
        self.background = BLANK
        self.layer_spin = QSpinBox()
        self.layer_spin.setPrefix("z = ")
        self.layer_spin.setToolTip("The layer shown: cells with this z coordinate")
        self.layer_spin.valueChanged.connect(self.set_layer)
        self.layer_count = QLabel()
        self.canvas = _Canvas(self)
        self.canvas.pressed.connect(lambda x, y: self.cellPressed.emit(x, y, self.layer))
        self.canvas.dragged.connect(lambda x, y: self.cellDragged.emit(x, y, self.layer))
        self._header = [QLabel("Layer"), self.layer_spin, self.layer_count]
        header = QHBoxLayout()
        for widget in self._header:
            header.addWidget(widget)
        header.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.canvas, 1)
        self.set_dims(dims)

    def set_dims(self, dims: Cell) -> None:
        """Show an X x Y x Z block; the layer is kept when it still exists.  A flat block (Z = 1)
        shows no layer controls."""
        self.dims = dims
        for widget in self._header:
            widget.setVisible(dims[2] > 1)
        self.layer_spin.setRange(0, dims[2] - 1)
        self.layer_count.setText(f"of 0-{dims[2] - 1}")
        self.set_layer(min(self.layer, dims[2] - 1))

    def set_layer(self, z: int) -> None:
        self.layer = z
        if self.layer_spin.value() != z:
            self.layer_spin.setValue(z)
        self.canvas.update()

    def set_colours(self, colours: dict[Cell, RGB], background: RGB = BLANK) -> None:
        """Paint the given cells in their colours and every other cell in `background`."""
        self.colours = dict(colours)
        self.background = background
        self.canvas.update()

    def set_marked(self, cells: set[Cell]) -> None:
        """Outline these cells in the warning colour (bricks that can slide, say)."""
        self.marked = set(cells)
        self.canvas.update()

    def cell_centre(self, x: int, y: int) -> QPoint:
        """Where cell (x, y) of the shown layer is, in canvas coordinates (for tests)."""
        return self.canvas.cell_rect(x, y).center().toPoint()

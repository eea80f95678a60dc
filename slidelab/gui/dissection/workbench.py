"""The dissection workbench: click a shape, cut the square (or another shape) into d pieces.

The document is the target shape in `.dots` form.  The target is drawn by clicking or
dragging on a grid; the source is the n x n square, or a second shape drawn the same
way.  Solve runs in the background; solutions stream into a list, and the chosen one
shows the source and the target side by side, each piece in the same colour in both,
with an animation that moves the pieces into place.  The list may keep one dissection per
class up to the target's symmetries, and be sorted by piece sizes or turned pieces.  PNG
and SVG export.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import replace
from functools import partial

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMenu,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from slidelab.dissection.distinct import DistinctRun, only_distinct
from slidelab.dissection.drawable import DrawableSolutions, with_tables
from slidelab.dissection.family import DISSECTION
from slidelab.dissection.keys import SORT_KEYS, piece_sizes, turned_pieces
from slidelab.dissection.model import MAX_PIECES, Dissection, Solution, square_source
from slidelab.dissection.search import DissectionResult, SolutionsFound, smallest, solve
from slidelab.dissection.shape import Cell, Shape, format_shape, parse_region
from slidelab.dissection.shifts import Tables
from slidelab.errors import SlidelabError
from slidelab.export.svg import write_dissection_svg
from slidelab.geometry.palettes import piece_colour
from slidelab.gui.dissection.view import DissectionView
from slidelab.gui.images import save_png
from slidelab.gui.layer_grid import LayerGrid
from slidelab.gui.undo import Snapshot
from slidelab.gui.workbench import RunningWorkbench, TextDocument
from slidelab.library import shipped_names
from slidelab.runs import Progress
from slidelab.wording import numbered

GRID = 8
"""Rows and columns of the shape editors (more when a shape is bigger)."""
SHOWN = 5000
"""Most solutions listed; the count goes on past it."""
SHAPE_COLOUR = (120, 120, 130)

SearchFactory = Callable[[], Generator[Progress | SolutionsFound, None, DissectionResult]]


class DissectionWorkbench(TextDocument, RunningWorkbench[DrawableSolutions]):
    """Shape editors on the left, the two shapes in the middle, solving on the right."""

    title = "Dissection"
    family = DISSECTION
    file_filter = "Dissection shapes (*.dots);;All files (*)"
    default_name = "shape.dots"

    def __init__(self, runner, status, parent: QWidget | None = None) -> None:
        super().__init__(runner, status, parent)
        self.target: frozenset[Cell] = frozenset()
        self.source: frozenset[Cell] = frozenset()
        self._painting = True
        """Whether the current drag adds cells (True) or removes them."""
        self._tables: Tables | None = None
        self._solutions: list[Solution] = []
        """In the order found."""
        self._order: list[int] = []
        """The listed solutions, row by row, as positions in `_solutions`."""

        self.view = DissectionView()
        self.view.pieceHovered.connect(self._piece_hovered)
        self.place([self._shape_panel(), self.view, self._solve_panel()], [280, 560, 260])
        self.new_document()

    # Panels ------------------------------------------------------------------------------

    def _shape_panel(self) -> QWidget:
        self.target_grid = LayerGrid((GRID, GRID, 1))
        self.target_grid.setToolTip("Click or drag to add cells to the target or take them out")
        self.target_grid.cellPressed.connect(lambda x, y, _z: self._pressed(x, y, True))
        self.target_grid.cellDragged.connect(lambda x, y, _z: self._dragged(x, y, True))
        self.target_info = QLabel()
        self.target_info.setWordWrap(True)
        self.custom_source = QGroupBox("Cut another shape, not the square")
        self.custom_source.setCheckable(True)
        self.custom_source.setChecked(False)
        self.custom_source.toggled.connect(self._shapes_changed)
        self.source_grid = LayerGrid((GRID, GRID, 1))
        self.source_grid.setToolTip("Click or drag to draw the shape to cut")
        self.source_grid.cellPressed.connect(lambda x, y, _z: self._pressed(x, y, False))
        self.source_grid.cellDragged.connect(lambda x, y, _z: self._dragged(x, y, False))
        inner = QVBoxLayout(self.custom_source)
        inner.addWidget(self.source_grid)
        panel = QWidget()
        layout = QVBoxLayout(panel)
        layout.addWidget(QLabel("Target"))
        layout.addWidget(self.target_grid, 1)
        layout.addWidget(self.target_info)
        layout.addWidget(self.custom_source, 1)
        return panel

    def _solve_panel(self) -> QWidget:
        self.pieces = QSpinBox()
        self.pieces.setRange(2, MAX_PIECES)
        self.pieces.setValue(3)
        self.pieces.setToolTip("d: how many pieces the source is cut into")
        self.connected = QCheckBox("Connected pieces")
        self.connected.setToolTip("Every piece must hang together (4-connected)")
        self.flips = QCheckBox("Pieces may be turned over")
        self.fewest = QCheckBox("Fewest pieces (d at most)")
        self.fewest.setToolTip("Try 2, 3, ... pieces up to d and stop at the first that works")
        self.distinct = QCheckBox("Distinct only (up to symmetry)")
        self.distinct.setToolTip(
            "List one dissection of each class: two are the same when a turn of the target (or "
            "a mirror image, when pieces may be turned over) carries one onto the other, the "
            "same cut of the source making the same pieces"
        )
        self.sort_choice = QComboBox()
        self.sort_choice.addItems(["order found", *(key.name for key in SORT_KEYS)])
        self.sort_choice.setToolTip("The order of the list")
        self.sort_choice.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.sort_choice.setMinimumContentsLength(12)
        self.sort_choice.currentIndexChanged.connect(self._sort_changed)
        self.solve_button = QPushButton("Solve")
        self.solve_button.clicked.connect(self.solve)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.runner.cancel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.solve_button)
        buttons.addWidget(self.cancel_button)
        self.result_text = QLabel()
        self.result_text.setWordWrap(True)
        self.solution_list = QListWidget()
        self.solution_list.currentRowChanged.connect(self._solution_chosen)
        self.hover_text = QLabel()
        self.animate_button = QPushButton("Animate")
        self.animate_button.setToolTip("Move the pieces from the source into the target")
        self.animate_button.clicked.connect(self.view.animate)
        png = QPushButton("PNG…")
        png.clicked.connect(lambda: self._ask_export("PNG images (*.png)", self.export_png))
        svg = QPushButton("SVG…")
        svg.clicked.connect(lambda: self._ask_export("SVG drawings (*.svg)", self.export_svg))
        exports = QHBoxLayout()
        exports.addWidget(png)
        exports.addWidget(svg)
        form = QFormLayout()
        form.addRow("Pieces", self.pieces)
        sorting = QFormLayout()
        sorting.addRow("Sort by", self.sort_choice)
        panel = QWidget()
        layout = QVBoxLayout(panel)
        layout.addLayout(form)
        for widget in (self.connected, self.flips, self.fewest, self.distinct):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addWidget(self.result_text)
        layout.addLayout(sorting)
        layout.addWidget(self.solution_list, 1)
        layout.addWidget(self.hover_text)
        layout.addWidget(self.animate_button)
        layout.addLayout(exports)
        return panel

    # Document ----------------------------------------------------------------------------

    def new_document(self) -> None:
        self._replace(frozenset())

    def load_text(self, text: str, source: str) -> None:
        self._replace(frozenset(parse_region(text, source).cells))

    def current_text(self) -> str:
        if not self.target:
            raise SlidelabError("the target has no cells")
        return format_shape(Shape(tuple(self.target)))

    def library_titles(self) -> dict[str, str]:
        return {
            name: name.removesuffix(".dots").replace("-", " ") for name in shipped_names(DISSECTION)
        }

    def menus(self) -> list[QMenu]:
        return []

    def _replace(self, target: frozenset[Cell]) -> None:
        self.undo_stack.clear()
        self.show_target(target)
        self.undo_stack.setClean()

    def show_target(self, target: frozenset[Cell]) -> None:
        """Show `target` in its editor; solutions of another target are dropped."""
        self.target = target
        self._shapes_changed()

    # Editing -----------------------------------------------------------------------------

    def _pressed(self, x: int, y: int, target: bool) -> None:
        cells = self.target if target else self.source
        self._painting = (y, x) not in cells
        self._dragged(x, y, target)

    def _dragged(self, x: int, y: int, target: bool) -> None:
        cells = self.target if target else self.source
        if ((y, x) in cells) == self._painting:
            return
        if target:
            self.undo_stack.push(
                Snapshot(self.show_target, self.target, self.target ^ {(y, x)}, "Edit target")
            )
        else:
            self.source = self.source ^ {(y, x)}
            self._shapes_changed()

    def _shapes_changed(self) -> None:
        """Refresh the editors, the cell count and the view after any change of shape."""
        for grid, cells in ((self.target_grid, self.target), (self.source_grid, self.source)):
            rows = max((r for r, _ in cells), default=0) + 2
            columns = max((c for _, c in cells), default=0) + 2
            grid.set_dims((max(GRID, columns), max(GRID, rows), 1))
            grid.set_colours({(c, r, 0): SHAPE_COLOUR for r, c in cells})
        count = len(self.target)
        side = Shape(tuple(self.target)).side if count else None
        if self.custom_source.isChecked():
            match = "the same as" if len(self.source) == count else "not the same as"
            self.target_info.setText(
                f"{count} cells; the shape to cut has {len(self.source)}, {match} the target."
            )
        else:
            square = f"= {side} x {side}, a square's worth" if side else "not a perfect square"
            self.target_info.setText(f"{count} cells {square}.")
        self._forget_solutions()
        self.result_text.setText("")
        self._tables = None
        self._show(None)
        self._update_actions()

    def dissection(self) -> Dissection:
        """The problem as drawn; raises SlidelabError when it cannot be solved."""
        if not self.target:
            raise SlidelabError("draw the target first")
        target = Shape(tuple(self.target))
        if self.custom_source.isChecked():
            if not self.source:
                raise SlidelabError("draw the shape to cut first")
            source = Shape(tuple(self.source))
        else:
            source = square_source(target)
        return Dissection(
            source, target, self.pieces.value(), self.connected.isChecked(), self.flips.isChecked()
        )

    def _show(self, solution: Solution | None) -> None:
        """Show `solution` (it comes with the tables), or the drawn shapes uncoloured."""
        if self._tables is not None:
            self.view.set_content(self._tables, solution)
            return
        try:
            dissection = self.dissection()
        except SlidelabError:
            self.view.set_content(None, None)
            return
        self.view.set_shapes(dissection.source, dissection.target)

    # Solving -----------------------------------------------------------------------------

    def _update_actions(self) -> None:
        try:
            self.dissection()
            problem = ""
        except SlidelabError as error:
            problem = str(error)
        self.solve_button.setEnabled(not problem and not self.runner.busy)
        self.solve_button.setToolTip(problem or "Find every dissection")
        self.cancel_button.setEnabled(self.running)

    def solve(self) -> None:
        """Search on the worker thread, its tables built there first; solutions stream into
        the list."""
        dissection = self.dissection()
        self._tables = None
        self._forget_solutions()
        self._show(None)
        self.result_text.setText("Solving…")
        phase = f"dissection into {dissection.pieces} pieces"
        distinct = self.distinct.isChecked()
        if self.fewest.isChecked():
            most = dissection.pieces
            start = replace(dissection, pieces=2)
            search: SearchFactory = partial(smallest, start, most=most)
        else:
            search = partial(solve, dissection)
        if distinct:
            self.start_run(
                phase, lambda: with_tables(dissection, only_distinct(search(), dissection))
            )
        else:
            self.start_run(phase, lambda: with_tables(dissection, search()))

    def _forget_solutions(self) -> None:
        self._solutions = []
        self._order = []
        self.solution_list.clear()

    def run_found(self, batch: DrawableSolutions) -> None:
        self._tables = batch.tables
        room = SHOWN - len(self._solutions)
        if room <= 0:
            return
        fresh = batch.solutions()[:room]
        start = len(self._solutions)
        self._solutions += fresh
        if self.sort_choice.currentIndex() == 0:
            self._order += range(start, len(self._solutions))
            self.solution_list.addItems(
                [self._label(k) for k in range(start, len(self._solutions))]
            )
        else:
            self._sort_changed()
        if start == 0:
            self.solution_list.setCurrentRow(0)

    def _label(self, k: int) -> str:
        """The list's text for the k-th solution found: its number, piece sizes, turns."""
        solution = self._solutions[k]
        sizes = "+".join(str(size) for size in piece_sizes(solution))
        turned = "" if self._tables is None else f", {turned_pieces(self._tables, solution)} turned"
        return f"Solution {k + 1}: {sizes}{turned}"

    def _sort_changed(self) -> None:
        """Order the list by the chosen key (ties in the order found), keeping the shown one."""
        row = self.solution_list.currentRow()
        shown = self._order[row] if 0 <= row < len(self._order) else None
        choice = self.sort_choice.currentIndex()
        tables = self._tables
        if choice == 0 or tables is None:
            self._order = list(range(len(self._solutions)))
        else:
            key = SORT_KEYS[choice - 1].key
            self._order = sorted(
                range(len(self._solutions)), key=lambda k: key(tables, self._solutions[k])
            )
        self.solution_list.blockSignals(True)
        self.solution_list.clear()
        self.solution_list.addItems([self._label(k) for k in self._order])
        self.solution_list.blockSignals(False)
        if shown is not None:
            self.solution_list.setCurrentRow(self._order.index(shown))

    def run_finished(self, result: object) -> str:
        distinct, listable = "", None
        if isinstance(result, DistinctRun):
            listable = result.distinct
            distinct = (
                f"; {result.distinct:,} distinct up to the target's {result.symmetries} "
                "symmetries, one of each listed"
            )
            result = result.result
        assert isinstance(result, DissectionResult)
        listable = result.count if listable is None else listable
        shown = "" if listable <= SHOWN else f" (the first {SHOWN:,} are listed)"
        self.result_text.setText(
            f"{numbered(result.count, 'solution')} with {result.dissection.pieces} pieces"
            f"{distinct}; "
            f"{result.shifts} legal shifts{shown}."
        )
        return f"{result.count:,} dissections"

    def run_stopped(self) -> None:
        self.result_text.setText(f"Stopped after {len(self._solutions):,} solutions.")

    def _shown(self, row: int) -> Solution | None:
        """The solution in row `row` of the list, if any."""
        return self._solutions[self._order[row]] if 0 <= row < len(self._order) else None

    def _solution_chosen(self, row: int) -> None:
        self._show(self._shown(row))

    def _piece_hovered(self, colour: int) -> None:
        if not colour:
            self.hover_text.setText("")
            return
        rgb = "#{:02x}{:02x}{:02x}".format(*piece_colour(colour - 1))
        self.hover_text.setText(f"<span style='color:{rgb}'>■</span> piece {colour}")

    def solution_count(self) -> int:
        """Solutions listed (for tests)."""
        return len(self._solutions)

    # Export ------------------------------------------------------------------------------

    def _ask_export(self, kind: str, export) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export", "", kind)
        if path:
            try:
                export(path)
            except SlidelabError as error:
                QMessageBox.critical(self, "slidelab", f"Not exported: {error}")

    def export_png(self, path: str) -> None:
        save_png(self.view.grab().toImage(), path)

    def export_svg(self, path: str) -> None:
        panels = self._tables or self.view.panels
        if panels is None:
            raise SlidelabError("nothing to export yet")
        write_dissection_svg(path, panels, self._shown(self.solution_list.currentRow()))

"""The antislide workbench: enumerate packings of a box, look at them in 3D, edit one by hand.

The document is one packing in layer notation (the one shown); Run fills a
sortable, filterable list with every class of the chosen box, streaming as the
search goes.  The list keeps the packings in the engine's compact arrays
(`ArrayTableModel`), so the 717,676 classes of the 4x5x5 box cost a few bytes
each and the window keeps drawing while they come in.
In edit mode clicks on the layer grid add and remove bricks (clicks in the view
remove them), and the view marks at once the bricks that could slide.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from slidelab.antislide.document import PackingDocument, format_document, parse_document
from slidelab.antislide.editing import brick_at, why_not_placed
from slidelab.antislide.family import ANTISLIDE
from slidelab.antislide.layers import label
from slidelab.antislide.model import Box, Placement, locks, orientations, sliding_faces
from slidelab.antislide.search import AntislideResult, PackingsFound, decode_packing, solve
from slidelab.geometry.packing_scenes import brick_cells, brick_scene
from slidelab.gui.array_table import ArrayTableModel, TableColumn
from slidelab.gui.layer_grid import LayerGrid
from slidelab.gui.status import StatusPanel
from slidelab.gui.undo import Snapshot
from slidelab.gui.view3d import VoxelView
from slidelab.gui.workbench import RunningWorkbench, TextDocument
from slidelab.gui.worker import SolverRunner
from slidelab.library import shipped_names, shipped_text

MAX_SIDE = 8
"""Largest box side offered (the 4x5x5 count takes seconds; 5x5x5 and beyond take hours)."""


COLUMNS = (
    TableColumn("#", "number", "The order the search found the packing in"),
    TableColumn("blocks", "blocks", "How many bricks the packing has"),
    TableColumn("syms", "symmetries", "The order of the packing's symmetry group (its symmetries)"),
)


class AntislideWorkbench(TextDocument, RunningWorkbench[PackingsFound]):
    """Box and brick controls, the packing list, the 3D view and the edit tools."""

    title = "Antislide"
    family = ANTISLIDE
    file_filter = "Antislide packings (*.antislide);;All files (*)"
    default_name = "packing.antislide"

    def __init__(
        self, runner: SolverRunner, status: StatusPanel, parent: QWidget | None = None
    ) -> None:
        super().__init__(runner, status, parent)
        self.document = PackingDocument(Box((3, 3, 3)), (2, 2, 1), ())
        self._placements: tuple[Placement, ...] = ()
        self._run_box = self.document.box
        self._run_brick = self.document.brick
        self._locked: int | None = None

        self.view = VoxelView()
        self.view.pieceClicked.connect(self._piece_clicked)
        self.place([self._run_panel(), self.view, self._inspect_panel()], [260, 560, 280])
        self.new_document()

    # Panels ------------------------------------------------------------------------------

    def _spin(self, low: int, high: int, value: int, tip: str) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(low, high)
        spin.setValue(value)
        spin.setToolTip(tip)
        return spin

    def _run_panel(self) -> QWidget:
        self.box_spins = [
            self._spin(1, MAX_SIDE, 3, f"The box's size along {axis}") for axis in "xyz"
        ]
        self.brick_spins = [
            self._spin(1, MAX_SIDE, v, "The brick's size (any orientation)") for v in (2, 2, 1)
        ]
        self.min_blocks = self._spin(0, 999, 0, "List only packings with at least this many")
        self.max_blocks = self._spin(0, 999, 999, "List only packings with at most this many")
        self.run_button = QPushButton("Run")
        self.run_button.setToolTip("Enumerate every antisliding packing, one per symmetry class")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.runner.cancel)
        form = QFormLayout()
        form.addRow("Box", self._row(self.box_spins))
        form.addRow("Brick", self._row(self.brick_spins))
        form.addRow("Min blocks", self.min_blocks)
        form.addRow("Max blocks", self.max_blocks)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        self.summary = QLabel("Choose a box and press Run.")
        self.summary.setWordWrap(True)
        self.show_low = self._spin(0, 999, 0, "Show only listed packings with this many or more")
        self.show_high = self._spin(
            0, 999, 999, "Show only listed packings with this many or fewer"
        )
        for spin in (self.show_low, self.show_high):
            spin.setKeyboardTracking(False)  # filter once the number is typed, not per digit
            spin.valueChanged.connect(self._filter_changed)
        shown = QFormLayout()
        shown.addRow("Show blocks", self._row([self.show_low, self.show_high]))
        self.packings = ArrayTableModel(COLUMNS, self)
        self.table = QTableView()
        self.table.setModel(self.packings)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(True)
        self.table.selectionModel().selectionChanged.connect(self._packing_chosen)
        panel = QWidget()
        layout = QVBoxLayout(panel)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.summary)
        layout.addLayout(shown)
        layout.addWidget(self.table, 1)
        return panel

    @staticmethod
    def _row(spins: list[QSpinBox]) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        for spin in spins:
            layout.addWidget(spin)
        return row

    def _inspect_panel(self) -> QWidget:
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.show_locks = QCheckBox("Show locks")
        self.show_locks.setToolTip(
            "Click a brick to see which neighbours or walls stop each of its faces"
        )
        self.show_locks.toggled.connect(self._refresh_emphasis)
        self.locks_text = QLabel()
        self.locks_text.setWordWrap(True)
        self.brick_list = QListWidget()
        self.brick_list.setToolTip("Untick a brick to hide it")
        self.brick_list.itemChanged.connect(self._visibility_changed)
        edit = QGroupBox("Edit mode")
        edit.setCheckable(True)
        edit.setChecked(False)
        edit.setToolTip(
            "Click an empty cell of the layer grid to add a brick there, a brick to remove it; "
            "clicking a brick in the 3D view removes it too"
        )
        self.edit_box = edit
        self.orientation = QComboBox()
        self.orientation.setToolTip("The orientation of bricks added by clicking")
        self.grid = LayerGrid()
        self.grid.cellPressed.connect(self._grid_pressed)
        self.edit_message = QLabel()
        self.edit_message.setWordWrap(True)
        edit_layout = QVBoxLayout(edit)
        edit_layout.addWidget(self.orientation)
        edit_layout.addWidget(self.grid, 1)
        edit_layout.addWidget(self.edit_message)
        panel = QWidget()
        layout = QVBoxLayout(panel)
        layout.addWidget(self.verdict)
        layout.addWidget(self.show_locks)
        layout.addWidget(self.locks_text)
        layout.addWidget(QLabel("Bricks"))
        layout.addWidget(self.brick_list)
        layout.addWidget(edit, 1)
        return panel

    # Document (the shown packing) --------------------------------------------------------

    def new_document(self) -> None:
        box = Box(tuple(s.value() for s in self.box_spins))  # type: ignore[arg-type]
        brick = tuple(s.value() for s in self.brick_spins)
        self._replace_document(PackingDocument(box, brick, ()))  # type: ignore[arg-type]

    def load_text(self, text: str, source: str) -> None:
        self._replace_document(parse_document(text, source))

    def current_text(self) -> str:
        return format_document(self.document)

    def library_titles(self) -> dict[str, str]:
        return {
            name: shipped_text(ANTISLIDE, name).splitlines()[0].lstrip("# ")
            for name in shipped_names(ANTISLIDE)
        }

    def menus(self) -> list[QMenu]:
        return []

    def _replace_document(self, document: PackingDocument) -> None:
        self.undo_stack.clear()
        self.show_document(document, fit_camera=True)
        self.undo_stack.setClean()

    def show_document(self, document: PackingDocument, fit_camera: bool = False) -> None:
        """Show `document`'s packing everywhere: 3D view, brick list, layer grid, verdict."""
        resized = document.box != self.document.box or fit_camera
        self.document = document
        self._locked = None
        bricks = list(document.bricks)
        self.view.set_scene(document.box.dims, brick_scene(document.brick, bricks), not resized)
        self.brick_list.blockSignals(True)
        self.brick_list.clear()
        for n, brick in enumerate(bricks):
            item = QListWidgetItem(
                f"{label(n)}  {'x'.join(map(str, brick.size))} at {brick.corner}"
            )
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.brick_list.addItem(item)
        self.brick_list.blockSignals(False)
        self.orientation.clear()
        for size in orientations(document.brick):
            self.orientation.addItem("x".join(map(str, size)))
        self.grid.set_dims(document.box.dims)
        self._refresh_emphasis()

    def _edit(self, bricks: list[Placement], text: str) -> None:
        after = PackingDocument(self.document.box, self.document.brick, tuple(bricks))
        self.undo_stack.push(Snapshot(self.show_document, self.document, after, text))

    # What the view emphasises ------------------------------------------------------------

    def _refresh_emphasis(self) -> None:
        box, bricks = self.document.box, list(self.document.bricks)
        slides = sliding_faces(box, bricks)
        sliding = sorted({n for n, _ in slides})
        self.view.set_marked([str(n) for n in sliding])
        if not bricks:
            self.verdict.setText("Empty packing (antisliding, trivially).")
        elif not slides:
            self.verdict.setText(f"Antisliding: none of the {len(bricks)} bricks can slide.")
        else:
            moves = ", ".join(f"{label(n)} {d}" for n, d in slides)
            self.verdict.setText(
                f"<b>Not antisliding</b>: {len(sliding)} of {len(bricks)} bricks can slide "
                f"({moves}); they are marked in red."
            )
        colours = {}
        for piece in brick_scene(self.document.brick, bricks):
            for cell in piece.cells:
                colours[cell] = piece.colour
        self.grid.set_colours(colours)
        self.grid.set_marked({c for n in sliding for c in brick_cells(bricks[n])})
        self._show_locks()

    def _show_locks(self) -> None:
        n = self._locked
        bricks = list(self.document.bricks)
        if not self.show_locks.isChecked() or n is None or n >= len(bricks):
            self.view.set_highlighted([])
            self.view.set_faded([])
            self.locks_text.setText(
                "Click a brick in the view." if self.show_locks.isChecked() else ""
            )
            return
        faces = locks(self.document.box, bricks)[n]
        involved = {n} | {k for lock in faces for k in lock.blockers}
        self.view.set_highlighted([str(n)])
        self.view.set_faded([str(k) for k in range(len(bricks)) if k not in involved])
        lines = []
        for lock in faces:
            if lock.wall:
                what = "the wall"
            elif lock.blockers:
                what = "brick " + ", ".join(label(k) for k in lock.blockers)
            else:
                what = "<b>nothing: it slides</b>"
            lines.append(f"{lock.direction}: {what}")
        self.locks_text.setText(f"Brick {label(n)} is stopped by<br>" + "<br>".join(lines))

    def _visibility_changed(self) -> None:
        hidden = [
            str(n)
            for n in range(self.brick_list.count())
            if self.brick_list.item(n).checkState() != Qt.CheckState.Checked
        ]
        self.view.set_hidden(hidden)

    # Clicks ------------------------------------------------------------------------------

    def _piece_clicked(self, key: str) -> None:
        if not key:
            return
        n = int(key)
        if self.edit_box.isChecked():
            bricks = list(self.document.bricks)
            del bricks[n]
            self._edit(bricks, f"Remove brick {label(n)}")
        else:
            self._locked = n
            self._show_locks()

    def _grid_pressed(self, x: int, y: int, z: int) -> None:
        if not self.edit_box.isChecked():
            self.edit_message.setText("Tick Edit mode to change the packing.")
            return
        box, bricks = self.document.box, list(self.document.bricks)
        hit = brick_at(box, bricks, (x, y, z))
        if hit is not None:
            del bricks[hit]
            self.edit_message.setText("")
            self._edit(bricks, f"Remove brick {label(hit)}")
            return
        size = orientations(self.document.brick)[max(self.orientation.currentIndex(), 0)]
        new = Placement((x, y, z), size)
        reason = why_not_placed(box, bricks, new)
        if reason is not None:
            self.edit_message.setText(reason.capitalize() + ".")
            return
        self.edit_message.setText("")
        self._edit([*bricks, new], "Add brick")

    # Runs --------------------------------------------------------------------------------

    def _update_actions(self) -> None:
        self.run_button.setEnabled(not self.runner.busy)
        self.cancel_button.setEnabled(self.running)

    def run(self) -> None:
        """Enumerate the classes of the chosen box and brick on the worker thread."""
        box = Box(tuple(s.value() for s in self.box_spins))  # type: ignore[arg-type]
        brick: tuple[int, int, int] = tuple(s.value() for s in self.brick_spins)  # type: ignore[assignment]
        low, high = self.min_blocks.value(), self.max_blocks.value()
        self._placements = ()
        self._run_box, self._run_brick = box, brick
        self.packings.clear()
        self.summary.setText("Searching…")
        self.start_run(
            f"antislide {'x'.join(map(str, box.dims))}",
            lambda: solve(box, brick, min_blocks=low, max_blocks=high, stream=True),
        )

    def run_found(self, batch: PackingsFound) -> None:
        self._placements = batch.placements
        listed = len(self.packings.store)
        self.packings.append(
            {
                "number": np.arange(listed + 1, listed + len(batch) + 1, dtype=np.int32),
                "blocks": batch.blocks,
                "symmetries": batch.symmetries,
                "moves": batch.moves,
            }
        )
        self.summary.setText(f"Searching… {self.packing_count():,} packings so far.")

    def run_finished(self, result: object) -> str:
        assert isinstance(result, AntislideResult)
        counts = ", ".join(f"{c} with {b}" for b, c in result.by_blocks.items())
        span = (
            f"; non-empty ones have {result.min_blocks}-{result.max_blocks} blocks"
            if result.min_blocks is not None
            else ""
        )
        self.summary.setText(
            f"{result.solutions:,} classes up to the box's {result.symmetries} symmetries "
            f"({counts}){span}."
        )
        self.packings.store.trim()
        return f"{result.solutions:,} antislide classes"

    def run_stopped(self) -> None:
        self.summary.setText(f"Stopped after {self.packing_count():,} packings.")

    def _filter_changed(self) -> None:
        self.packings.set_ranges((("blocks", self.show_low.value(), self.show_high.value()),))

    def _packing_chosen(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        row = self.packings.source_row(rows[0].row())
        store = self.packings.store
        number = int(store.row("number", row))
        moves = store.row("moves", row)
        symmetries = int(store.row("symmetries", row))
        packing = decode_packing(self._placements, moves, symmetries)
        document = PackingDocument(self._run_box, self._run_brick, packing.bricks)
        self._edit(list(packing.bricks), f"Show packing {number}") if (
            document.box == self.document.box and document.brick == self.document.brick
        ) else self._replace_document(document)

    def packing_count(self) -> int:
        """Packings listed so far, shown or filtered out (for tests and the status line)."""
        return len(self.packings.store)

"""The polycube workbench: build pieces and a box by clicking layers, solve, browse in 3D.

The document is a polycube spec (Knuth's format).  Three pages share one 3D view:
Pieces (the selected piece, turned through its rotations), Box, Solve (the
solution chosen in the browser, with an assembly animation dropping the pieces in)
and Disassemble (how the chosen solution comes apart, played move by move).
A BurrTools file (.xmpuzzle) opens for solving only: pick one of its problems,
count its assemblies as BurrTools does, and browse them in 3D.  Take apart runs
the disassembler on every listed solution or assembly, adding a level column to
sort by and a filter keeping those that come apart.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from slidelab.burrtools.assemblies import AssemblyCount, search_assemblies
from slidelab.burrtools.convert import puzzle_from_spec
from slidelab.burrtools.disassemblies import ListedAssemblies
from slidelab.burrtools.model import Puzzle
from slidelab.burrtools.model import Shape as BurrShape
from slidelab.burrtools.packing import BurrPacking, check_problem, problem_label
from slidelab.burrtools.packing import build_packing as build_burr_packing
from slidelab.burrtools.packing import packing_steps as burr_packing_steps
from slidelab.burrtools.reader import EXTENSION as XMPUZZLE
from slidelab.burrtools.reader import is_xmpuzzle, read_xmpuzzle
from slidelab.burrtools.writer import write_xmpuzzle
from slidelab.disassembly.batch import TakenApartAll, disassemble_all, level_keys
from slidelab.disassembly.model import level_text
from slidelab.errors import SlidelabError
from slidelab.exactcover.dlxformat import format_problem
from slidelab.exactcover.search import ExactCoverResult, SolutionsFound, solve
from slidelab.fileio import read_text, write_text_atomically
from slidelab.geometry.packing_scenes import burr_scene, polycube_scene
from slidelab.geometry.palettes import piece_colour
from slidelab.geometry.scene import ScenePiece
from slidelab.gui.layer_grid import LayerGrid
from slidelab.gui.polycube.disassembly_player import DisassemblyPage
from slidelab.gui.polycube.solution_table import SolutionTable
from slidelab.gui.status import StatusPanel
from slidelab.gui.undo import Snapshot
from slidelab.gui.view3d import VoxelView
from slidelab.gui.workbench import RunningWorkbench
from slidelab.gui.worker import SolverRunner
from slidelab.library import shipped_names
from slidelab.polycube.draft import Draft, split_header
from slidelab.polycube.family import POLYCUBE
from slidelab.polycube.packing import Packing, build_packing, format_dlx, packing_steps
from slidelab.polycube.rotations import orientations
from slidelab.polycube.spec import parse_spec
from slidelab.polycube.symmetry import DistinctCount, search_distinct
from slidelab.runs import Found, Progress, Solver, translate
from slidelab.wording import numbered

EDIT_SPAN = 5
"""Cells along each axis of the piece editor's grid (more when a piece is bigger)."""
BOX_COLOUR = (205, 200, 190)
DROP_HEIGHT = 6.0
"""How far above its place a piece starts in the assembly animation."""
DROP_STEPS = 8
DROP_MS = 30
SOLVE_PAGE, DISASSEMBLE_PAGE = 2, 3


@dataclass(frozen=True, eq=False)
class PackedSolutions(Found):
    """Solutions found, as option numbers, with the packing (built in the run) that decodes
    them into pieces."""

    solutions: tuple[tuple[int, ...], ...]
    packing: Packing | BurrPacking

    def __len__(self) -> int:
        return len(self.solutions)


class PolycubeWorkbench(RunningWorkbench[PackedSolutions]):
    """Piece list and editors on the left, the 3D view in the middle, solving on the right."""

    title = "Polycube"
    family = POLYCUBE
    file_filter = "Polycube specs (*.pcube);;BurrTools puzzles (*.xmpuzzle);;All files (*)"
    default_name = "pieces.pcube"

    def __init__(
        self, runner: SolverRunner, status: StatusPanel, parent: QWidget | None = None
    ) -> None:
        super().__init__(runner, status, parent)
        self.draft = Draft(frozenset(), ())
        self._packing: Packing | None = None
        self.burr: Puzzle | None = None
        """The BurrTools puzzle shown instead of a spec, if one was opened."""
        self._burr_source = ""
        self._burr_result: BurrShape | None = None
        """The chosen problem's result shape, when the problem can be packed."""
        self._burr_packing: BurrPacking | None = None
        """The packing of the chosen problem, once a run has built it."""
        self._solutions: list[tuple[int, ...]] = []
        self._taken: TakenApartAll | None = None
        """The listed solutions taken apart (in the order found), once Take apart ran."""
        self._run_kind = ""
        """What the running run does: "solve" or "take apart"."""
        self._rotation = 0
        self._painting = True
        """Whether the current drag adds cells (True) or removes them."""
        self._drop: list[str] = []
        self._drop_step = 0
        self._drop_timer = QTimer(self)
        self._drop_timer.setInterval(DROP_MS)
        self._drop_timer.timeout.connect(self._drop_tick)

        self.view = VoxelView()
        self.pages = QTabWidget()
        self.pages.addTab(self._pieces_page(), "Pieces")
        self.pages.addTab(self._box_page(), "Box")
        self.pages.addTab(self._solve_page(), "Solve")
        self.disassembly_page = DisassemblyPage(self.view)
        self.pages.addTab(self.disassembly_page, "Disassemble")
        self.pages.currentChanged.connect(self._refresh_view)
        self.place([self.pages, self.view], [330, 700])

        self.dlx_menu = QMenu("&Polycube", self)
        export = self.dlx_menu.addAction("Export &DLX…")
        export.triggered.connect(self._ask_export_dlx)
        self.take_apart_action = self.dlx_menu.addAction("Take &apart")
        self.take_apart_action.setToolTip(self.take_apart_button.toolTip())
        self.take_apart_action.triggered.connect(self.take_apart)

        self.new_document()

    # Pages -------------------------------------------------------------------------------

    def _pieces_page(self) -> QWidget:
        self.piece_table = QTableWidget(0, 3)
        self.piece_table.setHorizontalHeaderLabels(["name", "copies", "cubes"])
        self.piece_table.verticalHeader().setVisible(False)
        self.piece_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.piece_table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.piece_table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.piece_table.itemSelectionChanged.connect(self._piece_chosen)
        self.piece_table.itemChanged.connect(self._piece_edited)
        add = QPushButton("Add piece")
        add.clicked.connect(self._add_piece)
        self.remove_button = QPushButton("Remove piece")
        self.remove_button.clicked.connect(self._remove_piece)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(self.remove_button)
        self.piece_grid = LayerGrid((EDIT_SPAN, EDIT_SPAN, EDIT_SPAN))
        self.piece_grid.setToolTip("Click or drag over cells to add or remove cubes of the piece")
        self.piece_grid.cellPressed.connect(self._piece_cell_pressed)
        self.piece_grid.cellDragged.connect(self._piece_cell_dragged)
        self.rotation_button = QPushButton("Next rotation")
        self.rotation_button.setToolTip("Turn the preview through the piece's distinct rotations")
        self.rotation_button.clicked.connect(self._next_rotation)
        self.rotation_label = QLabel()
        rotation = QHBoxLayout()
        rotation.addWidget(self.rotation_button)
        rotation.addWidget(self.rotation_label, 1)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.piece_table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.piece_grid, 2)
        layout.addLayout(rotation)
        return page

    def _box_page(self) -> QWidget:
        self.box_grid = LayerGrid((EDIT_SPAN, EDIT_SPAN, EDIT_SPAN))
        self.box_grid.setToolTip("Click or drag over cells to add them to the box or take them out")
        self.box_grid.cellPressed.connect(self._box_cell_pressed)
        self.box_grid.cellDragged.connect(self._box_cell_dragged)
        self.cuboid_spins = []
        for axis in "xyz":
            spin = QSpinBox()
            spin.setRange(1, 20)
            spin.setValue(3)
            spin.setToolTip(f"The cuboid's size along {axis}")
            self.cuboid_spins.append(spin)
        cuboid = QPushButton("Make cuboid")
        cuboid.setToolTip("Replace the box by a cuboid of the sizes on the left")
        cuboid.clicked.connect(self._make_cuboid)
        row = QHBoxLayout()
        for spin in self.cuboid_spins:
            row.addWidget(spin)
        row.addWidget(cuboid)
        self.box_info = QLabel()
        self.box_info.setWordWrap(True)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addLayout(row)
        layout.addWidget(self.box_grid, 1)
        layout.addWidget(self.box_info)
        return page

    def _solve_page(self) -> QWidget:
        self.problem_choice = QComboBox()
        self.problem_choice.setToolTip("The problem of the BurrTools file to solve")
        self.problem_choice.currentIndexChanged.connect(self._problem_chosen)
        self.recorded = QLabel()
        self.recorded.setWordWrap(True)
        self.count_only = QCheckBox("Count only (list nothing)")
        self.distinct = QCheckBox("Distinct only (up to the box's symmetries)")
        self.distinct.setToolTip(
            "List one solution of each class under the box's rotations, and reflections too "
            "when the pieces come in mirror pairs (all of them: the limit below does not apply)"
        )
        self.mirror = QCheckBox("Pieces may be flipped (mirror images)")
        self.first = QSpinBox()
        self.first.setRange(0, 1_000_000)
        self.first.setSpecialValueText("all")
        self.first.setPrefix("first ")
        self.first.setValue(1000)
        self.first.setToolTip("Stop after this many solutions (0: find them all)")
        self.distinct.toggled.connect(lambda on: self.first.setEnabled(not on))
        self.solve_button = QPushButton("Solve")
        self.solve_button.clicked.connect(self.solve)
        self.problem_text = QLabel()
        self.problem_text.setWordWrap(True)
        self.result_text = QLabel()
        self.result_text.setWordWrap(True)
        self.solution_list = SolutionTable()
        self.solution_list.solutionChosen.connect(self._solution_chosen)
        self.take_apart_button = QPushButton("Take apart")
        self.take_apart_button.setToolTip(
            "Find how each listed solution comes apart by sliding pieces (its level: moves to "
            "each separation), then play it on the Disassemble page"
        )
        self.take_apart_button.clicked.connect(self.take_apart)
        self.solutions_only = QCheckBox("Solutions only")
        self.solutions_only.setToolTip("List only those that come apart")
        self.solutions_only.toggled.connect(self.solution_list.set_solutions_only)
        self.shown_pieces = QListWidget()
        self.shown_pieces.setToolTip("Untick a piece to hide it")
        self.shown_pieces.setMaximumHeight(120)
        self.shown_pieces.itemChanged.connect(self._visibility_changed)
        self.assemble_button = QPushButton("Assemble")
        self.assemble_button.setToolTip("Drop the pieces of the shown solution in one by one")
        self.assemble_button.clicked.connect(self.assemble)
        page = QWidget()
        layout = QVBoxLayout(page)
        for widget in (
            self.problem_choice, self.recorded, self.count_only, self.distinct, self.mirror,
            self.first,
        ):  # fmt: skip
            layout.addWidget(widget)
        layout.addWidget(self.solve_button)
        layout.addWidget(self.problem_text)
        layout.addWidget(self.result_text)
        layout.addWidget(self.solution_list, 1)
        taking_apart = QHBoxLayout()
        taking_apart.addWidget(self.take_apart_button)
        taking_apart.addWidget(self.solutions_only, 1)
        layout.addLayout(taking_apart)
        layout.addWidget(QLabel("Pieces shown"))
        layout.addWidget(self.shown_pieces)
        layout.addWidget(self.assemble_button)
        return page

    # Document ----------------------------------------------------------------------------

    def new_document(self) -> None:
        cube = frozenset((x, y, z) for x in range(2) for y in range(2) for z in range(2))
        self._replace_draft(Draft(cube, ()).added_piece())

    def load_text(self, text: str, source: str) -> None:
        self._replace_draft(Draft.from_spec(parse_spec(text, source), split_header(text)))

    def open_file(self, path: str) -> None:
        """Open a spec, or a BurrTools puzzle (by extension or gzip content)."""
        if is_xmpuzzle(path):
            self.show_burrtools(read_xmpuzzle(path), path)
        else:
            self.load_text(read_text(path), path)

    def save_file(self, path: str) -> None:
        """Save as a spec, or as a BurrTools puzzle when `path` ends in .xmpuzzle."""
        if path.lower().endswith(XMPUZZLE):
            if self.burr is not None:
                write_xmpuzzle(path, self.burr)
            else:
                self.current_text()  # refuses an incomplete spec
                write_xmpuzzle(path, puzzle_from_spec(self.draft.to_spec(), source=path))
        elif self.burr is not None:
            raise SlidelabError(f"{path}: a BurrTools puzzle can only be saved as {XMPUZZLE}")
        else:
            write_text_atomically(path, self.current_text())

    def show_burrtools(self, puzzle: Puzzle, source: str) -> None:
        """Show a BurrTools puzzle: its problems to choose from, solving, its assemblies."""
        self.undo_stack.clear()
        self.burr, self._burr_source = puzzle, source
        self._set_burr_mode(True)
        self.problem_choice.blockSignals(True)
        self.problem_choice.clear()
        self.problem_choice.addItems(
            [problem_label(puzzle, k) for k in range(len(puzzle.problems))]
        )
        self.problem_choice.blockSignals(False)
        self._problem_chosen()

    def _set_burr_mode(self, on: bool) -> None:
        for page in (0, 1):
            self.pages.setTabEnabled(page, not on)
        self.problem_choice.setVisible(on)
        self.recorded.setVisible(on)
        self.mirror.setEnabled(not on)
        self.distinct.setText(
            "Distinct only (assemblies as BurrTools counts them)"
            if on
            else "Distinct only (up to the box's symmetries)"
        )
        if on:
            self.pages.setCurrentIndex(SOLVE_PAGE)

    def _problem_chosen(self) -> None:
        assert self.burr is not None
        index = max(self.problem_choice.currentIndex(), 0)
        problem = self.burr.problems[index]
        self._forget_solutions()
        self._burr_packing = None
        figures = []
        if problem.assemblies is not None:
            figures.append(f"{problem.assemblies:,} assemblies")
        if problem.solutions is not None:
            figures.append(
                f"{problem.solutions:,} solutions (assemblies BurrTools could also take apart; "
                "Take apart tests them here)"
            )
        self.recorded.setText(
            "BurrTools recorded: " + "; ".join(figures) + "."
            if figures
            else "BurrTools has not solved this problem."
        )
        try:
            self._burr_result = check_problem(self.burr, index, self._burr_source)
        except SlidelabError as error:
            self._burr_result = None
            self.problem_text.setText(str(error))
        else:
            self.problem_text.setText("")
        self._solution_chosen(-1)
        self._update_actions()

    def current_text(self) -> str:
        problems = self.draft.problems()
        if problems:
            raise SlidelabError("the spec is not complete: " + "; ".join(problems))
        return self.draft.text()

    def library_titles(self) -> dict[str, str]:
        return {
            name: name.removesuffix(".pcube").replace("-", " ") for name in shipped_names(POLYCUBE)
        }

    def menus(self) -> list[QMenu]:
        return [self.dlx_menu]

    def _replace_draft(self, draft: Draft) -> None:
        self.burr = self._burr_packing = None
        self._set_burr_mode(False)
        self.undo_stack.clear()
        self.show_draft(draft)
        self.undo_stack.setClean()
        if draft.pieces:
            self.piece_table.selectRow(0)

    def _edit(self, draft: Draft, text: str) -> None:
        self.undo_stack.push(Snapshot(self.show_draft, self.draft, draft, text))

    def show_draft(self, draft: Draft) -> None:
        """Show `draft` in the piece table, the grids and the view; stale solutions go."""
        row = self.piece_table.currentRow()
        self.draft = draft
        self._packing = None
        self._forget_solutions()
        self.piece_table.blockSignals(True)
        self.piece_table.setRowCount(len(draft.pieces))
        for n, piece in enumerate(draft.pieces):
            name = QTableWidgetItem(piece.name)
            name.setBackground(QColor(*piece_colour(n)))
            self.piece_table.setItem(n, 0, name)
            copies = QTableWidgetItem()
            copies.setData(Qt.ItemDataRole.EditRole, piece.multiplicity)  # edited in a spin box
            self.piece_table.setItem(n, 1, copies)
            cubes = QTableWidgetItem(str(len(piece.cells)))
            cubes.setFlags(cubes.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.piece_table.setItem(n, 2, cubes)
        self.piece_table.blockSignals(False)
        if draft.pieces:
            self.piece_table.selectRow(min(max(row, 0), len(draft.pieces) - 1))
        self._rotation = 0
        self._refresh_grids()
        self._refresh_view()
        self._update_actions()

    def _forget_solutions(self) -> None:
        self._solutions = []
        self._taken = None
        self.solutions_only.blockSignals(True)
        self.solutions_only.setChecked(False)
        self.solutions_only.blockSignals(False)
        self.solution_list.clear()
        self.shown_pieces.clear()
        self.result_text.setText("")

    def _selected(self) -> int | None:
        row = self.piece_table.currentRow()
        return row if 0 <= row < len(self.draft.pieces) else None

    # Editing -----------------------------------------------------------------------------

    def _piece_chosen(self) -> None:
        self._rotation = 0
        self._refresh_grids()
        self._refresh_view()

    def _piece_edited(self, item: QTableWidgetItem) -> None:
        """A name or a number of copies typed into the piece table."""
        n = item.row()
        if n >= len(self.draft.pieces):
            return
        piece = self.draft.pieces[n]
        if item.column() == 0 and item.text().strip() != piece.name:
            renamed = replace(piece, name=item.text().strip())
            self._edit(self.draft.with_piece(n, renamed), f"Rename {piece.name}")
        elif item.column() == 1:
            copies = int(item.data(Qt.ItemDataRole.EditRole))
            if copies != piece.multiplicity:
                changed = replace(piece, multiplicity=copies)
                self._edit(self.draft.with_piece(n, changed), f"Copies of {piece.name}")

    def _add_piece(self) -> None:
        """Add a one-cube piece, then select it and scroll the table to it."""
        self._edit(self.draft.added_piece(), "Add piece")
        last = len(self.draft.pieces) - 1
        self.piece_table.selectRow(last)
        self.piece_table.scrollTo(self.piece_table.model().index(last, 0))

    def _remove_piece(self) -> None:
        n = self._selected()
        if n is not None:
            self._edit(self.draft.removed_piece(n), f"Remove piece {self.draft.pieces[n].name}")

    def _piece_cell_pressed(self, x: int, y: int, z: int) -> None:
        n = self._selected()
        if n is None:
            return
        self._painting = (x, y, z) not in self.draft.pieces[n].cells
        self._piece_cell_dragged(x, y, z)

    def _piece_cell_dragged(self, x: int, y: int, z: int) -> None:
        n = self._selected()
        if n is None or ((x, y, z) in self.draft.pieces[n].cells) == self._painting:
            return
        self._edit(self.draft.toggled_piece_cell(n, (x, y, z)), "Edit piece")

    def _box_cell_pressed(self, x: int, y: int, z: int) -> None:
        self._painting = (x, y, z) not in self.draft.box
        self._box_cell_dragged(x, y, z)

    def _box_cell_dragged(self, x: int, y: int, z: int) -> None:
        if ((x, y, z) in self.draft.box) != self._painting:
            self._edit(self.draft.toggled_box_cell((x, y, z)), "Edit box")

    def _make_cuboid(self) -> None:
        a, b, c = (spin.value() for spin in self.cuboid_spins)
        box = frozenset((x, y, z) for x in range(a) for y in range(b) for z in range(c))
        self._edit(replace(self.draft, box=box), f"Box {a}x{b}x{c}")

    def _next_rotation(self) -> None:
        self._rotation += 1
        self._refresh_view()

    # Views -------------------------------------------------------------------------------

    def _refresh_grids(self) -> None:
        n = self._selected()
        cells = self.draft.pieces[n].cells if n is not None else frozenset()
        self.piece_grid.set_dims(_span(cells, EDIT_SPAN))
        self.piece_grid.set_colours({c: piece_colour(n or 0) for c in cells})
        self.box_grid.set_dims(_span(self.draft.box, EDIT_SPAN))
        self.box_grid.set_colours({c: BOX_COLOUR for c in self.draft.box})
        self.box_info.setText(
            f"The box has {len(self.draft.box)} cells; the pieces, every copy placed, fill "
            f"{self.draft.filled()}."
        )

    def _refresh_view(self) -> None:
        page = self.pages.currentIndex()
        self._drop_timer.stop()
        if page != DISASSEMBLE_PAGE:
            self.disassembly_page.player.pause()
            self.view.set_offsets({})
            self.view.set_hidden([])
            self.view.set_highlighted([])
        if page == 0:
            n = self._selected()
            if n is None or not self.draft.pieces[n].cells:
                self.view.set_scene(None, [])
                self.rotation_label.setText("")
                return
            piece = self.draft.pieces[n]
            turns = orientations(piece.cells)
            shown = turns[self._rotation % len(turns)]
            self.rotation_label.setText(
                f"rotation {self._rotation % len(turns) + 1} of {len(turns)} distinct"
            )
            self.view.set_scene(
                None, [ScenePiece(piece.name, piece.name, tuple(shown), piece_colour(n))]
            )
        elif page == 1:
            box = ScenePiece("box", "the box", tuple(sorted(self.draft.box)), BOX_COLOUR)
            self.view.set_scene(None, [box] if self.draft.box else [])
        else:
            self._solution_chosen(self.solution_list.current_solution())

    def solution_scene(self, solution: tuple[int, ...]) -> list[ScenePiece]:
        """The pieces of one solution (or assembly), coloured by kind."""
        if self._burr_packing is not None:
            return burr_scene(self._burr_packing, solution)
        assert self._packing is not None
        return polycube_scene(self._packing, solution)

    def _target_cells(self) -> frozenset[tuple[int, int, int]]:
        """The cells to fill: the spec's box, or the BurrTools problem's result shape."""
        if self.burr is not None:
            return frozenset(self._burr_result.cells) if self._burr_result else frozenset()
        return self.draft.box

    def _solution_chosen(self, row: int) -> None:
        page = self.pages.currentIndex()
        if page not in (SOLVE_PAGE, DISASSEMBLE_PAGE):
            return
        self._drop_timer.stop()
        target = self._target_cells()
        if not 0 <= row < len(self._solutions):
            box = ScenePiece("box", "the box", tuple(sorted(target)), BOX_COLOUR)
            self.view.set_scene(None, [box] if target else [])
            self.disassembly_page.show_nothing(
                "Choose a solution on the Solve page." if self._solutions else
                "Solve first (Solve page), then take the list apart (Take apart)."
            )  # fmt: skip
            return
        scene = self.solution_scene(self._solutions[row])
        self.view.set_offsets({})
        self.view.set_hidden([])
        self.view.set_highlighted([])
        self.view.set_scene(_bounds(target), scene)
        if page == DISASSEMBLE_PAGE:
            self._show_disassembly(row, [piece.key for piece in scene])
            return
        self.shown_pieces.blockSignals(True)
        self.shown_pieces.clear()
        for piece in scene:
            item = QListWidgetItem(piece.key)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            item.setBackground(QColor(*piece.colour))
            self.shown_pieces.addItem(item)
        self.shown_pieces.blockSignals(False)

    def _show_disassembly(self, row: int, keys: list[str]) -> None:
        """Play how solution `row` comes apart on the Disassemble page."""
        title = f"{'Assembly' if self.burr is not None else 'Solution'} {row + 1}"
        if self._taken is None:
            self.disassembly_page.show_nothing(
                f"{title}: not taken apart yet (Take apart, on the Solve page)."
            )
            return
        self.disassembly_page.show_disassembly(
            title, self._taken.assemblies[row], self._taken.disassemblies[row], keys
        )

    def _visibility_changed(self) -> None:
        items = [self.shown_pieces.item(n) for n in range(self.shown_pieces.count())]
        self.view.set_hidden([i.text() for i in items if i.checkState() != Qt.CheckState.Checked])

    def assemble(self) -> None:
        """Animate the shown solution: hide every piece, then drop them in one by one."""
        row = self.solution_list.current_solution()
        if not 0 <= row < len(self._solutions):
            return
        self._solution_chosen(row)
        self._drop = [p.key for p in self.solution_scene(self._solutions[row])]
        self._drop_step = 0
        self.view.set_hidden(self._drop)
        self._drop_timer.start()

    def _drop_tick(self) -> None:
        piece, step = divmod(self._drop_step, DROP_STEPS + 1)
        if piece >= len(self._drop):
            self._drop_timer.stop()
            self.view.set_offsets({})
            return
        key = self._drop[piece]
        height = DROP_HEIGHT * (1 - step / DROP_STEPS)
        self.view.set_hidden(self._drop[piece + 1 :])
        self.view.set_offsets({key: (0.0, 0.0, height)})
        self._drop_step += 1

    def assembling(self) -> bool:
        return self._drop_timer.isActive()

    # Solving -----------------------------------------------------------------------------

    def _update_actions(self) -> None:
        if self.burr is not None:
            ready = self._burr_result is not None
        else:
            problems = self.draft.solve_problems()
            self.problem_text.setText("; ".join(problems).capitalize() + "." if problems else "")
            ready = not problems
        self.solve_button.setEnabled(ready and not self.runner.busy)
        can_take_apart = bool(self._solutions) and not self.runner.busy
        self.take_apart_button.setEnabled(can_take_apart)
        self.take_apart_action.setEnabled(can_take_apart)
        self.solutions_only.setEnabled(self._taken is not None)
        self.remove_button.setEnabled(bool(self.draft.pieces))

    def solve(self) -> None:
        """Solve the spec (or BurrTools problem): count, list the first N, or count the classes
        under symmetry and (unless counting only) list one solution of each.  A spec's pieces
        are placed in the run, where progress shows and Cancel reaches."""
        puzzle, index = self.burr, max(self.problem_choice.currentIndex(), 0)
        source, spec, mirror = self._burr_source, self.draft.to_spec(), self.mirror.isChecked()
        distinct, count_only = self.distinct.isChecked(), self.count_only.isChecked()
        limit = self.first.value() or None

        def searched(
            packing: Packing | BurrPacking,
        ) -> Generator[
            Progress | SolutionsFound, None, AssemblyCount | DistinctCount | ExactCoverResult
        ]:
            if distinct and isinstance(packing, BurrPacking):
                return (yield from search_assemblies(packing, listing=not count_only))
            if distinct and isinstance(packing, Packing):
                return (yield from search_distinct(packing, listing=not count_only))
            problem = packing.exact_cover if isinstance(packing, BurrPacking) else packing.problem
            if count_only:
                return (yield from solve(problem, count_only=True))
            return (yield from solve(problem, limit=limit))

        def run() -> Solver[AssemblyCount | DistinctCount | ExactCoverResult]:
            packing: Packing | BurrPacking
            if puzzle is not None:
                packing = yield from burr_packing_steps(puzzle, index, source)
            else:
                packing = yield from packing_steps(spec, mirror)
                packing.require_homes()
            return (
                yield from translate(
                    searched(packing), lambda batch: PackedSolutions(batch.solutions, packing)
                )
            )

        self._forget_solutions()
        self.result_text.setText("Solving…")
        self.pages.setCurrentIndex(SOLVE_PAGE)
        self._run_kind = "solve"
        self.start_run("polycube", run)

    def take_apart(self) -> None:
        """Take every listed solution (or assembly) apart on the solver thread: each gets a
        level in the list, and the Disassemble page plays the chosen one."""
        packing = self._burr_packing if self.burr is not None else self._packing
        solutions = tuple(self._solutions)
        if packing is None or not solutions:
            return

        def run() -> Solver[TakenApartAll]:
            return (yield from disassemble_all(ListedAssemblies(packing, solutions)))

        self._taken = None
        self.result_text.setText(f"Taking {len(solutions):,} apart…")
        self._run_kind = "take apart"
        self.start_run("taking apart", run)

    def run_found(self, batch: PackedSolutions) -> None:
        if isinstance(batch.packing, BurrPacking):
            self._burr_packing = batch.packing
        else:
            self._packing = batch.packing
        start = len(self._solutions)
        self._solutions += batch.solutions
        self.solution_list.add_solutions(start, len(self._solutions))
        if start == 0:
            self.solution_list.setCurrentRow(0)

    def run_finished(self, result: object) -> str:
        if isinstance(result, TakenApartAll):
            return self._taken_apart(result)
        if isinstance(result, DistinctCount):
            symmetry = "rotations and reflections" if result.reflections else "rotations"
            text = (
                f"{result.solutions:,} solutions in the fixed box; {result.distinct:,} distinct "
                f"up to its {result.group_order} symmetries ({symmetry})."
            ) + self._classes_listed()
        elif isinstance(result, AssemblyCount):
            text = (
                f"{result.assemblies:,} assemblies up to the result's symmetries, as BurrTools "
                f"counts them; {result.fixed:,} in the fixed result."
            ) + self._classes_listed()
        else:
            assert isinstance(result, ExactCoverResult)
            more = "" if result.complete else " (stopped at the limit)"
            text = f"{numbered(result.count, 'solution')}{more}."
        self.result_text.setText(text)
        return text.split(";")[0].rstrip(".")

    def _taken_apart(self, result: TakenApartAll) -> str:
        """Show the levels in the list, and the chosen one on the Disassemble page."""
        self._taken = result
        keys, texts = level_keys(result.disassemblies)
        self.solution_list.set_levels(keys, texts)
        highest = result.highest_level
        counted = f"{result.separable:,} of {len(result.disassemblies):,}"
        self.result_text.setText(  # one short line: the list below takes the room
            f"{counted} come apart"
            + (f"; highest level {level_text(highest)}." if highest else ".")
        )
        kind = "assemblies" if self.burr is not None else "solutions"
        return f"{counted} {kind} come apart"

    def _classes_listed(self) -> str:
        """What the list holds after a distinct run."""
        return " The list shows one of each class." if self._solutions else ""

    def run_stopped(self) -> None:
        if self._run_kind == "take apart":
            self.result_text.setText("Taking apart stopped: no levels.")
        else:
            self.result_text.setText(f"Stopped after {len(self._solutions):,} solutions.")

    def solution_count(self) -> int:
        """Solutions listed in the browser (for tests)."""
        return len(self._solutions)

    # Export ------------------------------------------------------------------------------

    def _ask_export_dlx(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export DLX", "pieces.dlx", "DLX files (*.dlx);;All files (*)"
        )
        if path:
            try:
                self.export_dlx(path)
            except SlidelabError as error:
                QMessageBox.critical(self, "slidelab", f"Not exported: {error}")

    def export_dlx(self, path: str) -> None:
        """Write the spec's (or BurrTools problem's) exact-cover problem in Knuth's DLX format."""
        if self.burr is not None:
            index = max(self.problem_choice.currentIndex(), 0)
            burr = self._burr_packing or build_burr_packing(self.burr, index, self._burr_source)
            comment = f"problem {burr.label} of {self._burr_source}"
            write_text_atomically(path, format_problem(burr.exact_cover, comment))
            return
        text = self.current_text()
        packing = build_packing(self.draft.to_spec(), with_mirror=self.mirror.isChecked())
        write_text_atomically(path, format_dlx(packing, echo=text))


def _span(cells: frozenset[tuple[int, int, int]], least: int) -> tuple[int, int, int]:
    """Grid size showing `cells` with a free layer beyond them, at least `least` per axis."""
    return tuple(  # type: ignore[return-value]
        max(least, max((c[axis] for c in cells), default=0) + 2) for axis in range(3)
    )


def _bounds(cells: frozenset[tuple[int, int, int]]) -> tuple[int, int, int] | None:
    """The size of the wire box drawn around a solution (from the origin)."""
    if not cells:
        return None
    return tuple(max(c[axis] for c in cells) + 1 for axis in range(3))  # type: ignore[return-value]

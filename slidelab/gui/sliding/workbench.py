"""The sliding-block workbench: draw a puzzle and its goal, solve it, watch the solution play."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QImage
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMenu,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from slidelab.errors import SlidelabError
from slidelab.export.gif import write_gif
from slidelab.export.gif_options import GifOptions
from slidelab.geometry.sliding_frames import current_move, solution_frames, still_frame
from slidelab.gui.gif_export import GifExport
from slidelab.gui.images import image_to_rgb, save_png
from slidelab.gui.sliding.analysis_view import AnalysisView
from slidelab.gui.sliding.board_view import BoardView
from slidelab.gui.sliding.editor import BoardEditor
from slidelab.gui.sliding.play_control import PlayControl
from slidelab.gui.sliding.play_page import PlayPage
from slidelab.gui.sliding.player import SolutionPlayer
from slidelab.gui.status import StatusPanel
from slidelab.gui.workbench import RunningWorkbench, TextDocument
from slidelab.gui.worker import SolverRunner
from slidelab.library import load_shipped, shipped_names
from slidelab.runs import Found, Solver
from slidelab.sliding.draft import Draft
from slidelab.sliding.family import SLIDING
from slidelab.sliding.hardest import HardestStarts, hardest_starts
from slidelab.sliding.model import Axis, Puzzle
from slidelab.sliding.render import describe_move
from slidelab.sliding.search import Analysis, SolveResult, analyze, every_style, solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_puzzle, parse_puzzle
from slidelab.wording import numbered

TOOLS = (
    (
        "piece",
        "Draw piece",
        "Drag over cells to draw a piece (a new kind, or one more piece of the kind chosen below)",
    ),
    ("obstacle", "Obstacle", "Click a cell to make it a permanent obstacle, or clear one"),
    ("move", "Move", "Drag a piece to another place"),
    ("erase", "Erase", "Click a piece to delete it"),
    (
        "goal_any",
        "Any",
        "Goal only: click or drag over cells to accept any occupant there",
    ),
    ("goal_empty", "Empty", "Goal only: click or drag over cells to require them empty"),
)
KIND_NOTATION = (
    "Draw a new kind of piece, or one more piece of a kind.\n"
    "A kind is named by its number and its shape in Knuth's shorthand: rows from top to "
    "bottom joined by '/', 1 for a cell of the piece, 0 for a gap (11/11 is a 2x2 square, "
    "10/11 an L)."
)
AXIS_LABELS = {
    Axis.ANY: "any way",
    Axis.HORIZONTAL: "left-right only",
    Axis.VERTICAL: "up-down only",
}
"""The axis choices of a piece kind, as the kind's axis menu names them."""
PLAY_PAGE = 3
"""The index of the Play page among the workbench's pages."""
GIF_STEPS_PER_MOVE = 8
GIF_SIZE = 360


def hardest_start_title(puzzle: Puzzle, found: HardestStarts) -> str:
    """The title of a puzzle opened from one of `puzzle`'s hardest starts: where it came from,
    e.g. "hardest start (93 moves, style 2) of Klotski"."""
    what = f"hardest start ({found.hardest_distance} moves, style {found.style.number})"
    return f"{what} of {puzzle.title}" if puzzle.title else what


class SlidingWorkbench(TextDocument, RunningWorkbench[Found]):
    """Editor, solver controls, solution player and analysis for one sliding-block puzzle."""

    title = "Sliding blocks"
    family = SLIDING
    file_filter = "Sliding-block puzzles (*.slide);;All files (*)"
    default_name = "puzzle.slide"

    def __init__(
        self, runner: SolverRunner, status: StatusPanel, parent: QWidget | None = None
    ) -> None:
        super().__init__(runner, status, parent)
        self._show_result: Callable[[Any], str] | None = None
        self._solved_puzzle: Puzzle | None = None
        self._solution: SolveResult | None = None
        self._analysed_puzzle: Puzzle | None = None
        self._hardest: tuple[Puzzle, HardestStarts] | None = None
        """The puzzle whose hardest starts the Analysis page lists, and them, while it does."""

        self.editor = BoardEditor(self.undo_stack)
        self.editor.draftChanged.connect(self._draft_changed)
        self.editor.editFailed.connect(self._edit_refused)
        self.solution_view = BoardView()
        self.player = SolutionPlayer(self.solution_view)
        self.player.positionChanged.connect(self._position_changed)
        self.move_list = QListWidget()
        self.move_list.setMaximumWidth(300)
        self.move_list.setWordWrap(True)
        self.move_list.currentRowChanged.connect(self._move_chosen)
        self.analysis_view = AnalysisView()
        self.analysis_board = BoardView()
        self.analysis_view.configurationChosen.connect(self._show_analysed)
        self.play_page = PlayPage()
        self.play_page.refused.connect(self._play_refused)
        self.play_page.solveRequested.connect(self._solve_from_here)
        self.play = PlayControl(self.play_page, runner, self._start, self)

        self.pages = QTabWidget()
        self.pages.addTab(self._edit_page(), "Edit")
        self.pages.addTab(self._solution_page(), "Solution")
        self.pages.addTab(self._analysis_page(), "Analysis")
        self.pages.addTab(self.play_page, "Play")
        self.pages.setTabToolTip(
            PLAY_PAGE, "Play the puzzle by hand in the chosen style, with its distance to the goal"
        )
        self.pages.currentChanged.connect(self._page_changed)
        splitter = QSplitter()
        splitter.addWidget(self.pages)
        splitter.addWidget(self._solve_panel())
        splitter.setStretchFactor(0, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

        self.solution_menu = self._solution_menu()
        self.new_document()

    # Pages -------------------------------------------------------------------------------

    def _edit_page(self) -> QWidget:
        page = QWidget()
        self.rows = QSpinBox()
        self.cols = QSpinBox()
        for spin, name in ((self.rows, "Rows"), (self.cols, "Columns")):
            spin.setRange(1, 64)
            spin.setToolTip(f"{name} of the board")
            spin.editingFinished.connect(self._resize)
        self.start_mode = QRadioButton("Start")
        self.goal_mode = QRadioButton("Goal")
        self.start_mode.setChecked(True)
        self.start_mode.setToolTip("Edit the starting configuration")
        self.goal_mode.setToolTip(
            "Edit the goal: place the pieces that must end somewhere; "
            "mark cells 'Any' for a partial goal"
        )
        self.goal_mode.toggled.connect(self._mode_changed)
        self.tool_group = QButtonGroup(self)
        tools = QHBoxLayout()
        for index, (name, label, tip) in enumerate(TOOLS):
            button = QToolButton()
            button.setText(label)
            button.setToolTip(tip)
            button.setCheckable(True)
            button.setObjectName(f"tool_{name}")
            self.tool_group.addButton(button, index)
            tools.addWidget(button)
        self.tool_group.button(0).setChecked(True)
        self.tool_group.idClicked.connect(lambda index: self.editor.set_tool(TOOLS[index][0]))
        self.kind_choice = QComboBox()
        self.kind_choice.setToolTip(KIND_NOTATION)
        self.kind_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.kind_choice.currentIndexChanged.connect(self._kind_chosen)
        self.axis_choice = QComboBox()
        for axis, label in AXIS_LABELS.items():
            self.axis_choice.addItem(label, axis)
        self.axis_choice.setToolTip(
            "Which way pieces of the chosen kind may move: any way, or along one axis "
            "only, like Rush Hour's cars (saved as the kind's 'h' or 'v' suffix)"
        )
        self.axis_choice.currentIndexChanged.connect(self._axis_chosen)
        goal_from_start = QPushButton("Goal = start")
        goal_from_start.setToolTip("Copy the starting configuration into the goal")
        goal_from_start.clicked.connect(self._goal_from_start)
        self.others_any_button = QPushButton("Every other cell: any")
        self.others_any_button.setToolTip(
            "Make the goal partial: every cell no goal piece covers accepts any occupant, "
            "so the goal asks only for the pieces placed in it"
        )
        self.others_any_button.clicked.connect(self._other_cells_any)
        self.edit_message = QLabel("")
        self.edit_message.setObjectName("edit_message")
        self.edit_message.setWordWrap(True)
        self.edit_message.setStyleSheet("color: #b00020")
        self.problems = QListWidget()
        self.problems.setMaximumHeight(80)
        self.problems.setToolTip("What must be fixed before the puzzle can be solved")

        top = QHBoxLayout()
        top.addWidget(QLabel("Rows"))
        top.addWidget(self.rows)
        top.addWidget(QLabel("Columns"))
        top.addWidget(self.cols)
        top.addSpacing(12)
        top.addWidget(self.start_mode)
        top.addWidget(self.goal_mode)
        top.addWidget(goal_from_start)
        top.addWidget(self.others_any_button)
        top.addStretch(1)
        second = QHBoxLayout()
        second.addLayout(tools)
        second.addStretch(1)
        third = QHBoxLayout()
        third.addWidget(QLabel("Kind"))
        third.addWidget(self.kind_choice)
        third.addWidget(QLabel("Moves"))
        third.addWidget(self.axis_choice)
        third.addStretch(1)
        layout = QVBoxLayout(page)
        layout.addLayout(top)
        layout.addLayout(second)
        layout.addLayout(third)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.edit_message)
        layout.addWidget(self.problems)
        return page

    def _solution_page(self) -> QWidget:
        page = QWidget()
        self.solution_summary = QLabel("Solve the puzzle to watch its shortest solution.")
        self.solution_summary.setWordWrap(True)  # a long "no solution" must not widen the window
        board = QVBoxLayout()
        board.addWidget(self.solution_summary)
        board.addWidget(self.solution_view, 1)
        board.addWidget(self.player)
        layout = QHBoxLayout(page)
        layout.addLayout(board, 1)
        layout.addWidget(self.move_list)
        return page

    def _analysis_page(self) -> QWidget:
        self.open_hardest_button = QPushButton("Open as a new puzzle")
        self.open_hardest_button.setToolTip(
            "Open the hardest start chosen in the list as a new puzzle with this one's board, "
            "pieces and goal (unsaved edits of this one are asked about first)"
        )
        self.open_hardest_button.clicked.connect(self.open_hardest_start)
        side = QVBoxLayout()
        side.addWidget(self.analysis_board, 1)
        side.addWidget(self.open_hardest_button)
        page = QWidget()
        layout = QHBoxLayout(page)
        layout.addWidget(self.analysis_view, 2)
        layout.addLayout(side, 1)
        return page

    def _solve_panel(self) -> QWidget:
        panel = QGroupBox("Solve")
        self.style_choice = QComboBox()
        for style in MoveStyle.ALL:
            self.style_choice.addItem(style.label, style)
            self.style_choice.setItemData(
                style.number, style.explanation.capitalize(), Qt.ItemDataRole.ToolTipRole
            )
        self.style_choice.currentIndexChanged.connect(self._style_changed)
        self.style_text = QLabel()
        self.style_text.setWordWrap(True)
        self.solve_button = QPushButton("Solve")
        self.solve_button.setToolTip("Find a shortest solution in the chosen style")
        self.solve_button.clicked.connect(self.solve)
        self.analyze_button = QPushButton("Analyse")
        self.analyze_button.setToolTip("Explore every configuration reachable from the start")
        self.analyze_button.clicked.connect(self.analyze)
        self.compare_button = QPushButton("Compare styles")
        self.compare_button.setToolTip("Shortest solutions in all six styles")
        self.compare_button.clicked.connect(self.compare_styles)
        self.hardest_button = QPushButton("Find hardest start")
        self.hardest_button.setToolTip(
            "Place the pieces in every possible way and find the starts farthest from the goal"
        )
        self.hardest_button.clicked.connect(self.find_hardest)
        self.compare_table = QTableWidget(len(MoveStyle.ALL), 3)
        self.compare_table.setHorizontalHeaderLabels(["style", "moves", "explored"])
        self.compare_table.verticalHeader().setVisible(False)
        for style in MoveStyle.ALL:
            item = QTableWidgetItem(str(style.number))
            item.setToolTip(style.explanation)
            self.compare_table.setItem(style.number, 0, item)
        self.compare_table.resizeColumnsToContents()
        layout = QGridLayout(panel)
        layout.addWidget(self.style_choice, 0, 0, 1, 2)
        layout.addWidget(self.style_text, 1, 0, 1, 2)
        layout.addWidget(self.solve_button, 2, 0)
        layout.addWidget(self.analyze_button, 2, 1)
        layout.addWidget(self.compare_button, 3, 0, 1, 2)
        layout.addWidget(self.hardest_button, 4, 0, 1, 2)
        layout.addWidget(self.compare_table, 5, 0, 1, 2)
        layout.setRowStretch(5, 1)
        panel.setMaximumWidth(280)
        self._style_changed()
        return panel

    def library_titles(self) -> dict[str, str]:
        return {
            name: load_shipped(SLIDING, name, parse_puzzle).title or name
            for name in shipped_names(SLIDING)
        }

    def menus(self) -> list[QMenu]:
        return [self.solution_menu]

    def _solution_menu(self) -> QMenu:
        """The Solution menu: exports of the current solution."""
        menu = QMenu("&Solution", self)
        self.export_gif_action = QAction("Export Animated &GIF…", self)
        self.export_gif_action.triggered.connect(self._ask_export_gif)
        self.export_frames_action = QAction("Export PNG &Frames…", self)
        self.export_frames_action.triggered.connect(self._ask_export_frames)
        menu.addAction(self.export_gif_action)
        menu.addAction(self.export_frames_action)
        self._update_actions()
        return menu

    # Document ----------------------------------------------------------------------------

    def new_document(self, rows: int = 4, cols: int = 4) -> None:
        self._load_draft(Draft.blank(rows, cols))

    def load_puzzle(self, puzzle: Puzzle) -> None:
        self._load_draft(Draft.from_puzzle(puzzle))

    def load_text(self, text: str, source: str) -> None:
        self.load_puzzle(parse_puzzle(text, source=source))

    def _load_draft(self, draft: Draft) -> None:
        self.pages.setCurrentIndex(0)  # first: a game of the old puzzle ends here
        self.undo_stack.clear()
        self.editor.set_draft(draft)
        self.undo_stack.setClean()
        self._clear_results()
        self.start_mode.setChecked(True)
        self._draft_changed(draft)

    def current_text(self) -> str:
        """The puzzle in Knuth's format; raises SlidelabError while it has problems."""
        return format_puzzle(self.editor.draft().to_puzzle())

    # Editing -----------------------------------------------------------------------------

    def _draft_changed(self, draft: Draft) -> None:
        for spin, value in ((self.rows, draft.rows), (self.cols, draft.cols)):
            spin.blockSignals(True)
            spin.setValue(value)
            spin.blockSignals(False)
        chosen = self.kind_choice.currentData()
        self.kind_choice.blockSignals(True)
        self.kind_choice.clear()
        self.kind_choice.addItem("new kind", None)
        for kind in draft.kinds:
            self.kind_choice.addItem(f"kind {kind.name} ({kind.pattern()})", kind.name)
        index = self.kind_choice.findData(chosen)
        self.kind_choice.setCurrentIndex(max(index, 0))
        self.kind_choice.blockSignals(False)
        self._show_axis()
        if self.edit_message.text():
            self.edit_message.setText("")
            if not self.runner.busy:
                self.status.ready()
        self.problems.clear()
        for problem in draft.problems():
            self.problems.addItem(problem.message)
        if not self.problems.count():
            self.problems.addItem("No problems: ready to solve.")
        self._update_actions()
        if self.pages.currentIndex() == PLAY_PAGE:
            self._enter_play()

    def _resize(self) -> None:
        """Resize the board to the spin boxes' size, asking first when pieces would go."""
        draft = self.editor.draft()
        rows, cols = self.rows.value(), self.cols.value()
        if (rows, cols) == (draft.rows, draft.cols):
            return
        resized = draft.resized(rows, cols)
        lost = len(draft.start) + len(draft.goal) - len(resized.start) - len(resized.goal)
        if lost:
            # The spin boxes show the current size while the question is open, so the
            # editingFinished that the dialog's focus change sends asks nothing more.
            self._draft_changed(draft)
            if not self._confirm_resize(rows, cols, lost):
                return
        self.editor.apply_edit(resized, "Resize board")

    def _confirm_resize(self, rows: int, cols: int, lost: int) -> bool:
        """Ask before a resize deletes `lost` pieces; True to go ahead."""
        answer = QMessageBox.question(
            self,
            "Resize the board",
            f"A {rows} x {cols} board leaves out {numbered(lost, 'piece')} "
            "(start and goal). Delete them? (Edit > Undo brings them back.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _goal_from_start(self) -> None:
        self.editor.apply_edit(self.editor.draft().goal_from_start(), "Goal from start")

    def _other_cells_any(self) -> None:
        self.goal_mode.setChecked(True)
        self.editor.apply_edit(
            self.editor.draft().with_other_goal_cells_any(), "Every other goal cell any"
        )

    def _edit_refused(self, message: str) -> None:
        """Say why an edit was refused and what to do instead, under the board and in the
        status line (unless a run is using the status line)."""
        text = f"Not done: {message}."
        self.edit_message.setText(text)
        if not self.runner.busy:
            self.status.ready(text)

    def _mode_changed(self) -> None:
        self.editor.set_mode(goal=self.goal_mode.isChecked())

    def _kind_chosen(self) -> None:
        self.editor.set_piece_kind(self.kind_choice.currentData())
        self._show_axis()

    def _show_axis(self) -> None:
        """The axis menu shows the chosen kind's axis (and is off for 'new kind')."""
        kind = self.editor.draft().kind_map().get(self.kind_choice.currentData())
        self.axis_choice.blockSignals(True)
        self.axis_choice.setCurrentIndex(self.axis_choice.findData(kind.axis if kind else Axis.ANY))
        self.axis_choice.blockSignals(False)
        self.axis_choice.setEnabled(kind is not None)

    def _axis_chosen(self) -> None:
        name = self.kind_choice.currentData()
        axis: Axis = self.axis_choice.currentData()
        if name is not None:
            draft = self.editor.draft().with_kind_axis(name, axis)
            self.editor.apply_edit(draft, f"Kind {name} moves {AXIS_LABELS[axis]}")

    # Runs --------------------------------------------------------------------------------

    def _style_changed(self) -> None:
        style: MoveStyle = self.style_choice.currentData()
        self.style_text.setText(style.explanation.capitalize() + ".")
        if self.pages.currentIndex() == PLAY_PAGE:
            self._enter_play()

    def _update_actions(self) -> None:
        solvable = not self.editor.draft().problems() and not self.runner.busy
        for button in (
            self.solve_button,
            self.analyze_button,
            self.compare_button,
            self.hardest_button,
        ):
            button.setEnabled(solvable)
        self.open_hardest_button.setEnabled(self._hardest is not None)
        self.play_page.set_solving_allowed(not self.runner.busy)
        has_solution = bool(self._solution and self._solution.moves)
        for action in (
            getattr(self, "export_gif_action", None),
            getattr(self, "export_frames_action", None),
        ):
            if action is not None:
                action.setEnabled(has_solution)

    def _start(
        self,
        phase: str,
        search: Callable[[Puzzle], Solver[Any]],
        show: Callable[[Puzzle, Any], str],
        puzzle: Puzzle | None = None,
    ) -> None:
        """Run `search(puzzle)` for `puzzle` (default: the puzzle as it is now);
        `show(puzzle, result)` puts the result on screen when the run finishes and returns
        the status-line message."""
        if puzzle is None:
            puzzle = self.editor.draft().to_puzzle()
        self._show_result = partial(show, puzzle)
        self.start_run(phase, lambda: search(puzzle))

    def solve(self) -> None:
        style: MoveStyle = self.style_choice.currentData()
        self._start(
            f"solving in style {style.number}", lambda p: solve(p, style), self._show_solution
        )

    def analyze(self) -> None:
        style: MoveStyle = self.style_choice.currentData()
        self._start(
            f"analysing in style {style.number}", lambda p: analyze(p, style), self._show_analysis
        )

    def find_hardest(self) -> None:
        """Every placement of the pieces, and the starts farthest from the goal."""
        style: MoveStyle = self.style_choice.currentData()
        self._start(
            f"finding the hardest start in style {style.number}",
            lambda p: hardest_starts(p, style),
            self._show_hardest,
        )

    def open_hardest_start(self) -> None:
        """Ask the window to open the hardest start chosen in the list as a new puzzle, the
        same puzzle with that start (refused once the puzzle changed since the run)."""
        config = self.analysis_view.chosen()
        if config is None or self._hardest is None:
            return
        puzzle, found = self._hardest
        if self.editor.draft() != Draft.from_puzzle(puzzle):
            self._edit_refused(
                "the puzzle changed since its hardest starts were found: find them again"
            )
            return
        title = hardest_start_title(puzzle, found)
        self.openRequested.emit(format_puzzle(replace(puzzle, start=config, title=title)), title)

    def compare_styles(self) -> None:
        """Solve in every style, one after the other, in one run."""
        self._start("comparing styles", lambda p: every_style(solve, p), self._show_comparison)

    def run_finished(self, result: object) -> str:
        assert self._show_result is not None
        show, self._show_result = self._show_result, None
        return show(result)

    def run_stopped(self) -> None:
        """The results of earlier runs stay on screen."""
        self._show_result = None
        self.play.run_stopped()

    def _show_solution(self, puzzle: Puzzle, result: SolveResult) -> str:
        self._solved_puzzle = puzzle
        self._solution = result
        explored = f"{result.states:,} configurations explored"
        self.move_list.blockSignals(True)
        self.move_list.clear()
        if result.moves is None:
            why = result.limit_message or "the goal cannot be reached"
            self.solution_summary.setText(
                f"No solution in style {result.style.number}: {why} ({explored}). "
                "The board shows the start of the puzzle solved, its goal outlined."
            )
            self.player.set_solution(puzzle, (puzzle.start,))
            message = f"no solution · {explored}"
        else:
            self.solution_summary.setText(
                f"{result.style.label}: {numbered(result.moves, 'move')} ({explored})."
            )
            self.move_list.addItem("Start")
            for index in range(1, len(result.path)):
                change = describe_move(puzzle, result.path[index - 1], result.path[index])
                self.move_list.addItem(f"{index}. {change}")
            self.player.set_solution(puzzle, result.path)
            message = f"solved in {numbered(result.moves, 'move')} · {explored}"
        self.move_list.blockSignals(False)
        self.pages.setCurrentIndex(1)
        self.solution_view.setFocus()
        return message

    def _show_analysis(self, puzzle: Puzzle, result: Analysis) -> str:
        self._analysed_puzzle = puzzle
        self._hardest = None  # the list shows farthest configurations now
        self.analysis_view.show_analysis(puzzle, result)
        self.analysis_board.set_frame(still_frame(puzzle, puzzle.start.placements))
        self.pages.setCurrentIndex(2)
        return f"analysed: {result.reachable:,} reachable"

    def _show_hardest(self, puzzle: Puzzle, result: HardestStarts) -> str:
        self._analysed_puzzle = puzzle
        self._hardest = (puzzle, result) if result.hardest else None
        self.analysis_view.show_hardest(puzzle, result)
        first = result.hardest[0] if result.hardest else puzzle.start
        self.analysis_board.set_frame(still_frame(puzzle, first.placements))
        self.pages.setCurrentIndex(2)
        self._update_actions()
        if result.limit_message:
            return result.limit_message
        if result.hardest_distance is None:
            return f"{result.placements:,} placements, none can reach the goal"
        return (
            f"hardest start: {numbered(result.hardest_distance, 'move')} "
            f"({result.hardest_count:,} of {result.placements:,} placements)"
        )

    def _show_comparison(self, _puzzle: Puzzle, result: tuple[SolveResult, ...]) -> str:
        for outcome in result:
            moves = "—" if outcome.moves is None else str(outcome.moves)
            row = outcome.style.number
            self.compare_table.setItem(row, 1, QTableWidgetItem(moves))
            self.compare_table.setItem(row, 2, QTableWidgetItem(f"{outcome.states:,}"))
        self.compare_table.resizeColumnsToContents()
        return "compared all six styles"

    def _clear_results(self) -> None:
        self._solution = None
        self._hardest = None
        self.player.set_solution(None, ())
        self.move_list.clear()
        self.solution_summary.setText("Solve the puzzle to watch its shortest solution.")
        for style in MoveStyle.ALL:
            for column in (1, 2):
                self.compare_table.setItem(style.number, column, QTableWidgetItem(""))

    # Play --------------------------------------------------------------------------------

    def _page_changed(self, index: int) -> None:
        if index == PLAY_PAGE:
            self._enter_play()
        else:
            self.play.leave()

    def _enter_play(self) -> None:
        self.play.enter(self.editor.draft(), self.style_choice.currentData())

    def _play_refused(self, text: str) -> None:
        if not self.runner.busy:
            self.status.ready(text)

    def _solve_from_here(self, puzzle: Puzzle) -> None:
        style: MoveStyle = self.style_choice.currentData()
        self._start(
            f"solving in style {style.number} from the board played",
            lambda p: solve(p, style),
            self._show_solution,
            puzzle,
        )

    # Playback ----------------------------------------------------------------------------

    def _position_changed(self, position: float) -> None:
        row = current_move(position)
        if self.move_list.currentRow() != row:
            self.move_list.blockSignals(True)
            self.move_list.setCurrentRow(row)
            self.move_list.blockSignals(False)

    def _move_chosen(self, row: int) -> None:
        if row >= 0:
            self.player.pause()
            self.player.seek(float(row))

    def _show_analysed(self, config) -> None:
        if self._analysed_puzzle is not None:
            self.analysis_board.set_frame(still_frame(self._analysed_puzzle, config.placements))

    # Exports -----------------------------------------------------------------------------

    def _solution_frames(
        self, steps_per_move: int = GIF_STEPS_PER_MOVE, size: int = GIF_SIZE
    ) -> Iterator[QImage]:
        """Rendered images of the solution (`solution_frames`), ending on the goal."""
        result, puzzle = self._solution, self._solved_puzzle
        assert result is not None and puzzle is not None and result.moves
        view = BoardView()
        for frame in solution_frames(puzzle, result.path, steps_per_move):
            view.set_frame(frame)
            yield view.render_image(size, size)

    def export_gif(self, path: str) -> None:
        frames = [image_to_rgb(image) for image in self._solution_frames()]
        delays = [60] * (len(frames) - 1) + [1500]
        write_gif(path, frames, delays)

    def export_frames(self, folder: str) -> int:
        """Save numbered PNG frames into `folder`; returns how many."""
        count = 0
        for count, image in enumerate(self._solution_frames(), 1):
            save_png(image, Path(folder) / f"frame_{count:04d}.png")
        return count

    def _ask_export_gif(self) -> None:
        moves = (self._solution.moves or 0) if self._solution is not None else 0
        self.gif_export = GifExport(
            self,
            "move",
            GifOptions(GIF_SIZE, 0.48, GIF_STEPS_PER_MOVE),
            lambda o: self._solution_frames(o.frames_per_step, o.size),
            lambda o: moves * o.frames_per_step + 1,
            hold_last_ms=1500,
        )
        self.gif_export.run("solution.gif")

    def _ask_export_frames(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export PNG frames into")
        if folder:
            self._report(lambda: self.export_frames(folder))

    def _report(self, action) -> None:
        try:
            action()
        except SlidelabError as error:
            QMessageBox.warning(self, "slidelab", str(error))

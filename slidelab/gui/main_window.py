"""The main window: workbench tabs, menus, files, recent files, status and the solver thread."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QUndoGroup,
)
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox, QTabWidget

from slidelab.errors import SlidelabError
from slidelab.fileio import read_text, write_text_atomically
from slidelab.formats import SLIDING, detect_family
from slidelab.gui.sliding.workbench import SlidingWorkbench
from slidelab.gui.status import StatusPanel
from slidelab.gui.worker import SolverRunner
from slidelab.runs import Progress
from slidelab.sliding.library import library_names, load_library_puzzle
from slidelab.sliding.search import warm_up
from slidelab.sliding.textformat import parse_puzzle

MAX_RECENT = 10
FILE_FILTER = "Sliding-block puzzles (*.slide);;All files (*)"


def warming_up() -> Generator[Progress, None, None]:
    """A solver-shaped job that compiles (or loads) every numba kernel."""
    yield Progress(phase="preparing solvers…", explored=0, elapsed=0.0)
    warm_up()


class MainWindow(QMainWindow):
    """One window, one tab per workbench; the document is the active workbench's puzzle."""

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = settings or QSettings("slidelab", "slidelab")
        self.path: str | None = None
        self.runner = SolverRunner(self)
        self.status_panel = StatusPanel()
        self.status_panel.cancelRequested.connect(self.runner.cancel)
        self.runner.progress.connect(self.status_panel.show_progress)
        self.sliding = SlidingWorkbench(self.runner, self.status_panel)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.sliding, self.sliding.title)
        self.setCentralWidget(self.tabs)
        self.statusBar().addPermanentWidget(self.status_panel, 1)
        self.undo_group = QUndoGroup(self)
        self.undo_group.addStack(self.sliding.undo_stack)
        self.undo_group.setActiveStack(self.sliding.undo_stack)
        self.undo_group.cleanChanged.connect(self._clean_changed)
        self._build_menus()
        self.setAcceptDrops(True)
        self.resize(1100, 720)
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        self._update_title()
        self._warm_up()

    def _warm_up(self) -> None:
        """Compile the solver kernels on the worker thread, showing "preparing solvers"."""
        self.status_panel.preparing()
        self.runner.finished.connect(self._warmed, Qt.ConnectionType.SingleShotConnection)
        self.runner.start(warming_up)

    def _clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)

    def _warmed(self, _result: object) -> None:
        self.status_panel.ready()

    # Menus -------------------------------------------------------------------------------

    def _action(self, menu: QMenu, text: str, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self._action(file_menu, "&New", self.new_document, QKeySequence.StandardKey.New)
        self._action(file_menu, "&Open…", self.ask_open, QKeySequence.StandardKey.Open)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file_menu.addSeparator()
        self._action(file_menu, "&Save", self.save, QKeySequence.StandardKey.Save)
        self._action(file_menu, "Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs)
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        edit_menu = self.menuBar().addMenu("&Edit")
        undo = self.undo_group.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.undo_group.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        edit_menu.addAction(undo)
        edit_menu.addAction(redo)

        puzzles = self.menuBar().addMenu("&Puzzles")
        for name in library_names():
            title = load_library_puzzle(name).title or name
            self._action(puzzles, title, lambda _=False, n=name: self.open_library(n))
        self.menuBar().addMenu(self.sliding.solution_menu())

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_files():
            self._action(self.recent_menu, path, lambda _=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(self.recent_files()))

    # Recent files ------------------------------------------------------------------------

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value or []]

    def _remember(self, path: str) -> None:
        absolute = str(Path(path).resolve())
        recent = [absolute] + [p for p in self.recent_files() if p != absolute]
        self.settings.setValue("recent", recent[:MAX_RECENT])

    # Documents ---------------------------------------------------------------------------

    def _update_title(self) -> None:
        name = Path(self.path).name if self.path else "untitled"
        self.setWindowTitle(f"{name}[*] — slidelab")

    def maybe_save(self) -> bool:
        """Ask about unsaved edits; False means the user cancelled."""
        if not self.sliding.is_modified():
            return True
        answer = QMessageBox.question(
            self,
            "slidelab",
            "The puzzle has unsaved changes. Save them?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_document(self) -> None:
        if self.maybe_save():
            self.sliding.new_document()
            self.path = None
            self._update_title()

    def ask_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open puzzle", "", FILE_FILTER)
        if path:
            self.open_path(path)

    def open_path(self, path: str) -> bool:
        """Open a puzzle file in the workbench its extension or content calls for."""
        if not self.maybe_save():
            return False
        try:
            text = read_text(path)
            family = detect_family(path, text)
            if family != SLIDING:
                raise SlidelabError(f"{path}: no workbench for {family} puzzles yet")
            puzzle = parse_puzzle(text, source=path)
        except SlidelabError as error:
            self.show_error(str(error))
            return False
        self.sliding.load_puzzle(puzzle)
        self.tabs.setCurrentWidget(self.sliding)
        self.path = path
        self._remember(path)
        self._update_title()
        return True

    def open_library(self, name: str) -> None:
        if self.maybe_save():
            self.sliding.load_puzzle(load_library_puzzle(name))
            self.path = None
            self._update_title()

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self.save_to(self.path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(
            self, "Save puzzle", self.path or "puzzle.slide", FILE_FILTER
        )
        return bool(path) and self.save_to(path)

    def save_to(self, path: str) -> bool:
        try:
            write_text_atomically(path, self.sliding.current_text())
        except SlidelabError as error:
            self.show_error(f"Not saved: {error}")
            return False
        self.sliding.mark_saved()
        self.path = path
        self._remember(path)
        self._update_title()
        return True

    def show_error(self, message: str) -> None:
        QMessageBox.critical(self, "slidelab", message)

    # Window events -----------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = [url for url in event.mimeData().urls() if url.isLocalFile()]
        if urls:
            event.acceptProposedAction()
            self.open_path(urls[0].toLocalFile())

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.settings.setValue("geometry", self.saveGeometry())
        self.runner.shutdown()
        event.accept()

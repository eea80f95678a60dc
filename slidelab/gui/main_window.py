"""The main window: workbench tabs, menus, files, recent files, status and the solver thread."""

from __future__ import annotations

from functools import partial
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
from PySide6.QtWidgets import (
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from slidelab.errors import SlidelabError
from slidelab.formats import family_of_file
from slidelab.gui.help.about import AboutDialog
from slidelab.gui.help.guide import GuideWindow
from slidelab.gui.help.shortcuts import ShortcutsDialog
from slidelab.gui.main_thread_gc import set_aside
from slidelab.gui.status import StatusPanel
from slidelab.gui.workbench import Workbench
from slidelab.gui.workbenches import build_workbenches
from slidelab.gui.worker import SolverRunner
from slidelab.kernels_warmup import WarmUpQueue, kernel_families
from slidelab.library import shipped_text
from slidelab.runs import Progress

MAX_RECENT = 10


class MainWindow(QMainWindow):
    """One window, one tab per workbench, each tab with its own document and undo history.

    `by_family` maps each family of `slidelab.registry` to the tab that opens its files.
    File commands act on the current tab's document; closing the window asks about
    every document with unsaved edits.  A tab asks for a new document of its own with its
    `openRequested` signal (`open_result`).
    """

    def __init__(
        self, settings: QSettings | None = None, warm_up: WarmUpQueue | None = None
    ) -> None:
        super().__init__()
        self.settings = settings or QSettings("slidelab", "slidelab")
        self.runner = SolverRunner(self)
        self.warm_up = warm_up or WarmUpQueue.for_this_machine()
        self.warm_runner = SolverRunner(self)
        self.by_family = build_workbenches(self.runner)
        self.workbenches: list[Workbench] = list(dict.fromkeys(self.by_family.values()))
        self.paths: dict[str, str | None] = {w.family: None for w in self.workbenches}
        self.untitled_titles: dict[str, str | None] = {w.family: None for w in self.workbenches}
        """What an untitled document is shown as: a library puzzle's title, or the result
        it was opened from."""
        self.tabs = QTabWidget()
        self.undo_group = QUndoGroup(self)
        self.status_stack = QStackedWidget()
        for workbench in self.workbenches:
            self.tabs.addTab(workbench, workbench.title)  # type: ignore[call-overload]
            self.undo_group.addStack(workbench.undo_stack)
            self.status_stack.addWidget(workbench.status)
            workbench.openRequested.connect(partial(self.open_result, workbench))
        self.setCentralWidget(self.tabs)
        self.statusBar().addPermanentWidget(self.status_stack, 1)
        self.guide: GuideWindow | None = None
        self.undo_group.cleanChanged.connect(self._clean_changed)
        self._build_menus()
        self.tabs.currentChanged.connect(self._tab_changed)
        self._tab_changed()
        self.setAcceptDrops(True)
        self.resize(1100, 720)
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        self._warm_up()

    @property
    def workbench(self) -> Workbench:
        """The current tab's workbench."""
        return self.tabs.currentWidget()  # type: ignore[return-value]

    @property
    def status_panel(self) -> StatusPanel:
        """The current tab's status line."""
        return self.workbench.status

    @property
    def path(self) -> str | None:
        """The file of the current tab's document (None while untitled)."""
        return self.paths[self.workbench.family]

    def show_workbench(self, workbench: Workbench) -> None:
        self.tabs.setCurrentWidget(workbench)  # type: ignore[arg-type]

    def _warm_up(self) -> None:
        """Compile the solver kernels on their own thread, showing the fraction done on
        every tab, while the tabs stay usable; a run started meanwhile has its families'
        kernels go first."""
        self.warm_runner.progress.connect(self._show_compiling)
        self.warm_runner.finished.connect(self._warmed, Qt.ConnectionType.SingleShotConnection)
        self.warm_runner.failed.connect(self._warm_up_failed)
        self.runner.started.connect(self._run_started)
        self.warm_runner.start(self.warm_up.compiling)

    def _run_started(self) -> None:
        families = kernel_families(self.workbench.family)
        if self.warm_up.waiting(families):
            self.warm_up.prioritise(families)
            self.status_panel.compiling_first()

    def _show_compiling(self, event: Progress) -> None:
        for workbench in self.workbenches:
            workbench.status.show_compiling(event)

    def _clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)

    def _warmed(self, _result: object) -> None:
        """The kernels are loaded: set them aside with the window (`set_aside`), once, now.
        Loading them leaves some hundred thousand objects (functions, types, dicts) that
        live as long as the app; left young, the first collection of a run walked them all
        and held the window 50-115 ms in the middle of it."""
        set_aside()
        for workbench in self.workbenches:
            workbench.status.compiled()

    def _warm_up_failed(self, message: str) -> None:
        """Runs still compile their own kernels; say why they will be slow to start."""
        for workbench in self.workbenches:
            workbench.status.compiled()
            workbench.status.ready(f"solvers not compiled ahead: {message.splitlines()[0]}")

    def _tab_changed(self) -> None:
        workbench = self.workbench
        self.undo_group.setActiveStack(workbench.undo_stack)
        self.status_stack.setCurrentWidget(workbench.status)
        self.setWindowModified(workbench.is_modified())
        for each in self.workbenches:
            for menu in each.menus():
                menu.menuAction().setVisible(each is workbench)
        self._update_title()

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
        for workbench in self.workbenches:
            titles = workbench.library_titles()
            shelf = puzzles.addMenu(workbench.title)
            shelf.menuAction().setVisible(bool(titles))
            for name, title in titles.items():
                self._action(
                    shelf, title, lambda _=False, w=workbench, n=name: self.open_library(w, n)
                )
        for workbench in self.workbenches:
            for menu in workbench.menus():
                self.menuBar().addMenu(menu)

        help_menu = self.menuBar().addMenu("&Help")
        self._action(
            help_menu, "User &Guide", self.show_guide, QKeySequence.StandardKey.HelpContents
        )
        self._action(help_menu, "&Keyboard Shortcuts", self.show_shortcuts)
        help_menu.addSeparator()
        self._action(help_menu, "&About slidelab", self.show_about)

    def show_guide(self) -> None:
        """Open the user guide beside the window (one window, raised when open already)."""
        if self.guide is None:
            self.guide = GuideWindow(self)
        self.guide.show()
        self.guide.raise_()

    def show_shortcuts(self) -> None:
        """List the keyboard shortcuts of every command, read from the actions themselves."""
        tabs = [(w.title, w) for w in self.workbenches if isinstance(w, QWidget)]
        ShortcutsDialog(self, tabs).show()

    def show_about(self) -> None:
        """The version and the libraries slidelab stands on, with their licences."""
        AboutDialog(self).show()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_files():
            self._action(self.recent_menu, path, lambda _=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(self.recent_files()))

    # Recent files ------------------------------------------------------------------------

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):  # QSettings gives a one-item list back as a string
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def _remember(self, path: str) -> None:
        absolute = str(Path(path).resolve())
        recent = [absolute] + [p for p in self.recent_files() if p != absolute]
        self.settings.setValue("recent", recent[:MAX_RECENT])

    # Documents ---------------------------------------------------------------------------

    def _update_title(self) -> None:
        """The file's name, or the untitled document's title, or "untitled"."""
        title = self.untitled_titles[self.workbench.family]
        name = Path(self.path).name if self.path else title or "untitled"
        self.setWindowTitle(f"{name}[*] — slidelab")

    def maybe_save(self, workbench: Workbench | None = None) -> bool:
        """Ask about unsaved edits of `workbench` (default: the current one); False: cancelled."""
        workbench = workbench or self.workbench
        if not workbench.is_modified():
            return True
        self.show_workbench(workbench)
        answer = QMessageBox.question(
            self,
            "slidelab",
            f"The {workbench.title.lower()} puzzle has unsaved changes. Save them?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def _set_path(self, workbench: Workbench, path: str | None, title: str | None = None) -> None:
        self.paths[workbench.family] = path
        self.untitled_titles[workbench.family] = title
        if path is not None:
            self._remember(path)
        self._update_title()

    def new_document(self) -> None:
        if self.maybe_save():
            self.workbench.new_document()
            self._set_path(self.workbench, None)

    def ask_open(self) -> None:
        filters = ";;".join(w.file_filter.split(";;")[0] for w in self.workbenches)
        path, _ = QFileDialog.getOpenFileName(
            self, "Open puzzle", "", f"{filters};;All files (*)", self.workbench.file_filter
        )
        if path:
            self.open_path(path)

    def open_path(self, path: str) -> bool:
        """Open a puzzle file in the workbench its extension or content calls for."""
        try:
            family = family_of_file(path)
        except SlidelabError as error:
            self.show_error(str(error))
            return False
        workbench = self.by_family[family]
        if not self.maybe_save(workbench):
            return False
        try:
            workbench.open_file(path)
        except SlidelabError as error:
            self.show_error(str(error))
            return False
        self.show_workbench(workbench)
        self._set_path(workbench, path)
        return True

    def open_library(self, workbench: Workbench, name: str) -> None:
        """Open the shipped puzzle `name` as a new document of `workbench`, shown under its
        title (Save still asks where to save it)."""
        title = workbench.library_titles().get(name, name)
        self.open_text(workbench, shipped_text(workbench.family, name), name, title)

    def open_result(self, workbench: Workbench, text: str, title: str) -> None:
        """Open `text`, a result of one of `workbench`'s runs, as a new document shown
        under `title`: unsaved, so that closing asks about it, and with nothing to undo."""
        if self.open_text(workbench, text, title, title):
            workbench.undo_stack.resetClean()

    def open_text(self, workbench: Workbench, text: str, source: str, title: str) -> bool:
        """Open `text` (read from `source`) as a new untitled document of `workbench`,
        shown under `title`, once the current one's unsaved edits are saved or given up;
        False when the user cancelled."""
        if not self.maybe_save(workbench):
            return False
        workbench.load_text(text, source)
        self.show_workbench(workbench)
        self._set_path(workbench, None, title)
        return True

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self.save_to(self.path)

    def save_as(self) -> bool:
        workbench = self.workbench
        path, _ = QFileDialog.getSaveFileName(
            self, "Save puzzle", self.path or workbench.default_name, workbench.file_filter
        )
        return bool(path) and self.save_to(path)

    def save_to(self, path: str) -> bool:
        workbench = self.workbench
        try:
            workbench.save_file(path)
        except SlidelabError as error:
            self.show_error(f"Not saved: {error}")
            return False
        workbench.mark_saved()
        self._set_path(workbench, path)
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
        if not all(self.maybe_save(w) for w in self.workbenches):
            event.ignore()
            return
        self.settings.setValue("geometry", self.saveGeometry())
        self.runner.shutdown()
        self.warm_runner.shutdown()
        event.accept()

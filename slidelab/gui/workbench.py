"""What the main window needs from a workbench tab: its document, undo stack and menus."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from PySide6.QtCore import Signal, SignalInstance
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QMenu, QMessageBox, QSplitter, QVBoxLayout, QWidget

from slidelab.fileio import read_text, write_text_atomically
from slidelab.gui.status import StatusPanel
from slidelab.gui.worker import SolverFactory, SolverRunner
from slidelab.runs import Found, Progress

FoundT = TypeVar("FoundT", bound=Found)


class Workbench(Protocol):
    """One puzzle family's tab.  The main window owns files; the workbench owns the puzzle."""

    title: str
    """The tab's name."""
    family: str
    """The `slidelab.formats` family whose files open here."""
    file_filter: str
    """Qt file-dialog filter for this family's files."""
    default_name: str
    """File name proposed by Save As for an untitled document."""
    undo_stack: QUndoStack
    status: StatusPanel
    """The tab's own status line: its runs' progress and how the last one ended."""
    openRequested: SignalInstance
    """`(text, title)`: the tab asks the window to open `text` (a result of one of its runs)
    as a new untitled document under `title`, the way the window opens files."""

    def is_modified(self) -> bool:
        """Whether the document has edits not yet saved."""
        ...

    def new_document(self) -> None:
        """Start an empty (or default) document, forgetting the undo history."""
        ...

    def load_text(self, text: str, source: str) -> None:
        """Replace the document by the puzzle in `text`; raises SlidelabError if it is bad."""
        ...

    def open_file(self, path: str) -> None:
        """Replace the document by the puzzle in the file; raises SlidelabError if it is bad."""
        ...

    def save_file(self, path: str) -> None:
        """Write the document to `path` atomically; raises SlidelabError when it cannot."""
        ...

    def mark_saved(self) -> None:
        """The document was just saved: the current state is the clean one."""
        ...

    def library_titles(self) -> dict[str, str]:
        """The family's shipped puzzles: file name to the title shown in the Puzzles menu."""
        ...

    def menus(self) -> list[QMenu]:
        """Menus the main window shows while this workbench is the current tab."""
        ...


class TextDocument:
    """`open_file` and `save_file` for a workbench whose document is one text file, through
    its `load_text` and `current_text` (mix in before QWidget)."""

    def open_file(self, path: str) -> None:
        self.load_text(read_text(path), path)  # type: ignore[attr-defined]

    def save_file(self, path: str) -> None:
        write_text_atomically(path, self.current_text())  # type: ignore[attr-defined]


class WorkbenchWidget(QWidget):
    """What every workbench tab has: the shared solver thread, its own status line (whose
    Cancel stops the run), and an undo history whose clean state is the saved document."""

    openRequested = Signal(str, str)

    def __init__(
        self, runner: SolverRunner, status: StatusPanel, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.runner = runner
        self.status = status
        status.cancelRequested.connect(runner.cancel)
        self.undo_stack = QUndoStack(self)

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    def mark_saved(self) -> None:
        self.undo_stack.setClean()


class RunningWorkbench(WorkbenchWidget, Generic[FoundT]):
    """A workbench whose runs go through one lifecycle: started, results streamed in batches of
    `FoundT`, then finished, or stopped (cancelled by the user, or failed).

    Subclasses start runs with `start_run` and implement `run_finished` (the result; returns
    the status-line message), `run_stopped` and `_update_actions`, and `run_found` when their
    solvers hand out results as they go.  Events of runs other tabs started are ignored: the
    tab's status line shows only its own runs.
    """

    def __init__(
        self, runner: SolverRunner, status: StatusPanel, parent: QWidget | None = None
    ) -> None:
        super().__init__(runner, status, parent)
        self.running = False
        runner.progress.connect(self._progress)
        runner.found.connect(self._batch_found)
        runner.finished.connect(self._finished)
        runner.failed.connect(self._failed)
        runner.stopped.connect(self._stopped)
        runner.busyChanged.connect(lambda _busy: self._update_actions())

    def place(self, panels: list[QWidget], sizes: list[int]) -> None:
        """Lay out the tab: panels side by side, the second (the view) taking the extra room."""
        splitter = QSplitter()
        for widget in panels:
            splitter.addWidget(widget)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes(sizes)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

    def start_run(self, phase: str, make_solver: SolverFactory) -> None:
        """Run `make_solver()` on the solver thread, showing `phase` in the status line."""
        self.running = True
        self.status.running(phase)
        self.runner.start(make_solver)

    def run_found(self, batch: FoundT) -> None:
        """A batch of the run's results (none come from solvers that only return theirs)."""

    def run_finished(self, result: object) -> str:
        raise NotImplementedError

    def run_stopped(self) -> None:
        raise NotImplementedError

    def _update_actions(self) -> None:
        raise NotImplementedError

    def _progress(self, event: Progress) -> None:
        if self.running:
            self.status.show_progress(event)

    def _batch_found(self, batch: FoundT) -> None:
        if self.running:
            self.run_found(batch)

    def _finished(self, result: object) -> None:
        if self.running:
            self.running = False
            self.status.ready(self.run_finished(result))
            self._update_actions()

    def _failed(self, message: str) -> None:
        if self.running:
            self._stopped()
            QMessageBox.warning(self, "slidelab", message)

    def _stopped(self) -> None:
        if self.running:
            self.running = False
            self.run_stopped()
            self.status.ready("stopped")
            self._update_actions()

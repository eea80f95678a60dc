"""What the main window needs from a workbench tab: its document, undo stack and menus."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QMenu, QWidget

from slidelab.fileio import read_text, write_text_atomically
from slidelab.gui.status import StatusPanel
from slidelab.gui.worker import SolverRunner


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
    """What every workbench tab has: the shared solver thread and status line, and an undo
    history whose clean state is the saved document."""

    def __init__(
        self, runner: SolverRunner, status: StatusPanel, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.runner = runner
        self.status = status
        self.undo_stack = QUndoStack(self)

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    def mark_saved(self) -> None:
        self.undo_stack.setClean()

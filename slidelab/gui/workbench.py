"""What the main window needs from a workbench tab: its document, undo stack and menus."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QMenu


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

    def current_text(self) -> str:
        """The document in its file format, as Save writes it."""
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

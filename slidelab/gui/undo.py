"""Undo by snapshots: each edit keeps the document's value before and after it.

Documents are immutable values (drafts, packings), so an edit is undone by showing
the old value again; no edit needs its own inverse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from PySide6.QtGui import QUndoCommand

T = TypeVar("T")


class Snapshot(QUndoCommand, Generic[T]):
    """An edit that replaced `before` by `after`; `show` puts a value on screen."""

    def __init__(self, show: Callable[[T], None], before: T, after: T, text: str) -> None:
        super().__init__(text)
        self.show, self.before, self.after = show, before, after

    def redo(self) -> None:
        self.show(self.after)

    def undo(self) -> None:
        self.show(self.before)

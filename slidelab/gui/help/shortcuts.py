"""The keyboard shortcuts dialog, read from the window's actions so it never goes stale."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def _label(action: QAction) -> str:
    """An action's text as a person reads it: no accelerator ampersands, no ellipsis."""
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…")


def _keys(action: QAction) -> str:
    return ", ".join(
        key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts()
    )


def _menu_rows(menu: QMenu, where: str) -> Iterable[tuple[str, QAction]]:
    for action in menu.actions():
        submenu = action.menu()
        if isinstance(submenu, QMenu):
            yield from _menu_rows(submenu, where)
        elif action.shortcuts():
            yield where, action


def shortcut_rows(
    window: QMainWindow, tabs: Iterable[tuple[str, QWidget]]
) -> list[tuple[str, str, str]]:
    """(where, command, keys) for every action with a shortcut: the menu bar's menus by
    their names, then each (title, tab)'s own actions (toolbars, views) by the tab's title."""
    found: dict[QAction, str] = {}
    for top in window.menuBar().actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            for where, action in _menu_rows(menu, _label(top)):
                found.setdefault(action, where)
    for title, tab in tabs:
        for action in tab.findChildren(QAction):
            if action.shortcuts():
                found.setdefault(action, title)
    return [(where, _label(action), _keys(action)) for action, where in found.items()]


class ShortcutsDialog(QDialog):
    """A non-modal table of every command's keys."""

    def __init__(self, window: QMainWindow, tabs: Iterable[tuple[str, QWidget]]) -> None:
        super().__init__(window)
        self.setWindowTitle("Keyboard shortcuts")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        rows = shortcut_rows(window, tabs)
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Where", "Command", "Keys"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, texts in enumerate(rows):
            for column, text in enumerate(texts):
                self.table.setItem(row, column, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(460, 420)

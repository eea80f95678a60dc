"""The polycube tab's list of solutions (or assemblies): a number and, once they have been
taken apart, a level column to sort by, and a filter keeping those that come apart.

Rows are numpy columns behind `ArrayTableModel` (Soma's 11,520 solutions cost a few
bytes each); `solutionChosen` gives the chosen row's solution number from 0 (its place
in the order found), whatever the sort.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QHeaderView, QTableView, QWidget

from slidelab.disassembly.batch import STUCK_KEY, UNTRIED_KEY
from slidelab.gui.array_table import ArrayTableModel, TableColumn


class SolutionTable(QTableView):
    """Solutions by number, with their levels once known; one row chosen at a time."""

    solutionChosen = Signal(int)
    """The chosen solution's number from 0, or -1 when none is chosen."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._level_texts: list[str] = []
        self.rows = ArrayTableModel(
            (
                TableColumn("#", "number", "The order the search found it in"),
                TableColumn(
                    "level",
                    "level",
                    "Moves to each separation when it is taken apart (Take apart); "
                    "'stuck' when it does not come apart",
                    self._level_text,
                ),
            ),
            self,
        )
        self.setModel(self.rows)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(
            self.fontMetrics().height() + 6
        )  # a list's rows
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)  # as found
        self.setSortingEnabled(True)
        self.selectionModel().currentRowChanged.connect(self._current_changed)

    def _level_text(self, key: int) -> str:
        if key == UNTRIED_KEY:
            return ""
        if key == STUCK_KEY:
            return "stuck"
        return self._level_texts[key]

    def count(self) -> int:
        """Rows shown (after the filter)."""
        return self.rows.rowCount()

    def setCurrentRow(self, row: int) -> None:
        """Choose the row shown at `row` (from the top)."""
        self.setCurrentIndex(self.rows.index(row, 0))

    def current_solution(self) -> int:
        """The chosen solution's number from 0, or -1."""
        index = self.currentIndex()
        return self.rows.source_row(index.row()) if index.isValid() else -1

    def add_solutions(self, start: int, end: int) -> None:
        """List solutions `start` .. `end - 1` (numbers from 0), not taken apart yet."""
        self.rows.append(
            {
                "number": np.arange(start + 1, end + 1, dtype=np.int64),
                "level": np.full(end - start, UNTRIED_KEY, np.int64),
            }
        )

    def clear(self) -> None:
        self.rows.clear()
        self._level_texts = []
        self.rows.set_ranges(())

    def set_levels(self, keys: np.ndarray, texts: list[str]) -> None:
        """Every listed solution's level (`disassembly.batch.level_keys`)."""
        self._level_texts = texts
        self.rows.set_column("level", keys)
        self._current_changed(self.currentIndex())

    def set_solutions_only(self, on: bool) -> None:
        """Show only the rows that come apart (or every row)."""
        self.rows.set_ranges((("level", 0, STUCK_KEY - 1),) if on else ())
        if not self.currentIndex().isValid() and self.count():
            self.setCurrentRow(0)
        self._current_changed(self.currentIndex())

    def _current_changed(self, index: QModelIndex) -> None:
        self.solutionChosen.emit(self.rows.source_row(index.row()) if index.isValid() else -1)

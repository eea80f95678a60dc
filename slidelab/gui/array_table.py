"""A read-only Qt table over numpy columns: a million rows, drawn only when seen.

The rows live in a `slidelab.columns.ColumnStore`; the model shows them in the
order its `Arrangement` gives (clicking a header sorts, `set_ranges` filters).
Batches appended while a run streams in go to the end of the view, or, when it is
sorted, into their places; selections follow their rows through every change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from slidelab.columns import Arrangement, ColumnStore

Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class TableColumn:
    """One shown column: its header, the store column it shows, and its header's tooltip."""

    title: str
    name: str
    tip: str = ""
    text: Callable[[int], str] | None = None
    """How a value is written (a sort key shown as what it stands for); None: as a number."""


class ArrayTableModel(QAbstractTableModel):
    """Integer columns of a `ColumnStore` as a sortable, filterable table."""

    def __init__(self, columns: Sequence[TableColumn], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = ColumnStore()
        self._columns = tuple(columns)
        self._arrangement = Arrangement()
        self._order = np.zeros(0, np.int32)

    # What the view asks -----------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole:
            shown = self._columns[index.column()]
            value = self.store.column(shown.name)[self._order[index.row()]]
            return f"{value}" if shown.text is None else shown.text(int(value))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._columns[section].title
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._columns[section].tip or None
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort stably by a column (the view calls this when a header is clicked)."""
        descending = order == Qt.SortOrder.DescendingOrder
        name = self._columns[column].name
        self._arrange(replace(self._arrangement, key=name, descending=descending))

    # What the owner does ----------------------------------------------------------------

    def append(self, columns: Mapping[str, np.ndarray]) -> None:
        """Add a batch of rows, shown at once where the sort and filter put them."""
        start = len(self.store)
        self.store.append(columns)
        order, at_end = self._arrangement.merged(self._order, self.store, start)
        if not at_end:
            self._relayout(order)
        elif len(order) > len(self._order):
            self.beginInsertRows(QModelIndex(), len(self._order), len(order) - 1)
            self._order = order
            self.endInsertRows()

    def set_column(self, name: str, values: np.ndarray) -> None:
        """Replace every row's value in one column, and arrange the rows again."""
        self.store.column(name)[:] = values
        self._arrange(self._arrangement)
        if len(self._order):
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self._order) - 1, len(self._columns) - 1)
            )

    def set_ranges(self, ranges: tuple[tuple[str, int, int], ...]) -> None:
        """Show only the rows whose values lie in the ranges: (column, low, high)."""
        self._arrange(replace(self._arrangement, ranges=ranges))

    def clear(self) -> None:
        """Forget every row (the sort and filter stay)."""
        self.beginResetModel()
        self.store.clear()
        self._order = np.zeros(0, np.int32)
        self.endResetModel()

    def source_row(self, row: int) -> int:
        """The store row shown at view row `row`."""
        return int(self._order[row])

    @property
    def nbytes(self) -> int:
        """Bytes held for the rows: the columns (spare room included) and the display order."""
        return self.store.nbytes + self._order.nbytes

    def _arrange(self, arrangement: Arrangement) -> None:
        self._arrangement = arrangement
        self._relayout(arrangement.rows(self.store))

    def _relayout(self, order: np.ndarray) -> None:
        """Show `order`, moving the selection and current row along with their rows."""
        self.layoutAboutToBeChanged.emit()
        held = self.persistentIndexList()
        sources = [int(self._order[index.row()]) for index in held]
        self._order = order
        if held:
            where = np.full(len(self.store), -1, np.int64)
            where[order] = np.arange(len(order))
            moved = [
                self.index(int(where[row]), index.column()) if where[row] >= 0 else QModelIndex()
                for row, index in zip(sources, held, strict=True)
            ]
            self.changePersistentIndexList(held, moved)
        self.layoutChanged.emit()

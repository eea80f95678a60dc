"""Long result lists as growing numpy columns, their rows sorted and filtered without Qt.

A list of a million results (antislide packings, say) is held as a few numpy
columns instead of one object per row.  A view shows the rows through an order
(row numbers in display order) that an `Arrangement` builds in one numpy pass:
kept to the rows whose columns lie in given ranges, sorted stably by one integer
column (ties keep the order the rows came in).  Rows appended later are merged
into an existing order without sorting it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from slidelab.errors import SlidelabError

FIRST_CAPACITY = 1024
"""Rows a store makes room for at its first append (it doubles as it grows)."""


class ColumnError(SlidelabError):
    """Columns appended to a store do not match its columns or each other's lengths."""


class ColumnStore:
    """Named numpy columns that grow together.  Each keeps spare room (doubling when full), so
    appending a batch costs the batch's size, not the list's."""

    def __init__(self) -> None:
        self._columns: dict[str, np.ndarray] = {}
        self._rows = 0

    def __len__(self) -> int:
        return self._rows

    def append(self, columns: Mapping[str, np.ndarray]) -> None:
        """Add rows: one array per column, all of the same length (the first append names the
        columns and fixes their types and row shapes)."""
        lengths = {len(values) for values in columns.values()}
        if len(lengths) != 1:
            raise ColumnError(f"columns of different lengths: {sorted(lengths)}")
        if self._columns and columns.keys() != self._columns.keys():
            raise ColumnError(
                f"expected the columns {sorted(self._columns)}, not {sorted(columns)}"
            )
        end = self._rows + lengths.pop()
        for name, values in columns.items():
            held = self._columns.get(name)
            if held is None or end > len(held):
                room = max(end, 2 * len(held) if held is not None else FIRST_CAPACITY)
                grown = np.empty(
                    (room, *values.shape[1:]), values.dtype if held is None else held.dtype
                )
                if held is not None:
                    grown[: self._rows] = held[: self._rows]
                self._columns[name] = held = grown
            held[self._rows : end] = values
        self._rows = end

    def column(self, name: str) -> np.ndarray:
        """The column's values, one per row (a view, not a copy)."""
        return self._columns[name][: self._rows]

    def clear(self) -> None:
        """Forget every row and column."""
        self._columns = {}
        self._rows = 0

    def trim(self) -> None:
        """Give back the spare room (once the list is complete)."""
        self._columns = {
            name: values[: self._rows].copy() for name, values in self._columns.items()
        }

    @property
    def nbytes(self) -> int:
        """Bytes the columns hold, spare room included."""
        return sum(values.nbytes for values in self._columns.values())


@dataclass(frozen=True)
class Arrangement:
    """Which rows a list shows and in what order."""

    key: str | None = None
    """The integer column the rows are sorted by (stably), or None for the order they came in."""
    descending: bool = False
    ranges: tuple[tuple[str, int, int], ...] = ()
    """(column, low, high): only rows whose value in the column lies in low..high are shown."""

    def rows(self, store: ColumnStore, start: int = 0) -> np.ndarray:
        """The shown rows among the store's rows from `start` on, in display order (int32)."""
        if start >= len(store):  # also before the first append, when no column exists yet
            return np.zeros(0, np.int32)
        keep = np.ones(len(store) - start, bool)
        for name, low, high in self.ranges:
            values = store.column(name)[start:]
            keep &= (values >= low) & (values <= high)
        rows = (np.flatnonzero(keep) + start).astype(np.int32)
        if self.key is None:
            return rows
        return rows[np.argsort(self._keys(store.column(self.key)[rows]), kind="stable")]

    def merged(self, order: np.ndarray, store: ColumnStore, start: int) -> tuple[np.ndarray, bool]:
        """`order` (the display order of the rows before `start`) with the shown rows from
        `start` on put in their places, as if it were arranged anew; and whether they all went
        after the old ones (so a view can take them as rows added at its end)."""
        fresh = self.rows(store, start)
        if self.key is None or not len(order) or not len(fresh):
            return np.concatenate((order, fresh)), True
        column = store.column(self.key)
        # fresh rows come after every old one, so among equal keys they go last
        if self._keys(column[fresh[:1]])[0] >= self._keys(column[order[-1:]])[0]:
            return np.concatenate((order, fresh)), True  # the common case, without a pass
        at = np.searchsorted(self._keys(column[order]), self._keys(column[fresh]), side="right")
        return np.insert(order, at, fresh), False

    def _keys(self, values: np.ndarray) -> np.ndarray:
        """Sort keys of the key column's `values`: bits inverted when descending, which reverses
        the order of any integer type, so ties still sort in row order (and narrow types keep
        numpy's fast radix sort)."""
        if not self.descending:
            return values
        inverted: np.ndarray = np.invert(values)
        return inverted

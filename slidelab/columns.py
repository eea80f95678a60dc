"""Long result lists as growing numpy columns, their rows sorted and filtered without Qt.

A list of a million results (antislide packings, say) is held as a few numpy
columns instead of one object per row.  A view shows the rows through an order
(row numbers in display order) that an `Arrangement` builds in one numpy pass:
kept to the rows whose columns lie in given ranges, sorted stably by one integer
column (ties keep the order the rows came in).  Rows appended later are merged
into an existing order without sorting it again.

The store runs on the window's thread while rows stream in, so no append and no
`trim` copies the whole list.  Scalar columns (the ones sorted and filtered by, a
few bytes a row) stay contiguous and double when full: copying them is cheap.
Payload columns (a row of several values, or of more than 8 bytes) are held in
fixed-size blocks that are never copied once filled (a packing's 25 moves are 36 MB
at 717,676 rows, and each copy of that faulted in ~9,000 fresh pages: 20-120 ms).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from slidelab.errors import SlidelabError

FIRST_CAPACITY = 1024
"""Rows a scalar column makes room for at its first append (it doubles as it grows)."""

BLOCK_BYTES = 1 << 21
"""Bytes in one block of a payload column (2 MiB: trimming the last one is a short copy)."""

SCALAR_BYTES = 8
"""The widest row a contiguous column holds; wider rows, or rows of several values, go in
blocks."""


class ColumnError(SlidelabError):
    """Columns appended to a store do not match its columns or each other's lengths, or a
    payload column is asked for whole."""


class _Contiguous:
    """A scalar column in one array with spare room, doubling when full."""

    def __init__(self, dtype: np.dtype) -> None:
        self.values = np.empty(0, dtype)

    def write(self, start: int, values: np.ndarray) -> None:
        end = start + len(values)
        if end > len(self.values):
            grown = np.empty(max(end, 2 * len(self.values), FIRST_CAPACITY), self.values.dtype)
            grown[:start] = self.values[:start]
            self.values = grown
        self.values[start:end] = values

    def row(self, index: int) -> np.ndarray:
        row: np.ndarray = self.values[index, ...]
        return row

    def trim(self, rows: int) -> None:
        self.values = self.values[:rows].copy()

    @property
    def nbytes(self) -> int:
        return self.values.nbytes


class _Blocks:
    """A payload column in blocks of `per_block` rows; a block once filled stays where it is."""

    def __init__(self, dtype: np.dtype, row_shape: tuple[int, ...], block_bytes: int) -> None:
        self.dtype = dtype
        self.row_shape = row_shape
        self.per_block = max(1, block_bytes // max(1, dtype.itemsize * math.prod(row_shape)))
        self.blocks: list[np.ndarray] = []

    def write(self, start: int, values: np.ndarray) -> None:
        done = 0
        while done < len(values):
            block, offset = divmod(start + done, self.per_block)
            if block == len(self.blocks):
                self.blocks.append(np.empty((self.per_block, *self.row_shape), self.dtype))
            elif len(self.blocks[block]) < self.per_block:  # the last block, trimmed
                full = np.empty((self.per_block, *self.row_shape), self.dtype)
                full[:offset] = self.blocks[block][:offset]
                self.blocks[block] = full
            size = min(len(values) - done, self.per_block - offset)
            self.blocks[block][offset : offset + size] = values[done : done + size]
            done += size

    def row(self, index: int) -> np.ndarray:
        block, offset = divmod(index, self.per_block)
        row: np.ndarray = self.blocks[block][offset, ...]
        return row

    def trim(self, rows: int) -> None:
        """Cut the last block to its rows (a copy of one block at most; full blocks stay)."""
        held = rows - (len(self.blocks) - 1) * self.per_block
        if self.blocks and held < len(self.blocks[-1]):
            self.blocks[-1] = self.blocks[-1][:held].copy()

    @property
    def nbytes(self) -> int:
        return sum(block.nbytes for block in self.blocks)


class ColumnStore:
    """Named numpy columns that grow together.  Appending a batch costs the batch's size and
    trimming the spare room a short copy, not the list's size: scalar columns keep spare room
    (doubling when full, a few bytes a row), payload columns grow by blocks of
    `block_bytes` that are never copied once filled."""

    def __init__(self, block_bytes: int = BLOCK_BYTES) -> None:
        self._block_bytes = block_bytes
        self._columns: dict[str, _Contiguous | _Blocks] = {}
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
        for name, values in columns.items():
            held = self._columns.get(name)
            if held is None:
                held = self._columns[name] = self._new_column(values)
            held.write(self._rows, values)
        self._rows += lengths.pop()

    def _new_column(self, values: np.ndarray) -> _Contiguous | _Blocks:
        if values.ndim == 1 and values.dtype.itemsize <= SCALAR_BYTES:
            return _Contiguous(values.dtype)
        return _Blocks(values.dtype, values.shape[1:], self._block_bytes)

    def column(self, name: str) -> np.ndarray:
        """A scalar column's values, one per row (a view, not a copy).  A payload column is
        not given whole (that would copy it): read its rows with `row`."""
        held = self._columns[name]
        if isinstance(held, _Blocks):
            raise ColumnError(f"the column {name!r} is held in blocks: read it row by row")
        return held.values[: self._rows]

    def row(self, name: str, index: int) -> np.ndarray:
        """Row `index`'s value in a column, as a view (0-d for a scalar column)."""
        if not 0 <= index < self._rows:
            raise IndexError(f"row {index} of {self._rows}")
        return self._columns[name].row(index)

    def clear(self) -> None:
        """Forget every row and column."""
        self._columns = {}
        self._rows = 0

    def trim(self) -> None:
        """Give back the spare room (once the list is complete)."""
        for held in self._columns.values():
            held.trim(self._rows)

    @property
    def nbytes(self) -> int:
        """Bytes the columns hold, spare room included."""
        return sum(held.nbytes for held in self._columns.values())


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

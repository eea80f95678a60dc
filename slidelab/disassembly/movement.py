"""How far one piece can slide before it meets another, for any places of the two.

Piece i, shifted by k cells along direction u, meets piece j when some cell v
of i and w of j satisfy v + p_i + k u = w + p_j, that is k u = (w - v) + d with
d = p_j - p_i.  So the pair's differences w - v, grouped by their coordinates
across the axis and sorted along it, answer every question of the search by
one bisection: the first k >= 1 at which the pieces meet, or none (the pieces
never meet along that line: i can leave j behind for good).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache

import numpy as np

from slidelab.disassembly.model import Assembly, Vector

FREE = 1 << 30
"""The room a piece has towards a piece it never meets in that direction."""

Lines = dict[tuple[int, int], tuple[int, ...]]
"""Differences w - v of a pair of pieces: their coordinates across an axis, to the sorted
coordinates along it."""


class Room:
    """Room to slide between the pieces of one assembly (the pairs' differences, made once)."""

    def __init__(self, assembly: Assembly) -> None:
        self.cells = [np.array(piece.cells, np.int64).reshape(-1, 3) for piece in assembly.pieces]
        self.boxes = [
            (tuple(cells.min(axis=0).tolist()), tuple(cells.max(axis=0).tolist()))
            for cells in self.cells
        ]
        self._differences = lru_cache(maxsize=None)(self._make_differences)
        self._lines = lru_cache(maxsize=None)(self._make_lines)

    def _make_differences(self, i: int, j: int) -> tuple[np.ndarray, np.ndarray]:
        """The differences w - v (v a cell of piece i, w one of piece j) as a grid of
        booleans, and the difference its first corner stands for."""
        differences = (self.cells[j][None, :, :] - self.cells[i][:, None, :]).reshape(-1, 3)
        low = differences.min(axis=0)
        shifted = differences - low
        grid = np.zeros(shifted.max(axis=0) + 1, np.bool_)
        grid[shifted[:, 0], shifted[:, 1], shifted[:, 2]] = True
        return grid, low

    def _make_lines(self, i: int, j: int, axis: int) -> Lines:
        grid, low = self._differences(i, j)
        a, b = (k for k in range(3) if k != axis)
        found = np.nonzero(grid.transpose(a, b, axis))
        lines: dict[tuple[int, int], list[int]] = {}
        for x, y, along in zip(
            (found[0] + low[a]).tolist(),
            (found[1] + low[b]).tolist(),
            (found[2] + low[axis]).tolist(),
            strict=True,
        ):
            lines.setdefault((x, y), []).append(along)
        return {key: tuple(values) for key, values in lines.items()}

    def free(self, i: int, j: int, direction: int, offset: Vector) -> int:
        """Cells piece i can slide along `direction` (an index of `DIRECTIONS`) before it
        meets piece j, when j stands at `offset` from i (both relative to their places in
        the assembly); `FREE` when it never meets j that way."""
        axis, backwards = divmod(direction, 2)
        (low_i, high_i), (low_j, high_j) = self.boxes[i], self.boxes[j]
        for a in range(3):
            if a != axis and (low_j[a] + offset[a] > high_i[a] or high_j[a] + offset[a] < low_i[a]):
                return FREE  # the boxes miss each other across the axis
        across = [offset[a] for a in range(3) if a != axis]
        line = self._lines(i, j, axis).get((-across[0], -across[1]))
        if not line:
            return FREE
        along = offset[axis]
        if not backwards:
            # the least difference c with k = c + along >= 1
            at = bisect_left(line, 1 - along)
            return line[at] + along - 1 if at < len(line) else FREE
        # the greatest difference c with k = -(c + along) >= 1
        at = bisect_right(line, -1 - along)
        return -(line[at - 1] + along) - 1 if at > 0 else FREE

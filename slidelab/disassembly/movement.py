"""How far one piece can slide before it meets another: the tables the kernels read.

Piece i, shifted by k cells along direction u, meets piece j when some cell v
of i and w of j satisfy v + p_i + k u = w + p_j, that is k u = (w - v) + d with
d = p_j - p_i.  So the pair's differences w - v, grouped by line along each
axis (their two coordinates across it) and sorted along it, answer every
question of the search by one bisection (`kernels.free`): the first k >= 1 at
which the pieces meet, or none (i can leave j behind for good).
"""

from __future__ import annotations

from itertools import accumulate, chain

import numpy as np

from slidelab.disassembly.kernels import Lines, fill_lines, plan_lines
from slidelab.disassembly.model import Assembly
from slidelab.errors import SlidelabError

LIMIT = 1 << 14
"""Largest coordinate of a cell, or difference of two, the kernels take (16-bit offsets)."""

MOST_PIECES = 64
"""Most pieces in one assembly: the kernels hold a set of pieces in one 64-bit word."""


ONE_PASS = 1 << 20
"""Values room allocated before the pairs are looked at: small assemblies are filled in one
pass, bigger ones counted first."""


class AssemblyTooLargeError(SlidelabError, ValueError):
    """An assembly with more pieces than a word holds, or whose cells lie too far apart for
    the kernels' packed offsets."""


def build_lines(assembly: Assembly) -> Lines:
    """The differences of every ordered pair of pieces, by line along each axis."""
    if len(assembly.pieces) > MOST_PIECES:
        raise AssemblyTooLargeError(
            f"an assembly of {len(assembly.pieces):,} pieces; taking apart handles at most "
            f"{MOST_PIECES}"
        )
    flat = chain.from_iterable(chain.from_iterable(piece.cells for piece in assembly.pieces))
    cells = np.fromiter(flat, np.int64).reshape(-1, 3)
    spread = max(int(cells.max(initial=0)), -int(cells.min(initial=0)))
    if spread >= LIMIT // 2:
        raise AssemblyTooLargeError(
            f"a cell lies {spread:,} cells from the origin; the most is {LIMIT // 2 - 1:,}"
        )
    sizes = [len(piece.cells) for piece in assembly.pieces]
    first = np.array([0, *accumulate(sizes)], np.int64)
    count = len(assembly.pieces)
    plane = np.zeros((count * count * 3, 5), np.int64)
    total, largest = plan_lines(cells, first, plane)
    starts = np.zeros(total + 1, np.int64)
    grid = np.zeros(largest, np.bool_)
    most = 3 * (len(cells) ** 2 - sum(size * size for size in sizes))  # 3 axes, pairs' products
    values = np.zeros(min(most, ONE_PASS), np.int16)
    used = fill_lines(cells, first, plane, starts, values, grid)
    if used > values.size:  # counted only: fill again with room for every value
        values = np.zeros(used, np.int16)
        fill_lines(cells, first, plane, starts, values, grid)
    return Lines(plane, starts, values[:used], count)

"""Keys to sort a list of dissections by: how big the pieces are, how many are turned."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from slidelab.dissection.model import Solution
from slidelab.dissection.shifts import Tables


def piece_sizes(solution: Solution) -> tuple[int, ...]:
    """The cells of each piece, largest first (colours left unused make no piece): sorting by
    it puts the most even cuts first."""
    colours = solution.source_colours
    return tuple(sorted((colours.count(k) for k in set(colours)), reverse=True))


def turned_pieces(tables: Tables, solution: Solution) -> int:
    """How many pieces are turned or turned over (not merely shifted) to rebuild the target."""
    used = set(solution.source_colours)
    return sum(
        tables.stances[tables.placements[q].stance].orientations[i] != 0
        for colour, (q, i) in enumerate(solution.maps, start=1)
        if colour in used
    )


@dataclass(frozen=True)
class SortKey:
    """A way to order the list: its name and the key of one solution."""

    name: str
    key: Callable[[Tables, Solution], tuple[int, ...]]


SORT_KEYS = (
    SortKey("largest piece, smallest first", lambda _tables, s: piece_sizes(s)),
    SortKey("fewest pieces", lambda _tables, s: (len(piece_sizes(s)),)),
    SortKey("fewest turned pieces", lambda tables, s: (turned_pieces(tables, s),)),
)
"""The orders offered besides the order found (each ties broken by that order)."""

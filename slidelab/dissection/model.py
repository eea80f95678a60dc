"""A dissection problem and its solutions, as plain values, and the seed's text for a solution.

A solution colours the source with colours 1..d; all cells of colour k move by
the same map (a placement and an orientation, see `shifts`) onto the target, and
the target cell a source cell lands on gets its colour.  As in Knuth's program a
colour may stay unused, two colours may even share a map, and solutions that
differ only by renaming colours or turning the square are not all merged: the
search fixes the order of the maps and the first map's orientation, nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass

from slidelab.dissection.shape import Shape, square
from slidelab.errors import SlidelabError

MAX_PIECES = 16
"""Most pieces a search accepts (colours are printed as 1-9, then a-g)."""


class DissectionError(SlidelabError, ValueError):
    """A dissection that cannot be set up (too few or too many pieces, unequal areas)."""


@dataclass(frozen=True)
class Dissection:
    """Cut `source` into at most `pieces` pieces that, moved rigidly, fill `target`."""

    source: Shape
    target: Shape
    pieces: int
    """d: how many colours a solution may use."""
    connected: bool = False
    """Whether every piece must be 4-connected."""
    flips: bool = False
    """Whether pieces may be turned over (mirrored) as well as turned."""

    def __post_init__(self) -> None:
        if not 2 <= self.pieces <= MAX_PIECES:
            raise DissectionError(
                f"the number of pieces must be from 2 to {MAX_PIECES}, not {self.pieces}"
            )
        if len(self.source) != len(self.target):
            raise DissectionError(
                f"the source has {len(self.source)} cells and the target {len(self.target)}"
            )


def square_source(target: Shape) -> Shape:
    """The n x n square a target of n^2 cells is cut from."""
    side = target.side
    if side is None:
        raise DissectionError(
            f"the target has {len(target)} cells, not a perfect square: give a source shape"
        )
    return square(side)


@dataclass(frozen=True)
class Solution:
    """One way to cut the source and rebuild the target."""

    maps: tuple[tuple[int, int], ...]
    """(placement number, orientation) of colours 1..d (see `shifts.Tables`)."""
    source_colours: tuple[int, ...]
    """The colour (1..d) of each source cell, in reading order."""
    target_colours: tuple[int, ...]
    """The colour of each target cell, in reading order."""

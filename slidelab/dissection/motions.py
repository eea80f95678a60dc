"""Turning and mirroring shapes on the grid, and the stances a source shape can take.

Orientation t (0-3) turns a shape 90t degrees counterclockwise on the page (rows
going down), numbered as Knuth's program numbers its rotations (it turns target
cells clockwise back into the square); orientations 4-7 first mirror the shape
left to right, then turn it.  An oriented shape is normalised: shifted so that
its top row and leftmost column are 0.

A *stance* is one normalised image of the source shape together with the
orientations that produce it.  The n x n square has a single stance reached by
every orientation; a shape without symmetry has one stance per orientation.
All stances have equally many orientations (the order of the source's symmetry
group), which is what lets a search fix the first piece's orientation.
"""

from __future__ import annotations

from dataclasses import dataclass

from slidelab.dissection.shape import Cell, Shape

LINEAR: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1),
    (0, -1, 1, 0),
    (-1, 0, 0, -1),
    (0, 1, -1, 0),
    (1, 0, 0, -1),
    (0, 1, 1, 0),
    (-1, 0, 0, 1),
    (0, -1, -1, 0),
)
"""Orientation t maps (r, c) to (a r + b c, e r + f c) for (a, b, e, f) = LINEAR[t]."""

TURNS, WITH_FLIPS = 4, 8
"""How many orientations pieces have without and with mirror images."""


@dataclass(frozen=True)
class Stance:
    """One normalised image of the source and the orientations that give it."""

    cells: frozenset[Cell]
    orientations: tuple[int, ...]
    """Increasing orientation numbers."""


def oriented(cells: tuple[Cell, ...], t: int) -> tuple[Cell, ...]:
    """The images of `cells` under orientation t, normalised, in the order of `cells`."""
    a, b, e, f = LINEAR[t]
    turned = [(a * r + b * c, e * r + f * c) for r, c in cells]
    top = min(r for r, _ in turned)
    left = min(c for _, c in turned)
    return tuple((r - top, c - left) for r, c in turned)


def stances(source: Shape, flips: bool = False) -> tuple[Stance, ...]:
    """The stances of `source`, in order of their first orientation."""
    found: dict[frozenset[Cell], list[int]] = {}
    for t in range(WITH_FLIPS if flips else TURNS):
        found.setdefault(frozenset(oriented(source.cells, t)), []).append(t)
    return tuple(Stance(cells, tuple(ts)) for cells, ts in found.items())

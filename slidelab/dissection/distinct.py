"""Dissections up to the target's symmetries: one of each class, kept as they stream in.

A dissection is its pieces, each the pair (its source cells, its target cells);
which colour names a piece does not matter.  The target's symmetries are the
turns of the grid (and, when pieces may be turned over, the mirror images) that
carry the target onto itself.  Two dissections are the same when one such
symmetry carries the target cells of every piece of one onto the target cells
of the piece of the other with the same source cells: the same cut, rebuilt as
a turned or mirrored picture of the same target.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from slidelab.dissection.model import Dissection, Solution
from slidelab.dissection.motions import TURNS, WITH_FLIPS, oriented
from slidelab.dissection.search import SolutionsFound
from slidelab.dissection.shape import Cell, Shape
from slidelab.runs import Progress, translate

ResultT = TypeVar("ResultT")

Piece = tuple[tuple[Cell, ...], tuple[Cell, ...]]
"""A piece's source cells and target cells, each sorted."""
Form = tuple[Piece, ...]
"""A dissection's pieces, sorted: equal forms are the same dissection."""


def pieces(source: Shape, target: Shape, solution: Solution) -> Form:
    """The pieces of `solution` (colours left unused make none)."""
    colours = sorted(set(solution.source_colours))
    return tuple(
        sorted(
            (
                tuple(
                    c
                    for c, k in zip(source.cells, solution.source_colours, strict=True)
                    if k == colour
                ),
                tuple(
                    c
                    for c, k in zip(target.cells, solution.target_colours, strict=True)
                    if k == colour
                ),
            )
            for colour in colours
        )
    )


def target_symmetries(target: Shape, flips: bool) -> tuple[dict[Cell, Cell], ...]:
    """The target's symmetries as maps of its cells, the identity first."""
    top = min(r for r, _ in target.cells)
    left = min(c for _, c in target.cells)
    placed = frozenset(oriented(target.cells, 0))
    found = []
    for t in range(WITH_FLIPS if flips else TURNS):
        image = oriented(target.cells, t)
        if frozenset(image) == placed:
            found.append(
                {
                    cell: (r + top, c + left)
                    for cell, (r, c) in zip(target.cells, image, strict=True)
                }
            )
    return tuple(found)


def canonical(form: Form, symmetries: Iterable[dict[Cell, Cell]]) -> Form:
    """The least image of a dissection's pieces under the symmetries of the target."""
    return min(
        tuple(sorted((cut, tuple(sorted(move[c] for c in cells))) for cut, cells in form))
        for move in symmetries
    )


class DistinctFilter:
    """Passes on the first dissection of every class it is shown, in the order shown."""

    def __init__(self, source: Shape, target: Shape, flips: bool) -> None:
        self.source = source
        self.target = target
        self.symmetries = target_symmetries(target, flips)
        self.seen: set[Form] = set()

    def fresh(self, solutions: Iterable[Solution]) -> list[int]:
        """The positions of the solutions of classes not met before (each class's first)."""
        kept = []
        for row, solution in enumerate(solutions):
            key = canonical(pieces(self.source, self.target, solution), self.symmetries)
            if key not in self.seen:
                self.seen.add(key)
                kept.append(row)
        return kept


@dataclass(frozen=True)
class DistinctRun(Generic[ResultT]):
    """A search's result and how many of its solutions are distinct."""

    result: ResultT
    distinct: int
    """Classes of solutions up to the target's symmetries."""
    symmetries: int
    """The target's symmetries (the identity included)."""


def only_distinct(
    search: Generator[Progress | SolutionsFound, None, ResultT], dissection: Dissection
) -> Generator[Progress | SolutionsFound, None, DistinctRun[ResultT]]:
    """`search` (a listing one) handing out only the first solution of every class, as it
    finds them."""
    keep = DistinctFilter(dissection.source, dissection.target, dissection.flips)

    def new(batch: SolutionsFound) -> SolutionsFound | None:
        rows = keep.fresh(batch.solutions())
        if not rows:
            return None
        return SolutionsFound(
            batch.maps[rows], batch.source_colours[rows], batch.target_colours[rows]
        )

    result = yield from translate(search, new)
    return DistinctRun(result, len(keep.seen), len(keep.symmetries))

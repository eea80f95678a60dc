"""Assemblies of voxel pieces and the ways they come apart, as plain values.

An assembly is a set of pieces on the cube grid, each a set of cells at its
place in the assembled puzzle.  A move slides some pieces together along one
axis; the last move of a separation takes a part of the pieces arbitrarily
far from the rest, and each of the two parts is then taken apart in turn.
A disassembly is that tree of separations.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

Vector = tuple[int, int, int]
"""An offset, or a cell of the cube grid, as (x, y, z)."""

DIRECTIONS: tuple[Vector, ...] = (
    (1, 0, 0),
    (-1, 0, 0),
    (0, 1, 0),
    (0, -1, 0),
    (0, 0, 1),
    (0, 0, -1),
)
"""The six directions a move may take, in BurrTools' order (+x, -x, +y, -y, +z, -z)."""

DIRECTION_NAMES = ("+x", "-x", "+y", "-y", "+z", "-z")


@dataclass(frozen=True)
class Piece:
    """One piece of an assembly: the cells it fills in the assembled puzzle."""

    cells: tuple[Vector, ...]
    name: str = ""
    groups: frozenset[int] = frozenset()
    """BurrTools' piece groups (numbers from 1) the piece belongs to: pieces that all share
    one group may stay together at the end, they need not come apart."""
    weight: int = 1
    """BurrTools' weight: when a move separates the pieces, the part holding the heaviest
    piece stays where it is and the other part is the one removed."""


@dataclass(frozen=True)
class Assembly:
    """Pieces at their places in the assembled puzzle (no two share a cell)."""

    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class Move:
    """Some pieces slid together along one direction."""

    pieces: tuple[int, ...]
    """The pieces that move (indices into the assembly), in increasing order."""
    direction: int
    """An index into `DIRECTIONS`."""
    distance: int | None
    """Cells travelled; None when the pieces leave for good (the separating move)."""


@dataclass(frozen=True)
class Separation:
    """How a part of an assembly comes apart into two: the moves up to the separation and
    then, for each of the two parts that has to come apart too, its own separation."""

    pieces: tuple[int, ...]
    """The pieces of this part (indices into the assembly), in increasing order."""
    start: tuple[Vector, ...]
    """Where each of `pieces` stands, as an offset from its place in the assembly."""
    moves: tuple[Move, ...]
    """The moves, the last one taking `removed_pieces` away."""
    removed_pieces: tuple[int, ...]
    removed: Separation | None
    """How the removed part comes apart; None when it is one piece or may stay together."""
    left: Separation | None
    """How the part that stays comes apart; None when it is one piece or may stay together."""

    def places(self, moves: int) -> tuple[Vector, ...]:
        """Where `pieces` stand after the first `moves` moves (the leaving move not made)."""
        at = dict(zip(self.pieces, self.start, strict=True))
        for move in self.moves[:moves]:
            if move.distance is None:
                continue
            step = DIRECTIONS[move.direction]
            for p in move.pieces:
                x, y, z = at[p]
                d = move.distance
                at[p] = (x + step[0] * d, y + step[1] * d, z + step[2] * d)
        return tuple(at[p] for p in self.pieces)

    @property
    def level(self) -> tuple[int, ...]:
        """Moves to each separation: this one, then the removed part's, then the rest's."""
        removed = self.removed.level if self.removed else ()
        left = self.left.level if self.left else ()
        return (len(self.moves), *removed, *left)

    @property
    def total_moves(self) -> int:
        """Moves of the whole disassembly, every separation's added up."""
        return sum(self.level)


@dataclass(frozen=True)
class Disassembly:
    """Whether an assembly comes apart, and how."""

    separation: Separation | None
    """The first separation and, within it, every later one; None when the assembly does
    not come apart (see `stuck`) or has one piece."""
    stuck: tuple[int, ...] = ()
    """When it does not come apart: the pieces of the part that could not be taken apart."""
    stuck_start: tuple[Vector, ...] = ()
    """Where those pieces stood when their search began."""
    states: int = 0
    """Positions visited by the breadth-first searches, all parts together."""

    @property
    def separable(self) -> bool:
        return not self.stuck

    @cached_property
    def level(self) -> tuple[int, ...]:
        """Moves to each separation (`Separation.level`), worked out once: a deep tree's
        takes microseconds, and the window reading 11,520 of them twice, to sort a list
        taken apart, held it 0.13-0.27 s (`TakenApartAll.of` has the solver's thread
        work them out)."""
        return self.separation.level if self.separation else ()

    @property
    def first_separation(self) -> int | None:
        """Moves to the first separation, or None if it does not come apart."""
        return self.level[0] if self.separable and self.level else None


def level_text(level: tuple[int, ...]) -> str:
    """A level as BurrTools writes it: the moves to each separation joined by dots."""
    return ".".join(map(str, level))


def separations(tree: Separation | None) -> list[Separation]:
    """Every separation of a tree, in the order of `Separation.level`."""
    if tree is None:
        return []
    return [tree, *separations(tree.removed), *separations(tree.left)]


def highest_level(disassemblies: Iterable[Disassembly]) -> tuple[int, ...] | None:
    """The greatest level among the disassemblies that come apart, levels compared separation
    by separation (the first one's moves first); None when none comes apart."""
    return max((d.level for d in disassemblies if d.separable), default=None)

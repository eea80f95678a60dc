"""Sliding-block puzzles as plain values: board, piece kinds, configurations, goals.

Cells are `(row, col)` pairs counted from 0 at the top left.  A piece kind is a
0/1 pattern; its *anchor* is its topmost-leftmost cell, and a placed piece is
named by its kind and the cell its anchor occupies.  Pieces of one kind are
indistinguishable, so a configuration is a set of placements.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from slidelab.wording import numbered

KIND_NAMES = "123456789abcdef"
"""The fifteen piece-kind names, in the order the text format uses them."""

Cell = tuple[int, int]


class Axis(Enum):
    """The way pieces of a kind may move: any way, or along one axis only (Rush Hour's cars
    keep their row or their column).  The value is the text format's suffix."""

    ANY = ""
    HORIZONTAL = "h"
    VERTICAL = "v"

    def allows(self, step: Cell) -> bool:
        """Whether a shift by `step` (drow, dcol) keeps to this axis."""
        if self is Axis.HORIZONTAL:
            return step[0] == 0
        if self is Axis.VERTICAL:
            return step[1] == 0
        return True


@dataclass(frozen=True)
class PieceKind:
    """A piece shape: its name, the offsets of its cells from its anchor, and its axis."""

    name: str
    cells: tuple[Cell, ...]
    """Offsets `(drow, dcol)` in row-major order; the first is always `(0, 0)`."""
    axis: Axis = Axis.ANY

    @classmethod
    def from_cells(
        cls, name: str, cells: set[Cell] | frozenset[Cell], axis: Axis = Axis.ANY
    ) -> PieceKind:
        """Build a kind from absolute cells; the topmost-leftmost one becomes the anchor."""
        ordered = sorted(cells)
        top, left = ordered[0]
        return cls(name, tuple((r - top, c - left) for r, c in ordered), axis)

    @property
    def size(self) -> int:
        return len(self.cells)

    def pattern(self) -> str:
        """The shape as the text format writes it: rows of 0/1 joined by '/'."""
        min_col = min(c for _, c in self.cells)
        height = max(r for r, _ in self.cells) + 1
        rows = []
        for r in range(height):
            cols = {c - min_col for rr, c in self.cells if rr == r}
            width = max(cols) + 1 if cols else 0
            rows.append("".join("1" if c in cols else "0" for c in range(width)))
        return "/".join(rows)

    def cells_at(self, anchor: Cell) -> list[Cell]:
        """The board cells this kind covers when its anchor is at `anchor`."""
        r0, c0 = anchor
        return [(r0 + dr, c0 + dc) for dr, dc in self.cells]


@dataclass(frozen=True, order=True)
class Placement:
    """One piece on the board: its kind's name and where its anchor is."""

    kind: str
    row: int
    col: int

    @property
    def anchor(self) -> Cell:
        return (self.row, self.col)


@dataclass(frozen=True)
class Configuration:
    """Where every piece is; placements are kept sorted so equal sets compare equal."""

    placements: tuple[Placement, ...]

    @classmethod
    def of(cls, placements: list[Placement] | tuple[Placement, ...]) -> Configuration:
        return cls(tuple(sorted(placements)))

    def kind_counts(self) -> Counter[str]:
        return Counter(p.kind for p in self.placements)


@dataclass(frozen=True)
class Goal:
    """What a solved board must show.

    A configuration meets the goal when it contains every placement listed and
    leaves every cell of `empty` empty.  A full goal lists all pieces, so only
    one configuration meets it; a partial goal leaves other cells open ("any").
    """

    placements: tuple[Placement, ...]
    empty: frozenset[Cell]
    partial: bool = False
    any_cells: frozenset[Cell] = field(default_factory=frozenset)
    """Cells a partial goal leaves open (written `*`), for display and writing."""


@dataclass(frozen=True)
class Problem:
    """Something wrong with a puzzle, and the cells it concerns (for pointing at them)."""

    message: str
    cells: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Puzzle:
    """A complete sliding-block puzzle."""

    rows: int
    cols: int
    kinds: tuple[PieceKind, ...]
    obstacles: frozenset[Cell]
    start: Configuration
    goal: Goal
    title: str = ""
    notes: tuple[str, ...] = ()
    """Free comment lines kept with the puzzle (sources, known solutions)."""

    def kind(self, name: str) -> PieceKind:
        for kind in self.kinds:
            if kind.name == name:
                return kind
        raise KeyError(name)

    @property
    def cell_count(self) -> int:
        return self.rows * self.cols

    def on_board(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols

    def occupancy(self, placements: tuple[Placement, ...]) -> dict[Cell, int]:
        """Map each covered cell to the index of the placement covering it."""
        owner: dict[Cell, int] = {}
        for index, placement in enumerate(placements):
            for cell in self.kind(placement.kind).cells_at(placement.anchor):
                owner[cell] = index
        return owner

    def meets_goal(self, config: Configuration) -> bool:
        """True when `config` satisfies this puzzle's goal."""
        present = set(config.placements)
        if not all(p in present for p in self.goal.placements):
            return False
        covered = self.occupancy(config.placements)
        return not any(cell in covered for cell in self.goal.empty)


def placement_problems(
    rows: int,
    cols: int,
    kinds: dict[str, PieceKind],
    obstacles: frozenset[Cell],
    placements: tuple[Placement, ...],
) -> list[Problem]:
    """Pieces off the board, on obstacles, or overlapping each other."""
    problems: list[Problem] = []
    owner: dict[Cell, Placement] = {}
    for placement in placements:
        cells = kinds[placement.kind].cells_at(placement.anchor)
        off = [cell for cell in cells if not (0 <= cell[0] < rows and 0 <= cell[1] < cols)]
        if off:
            problems.append(
                Problem(f"piece {placement.kind} does not fit on the board", tuple(off))
            )
            continue
        clash = [cell for cell in cells if cell in owner or cell in obstacles]
        if clash:
            problems.append(
                Problem(
                    f"piece {placement.kind} overlaps another piece or an obstacle", tuple(clash)
                )
            )
        for cell in cells:
            owner.setdefault(cell, placement)
    return problems


def goal_problems(start: Configuration, goal: Goal) -> list[Problem]:
    """Piece counts that a goal cannot match: equal for a full goal, at most for a partial one."""
    have = start.kind_counts()
    want = Counter(p.kind for p in goal.placements)
    problems = []
    for name in KIND_NAMES:
        if want[name] > have[name] or (not goal.partial and want[name] != have[name]):
            cells = tuple(p.anchor for p in goal.placements if p.kind == name)
            problems.append(
                Problem(
                    f"the start has {numbered(have[name], 'piece')} of kind {name} "
                    f"but the goal has {want[name]}",
                    cells,
                )
            )
    return problems

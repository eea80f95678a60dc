"""A BurrTools puzzle (cube grid) as plain values, and the error every reader and solver raises.

The values follow the file: shapes are voxel spaces, a problem lists parts
(a shape used `low` to `high` times), names a result shape and the colour
pairs it allows, and carries what BurrTools recorded when it solved it.
Shapes and problems are numbered from 0, as in the file's `id` attributes
(BurrTools' GUI shows shape 0 as S1 and problem 0 as P1).
"""

from __future__ import annotations

from dataclasses import dataclass

from slidelab.errors import SlidelabError
from slidelab.polycube.spec import Cell

FIXED = "#"
"""A voxel that must be filled (in a result) or is part of the piece."""
VARIABLE = "+"
"""A result voxel that may stay empty."""
EMPTY = "_"

CUBE_GRID = 0
"""BurrTools' grid type for cubes, the only one slidelab reads."""
GRID_NAMES = {
    0: "cubes",
    1: "triangular prisms",
    2: "spheres",
    3: "rhombic tetrahedra",
    4: "tetrahedra and octahedra",
}
"""BurrTools' grid types (gridType_c::gridType), for messages."""

UNSOLVED, SOLVING, SOLVED = 0, 1, 2
"""A problem's `state`: never solved, a search saved half-way, solved."""


class XmpuzzleError(SlidelabError, ValueError):
    """A `.xmpuzzle` file or problem slidelab cannot use: names the file, the element and why."""

    def __init__(self, source: str, where: str, message: str) -> None:
        self.source = source
        self.where = where
        self.message = message
        super().__init__(f"{source}: {where}: {message}")


Labelled = tuple[tuple[Cell, int], ...]
"""Cells, each with a colour, sorted by cell."""


@dataclass(frozen=True)
class Voxel:
    """One non-empty voxel of a shape."""

    cell: Cell
    """(x, y, z), from 0 at the corner of the voxel space."""
    state: str
    """FIXED or VARIABLE."""
    colour: int = 0
    """0 is the neutral colour; 1.. index the puzzle's colours (1 is the first)."""


@dataclass(frozen=True)
class Shape:
    """A voxel space: a piece or a result."""

    size: tuple[int, int, int]
    """The extent of the space in x, y and z."""
    voxels: tuple[Voxel, ...]
    """The non-empty voxels in the file's order (x fastest, then y, then z)."""
    name: str = ""
    weight: int = 1
    """BurrTools' weight (which piece stays put when the disassembler moves others)."""
    hotspot: Cell = (0, 0, 0)
    """The point whose position BurrTools' stored assemblies record."""

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The cells of every non-empty voxel."""
        return tuple(v.cell for v in self.voxels)


@dataclass(frozen=True)
class Group:
    """Copies of a part that may stay together when BurrTools disassembles (no effect here)."""

    group: int
    count: int


@dataclass(frozen=True)
class Part:
    """A shape used as a piece of a problem, between `low` and `high` times."""

    shape: int
    low: int
    high: int
    groups: tuple[Group, ...] = ()


@dataclass(frozen=True)
class Position:
    """Where a stored assembly puts a piece: its hotspot and BurrTools' orientation number."""

    x: int
    y: int
    z: int
    transformation: int
    """0-23: one of BurrTools' 24 cube rotations (its own numbering)."""


@dataclass(frozen=True)
class Solution:
    """An assembly BurrTools stored, with the disassembly it found (kept as written)."""

    assembly: tuple[Position | None, ...]
    """One entry per piece (parts in order, each repeated `high` times); None: not used."""
    assembly_number: int | None = None
    solution_number: int | None = None
    disassembly: str | None = None
    """The `separation` or `separationInfo` element, as XML text; slidelab does not read it."""


@dataclass(frozen=True)
class SavedSearch:
    """A half-finished BurrTools search (problem state 1): its assembler's version and state."""

    version: str
    state: str


@dataclass(frozen=True)
class BurrProblem:
    """One task of a puzzle: which parts, which result, which colours may meet."""

    name: str
    parts: tuple[Part, ...]
    result: int | None
    """The result shape, or None when the problem has none yet."""
    allowed_colours: tuple[tuple[int, int], ...] = ()
    """(piece colour, result colour) pairs that may meet, colours from 1, sorted."""
    max_holes: int | None = None
    state: int = UNSOLVED
    assemblies: int | None = None
    """BurrTools' count of assemblies (after removing symmetric copies), when solved."""
    solutions: int | None = None
    """BurrTools' count of assemblies it could also take apart, when solved."""
    time: int | None = None
    """Seconds BurrTools spent, when solved."""
    stored: tuple[Solution, ...] = ()
    saved_search: SavedSearch | None = None

    @property
    def piece_count(self) -> int:
        """Pieces in a stored assembly: every part's upper count."""
        return sum(part.high for part in self.parts)


@dataclass(frozen=True)
class Puzzle:
    """A whole `.xmpuzzle` file on the cube grid."""

    shapes: tuple[Shape, ...]
    problems: tuple[BurrProblem, ...]
    colours: tuple[tuple[int, int, int], ...] = ()
    """(red, green, blue) of colours 1, 2, ..."""
    comment: str = ""
    comment_popup: bool = False
    """Whether BurrTools shows the comment when the file is opened."""
    version: int = 2
    """The file format version, 1 or 2."""

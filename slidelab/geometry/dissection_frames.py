"""Drawing data for dissections (Qt-free): the source beside the target, and pieces in motion.

Coordinates are in cells: x to the right (columns), y downwards (rows).  The source
is drawn at the left, the target `GAP` cells to its right.  A piece's map sends
source point p to L p + v (L one of the eight grid orientations); the animation
turns the piece about its centre by the rotation part of L, step by step, mirroring
it on the way when L includes a flip, while the centre glides to its place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from slidelab.dissection.model import Solution
from slidelab.dissection.motions import TURNS, oriented
from slidelab.dissection.shape import Shape
from slidelab.dissection.shifts import Tables

GAP = 2.0
"""Empty cells between the source and the target."""

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]


class Panels(Protocol):
    """The two shapes drawn side by side (`Tables` holds them, and so does `Shapes`)."""

    @property
    def source(self) -> Shape: ...

    @property
    def target(self) -> Shape: ...


@dataclass(frozen=True)
class Shapes:
    """The shape to cut and the shape to rebuild, drawn before their tables are built."""

    source: Shape
    target: Shape


@dataclass(frozen=True)
class PieceMotion:
    """Piece `colour`: its source cells and the rigid motion that puts them in the target."""

    colour: int
    """1..d."""
    cells: tuple[tuple[int, int], ...]
    """Its source cells (row, column)."""
    turn: int
    """Quarter turns (0-3) of the rotation part of its map."""
    flip: bool
    """Whether the map mirrors the piece (left to right) before turning it."""
    start: Point
    """The piece's centre in the source, in drawing coordinates (x, y)."""
    end: Point
    """Where that centre lands in the target, in drawing coordinates."""


@dataclass(frozen=True)
class Layout:
    """Where the two panels are drawn."""

    source_origin: Point
    target_origin: Point
    width: float
    height: float

    @classmethod
    def of(cls, source: Shape, target: Shape) -> Layout:
        return cls(
            (0.0, 0.0),
            (source.columns + GAP, 0.0),
            source.columns + GAP + target.columns,
            float(max(source.rows, target.rows)),
        )


def piece_motions(tables: Tables, solution: Solution) -> list[PieceMotion]:
    """Each used colour's cells and motion, from the solution's maps."""
    source, target = tables.source, tables.target
    layout = Layout.of(source, target)
    motions = []
    for colour, (placement, t) in enumerate(solution.maps, 1):
        cells = tuple(
            cell for cell, k in zip(source.cells, solution.source_colours, strict=True)
            if k == colour
        )  # fmt: skip
        if not cells:
            continue
        image = oriented(source.cells, t)
        shift = tables.placements[placement].shift
        landed = [
            image[x] for x, k in enumerate(solution.source_colours) if k == colour
        ]  # cell indices in the target, before the shift
        centre_r = sum(r for r, _ in cells) / len(cells) + 0.5
        centre_c = sum(c for _, c in cells) / len(cells) + 0.5
        end_r = sum(r for r, _ in landed) / len(landed) + shift[0] + 0.5
        end_c = sum(c for _, c in landed) / len(landed) + shift[1] + 0.5
        motions.append(
            PieceMotion(
                colour=colour,
                cells=cells,
                turn=t % TURNS,
                flip=t >= TURNS,
                start=(layout.source_origin[0] + centre_c, layout.source_origin[1] + centre_r),
                end=(layout.target_origin[0] + end_c, layout.target_origin[1] + end_r),
            )
        )
    return motions


def _matrix(motion: PieceMotion, s: float) -> np.ndarray:
    """The linear part, in (row, column) coordinates, after a share `s` of the motion."""
    turn = motion.turn if motion.turn <= 2 else motion.turn - 4  # three quarters: go back one
    angle = math.pi / 2 * turn * s
    rotation = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    flip = np.diag([1.0, math.cos(math.pi * s) if motion.flip else 1.0])
    return rotation @ flip


def piece_quads(motion: PieceMotion, s: float) -> list[Quad]:
    """The piece's cells as quadrilaterals (x, y corners) after a share `s` (0..1) of its move."""
    matrix = _matrix(motion, s)
    start_x, start_y = motion.start
    end_x, end_y = motion.end
    centre_x = start_x + s * (end_x - start_x)
    centre_y = start_y + s * (end_y - start_y)
    centre_r, centre_c = start_y, start_x  # the centre in the source, as (row, column)
    quads = []
    for r, c in motion.cells:
        corners = []
        for dr, dc in ((0, 0), (0, 1), (1, 1), (1, 0)):
            relative = np.array([r + dr - centre_r, c + dc - centre_c])
            moved_r, moved_c = matrix @ relative
            corners.append((centre_x + moved_c, centre_y + moved_r))
        quads.append((corners[0], corners[1], corners[2], corners[3]))
    return quads


Segment = tuple[Point, Point]


def panel_cells(
    panels: Panels, solution: Solution | None
) -> list[tuple[Point, int, tuple[int, int]]]:
    """Every cell of both panels: its top left corner (x, y), its colour (0 without a
    solution) and its (row, column) in its own shape."""
    layout = Layout.of(panels.source, panels.target)
    found = []
    for shape, origin, colours in (
        (panels.source, layout.source_origin, solution.source_colours if solution else None),
        (panels.target, layout.target_origin, solution.target_colours if solution else None),
    ):
        for x, (r, c) in enumerate(shape.cells):
            found.append(((origin[0] + c, origin[1] + r), colours[x] if colours else 0, (r, c)))
    return found


def piece_outlines(cells: list[tuple[Point, int, tuple[int, int]]]) -> list[Segment]:
    """The edges between cells of different colours, or between a cell and no cell: the cuts
    and the shapes' outlines."""
    colour = {corner: k for corner, k, _ in cells}
    segments = []
    for (x, y), k, _ in cells:
        for (dx, dy), edge in (
            ((-1, 0), ((x, y), (x, y + 1))),
            ((1, 0), ((x + 1, y), (x + 1, y + 1))),
            ((0, -1), ((x, y), (x + 1, y))),
            ((0, 1), ((x, y + 1), (x + 1, y + 1))),
        ):
            neighbour = colour.get((x + dx, y + dy))
            if neighbour is None or (neighbour != k and (dx, dy) in ((1, 0), (0, 1))):
                segments.append(edge)
    return segments

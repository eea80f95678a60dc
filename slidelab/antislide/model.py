"""Boxes, bricks and their placements, the box's symmetry group, and face constraints.

Cells of an L x M x N box are numbered `(i * M + j) * N + k`.  A placement is one
brick in one orientation at one position, kept as its sorted cells.  The search
needs only flat tables of these, which `Tables` builds.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Generator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from slidelab.errors import SlidelabError
from slidelab.memory import MemoryBudget
from slidelab.runs import Pacer, Progress, drive

AXES = "xyz"
"""Names of the three axes: x across layers, y down rows, z along a row."""

DEFAULT_BRICK = (2, 2, 1)
PROGRESS_SECONDS = 0.05
"""Longest time between two progress events while the tables are built."""
LISTED_CELL_BYTES = 40
"""Bytes a cell number holds in the lists the tables are built from (a Python int and its
slot), for the memory budget."""


@dataclass(frozen=True)
class Box:
    """An L x M x N box of unit cells (any sizes, in any order)."""

    dims: tuple[int, int, int]

    def __post_init__(self) -> None:
        if len(self.dims) != 3 or any(d < 1 for d in self.dims):
            raise SlidelabError(f"box dimensions must be three positive sizes, not {self.dims}")

    @property
    def cell_count(self) -> int:
        return self.dims[0] * self.dims[1] * self.dims[2]

    def index(self, i: int, j: int, k: int) -> int:
        return (i * self.dims[1] + j) * self.dims[2] + k

    def coords(self, cell: int) -> tuple[int, int, int]:
        rest, k = divmod(cell, self.dims[2])
        i, j = divmod(rest, self.dims[1])
        return i, j, k

    def inside(self, point: tuple[int, ...]) -> bool:
        return all(0 <= p < d for p, d in zip(point, self.dims, strict=True))

    @cached_property
    def symmetries(self) -> np.ndarray:
        """Cell permutations (G, cells), identity first: equal axes permuted, any reflected.

        Row `s` maps cell x to `symmetries[s, x]`.  G is 8, 16 or 48.
        """
        coords = np.indices(self.dims, np.int64).reshape(3, -1)
        rows = []
        for perm in self._axis_permutations():
            for flips in itertools.product((False, True), repeat=3):
                image = [coords[perm[a]] for a in range(3)]
                image = [self.dims[a] - 1 - image[a] if flips[a] else image[a] for a in range(3)]
                rows.append((image[0] * self.dims[1] + image[1]) * self.dims[2] + image[2])
        return np.array(rows)

    @property
    def symmetry_count(self) -> int:
        """G, the rows of `symmetries`, without making them."""
        return 8 * len(self._axis_permutations())

    def _axis_permutations(self) -> list[tuple[int, ...]]:
        return [p for p in itertools.permutations(range(3)) if self._keeps_dims(p)]

    def _keeps_dims(self, perm: tuple[int, ...]) -> bool:
        return all(self.dims[perm[a]] == self.dims[a] for a in range(3))


@dataclass(frozen=True)
class Placement:
    """One brick at one position: the cell where its corner sits and its extent on each axis."""

    corner: tuple[int, int, int]
    size: tuple[int, int, int]

    def cells(self, box: Box) -> tuple[int, ...]:
        i0, j0, k0 = self.corner
        a, b, c = self.size
        return tuple(
            box.index(i, j, k)
            for i in range(i0, i0 + a)
            for j in range(j0, j0 + b)
            for k in range(k0, k0 + c)
        )

    def faces(self, box: Box) -> list[tuple[str, tuple[int, ...]]]:
        """The cells just beyond each face that is not on a wall, as ("+x", cells) pairs."""
        result = []
        for axis in range(3):
            for sign in (-1, 1):
                layer = self.corner[axis] - 1 if sign < 0 else self.corner[axis] + self.size[axis]
                if not 0 <= layer < box.dims[axis]:
                    continue
                corner = list(self.corner)
                size = list(self.size)
                corner[axis], size[axis] = layer, 1
                face = Placement((corner[0], corner[1], corner[2]), (size[0], size[1], size[2]))
                result.append((("-" if sign < 0 else "+") + AXES[axis], face.cells(box)))
        return result


def orientations(brick: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The distinct axis orientations of an a x b x c brick."""
    return sorted(set(itertools.permutations(brick)))  # type: ignore[arg-type]


def check_brick(brick: tuple[int, int, int]) -> None:
    """Refuse a brick that is not three positive sizes."""
    if len(brick) != 3 or any(d < 1 for d in brick):
        raise SlidelabError(f"brick dimensions must be three positive sizes, not {brick}")


def placement_count(box: Box, brick: tuple[int, int, int]) -> int:
    """How many placements `placements(box, brick)` lists, without listing them."""
    check_brick(brick)
    return sum(
        math.prod(max(d - s + 1, 0) for d, s in zip(box.dims, size, strict=True))
        for size in orientations(brick)
    )


def placements(box: Box, brick: tuple[int, int, int]) -> list[Placement]:
    """Every placement of `brick` in `box`, ordered by first cell, then orientation."""
    check_brick(brick)
    found = []
    for size in orientations(brick):
        for corner in itertools.product(
            *(range(d - s + 1) for d, s in zip(box.dims, size, strict=True))
        ):
            found.append(Placement(corner, size))  # type: ignore[arg-type]
    return sorted(found, key=lambda p: (box.index(*p.corner), p.size))


def table_bytes(box: Box, brick: tuple[int, int, int]) -> int:
    """Bytes `Tables.steps` holds at most while it builds the tables of `brick` in `box`."""
    volume = brick[0] * brick[1] * brick[2]
    count = placement_count(box, brick)
    listed = count * (2 * volume + 6 * max(volume // min(brick), 1))
    images = (count + box.cell_count) * box.symmetry_count * 8
    return listed * LISTED_CELL_BYTES + images


@dataclass(frozen=True)
class Tables:
    """Flat integer tables of one box and brick, as the search kernel reads them."""

    box: Box
    brick: tuple[int, int, int]
    placements: tuple[Placement, ...]
    cells: np.ndarray
    """(P, volume): the cells of each placement."""
    cover_start: np.ndarray
    """(cells + 1): the placements covering cell x are cover[cover_start[x]:...[x + 1]]."""
    cover: np.ndarray
    face_start: np.ndarray
    """(P + 1): the face sets of placement p are face_start[p] <= f < face_start[p + 1]."""
    face_cells_start: np.ndarray
    """(F + 1): the cells of face set f are face_cells[face_cells_start[f]:...[f + 1]]."""
    face_cells: np.ndarray
    perm: np.ndarray
    """(G, cells): the box's symmetries, identity first."""
    inverse_image: np.ndarray
    """(G, P): the placement that symmetry s maps onto placement p."""

    @property
    def nbytes(self) -> int:
        """Bytes of the tables' arrays (the placements' objects aside), for memory budgets."""
        arrays = (self.cells, self.cover_start, self.cover, self.face_start)
        more = (self.face_cells_start, self.face_cells, self.perm, self.inverse_image)
        return sum(a.nbytes for a in (*arrays, *more))

    @classmethod
    def build(cls, box: Box, brick: tuple[int, int, int] = DEFAULT_BRICK) -> Tables:
        """The tables of `brick` in `box`, built at once."""
        return drive(cls.steps(box, brick))

    @classmethod
    def steps(
        cls,
        box: Box,
        brick: tuple[int, int, int] = DEFAULT_BRICK,
        budget: MemoryBudget | None = None,
    ) -> Generator[Progress, None, Tables]:
        """`build` as a solver's first phase: `Progress` about every 50 ms (closing it stops
        the build), refused (`MemoryBudgetError`) before its lists would pass `budget`
        (default: `MemoryBudget.of(None)`)."""
        pacer = Pacer("building tables", time.perf_counter(), PROGRESS_SECONDS)
        volume = brick[0] * brick[1] * brick[2]
        needed = table_bytes(box, brick)
        (MemoryBudget.of(None) if budget is None else budget).check(needed, "building the tables")
        found = placements(box, brick)
        steps = (3 + box.symmetries.shape[0]) * len(found)
        done = 0

        def ticked() -> Progress | None:
            """A progress event when the last one is old enough, else None."""
            nonlocal done
            done += 1
            return pacer.due(done, done / steps)

        rows = []
        for p in found:
            rows.append(p.cells(box))
            if event := ticked():
                yield event
        cells = np.array(rows, np.int64).reshape(len(found), volume)
        covering: list[list[int]] = [[] for _ in range(box.cell_count)]
        for n, row in enumerate(cells.tolist()):
            for cell in row:
                covering[cell].append(n)
            if event := ticked():
                yield event
        cover_start = np.cumsum([0] + [len(c) for c in covering]).astype(np.int64)
        cover = np.array([n for c in covering for n in c], np.int64)
        face_start, face_cells_start = [0], [0]
        face_cells: list[int] = []
        for p in found:
            for _, face in p.faces(box):
                face_cells.extend(face)
                face_cells_start.append(len(face_cells))
            face_start.append(len(face_cells_start) - 1)
            if event := ticked():
                yield event
        perm = box.symmetries
        by_cells = {tuple(row): n for n, row in enumerate(cells.tolist())}
        inverse_image = np.empty((perm.shape[0], len(found)), np.int64)
        for s, row in enumerate(perm):
            for n, image in enumerate(np.sort(row[cells], axis=1).tolist()):
                inverse_image[s, by_cells[tuple(image)]] = n
                if event := ticked():
                    yield event
        return cls(
            box,
            brick,
            tuple(found),
            cells,
            cover_start,
            cover,
            np.array(face_start, np.int64),
            np.array(face_cells_start, np.int64),
            np.array(face_cells, np.int64),
            perm,
            inverse_image,
        )


@dataclass(frozen=True)
class Lock:
    """What stops one face of a brick: the wall, the bricks just beyond it, or nothing."""

    direction: str
    """"+x", "-x", "+y", "-y", "+z" or "-z"."""
    wall: bool
    blockers: tuple[int, ...]
    """Indices of the bricks that fill cells just beyond the face."""

    @property
    def slides(self) -> bool:
        return not self.wall and not self.blockers


def locks(box: Box, bricks: list[Placement]) -> list[list[Lock]]:
    """For each brick, what keeps each of its six faces from sliding ("-x", "+x", "-y", ...)."""
    owner = {cell: k for k, brick in enumerate(bricks) for cell in brick.cells(box)}
    found = []
    for brick in bricks:
        beyond = dict(brick.faces(box))
        found.append(
            [
                Lock(d, False, tuple(sorted({owner[c] for c in beyond[d] if c in owner})))
                if d in beyond
                else Lock(d, True, ())
                for d in (sign + axis for axis in AXES for sign in "-+")
            ]
        )
    return found


def sliding_faces(box: Box, bricks: list[Placement]) -> list[tuple[int, str]]:
    """(brick index, direction) for every face of every brick that can slide."""
    return [
        (n, lock.direction)
        for n, faces in enumerate(locks(box, bricks))
        for lock in faces
        if lock.slides
    ]

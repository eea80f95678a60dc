"""A polycube spec as an exact-cover problem (the seed's items and options), and back.

Items: the box's cells ('xyz', sorted), then the piece names, a piece of
multiplicity m covered exactly m times.  Options: for every base placement
(each line's rotations in the seed's order, then with `mirror` its mirror
images' new rotations) and every shift that keeps it in the box, the piece
name and its cells.  A placement reached twice (two lines of one piece giving
the same shape) is listed once, so copies are never counted twice.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass

from slidelab.errors import SlidelabError
from slidelab.exactcover.dlxformat import format_problem
from slidelab.exactcover.problem import Problem
from slidelab.exactcover.search import solve
from slidelab.heap import settle
from slidelab.memory import MemoryBudget
from slidelab.polycube.rotations import Shape, mirror, orientations
from slidelab.polycube.spec import Cell, PieceSpec, Spec, cell_name
from slidelab.runs import Progress, drive

PROGRESS_SECONDS = 0.05
"""Longest time between two progress events while the placements are built."""
CHECK_EVERY = 64
"""Placements tried between two looks at the clock."""
PLACEMENT_BYTES = 600
CELL_BYTES = 250
"""Bytes a placement and each of its cells hold: the placement, its option and seen-set entry."""


@dataclass(frozen=True, slots=True)
class Placement:
    """One piece in one position: the piece's name and the box cells it fills."""

    piece: str
    cells: tuple[Cell, ...]
    """Sorted."""


@dataclass(frozen=True)
class Packing:
    """A spec's exact-cover problem; option k places `placements[k]`."""

    spec: Spec
    mirror: bool
    """Whether mirror images of the pieces may be used."""
    problem: Problem
    placements: tuple[Placement, ...]

    def decode(self, solution: tuple[int, ...]) -> tuple[Placement, ...]:
        """The placements of a solution given as option numbers, in piece order."""
        order = {piece.name: k for k, piece in enumerate(self.spec.pieces)}
        chosen = [self.placements[k] for k in solution]
        return tuple(sorted(chosen, key=lambda p: (order[p.piece], p.cells)))

    def require_homes(self) -> None:
        """Refuse (`PieceFitsNowhereError`) a packing with a piece that has no placement in the
        box: no packing can exist, and saying why beats counting none."""
        placed = {p.piece for p in self.placements}
        for piece in self.spec.pieces:
            if piece.name not in placed:
                raise PieceFitsNowhereError(piece)


class PieceFitsNowhereError(SlidelabError):
    """A piece of the spec has no placement in its box."""

    def __init__(self, piece: PieceSpec) -> None:
        self.piece = piece
        super().__init__(f"piece {piece.name} fits nowhere in the box")


def base_shapes(piece: PieceSpec, with_mirror: bool = False) -> list[Shape]:
    """A piece's distinct base placements (normalised), in the seed's order."""
    found: list[Shape] = []
    for shape in piece.shapes:
        sources = [shape, mirror(shape)] if with_mirror else [shape]
        for source in sources:
            found += [s for s in orientations(source) if s not in found]
    return found


def build_packing(spec: Spec, with_mirror: bool = False) -> Packing:
    """The exact-cover problem of packing `spec`'s pieces into its box."""
    return drive(packing_steps(spec, with_mirror))


def packing_steps(
    spec: Spec, with_mirror: bool = False, budget: MemoryBudget | None = None
) -> Generator[Progress, None, Packing]:
    """`build_packing` as a solver's first phase: it yields `Progress` about every 50 ms (so
    closing it cancels a big build) and refuses (`MemoryBudgetError`) once the placements
    would hold more memory than `budget` (default: `MemoryBudget.of(None)`)."""
    budget = MemoryBudget.of(None) if budget is None else budget
    started = tick = time.perf_counter()
    box = {cell: cell for cell in spec.box}
    low = [min(c[axis] for c in spec.box) for axis in range(3)]
    high = [max(c[axis] for c in spec.box) for axis in range(3)]
    placements: list[Placement] = []
    tried = cells_placed = 0
    for piece in spec.pieces:
        # The piece's placements so far (sharing their tuples, so that letting the set go
        # frees no tuple: a set of millions of new ones took a second to free).
        seen: set[tuple[Cell, ...]] = set()
        for shape in base_shapes(piece, with_mirror):
            for cells in _shifts(shape, low, high, box):
                tried += 1
                if cells not in seen:
                    seen.add(cells)
                    placements.append(Placement(piece.name, cells))
                    cells_placed += len(cells)
                if tried % CHECK_EVERY == 0 and time.perf_counter() - tick > PROGRESS_SECONDS:
                    budget.check(
                        placement_bytes(len(placements), cells_placed), "placing the pieces"
                    )
                    settle()
                    tick = time.perf_counter()
                    yield Progress("placing pieces", len(placements), tick - started)
    budget.check(placement_bytes(len(placements), cells_placed), "placing the pieces")
    yield Progress("building tables", len(placements), time.perf_counter() - started)
    names = {cell: cell_name(cell) for cell in spec.box}
    problem = yield from Problem.of_sets_steps(
        primary=[names[c] for c in spec.box] + [p.name for p in spec.pieces],
        options=([p.piece, *(names[c] for c in p.cells)] for p in placements),
        bounds={p.name: (p.multiplicity, p.multiplicity) for p in spec.pieces},
        started=started,
    )
    return Packing(spec, with_mirror, problem, tuple(placements))


def placement_bytes(placements: int, cells: int) -> int:
    """Memory `placements` placements of `cells` cells in all will take once in the problem
    too (Python objects: measured as about `PLACEMENT_BYTES` and `CELL_BYTES` a cell)."""
    return PLACEMENT_BYTES * placements + CELL_BYTES * cells


def _shifts(
    shape: Shape, low: list[int], high: list[int], box: dict[Cell, Cell]
) -> Iterator[Shape]:
    """Every shift of `shape` inside `box`, in the seed's order (dx, then dy, then dz); its
    cells are `box`'s own tuples (millions of placements then share a few thousand)."""
    extent = [max(c[axis] for c in shape) for axis in range(3)]
    for dx in range(low[0], high[0] - extent[0] + 1):
        for dy in range(low[1], high[1] - extent[1] + 1):
            for dz in range(low[2], high[2] - extent[2] + 1):
                moved = [(x + dx, y + dy, z + dz) for x, y, z in shape]
                if all(c in box for c in moved):
                    yield tuple(box[c] for c in moved)


def format_dlx(packing: Packing, echo: str = "") -> str:
    """The problem in Knuth's DLX format, `echo` (the spec's text) first as comments."""
    comment = echo.rstrip("\n") + "\n" if echo else ""
    comment += "this file was created by slidelab polycube from that data"
    return format_problem(packing.problem, comment)


def solution_numbers(problem: Problem, *, limit: int | None = None) -> list[tuple[int, ...]]:
    """Every solution of `problem` as a tuple of option numbers (at most `limit`)."""
    found: list[tuple[int, ...]] = []
    drive(solve(problem, limit=limit), on_found=lambda batch: found.extend(batch.solutions))
    return found

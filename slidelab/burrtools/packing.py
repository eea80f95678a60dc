"""A BurrTools problem as an exact-cover problem, and solutions back as placed pieces.

Items: the result's fixed voxels are primary (each covered once), its
variable voxels secondary (covered at most once), and each part is a primary
item covered between the part's `low` and `high` times, so copies of a shape
are interchangeable (a part whose bounds can never bind gets no item).
Options: every one of a part's 24 rotations (BurrTools never turns a piece
over on the cube grid), shifted to every position where
each piece voxel lies on a non-empty result voxel whose colour it may meet.

Colour rule (BurrTools' problem_c::placementAllowed): when the puzzle defines
colours, a piece voxel of colour p may lie on a result voxel of colour r if
either is neutral (0) or the problem allows the pair (p, r); a problem that
allows no pairs lets coloured voxels meet only neutral ones.  Without colours
everything fits.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from slidelab.burrtools.model import (
    FIXED,
    VARIABLE,
    BurrProblem,
    Labelled,
    Puzzle,
    Shape,
    XmpuzzleError,
)
from slidelab.burrtools.stored import burrtools_place, place_order
from slidelab.exactcover.problem import Problem
from slidelab.heap import settle
from slidelab.memory import MemoryBudget
from slidelab.polycube.packing import PROGRESS_SECONDS, placement_bytes
from slidelab.polycube.rotations import ROTATIONS, Matrix, apply
from slidelab.polycube.spec import Cell
from slidelab.runs import Progress, drive


@dataclass(frozen=True, slots=True)
class Placement:
    """One piece in one position: its part (index in the problem) and the voxels it fills."""

    part: int
    voxels: Labelled
    """Result cells with the colour of the piece voxel on each."""

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(cell for cell, _ in self.voxels)


@dataclass(frozen=True)
class BurrPacking:
    """A problem's exact cover; option k places `placements[k]`."""

    puzzle: Puzzle
    problem: BurrProblem
    label: str
    """The problem's name, or P1, P2, ... as BurrTools numbers unnamed problems."""
    result: Shape
    exact_cover: Problem
    placements: tuple[Placement, ...]

    def part_label(self, part: int) -> str:
        """A part's item name: S1, S2, ... after its shape, as BurrTools' GUI calls shapes."""
        return part_label(self.problem, part)

    def decode(self, solution: tuple[int, ...]) -> tuple[Placement, ...]:
        """The placements of a solution given as option numbers, in part order, the copies of
        a part in BurrTools' order (rotation number, then x, y, z of the hotspot), as its
        stored assemblies number them and its disassembler meets them."""
        return tuple(sorted((self.placements[k] for k in solution), key=self._burrtools_key))

    def _burrtools_key(self, placement: Placement) -> tuple[int, tuple[int, int, int, int]]:
        shape = self.puzzle.shapes[self.problem.parts[placement.part].shape]
        return placement.part, place_order(burrtools_place(shape, placement.voxels))


def problem_label(puzzle: Puzzle, index: int) -> str:
    """How messages name problem `index`: its name, or P1, P2, ... when it has none."""
    return puzzle.problems[index].name or f"P{index + 1}"


def part_label(problem: BurrProblem, part: int) -> str:
    """The item name of `problem`'s part number `part`: S and its shape's number from 1."""
    return f"S{problem.parts[part].shape + 1}"


def build_packing(puzzle: Puzzle, index: int, source: str = "<input>") -> BurrPacking:
    """The exact-cover problem of problem `index`; unusable problems raise XmpuzzleError."""
    return drive(packing_steps(puzzle, index, source))


def packing_steps(
    puzzle: Puzzle, index: int, source: str = "<input>", budget: MemoryBudget | None = None
) -> Generator[Progress, None, BurrPacking]:
    """`build_packing` as a solver's first phase: `Progress` about every 50 ms (closing it
    stops the build), refused (`MemoryBudgetError`) once the placements would pass `budget`
    (default: `MemoryBudget.of(None)`)."""
    budget = MemoryBudget.of(None) if budget is None else budget
    started = tick = time.perf_counter()
    result = check_problem(puzzle, index, source)
    problem = puzzle.problems[index]
    found: list[Placement] = []
    cells = 0
    for placed in _placements(puzzle, problem, result):
        found.extend(placed)
        cells += sum(len(placement.voxels) for placement in placed)
        if time.perf_counter() - tick > PROGRESS_SECONDS:
            budget.check(placement_bytes(len(found), cells), "placing the pieces")
            settle()
            tick = time.perf_counter()
            yield Progress("placing pieces", len(found), tick - started)
    budget.check(placement_bytes(len(found), cells), "placing the pieces")
    yield Progress("building tables", len(found), time.perf_counter() - started)
    placements = tuple(found)
    counted = _binding_parts(problem, placements)
    names = {k: part_label(problem, k) for k in counted}
    exact_cover = yield from Problem.of_sets_steps(
        primary=[*(v.cell for v in result.voxels if v.state == FIXED), *names.values()],
        secondary=[v.cell for v in result.voxels if v.state == VARIABLE],
        options=([names[p.part], *p.cells] if p.part in names else p.cells for p in placements),
        bounds={name: (problem.parts[k].low, problem.parts[k].high) for k, name in names.items()},
        started=started,
    )
    return BurrPacking(
        puzzle, problem, problem_label(puzzle, index), result, exact_cover, placements
    )


DISJOINT_BUDGET = 500_000
"""Search steps spent on whether a part could be placed more often than its bound allows;
a part still undecided then keeps its item."""


def _binding_parts(problem: BurrProblem, placements: tuple[Placement, ...]) -> list[int]:
    """The parts whose count needs an item: those with a lower bound, and those of which more
    copies than the upper bound fit side by side.  The others are left out, which leaves
    the counts as they are and lets the problem run on a faster engine (a pool of shapes each
    usable 0 to 6 times in a six-piece burr never meets its bound)."""
    index: dict[Cell, int] = {}
    masks: dict[int, list[int]] = {k: [] for k in range(len(problem.parts))}
    for placed in placements:
        masks[placed.part].append(sum(1 << index.setdefault(c, len(index)) for c in placed.cells))
    return [
        k
        for k, part in enumerate(problem.parts)
        if part.low > 0 or _fits_apart(masks[k], part.high + 1)
    ]


def _fits_apart(masks: list[int], wanted: int) -> bool:
    """Whether `wanted` of the cell sets `masks` (all of one size) are pairwise disjoint;
    True also when the search runs out of steps: undecided counts as possible."""
    if not masks:
        return False
    size = masks[0].bit_count()
    reachable = [0] * (len(masks) + 1)  # the cells of masks[k:]
    for k in range(len(masks) - 1, -1, -1):
        reachable[k] = reachable[k + 1] | masks[k]
    steps = 0

    def extend(start: int, taken: int, needed: int) -> bool:
        nonlocal steps
        if needed == 0:
            return True
        for k in range(start, len(masks) - needed + 1):
            if (reachable[k] & ~taken).bit_count() < needed * size:
                return False
            steps += 1
            if steps > DISJOINT_BUDGET:
                return True
            if masks[k] & taken == 0 and extend(k + 1, taken | masks[k], needed - 1):
                return True
        return False

    return extend(0, 0, wanted)


def check_problem(puzzle: Puzzle, index: int, source: str = "<input>") -> Shape:
    """Problem `index`'s result shape; XmpuzzleError when the problem cannot be packed.  A
    quick look at its shapes: a front end shows the refusal at once, before the packing is
    built."""
    problem = puzzle.problems[index]
    where = f"problem {problem_label(puzzle, index)!r}"
    if problem.result is None:
        raise XmpuzzleError(source, where, "it has no result shape")
    result = puzzle.shapes[problem.result]
    if not result.voxels:
        raise XmpuzzleError(source, where, f"its result shape S{problem.result + 1} is empty")
    if not problem.parts:
        raise XmpuzzleError(source, where, "it has no pieces")
    if problem.max_holes is not None:
        raise XmpuzzleError(
            source, where, f"maxHoles (at most {problem.max_holes} empty variable voxels) is "
            "not supported",
        )  # fmt: skip
    for part in problem.parts:
        shape = puzzle.shapes[part.shape]
        if not shape.voxels:
            raise XmpuzzleError(source, where, f"its piece S{part.shape + 1} is empty")
        if any(v.state == VARIABLE for v in shape.voxels):
            raise XmpuzzleError(
                source, where, f"its piece S{part.shape + 1} has variable voxels; BurrTools "
                "allows them only in result shapes",
            )  # fmt: skip
    return result


def labelled_voxels(shape: Shape) -> Labelled:
    """A shape's cells with their colours."""
    return tuple(sorted((v.cell, v.colour) for v in shape.voxels))


def transformed(m: Matrix, voxels: Labelled) -> Labelled:
    """`voxels` under the matrix `m`, shifted so each coordinate's minimum is 0, sorted."""
    moved = [(apply(m, cell), colour) for cell, colour in voxels]
    low = [min(cell[axis] for cell, _ in moved) for axis in range(3)]
    return tuple(
        sorted(((x - low[0], y - low[1], z - low[2]), colour) for (x, y, z), colour in moved)
    )


def orientations(voxels: Labelled) -> list[Labelled]:
    """The distinct rotations of a coloured shape, normalised (colours tell rotations apart)."""
    found: dict[Labelled, None] = {}
    for m in ROTATIONS:
        found.setdefault(transformed(m, voxels))
    return list(found)


SHIFTS_AT_ONCE = 1 << 16
"""Shifts of one orientation tried together, in whole x shifts (so one x shift's all, if it
has more): the work between two looks at the clock stays a few milliseconds for pieces of
up to a hundred voxels."""


def _placements(puzzle: Puzzle, problem: BurrProblem, shape: Shape) -> Iterator[list[Placement]]:
    """Each part's placements in `shape`, in lists: those of each block of shifts of an
    orientation, in the order x, y, z of the shift (often none, so the caller keeps time while
    nothing fits).

    The result is a grid over its bounding box holding each cell's colour plus 1 (0: no
    voxel); a piece voxel of colour c fits where `fitting[c]` of the grid's block under it
    for the shifts holds, and a shift is a placement where all its voxels fit.
    """
    low = [min(v.cell[axis] for v in shape.voxels) for axis in range(3)]
    high = [max(v.cell[axis] for v in shape.voxels) for axis in range(3)]
    grid = np.zeros([b - a + 1 for a, b in zip(low, high, strict=True)], dtype=np.intp)
    for v in shape.voxels:
        grid[tuple(c - a for c, a in zip(v.cell, low, strict=True))] = v.colour + 1
    fitting = _fitting(puzzle, problem, shape)
    for k, part in enumerate(problem.parts):
        for turned in orientations(labelled_voxels(puzzle.shapes[part.shape])):
            span = [
                b - a - max(cell[axis] for cell, _ in turned) + 1
                for axis, (a, b) in enumerate(zip(low, high, strict=True))
            ]
            if min(span) <= 0:
                continue
            step = max(1, SHIFTS_AT_ONCE // (span[1] * span[2]))
            for start in range(0, span[0], step):
                block = [min(step, span[0] - start), span[1], span[2]]
                fits = np.ones(block, dtype=np.bool_)
                for (x, y, z), colour in turned:
                    under = grid[
                        start + x : start + x + block[0], y : y + block[1], z : z + block[2]
                    ]
                    fits &= fitting[colour][under]
                yield [
                    Placement(k, tuple(
                        ((x + low[0] + start + dx, y + low[1] + dy, z + low[2] + dz), colour)
                        for (x, y, z), colour in turned
                    ))
                    for dx, dy, dz in np.argwhere(fits).tolist()
                ]  # fmt: skip


def _fitting(puzzle: Puzzle, problem: BurrProblem, shape: Shape) -> npt.NDArray[np.bool_]:
    """`fitting[p][r]`: whether a piece voxel of colour p may lie on a grid cell holding r
    (0: no voxel, else the colour of `shape`'s voxel plus 1), by the module doc's rule."""
    pieces = max(v.colour for part in problem.parts for v in puzzle.shapes[part.shape].voxels)
    results = max(v.colour for v in shape.voxels)
    allowed = set(problem.allowed_colours)
    return np.array(
        [
            [False] + [
                not puzzle.colours or not piece or not under or (piece, under) in allowed
                for under in range(results + 1)
            ]
            for piece in range(pieces + 1)
        ],
        dtype=np.bool_,
    )  # fmt: skip

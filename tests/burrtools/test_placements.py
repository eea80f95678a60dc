"""The pieces' placements (packing.py `_placements`, blocks of shifts tried in numpy) against a
slow reference that tries every shift voxel by voxel: the same placements in the same order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.burrtools import packing
from slidelab.burrtools.model import BurrProblem, Puzzle, Shape
from slidelab.burrtools.packing import (
    Placement,
    _placements,
    build_packing,
    check_problem,
    labelled_voxels,
    orientations,
)
from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.polycube.spec import Cell

from .made import DATA
from .random_puzzles import puzzles


def reference_placements(puzzle: Puzzle, problem: BurrProblem, shape: Shape) -> Iterator[Placement]:
    """Each part's placements in `shape`: every orientation at every shift within the
    result's bounding box (x, then y, then z) where each piece voxel lies on a result voxel
    whose colour it may meet (packing.py's module doc)."""
    result = {v.cell: v.colour for v in shape.voxels}
    low = [min(c[axis] for c in result) for axis in range(3)]
    high = [max(c[axis] for c in result) for axis in range(3)]
    allowed = set(problem.allowed_colours)

    def fits(piece: int, cell: Cell) -> bool:
        under = result.get(cell)
        if under is None:
            return False
        return not puzzle.colours or not piece or not under or (piece, under) in allowed

    for k, part in enumerate(problem.parts):
        for turned in orientations(labelled_voxels(puzzle.shapes[part.shape])):
            extent = [max(cell[axis] for cell, _ in turned) for axis in range(3)]
            for dx in range(low[0], high[0] - extent[0] + 1):
                for dy in range(low[1], high[1] - extent[1] + 1):
                    for dz in range(low[2], high[2] - extent[2] + 1):
                        placed = tuple(((x + dx, y + dy, z + dz), c) for (x, y, z), c in turned)
                        if all(fits(colour, cell) for cell, colour in placed):
                            yield Placement(k, placed)


def both_ways(puzzle: Puzzle, index: int) -> tuple[list[Placement], list[Placement]]:
    """Problem `index`'s placements found in blocks (flattened) and by the reference."""
    problem = puzzle.problems[index]
    shape = check_problem(puzzle, index)
    fast = [p for block in _placements(puzzle, problem, shape) for p in block]
    return fast, list(reference_placements(puzzle, problem, shape))


def problems(folder: Path) -> Iterator[tuple[str, Puzzle, int]]:
    """Every problem of the .xmpuzzle files in `folder`: file name, puzzle, problem number."""
    for path in sorted(folder.glob("*.xmpuzzle")):
        puzzle = read_xmpuzzle(path)
        for index in range(len(puzzle.problems)):
            yield path.name, puzzle, index


def test_burrtools_examples_agree_with_the_reference(examples):
    placed = {}
    for name, puzzle, index in problems(examples):
        fast, slow = both_ways(puzzle, index)
        assert fast == slow, (name, index)
        assert all(type(c) is int for p in fast for cell, _ in p.voxels for c in cell)
        placed[name, index] = len(fast)
    assert placed[("DraculasDentalDesaster.xmpuzzle", 0)] == 69
    assert placed[("PelikanBurr.xmpuzzle", 0)] == 3601
    assert len(placed) == 8


def test_made_files_agree_with_the_reference():
    for name, puzzle, index in problems(DATA):
        fast, slow = both_ways(puzzle, index)
        assert fast == slow, (name, index)


@settings(max_examples=300, deadline=None)
@given(puzzles(), st.integers(1, 30))
def test_random_problems_agree_with_the_reference(puzzle, shifts):
    """With any number of shifts tried together, down to blocks of a single x shift."""
    with patch.object(packing, "SHIFTS_AT_ONCE", shifts):
        fast, slow = both_ways(puzzle, 0)
        assert fast == slow
        assert build_packing(puzzle, 0).placements == tuple(slow)

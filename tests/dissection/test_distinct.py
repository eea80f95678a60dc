"""Dissections up to the target's symmetries, against a brute-force comparison of every pair."""

from __future__ import annotations

import pytest

from slidelab.dissection.distinct import only_distinct, target_symmetries
from slidelab.dissection.keys import piece_sizes, turned_pieces
from slidelab.dissection.model import Dissection, Solution, square_source
from slidelab.dissection.search import find_solutions, solve
from slidelab.dissection.shape import Cell, Shape, parse_region
from slidelab.dissection.shifts import Tables
from slidelab.runs import drive


def grid_symmetries(target: Shape, flips: bool) -> list[dict[Cell, Cell]]:
    """Every turn (and mirror image) of the plane, shifted back, that maps the target onto
    itself: found by trying the eight matrices on the cells directly."""
    found = []
    for a, b, c, d in ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0)) + (
        ((1, 0, 0, -1), (0, 1, 1, 0), (-1, 0, 0, 1), (0, -1, -1, 0)) if flips else ()
    ):
        moved = {
            cell: (a * cell[0] + b * cell[1], c * cell[0] + d * cell[1]) for cell in target.cells
        }
        dr = min(r for r, _ in target.cells) - min(r for r, _ in moved.values())
        dc = min(c for _, c in target.cells) - min(c for _, c in moved.values())
        move = {cell: (r + dr, c + dc) for cell, (r, c) in moved.items()}
        if set(move.values()) == set(target.cells):
            found.append(move)
    return found


def same(a: Solution, b: Solution, target: Shape, move: dict[Cell, Cell]) -> bool:
    """Whether some renaming of colours makes `b` the image of `a` under `move`."""
    rename: dict[int, int] = {}
    pairs = list(zip(a.source_colours, b.source_colours, strict=True))
    where = {cell: y for y, cell in enumerate(target.cells)}
    pairs += [
        (k, b.target_colours[where[move[cell]]])
        for cell, k in zip(target.cells, a.target_colours, strict=True)
    ]
    for mine, theirs in pairs:
        if rename.setdefault(mine, theirs) != theirs:
            return False
    return len(set(rename.values())) == len(rename)


CASES = [
    ("***\n***\n***\n", 2, False),
    ("***\n***\n***\n", 2, True),
    ("****\n*..*\n.***\n", 2, False),
    ("***\n*.*\n***\n.*.\n", 2, False),
    ("***\n*.*\n***\n.*.\n", 2, True),
    ("****\n****\n....\n****\n****\n", 2, True),
]


@pytest.mark.parametrize(("text", "pieces", "flips"), CASES)
def test_one_dissection_of_every_class_is_kept(text: str, pieces: int, flips: bool) -> None:
    target = parse_region(text)
    dissection = Dissection(square_source(target), target, pieces, True, flips)
    every = find_solutions(dissection)
    moves = grid_symmetries(target, flips)
    assert len(target_symmetries(target, flips)) == len(moves)
    classes: list[Solution] = []
    for solution in every:
        if not any(same(solution, first, target, m) for first in classes for m in moves):
            classes.append(solution)
    kept: list[Solution] = []
    run = drive(
        only_distinct(solve(dissection), dissection), on_found=lambda b: kept.extend(b.solutions())
    )
    assert kept == classes  # the first of each class, in the order found
    assert run.distinct == len(classes) and run.result.count == len(every)
    assert run.symmetries == len(moves)


def test_a_symmetric_target_merges_turned_pictures() -> None:
    target = parse_region("***\n***\n***\n")
    turned = Dissection(square_source(target), target, 2, True, False)
    flipped = Dissection(square_source(target), target, 2, True, True)
    assert len(target_symmetries(target, False)) == 4 and len(target_symmetries(target, True)) == 8
    counts = [drive(only_distinct(solve(d), d)) for d in (turned, flipped)]
    assert counts[0].distinct < counts[0].result.count
    assert counts[1].distinct <= counts[0].distinct


def test_sort_keys() -> None:
    target = parse_region("****\n*..*\n.***\n")
    dissection = Dissection(square_source(target), target, 3, True, False)
    tables = Tables.build(dissection.source, dissection.target, dissection.flips)
    solutions = find_solutions(dissection)
    for solution in solutions:
        sizes = piece_sizes(solution)
        assert sum(sizes) == 9 and list(sizes) == sorted(sizes, reverse=True)
        assert sorted(sizes) == sorted(
            solution.source_colours.count(k) for k in set(solution.source_colours)
        )
        assert 0 <= turned_pieces(tables, solution) <= len(sizes)
    assert {turned_pieces(tables, s) for s in solutions} >= {0, 1}
    unturned = next(s for s in solutions if turned_pieces(tables, s) == 0)
    # every piece only shifted: the target colour of each cell is the source colour moved by
    # its piece's shift, so the pieces keep their shapes cell for cell
    for colour in set(unturned.source_colours):
        cut = [
            c
            for c, k in zip(dissection.source.cells, unturned.source_colours, strict=True)
            if k == colour
        ]
        laid = [
            c for c, k in zip(target.cells, unturned.target_colours, strict=True) if k == colour
        ]
        dr, dc = laid[0][0] - cut[0][0], laid[0][1] - cut[0][1]
        assert [(r + dr, c + dc) for r, c in cut] == laid

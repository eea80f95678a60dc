"""The search against the seed's figures, in chunks, cancelled, and for the fewest pieces."""

from __future__ import annotations

import pytest

from slidelab.dissection import search
from slidelab.dissection.model import Dissection, DissectionError, Solution, square_source
from slidelab.dissection.reference import frame
from slidelab.dissection.search import (
    SolutionsFound,
    count_solutions,
    find_solutions,
    smallest,
    solve,
)
from slidelab.dissection.shape import Shape, parse_shape, square
from slidelab.dissection.shifts import Tables
from slidelab.dissection.text import colour_rows
from slidelab.library import load_shipped
from slidelab.runs import Progress, drive
from tests.dissection.figures import RUNS, SEED_COLOURINGS


def dissection(name: str, pieces: int, **options: bool) -> Dissection:
    target = load_shipped("dissection", name, parse_shape)
    return Dissection(square_source(target), target, pieces, **options)


def renamed(text: str) -> str:
    """`text` with its colour digits renamed 1, 2, ... in order of first appearance."""
    names: dict[str, str] = {}
    return "".join(ch if ch in "./|" else names.setdefault(ch, str(len(names) + 1)) for ch in text)


def canonical(square_rows: list[str], target_rows: list[str]) -> set[str]:
    """The colourings up to renaming colours and turning the square (the seed's symmetries)."""
    forms = set()
    grid = square_rows
    for _ in range(4):
        grid = ["".join(row[c] for row in reversed(grid)) for c in range(len(grid))]
        forms.add(renamed("/".join(grid) + "|" + "/".join(target_rows)))
    return forms


@pytest.mark.parametrize(("name", "shifts", "solutions"), RUNS)
def test_the_seeds_counts_with_two_pieces(name, shifts, solutions):
    result = count_solutions(dissection(name, 2))
    assert (result.shifts, result.count) == (shifts, solutions)
    assert len(find_solutions(dissection(name, 2))) == solutions


def test_the_colourings_the_seed_shows_are_found():
    problem = dissection("knuth-toy.dots", 2)
    found = set()
    for s in find_solutions(problem):
        found |= canonical(
            colour_rows(problem.source, s.source_colours),
            colour_rows(problem.target, s.target_colours),
        )
    for square_rows, target_rows in SEED_COLOURINGS:
        assert canonical(square_rows, target_rows) & found


def test_every_solution_moves_each_colour_rigidly_onto_its_target_cells():
    problem = dissection("rectangle-2x8.dots", 3, connected=True)
    tables = Tables.build(problem.source, problem.target)
    solutions = find_solutions(problem)
    assert solutions
    for solution in solutions:
        assert _images(solution, problem, tables) == dict(
            zip(problem.target.cells, solution.target_colours, strict=True)
        )


def _images(solution: Solution, problem: Dissection, tables: Tables) -> dict:
    """Where each colour's map sends its source cells, coloured."""
    placed = {}
    for colour, (q, t) in enumerate(solution.maps, 1):
        a, b = tables.placements[q].shift
        cells = frame(problem.source.cells, t)
        for x, c in enumerate(solution.source_colours):
            if c == colour:
                placed[(cells[x][0] + a, cells[x][1] + b)] = colour
    return placed


def test_listing_and_counting_agree_with_tiny_chunks_and_buffers(monkeypatch):
    problem = dissection("knuth-toy.dots", 4)
    whole = find_solutions(problem)
    monkeypatch.setattr(search, "CHUNK_SECONDS", 1e-9)
    monkeypatch.setattr(search, "BUFFER_CELLS", 1)
    events = list(solve(problem))
    pieces = [s for e in events if isinstance(e, SolutionsFound) for s in e.solutions()]
    assert pieces == whole
    assert sum(isinstance(e, SolutionsFound) for e in events) > 100
    progress = [e for e in events if isinstance(e, Progress)]
    assert all(0 <= e.fraction <= 1 for e in progress)
    assert count_solutions(problem).count == len(whole)


def test_closing_the_generator_cancels(monkeypatch):
    monkeypatch.setattr(search, "CHUNK_SECONDS", 1e-9)
    run = solve(dissection("knuth-toy.dots", 4), listing=False)
    assert isinstance(next(run), Progress)
    run.close()
    with pytest.raises(StopIteration):
        next(run)


def test_smallest_raises_the_pieces_until_solutions_exist():
    # Two pieces cannot make a 1 x 9 strip (the seed's run finds none); three bars of 3 can.
    strip = drive(smallest(dissection("strip-1x9.dots", 2), listing=False))
    three = count_solutions(dissection("strip-1x9.dots", 3))
    assert strip.dissection.pieces == 3
    assert strip.count == three.count > 0
    none = drive(smallest(dissection("strip-1x9.dots", 2), listing=False, most=2))
    assert (none.dissection.pieces, none.count) == (2, 0)
    with pytest.raises(DissectionError):
        drive(smallest(dissection("strip-1x9.dots", 2), most=17))


def test_the_classic_staircase_is_found():
    # Two staircases, steps three wide and two high, make both the 4 x 9 and the 6 x 6.
    problem = dissection("staircase-4x9.dots", 2, connected=True)
    found = {
        renamed("/".join(colour_rows(problem.target, s.target_colours)))
        for s in find_solutions(problem)
    }
    assert "111111222/111111222/111222222/111222222" in found


def test_a_source_square_given_explicitly_changes_nothing():
    target = parse_shape("**.\n.**\n", cells=4)
    implicit = find_solutions(Dissection(square(2), target, 3))
    shifted = Shape(tuple((r + 1, c + 2) for r, c in square(2).cells))
    assert find_solutions(Dissection(shifted, target, 3)) == implicit


def test_bad_problems_are_refused():
    toy = load_shipped("dissection", "knuth-toy.dots", parse_shape)
    with pytest.raises(DissectionError, match="from 2 to 16, not 1"):
        Dissection(square(3), toy, 1)
    with pytest.raises(DissectionError, match="source has 4 cells and the target 9"):
        Dissection(square(2), toy, 2)
    with pytest.raises(DissectionError, match="not a perfect square"):
        square_source(parse_shape("***\n", cells=3))

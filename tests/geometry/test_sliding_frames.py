"""Board frames without Qt: still pictures, moves mid-glide, and pairing the moved pieces."""

from __future__ import annotations

import dataclasses
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.geometry.palettes import KIND_COLOURS, text_colour
from slidelab.geometry.sliding_frames import (
    DrawnPiece,
    Frame,
    frame_between,
    solution_frame,
    still_frame,
)
from slidelab.library import load_shipped
from slidelab.sliding.draft import Draft
from slidelab.sliding.model import KIND_NAMES, Configuration, Placement
from slidelab.sliding.routes import moved_pieces
from slidelab.sliding.search import solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle
from tests.sliding.figures import SILLY_MOVES


@pytest.fixture(scope="module")
def silly():
    return load_shipped("sliding", "knuth-silly.slide", parse_puzzle)


def solution(puzzle, style):
    search = solve(puzzle, style)
    while True:
        try:
            next(search)
        except StopIteration as done:
            return done.value.path


def drawn(frame: Frame) -> Counter:
    """Where each kind's cells are drawn, whatever the cells/offset split."""
    return Counter((piece.kind, piece.positions()) for piece in frame.pieces)


def test_every_kind_has_its_own_colour_and_a_readable_label_colour():
    assert sorted(KIND_COLOURS) == sorted(KIND_NAMES)
    assert len(set(KIND_COLOURS.values())) == 15
    assert text_colour((0, 0, 0)) == (255, 255, 255)
    assert text_colour((240, 228, 66)) == (0, 0, 0)


def test_a_still_frame_draws_every_piece_at_rest(silly):
    frame = still_frame(silly, silly.start.placements)
    assert (frame.rows, frame.cols, frame.obstacles) == (5, 5, silly.obstacles)
    assert DrawnPiece("1", ((0, 0), (0, 1), (0, 2), (1, 1)), (0.0, 0.0)) in frame.pieces
    assert Counter(p.kind for p in frame.pieces) == {"1": 1, "2": 1, "3": 2}
    assert not any(p.highlighted for p in frame.pieces)
    assert frame.any_cells == frame.empty_required == frame.problem_cells == frozenset()
    # a full goal needs no marks
    goal = still_frame(silly, silly.goal.placements, goal=True)
    assert goal.any_cells == goal.empty_required == frozenset()


def test_a_partial_goal_marks_any_and_required_empty_cells():
    klotski = load_shipped("sliding", "klotski.slide", parse_puzzle)
    frame = still_frame(klotski, klotski.goal.placements, goal=True)
    assert frame.any_cells == klotski.goal.any_cells
    assert len(frame.any_cells) == 20 - 4
    draft = Draft.from_puzzle(klotski).with_goal_cell((0, 0), "empty")
    frame = still_frame(draft, draft.goal, goal=True)
    assert frame.empty_required == {(0, 0)}
    assert frame.any_cells == klotski.goal.any_cells - {(0, 0)}
    assert still_frame(draft, draft.start).any_cells == frozenset()


def test_problem_cells_on_the_board_are_marked(silly):
    draft = Draft.from_puzzle(silly).moved_piece(Placement("1", 0, 0), (3, 3), goal=False)
    frame = still_frame(draft, draft.start, problems=draft.problems_in(False))
    assert frame.problem_cells == {(3, 3), (3, 4), (4, 4)}


@pytest.mark.parametrize("style", MoveStyle.ALL)
def test_each_move_of_a_solution_is_one_common_displacement(silly, style):
    path = solution(silly, style)
    assert len(path) - 1 == SILLY_MOVES[style.number]
    for before, after in pairwise(path):
        pairs = moved_pieces(before, after)
        assert pairs
        shifts = {(b.row - a.row, b.col - a.col) for a, b in pairs}
        assert len(shifts) == 1
        assert all(a.kind == b.kind for a, b in pairs)
        sources, targets = {a for a, _ in pairs}, {b for _, b in pairs}
        assert (set(before.placements) - sources) | targets == set(after.placements)
        if not style.superpieces:
            assert len(pairs) == 1


def test_the_superpiece_solution_pairs_identical_pieces_by_the_common_shift(silly):
    path = solution(silly, MoveStyle.SUPER_PATH)
    assert len(path) == 3
    assert moved_pieces(path[0], path[1]) in (
        [
            (Placement("3", 4, 0), Placement("3", 1, 3)),
            (Placement("3", 4, 1), Placement("3", 1, 4)),
        ],
        [
            (Placement("1", 0, 0), Placement("1", 2, 2)),
            (Placement("2", 1, 0), Placement("2", 3, 2)),
        ],
    )
    for before, after in pairwise(path):
        assert len(moved_pieces(before, after)) == 2


def test_a_row_of_identical_pieces_shifting_by_one_moves_both():
    # The set difference alone says "the left 3 jumped two cells"; both moved one.
    before = Configuration.of([Placement("3", 4, 0), Placement("3", 4, 1)])
    after = Configuration.of([Placement("3", 4, 1), Placement("3", 4, 2)])
    assert moved_pieces(before, after) == [
        (Placement("3", 4, 0), Placement("3", 4, 1)),
        (Placement("3", 4, 1), Placement("3", 4, 2)),
    ]
    assert moved_pieces(before, before) == []


def test_glides_start_and_end_at_the_still_frames(silly):
    for style in (MoveStyle.STEP, MoveStyle.PATH, MoveStyle.SUPER_PATH):
        path = solution(silly, style)
        for before, after in pairwise(path):
            start = frame_between(silly, before, after, 0.0)
            end = frame_between(silly, before, after, 1.0)
            assert drawn(start) == drawn(still_frame(silly, before.placements))
            assert drawn(end) == drawn(still_frame(silly, after.placements))
            unlit = [dataclasses.replace(p, highlighted=False) for p in start.pieces]
            assert tuple(unlit) == still_frame(silly, before.placements).pieces
            unlit = [dataclasses.replace(p, highlighted=False) for p in end.pieces]
            assert tuple(unlit) == still_frame(silly, after.placements).pieces
            moving = {a for a, _ in moved_pieces(before, after)}
            lit = [p for p in end.pieces if p.highlighted]
            assert len(lit) == len(moving)
            assert end.obstacles == silly.obstacles


def test_halfway_through_a_move_pieces_are_between_cells(silly):
    path = solution(silly, MoveStyle.SUPER_PATH)
    frame = frame_between(silly, path[1], path[2], 0.5)
    lit = {p.kind: p.offset for p in frame.pieces if p.highlighted}
    # The superpiece goes down 2 then right 2, cell by cell, not diagonally through cells.
    assert lit == {"1": (2.0, 0.0), "2": (2.0, 0.0)}
    quarter = frame_between(silly, path[1], path[2], 0.25)
    assert {p.kind: p.offset for p in quarter.pieces if p.highlighted}["1"] == (1.0, 0.0)
    eighth = frame_between(silly, path[1], path[2], 0.125)
    assert {p.kind: p.offset for p in eighth.pieces if p.highlighted}["1"] == (0.5, 0.0)
    assert frame_between(silly, path[1], path[2], 7.0) == frame_between(silly, path[1], path[2], 1)
    assert all(not p.highlighted for p in frame_between(silly, path[0], path[0], 0.5).pieces)


@settings(max_examples=200, deadline=None)
@given(
    st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=12),
    st.data(),
)
def test_random_group_moves_of_identical_pieces_pair_consistently(cells, data):
    """Unit pieces of one kind: any group shifted together is explained by one shift no
    longer than the real one."""
    pieces = sorted(Placement("1", r, c) for r, c in cells)
    group = data.draw(st.sets(st.sampled_from(pieces), min_size=1))
    dr, dc = data.draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0), (2, 1), (-3, 0)]))
    shifted = {Placement("1", p.row + dr, p.col + dc) for p in group}
    after_set = (set(pieces) - group) | shifted
    if len(after_set) != len(pieces) or after_set == set(pieces):
        return  # the shift would stack two pieces, or changes nothing visible
    before, after = Configuration.of(pieces), Configuration.of(list(after_set))
    pairs = moved_pieces(before, after)
    shifts = {(b.row - a.row, b.col - a.col) for a, b in pairs}
    assert len(shifts) == 1
    (sr, sc) = shifts.pop()
    assert abs(sr) + abs(sc) <= abs(dr) + abs(dc)
    sources, targets = {a for a, _ in pairs}, {b for _, b in pairs}
    assert (set(before.placements) - sources) | targets == set(after.placements)


def overlapping(frame: Frame) -> list[tuple[int, int]]:
    """Pairs of pieces whose drawn cells (unit squares at fractional places) overlap, or that
    stand on an obstacle or off the board."""
    squares = [piece.positions() for piece in frame.pieces]

    def meet(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return abs(a[0] - b[0]) < 1 - 1e-9 and abs(a[1] - b[1]) < 1 - 1e-9

    clashes = []
    for i, mine in enumerate(squares):
        walls = [*frame.obstacles, *((-1, c) for c in range(frame.cols))]
        walls += [(frame.rows, c) for c in range(frame.cols)]
        walls += [(r, -1) for r in range(frame.rows)] + [(r, frame.cols) for r in range(frame.rows)]
        if any(meet(cell, wall) for cell in mine for wall in walls):
            clashes.append((i, -1))
        for j in range(i + 1, len(squares)):
            if any(meet(a, b) for a in mine for b in squares[j]):
                clashes.append((i, j))
    return clashes


@pytest.mark.parametrize("name", ["knuth-silly.slide", "blockado.slide", "five-puzzle-2x3.slide"])
@pytest.mark.parametrize("style", [MoveStyle.PATH, MoveStyle.SUPER_PATH, MoveStyle.SLIDE])
def test_no_frame_of_a_solution_shows_two_pieces_overlapping(name, style):
    puzzle = load_shipped("sliding", name, parse_puzzle)
    path = solution(puzzle, style)
    assert path
    for before, after in pairwise(path):
        for step in range(33):
            frame = frame_between(puzzle, before, after, step / 32)
            assert overlapping(frame) == [], (before, after, step)


def test_the_solution_frame_outlines_the_goal(silly):
    path = solution(silly, MoveStyle.PATH)
    frame = solution_frame(silly, path, 1.5)
    assert frame.goal == still_frame(silly, silly.goal.placements).pieces
    assert frame.goal and solution_frame(silly, path, 0.0).goal == frame.goal
    assert drawn(solution_frame(silly, path, 1.5)) == drawn(frame_between(silly, *path[1:3], 0.5))

"""Routes of one move: legal cell steps, shortest, few turns, and named legs."""

from __future__ import annotations

from collections import deque
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.sliding.model import Cell, Configuration, Goal, PieceKind, Placement, Puzzle
from slidelab.sliding.routes import NoRouteError, Route, move_route, shortest_route

UNIT = ((-1, 0), (1, 0), (0, -1), (0, 1))


def legal(rows: int, cols: int, moving: frozenset[Cell], blocked: frozenset[Cell], offset: Cell):
    dr, dc = offset
    return all(
        0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in blocked
        for r, c in moving
    )


def distances(rows, cols, moving, blocked) -> dict[Cell, int]:
    """Plain breadth-first distances of every reachable offset (the oracle)."""
    seen = {(0, 0): 0}
    queue = deque([(0, 0)])
    while queue:
        offset = queue.popleft()
        for dr, dc in UNIT:
            nxt = (offset[0] + dr, offset[1] + dc)
            if nxt not in seen and legal(rows, cols, moving, blocked, nxt):
                seen[nxt] = seen[offset] + 1
                queue.append(nxt)
    return seen


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    moving = draw(st.sets(st.sampled_from(cells), min_size=1, max_size=4))
    others = [cell for cell in cells if cell not in moving]
    blocked = draw(st.sets(st.sampled_from(others), max_size=len(others))) if others else set()
    return rows, cols, frozenset(moving), frozenset(blocked)


@settings(max_examples=300, deadline=None)
@given(boards(), st.data())
def test_a_route_is_legal_cell_by_cell_and_shortest(board, data):
    rows, cols, moving, blocked = board
    reach = distances(rows, cols, moving, blocked)
    target = data.draw(st.sampled_from(sorted(reach)))
    route = shortest_route(rows, cols, moving, blocked, target)
    assert route[0] == (0, 0) and route[-1] == target
    assert len(route) - 1 == reach[target]
    for offset in route:
        assert legal(rows, cols, moving, blocked, offset)
    for (r0, c0), (r1, c1) in pairwise(route):
        assert abs(r1 - r0) + abs(c1 - c0) == 1


@settings(max_examples=100, deadline=None)
@given(boards())
def test_an_unreachable_displacement_has_no_route(board):
    rows, cols, moving, blocked = board
    reach = distances(rows, cols, moving, blocked)
    target = next(
        (r, c)
        for r in range(-rows, rows + 1)
        for c in range(-cols, cols + 1)
        if (r, c) not in reach
    )
    with pytest.raises(NoRouteError):
        shortest_route(rows, cols, moving, blocked, target)


def test_among_shortest_routes_the_one_with_fewest_turns():
    # An open 3x3 board: down 2, right 2 (one turn), never a staircase.
    route = shortest_route(3, 3, frozenset({(0, 0)}), frozenset(), (2, 2))
    legs = Route((), route).legs()
    assert len(legs) == 2 and sorted(legs) == [("down", 2), ("right", 2)]


def test_a_move_round_an_obstacle_goes_round_it():
    # 2 x 3 board, obstacle in the middle of the top row: piece 1 goes from (0,0) to (0,2).
    kinds = (PieceKind("1", ((0, 0),)),)
    start = Configuration.of([Placement("1", 0, 0)])
    after = Configuration.of([Placement("1", 0, 2)])
    puzzle = Puzzle(2, 3, kinds, frozenset({(0, 1)}), start, Goal(after.placements, frozenset()))
    route = move_route(puzzle, start, after)
    assert route.offsets == ((0, 0), (1, 0), (1, 1), (1, 2), (0, 2))
    assert route.legs() == (("down", 1), ("right", 2), ("up", 1))
    assert route.offset_at(0.5) == (1.0, 1.0)
    assert route.offset_at(0.125) == (0.5, 0.0)
    assert move_route(puzzle, start, start).steps == 0


def test_configurations_more_than_one_move_apart_have_no_route():
    kinds = (PieceKind("1", ((0, 0),)), PieceKind("2", ((0, 0),)))
    start = Configuration.of([Placement("1", 0, 0), Placement("2", 1, 0)])
    apart = Configuration.of([Placement("1", 0, 1), Placement("2", 1, 2)])
    puzzle = Puzzle(2, 3, kinds, frozenset(), start, Goal(apart.placements, frozenset()))
    with pytest.raises(NoRouteError, match="not one move apart"):
        move_route(puzzle, start, apart)

"""Distances to the goal (`to_goal`): the start's distance is the forward search's move
count, and every figure agrees with the reference, which holds the whole graph."""

from __future__ import annotations

import pytest
from hypothesis import given

from slidelab.library import shipped_names, shipped_text
from slidelab.runs import drive
from slidelab.sliding.distance import to_goal
from slidelab.sliding.model import Puzzle
from slidelab.sliding.reference import reference_to_goal, successors
from slidelab.sliding.search import analyze, solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle
from tests.sliding.test_library import MAX_STATES, _claims
from tests.sliding.test_reference_agreement import RANDOM_PUZZLES, _show, puzzles

TOO_BIG = {"fifteen-puzzle.slide"}
"""Library puzzles whose start's component (half of 16! for the fifteen puzzle) no search holds."""

QUICK = [
    pytest.param(name, style, id=f"{name[:-6]}-style{style}")
    for name in shipped_names("sliding")
    for style, _, slow in _claims(shipped_text("sliding", name))
    if not slow and name not in TOO_BIG
]


@pytest.mark.parametrize(("name", "style"), QUICK)
def test_the_start_is_as_far_from_the_goal_as_the_forward_search_says(
    name: str, style: int
) -> None:
    puzzle = parse_puzzle(shipped_text("sliding", name))
    move_style = MoveStyle.from_number(style)
    forward = drive(solve(puzzle, move_style, max_states=MAX_STATES))
    distances = drive(to_goal(puzzle, move_style, max_states=MAX_STATES))
    assert distances.limit_message is None
    assert distances.start_distance == forward.moves
    assert distances.optimal_solutions >= 1
    assert sum(distances.to_goal_layers) + distances.cannot_reach == distances.component


@pytest.mark.parametrize("style", MoveStyle.ALL)
@RANDOM_PUZZLES
@given(puzzle=puzzles())
def test_distances_agree_with_the_reference(style: MoveStyle, puzzle: Puzzle) -> None:
    _show(puzzle)
    distance, solutions, layers, cannot_reach = reference_to_goal(puzzle, style)
    found = drive(to_goal(puzzle, style))
    assert found.start_distance == distance
    assert found.optimal_solutions == solutions
    assert found.to_goal_layers == layers
    assert found.cannot_reach == cannot_reach
    assert found.component == drive(analyze(puzzle, style)).reachable
    assert found.start_distance == drive(solve(puzzle, style)).moves


@pytest.mark.parametrize("style", MoveStyle.ALL)
def test_knuths_silly_example_in_every_style(style: MoveStyle) -> None:
    puzzle = parse_puzzle(shipped_text("sliding", "knuth-silly.slide"))
    distance, solutions, layers, cannot_reach = reference_to_goal(puzzle, style)
    found = drive(to_goal(puzzle, style))
    assert (found.start_distance, found.optimal_solutions) == (distance, solutions)
    assert (found.to_goal_layers, found.cannot_reach) == (layers, cannot_reach)


def test_a_component_too_big_to_hold_is_reported_not_guessed() -> None:
    puzzle = parse_puzzle(shipped_text("sliding", "fifteen-puzzle.slide"))
    found = drive(to_goal(puzzle, MoveStyle.STEP, max_states=10_000))
    assert found.start_distance is None
    assert found.optimal_solutions == 0
    assert found.limit_message is not None
    assert found.limit_message.startswith("stopped at distance ")
    assert "the limit set by --max-states (10,000)" in found.limit_message


@pytest.mark.parametrize("style", MoveStyle.ALL)
@RANDOM_PUZZLES
@given(puzzle=puzzles())
def test_following_hints_reaches_the_goal_in_the_start_distance(
    style: MoveStyle, puzzle: Puzzle
) -> None:
    _show(puzzle)
    found = drive(to_goal(puzzle, style))
    if found.start_distance is None:
        assert found.table is None
        return
    table = found.table
    assert table is not None and table.size == found.component
    config = puzzle.start
    for left in range(found.start_distance, 0, -1):
        assert table.distance(config) == left
        hints = table.toward_goal(config)
        everything = successors(puzzle, config, style)
        assert set(hints) == {c for c in everything if table.distance(c) == left - 1}
        config = hints[0]
    assert puzzle.meets_goal(config)
    assert table.toward_goal(config) == ()

"""Rush Hour positions: the one-line notation, and the published hardest position's figures."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.errors import ParseError
from slidelab.library import shipped_text
from slidelab.runs import drive
from slidelab.sliding.distance import to_goal
from slidelab.sliding.model import Axis, Placement
from slidelab.sliding.reference import reference_layers, reference_to_goal
from slidelab.sliding.rushhour import parse_rush_hour
from slidelab.sliding.search import analyze, solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_puzzle, parse_puzzle

HARDEST = "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."
"""Published as the hardest 6 x 6 position: 51 moves, a component of 4,780 configurations."""


def test_the_library_file_is_the_published_position() -> None:
    shipped = parse_puzzle(shipped_text("sliding", "rush-hour-hardest.slide"))
    converted = parse_rush_hour(HARDEST)
    assert (shipped.kinds, shipped.start, shipped.goal) == (
        converted.kinds,
        converted.start,
        converted.goal,
    )


def test_vehicles_become_kinds_kept_to_their_axis() -> None:
    puzzle = parse_rush_hour(HARDEST)
    assert [(kind.pattern(), kind.axis) for kind in puzzle.kinds] == [
        ("11", Axis.HORIZONTAL),  # the red car
        ("11", Axis.HORIZONTAL),
        ("111", Axis.HORIZONTAL),
        ("1/1", Axis.VERTICAL),
        ("1/1/1", Axis.VERTICAL),
    ]
    assert puzzle.start.kind_counts() == {"1": 1, "2": 4, "3": 1, "4": 5, "5": 2}
    assert puzzle.goal.placements == (Placement("1", 2, 4),)
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle


def test_the_hardest_position_needs_51_moves_in_a_component_of_4780() -> None:
    puzzle = parse_rush_hour(HARDEST)
    assert drive(solve(puzzle, MoveStyle.SLIDE, jobs=1)).moves == 51
    assert drive(analyze(puzzle, MoveStyle.SLIDE, jobs=1)).reachable == 4780
    assert sum(reference_layers(puzzle, MoveStyle.SLIDE)) == 4780


def test_the_hardest_position_has_127484544_shortest_solutions() -> None:
    puzzle = parse_rush_hour(HARDEST)
    found = drive(to_goal(puzzle, MoveStyle.SLIDE, jobs=1))
    assert (found.start_distance, found.optimal_solutions) == (51, 127_484_544)
    assert reference_to_goal(puzzle, MoveStyle.SLIDE) == (
        51,
        127_484_544,
        found.to_goal_layers,
        0,
    )


def test_walls_and_a_red_car_of_any_letter() -> None:
    puzzle = parse_rush_hour("x....." + "XX...." + "." * 24, red="X")
    assert puzzle.obstacles == {(0, 0)}
    assert puzzle.goal.placements == (Placement("1", 1, 4),)
    assert drive(solve(puzzle, MoveStyle.SLIDE, jobs=1)).moves == 1


@pytest.mark.parametrize(
    ("text", "red", "message"),
    [
        ("A" * 35, "A", "<string>:1:1: a Rush Hour position has 36 cells, not 35"),
        ("." * 36, "A", "<string>:1:1: no red car 'A' in the position"),
        ("......A.....A" + "." * 23, "A", "<string>:1:7: the red car 'A' must lie along its row"),
        (
            ".BBBB." + "AA" + "." * 28,
            "A",
            "<string>:1:2: 'B' is not a car or truck (2 or 3 cells in a line)",
        ),
        (
            "AA..B." + ".B" + "." * 28,
            "A",
            "<string>:1:5: 'B' is not a car or truck (2 or 3 cells in a line)",
        ),
        (
            "AA..B." + "." * 30,
            "A",
            "<string>:1:5: 'B' is not a car or truck (2 or 3 cells in a line)",
        ),
    ],
)
def test_bad_positions_are_refused_at_their_column(text: str, red: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_rush_hour(text, red=red)
    assert str(caught.value) == message


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="AABBCx.o\x00é", min_size=0, max_size=40))
def test_any_line_gives_a_puzzle_or_a_message_at_a_column(text: str) -> None:
    try:
        puzzle = parse_rush_hour(text)
    except ParseError as error:
        assert 1 <= error.column <= max(len(text), 1)
        assert str(error).startswith("<string>:1:")
    else:
        assert parse_puzzle(format_puzzle(puzzle)) == puzzle

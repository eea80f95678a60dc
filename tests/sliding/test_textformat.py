"""Knuth's sliding-block text format: reading, writing, partial goals and every error."""

from __future__ import annotations

import pytest

from slidelab.errors import ParseError
from slidelab.sliding.model import Axis, Configuration, Placement
from slidelab.sliding.textformat import format_puzzle, parse_puzzle
from tests.sliding.figures import SILLY


def test_reads_knuths_silly_example():
    puzzle = parse_puzzle(SILLY)
    assert (puzzle.rows, puzzle.cols, puzzle.title) == (5, 5, "(a silly example)")
    assert puzzle.kind("1").cells == ((0, 0), (0, 1), (0, 2), (1, 1))
    assert puzzle.kind("2").cells == ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2))
    assert puzzle.obstacles == {(0, 3), (0, 4)}
    assert puzzle.start == Configuration.of(
        [Placement("1", 0, 0), Placement("2", 1, 0), Placement("3", 4, 0), Placement("3", 4, 1)]
    )
    assert set(puzzle.goal.placements) == {
        Placement("3", 1, 3),
        Placement("3", 1, 4),
        Placement("1", 2, 2),
        Placement("2", 3, 2),
    }
    assert not puzzle.goal.partial
    assert puzzle.meets_goal(Configuration(puzzle.goal.placements))
    assert not puzzle.meets_goal(puzzle.start)


def test_writing_then_reading_gives_the_same_puzzle():
    puzzle = parse_puzzle(SILLY)
    text = format_puzzle(puzzle)
    assert text == SILLY
    assert parse_puzzle(text) == puzzle


def test_patterns_are_written_canonically_and_round_trip():
    text = "3 x 3\n1 = 01/11\n2 = 0100\n3 = 0101\n01002\n0000012\n"
    puzzle = parse_puzzle(text)
    assert puzzle.start == Configuration.of([Placement("1", 0, 1), Placement("2", 2, 0)])
    assert puzzle.kind("1").cells == ((0, 0), (1, -1), (1, 0))
    assert puzzle.kind("1").pattern() == "01/11"
    assert puzzle.kind("2").pattern() == "1"
    assert puzzle.kind("3").pattern() == "101"
    again = parse_puzzle(format_puzzle(puzzle))
    assert again == puzzle


def test_partial_goal_with_star_and_omitted_tail():
    puzzle = parse_puzzle("5 x 4\n1 = 11/11\n2 = 1\n21\n*************1\n")
    goal = puzzle.goal
    assert goal.partial
    assert goal.placements == (Placement("1", 3, 1),)
    assert goal.empty == frozenset()
    assert puzzle.meets_goal(Configuration.of([Placement("1", 3, 1), Placement("2", 0, 0)]))
    assert not puzzle.meets_goal(Configuration.of([Placement("1", 3, 2), Placement("2", 0, 0)]))
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle


def test_partial_goal_can_demand_empty_cells():
    puzzle = parse_puzzle("2 x 3\n1 = 1\n11\n0*1\n")
    assert puzzle.goal.empty == {(0, 0)}
    assert puzzle.goal.any_cells == {(0, 1), (1, 0), (1, 1), (1, 2)}
    assert puzzle.meets_goal(Configuration.of([Placement("1", 0, 2), Placement("1", 1, 1)]))
    assert not puzzle.meets_goal(Configuration.of([Placement("1", 0, 2), Placement("1", 0, 0)]))
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle


def test_comments_become_notes_written_after_the_stop_line():
    puzzle = parse_puzzle("# from a book\n1 x 3 row\n1 = 1\n1\n001\n# optimal: 2\n")
    assert puzzle.notes == ("from a book", "optimal: 2")
    assert format_puzzle(puzzle).endswith("001\n# from a book\n# optimal: 2\n")


def test_obstacles_may_be_starred_in_a_partial_goal():
    puzzle = parse_puzzle("2 x 2\n1 = 1\nx1\n*01\n")
    assert puzzle.goal.placements == (Placement("1", 1, 0),)


def test_a_suffix_keeps_a_kind_to_one_axis_and_is_written_back():
    text = "2 x 3 cars\n1 = 11 h\n2 = 1/1 v\n3 = 1\n1203\n123\n"
    puzzle = parse_puzzle(text)
    assert [kind.axis for kind in puzzle.kinds] == [Axis.HORIZONTAL, Axis.VERTICAL, Axis.ANY]
    assert format_puzzle(puzzle) == text
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle


def test_boards_larger_than_knuths_limit_are_accepted():
    puzzle = parse_puzzle("32 x 32 big\n1 = 11/11\n1\n" + "0" * 990 + "1\n")
    assert puzzle.goal.placements == (Placement("1", 30, 30),)


ERRORS = [
    ("5 by 5\n1 = 1\n1\n01\n", 1, 1, "expected the board size as 'ROWS x COLUMNS'"),
    ("0 x 5\n1 = 1\n1\n01\n", 1, 1, "the board needs at least one row and one column"),
    ("65 x 64\n1 = 1\n1\n01\n", 1, 1, "the board may have at most 4096 cells"),
    ("", 1, 1, "empty file: expected the board size as 'ROWS x COLUMNS'"),
    ("2 x 2\ng = 1\n1\n01\n", 2, 1, "bad piece name 'g': use 1-9 or a-f"),
    ("2 x 2\n1 = 12\n1\n01\n", 2, 6, "bad character '2' in the pattern of piece 1"),
    ("2 x 2\n1 = 1\x001\n1\n01\n", 2, 6, "bad character '\\x00' in the pattern of piece 1"),
    ("2 x 2\n1 = 00/0\n1\n01\n", 2, 5, "piece 1 is empty"),
    (
        "1 x 2\n1 = 1 x\n1\n01\n",
        2,
        7,
        "bad move limit 'x' for piece 1: use h (horizontal only) or v (vertical only)",
    ),
    (
        "1 x 2\n1 = 1  h v\n1\n01\n",
        2,
        8,
        "bad move limit 'h v' for piece 1: use h (horizontal only) or v (vertical only)",
    ),
    ("2 x 2\n1 = 1\n1 = 11\n1\n01\n", 3, 1, "piece 1 is defined twice"),
    ("2 x 2\n1 = 1\n", 3, 1, "missing the start configuration line"),
    ("2 x 2\n1 = 1\n1\n", 4, 1, "missing the stop configuration line"),
    ("2 x 2\n1 = 1\n1\n01\n1\n", 5, 1, "unexpected text after the stop line"),
    ("2 x 2\n1 = 1\n2\n01\n", 3, 1, "unknown piece '2'"),
    ("2 x 2\n1 = 111\n1\n01\n", 3, 1, "piece 1 at row 0, column 0 does not fit on the board"),
    (
        "2 x 2\n1 = 1\n2 = 01/11\n2\n0001\n",
        4,
        1,
        "piece 2 at row 0, column 0 does not fit on the board",
    ),
    (
        "2 x 3\n1 = 11/11\n2 = 01/11\n12\n000001\n",
        4,
        2,
        "piece 2 at row 0, column 2 overlaps a cell already filled",
    ),
    ("1 x 2\n1 = 1\n1001\n01\n", 3, 3, "the start line names more cells than the 1 x 2 board has"),
    ("1 x 2\n1 = 1\n1?\n01\n", 3, 2, "unexpected character '?' in the start line"),
    ("1 x 2\n1 = 1\n1*\n01\n", 3, 2, "'*' (any occupant) is allowed only in the stop line"),
    (
        "1 x 2\n1 = 1\n1\n0x\n",
        4,
        2,
        "the stop line has an obstacle at row 0, column 1 where the start line has none",
    ),
    (
        "1 x 3\n1 = 1\n1x\n001\n",
        4,
        2,
        "row 0, column 1 is an obstacle in the start line but not in the stop line",
    ),
    (
        "1 x 3\n1 = 1\n10x\n1\n",
        4,
        2,
        "row 0, column 2 is an obstacle in the start line but not in the stop line",
    ),
    ("1 x 3\n1 = 1\n1\n011\n", 4, 3, "the start has 1 piece of kind 1 but the goal has 2"),
    ("1 x 3\n1 = 1\n11\n001\n", 4, 3, "the start has 2 pieces of kind 1 but the goal has 1"),
    ("1 x 3\n1 = 1\n1\n*11\n", 4, 3, "the start has 1 piece of kind 1 but the goal has 2"),
    ("1 x 3\n1 = 1\n000\n001\n", 3, 1, "the start configuration has no pieces"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), ERRORS)
def test_every_malformed_input_names_its_line_and_column(text, line, column, message):
    with pytest.raises(ParseError) as caught:
        parse_puzzle(text, source="p.slide")
    assert (caught.value.line, caught.value.column, caught.value.message) == (line, column, message)
    assert str(caught.value) == f"p.slide:{line}:{column}: {message}"

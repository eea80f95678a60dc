"""Knuth's DLX formats: his examples, round trips, and errors that name line and column."""

from __future__ import annotations

import re

import pytest

from slidelab.errors import ParseError
from slidelab.exactcover.dlxformat import format_problem, parse_problem
from slidelab.exactcover.problem import Problem, ProblemError

DLX1_EXAMPLE = """\
| A simple example
A B C D E | F G
C E F
A D G
B C F
A D
B G
D E G
"""

DLX2_EXAMPLE = """\
| A simple example of color controls
A B C | X Y
A B X:0 Y:0
A C X:1 Y:1
X:0 Y:1
B X:1
C Y:1
"""

DLX3_EXAMPLE = """\
| A simple example of color controls
A B 2:3|C | X Y
A B X:0 Y:0
A C X:1 Y:1
C X:0
B X:1
C Y:1
"""


def test_dlx1_example_reads_items_and_options():
    problem = parse_problem(DLX1_EXAMPLE)
    assert problem.primary == ("A", "B", "C", "D", "E")
    assert problem.secondary == ("F", "G")
    assert problem.options[0] == (("C", None), ("E", None), ("F", None))
    assert len(problem.options) == 6
    assert not problem.has_multiplicities


def test_dlx2_colours_and_dlx3_bounds():
    coloured = parse_problem(DLX2_EXAMPLE)
    assert coloured.options[0] == (("A", None), ("B", None), ("X", "0"), ("Y", "0"))
    bounded = parse_problem(DLX3_EXAMPLE)
    assert bounded.primary == ("A", "B", "C")
    assert bounded.bounds == ((1, 1), (1, 1), (2, 3))
    assert parse_problem("3|A B\nA\n").bounds == ((3, 3), (1, 1))


def test_all_primary_when_there_is_no_bar_and_blank_lines_are_skipped():
    problem = parse_problem("\n  A B\n\nA B\n   | indented comment\n")
    assert problem.primary == ("A", "B")
    assert problem.secondary == ()
    assert problem.options == ((("A", None), ("B", None)),)


def test_bar_glued_to_a_name_starts_the_secondary_items():
    assert parse_problem("A |X Y\nA X\n").secondary == ("X", "Y")


@pytest.mark.parametrize("text", [DLX1_EXAMPLE, DLX2_EXAMPLE, DLX3_EXAMPLE])
def test_format_round_trips(text):
    problem = parse_problem(text)
    written = format_problem(problem)
    assert parse_problem(written) == problem
    assert format_problem(parse_problem(written)) == written


def test_format_writes_bounds_colours_and_comments():
    problem = Problem(
        primary=("A", "B", "C"),
        options=((("A", None), ("X", "red")), (("B", None), ("C", None))),
        secondary=("X",),
        bounds=((1, 1), (2, 2), (0, 3)),
    )
    assert format_problem(problem, "two\nlines") == (
        "| two\n| lines\nA 2|B 0:3|C | X\nA X:red\nB C\n"
    )


@pytest.mark.parametrize(
    "problem",
    [
        Problem.of_sets([("cell", 1)], [[("cell", 1)]]),
        Problem.of_sets(["toolongname"], [["toolongname"]]),
        Problem.of_sets(["has space"], [["has space"]]),
        Problem(("P",), ((("P", None), ("X", "a:b")),), ("X",)),
    ],
)
def test_format_refuses_names_the_format_cannot_hold(problem):
    with pytest.raises(ProblemError, match="cannot be written"):
        format_problem(problem)


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("", 1, 1, "no item line"),
        ("| only a comment\n", 1, 1, "no item line"),
        ("A B A\n", 1, 5, "listed twice"),
        ("A | B | C\n", 1, 7, "'|' twice"),
        ("A B:c\n", 1, 4, "':' is not allowed"),
        ("A | B:c\n", 1, 6, "':' is not allowed"),
        ("A | 2|B\n", 1, 6, "'|' is not allowed"),
        ("A 0|B\n", 1, 3, "upper bound must be positive"),
        ("A 3:2|B\n", 1, 3, "lower bound 3 exceeds the upper bound 2"),
        ("A x:2|B\n", 1, 3, "bad bounds"),
        ("A 2|\n", 1, 5, "empty item name"),
        ("A NINECHARS\n", 1, 3, "longer than 8"),
        ("A B\nA C\n", 2, 3, "unknown item 'C'"),
        ("A B\n\nB A B\n", 3, 5, "appears twice"),
        ("A | X\nA:1 X\n", 2, 2, "primary item 'A' cannot have a colour"),
        ("A | X\nA X:\n", 2, 5, "empty colour name"),
        ("A | X\nA X:toolongcol\n", 2, 5, "colour name 'toolongcol'"),
        ("A | X\nA :1\n", 2, 3, "empty item name"),
        ("A | X\nA X:a|b\n", 2, 6, "'|' is not allowed in a colour name"),
        ("A\x00B\nA\n", 1, 2, re.escape("'\\x00' is not allowed in an item name")),
    ],
)
def test_errors_name_line_and_column(text, line, column, message):
    with pytest.raises(ParseError, match=message) as caught:
        parse_problem(text, "bad.dlx")
    assert (caught.value.line, caught.value.column) == (line, column)
    assert str(caught.value).startswith(f"bad.dlx:{line}:{column}: ")

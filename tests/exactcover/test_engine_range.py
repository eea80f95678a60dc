"""Bounds the kernels cannot hold are refused (they used to wrap around into wrong counts)."""

from __future__ import annotations

import pytest

from slidelab.cli import main
from slidelab.errors import ParseError
from slidelab.exactcover.dlxformat import parse_problem
from slidelab.exactcover.problem import MAX_BOUND, BoundTooLargeError, Problem
from slidelab.exactcover.search import solve
from slidelab.runs import drive

TOO_BIG = "the bound is above 2147483647, the largest the engine holds"


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("A 4294967296|B\nA B\nB\nA\n", 3),  # 2^32: wrapped to 0 and counted 4 solutions
        ("A 2147483648|B\nA B\n", 3),
        ("A 9223372036854775807|B\nA B\n", 3),  # raised OverflowError
        ("A 18446744073709551616|B\nA B\n", 3),
        ("A 1:4294967297|B\nA B\n", 5),
        ("A 4294967297:4294967297|B\nA B\n", 3),
        (f"A {'9' * 5000}|B\nA B\n", 3),  # beyond int()'s 4,300 digits: raised ValueError
    ],
)
def test_bounds_beyond_the_engine_are_refused_where_they_are(text, column):
    with pytest.raises(ParseError) as caught:
        parse_problem(text, "big.dlx")
    assert str(caught.value) == f"big.dlx:1:{column}: {TOO_BIG}"


def test_the_largest_bound_the_engine_holds_counts_right():
    problem = parse_problem("A 2147483647|B\nA B\nB\nA\n")
    assert problem.bounds[1] == (MAX_BOUND, MAX_BOUND)
    assert drive(solve(problem)).count == 0
    # {A B}, {A B, B}, {A}, {A, B}: as with an upper bound of 2
    assert drive(solve(parse_problem("A 0:2147483647|B\nA B\nB\nA\n"))).count == 4


def test_non_ascii_digits_are_not_bounds():
    with pytest.raises(ParseError) as caught:
        parse_problem("A \u0663|B\nA\n", "d.dlx")
    assert str(caught.value) == "d.dlx:1:3: bad bounds '\u0663|': write u:v|name or v|name"


def test_the_command_refuses_a_bound_that_would_wrap(tmp_path, capsys):
    path = tmp_path / "wrap.dlx"
    path.write_text("A 4294967296|B\nA B\nB\nA\n")
    assert main(["dlx", str(path), "--count"]) != 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"{path}:1:3: {TOO_BIG}\n")


def test_problem_refuses_bounds_the_engine_cannot_hold():
    with pytest.raises(BoundTooLargeError) as caught:
        Problem.of_sets(["A", "B"], [["A", "B"], ["B"], ["A"]], bounds={"B": (2**32, 2**32)})
    assert str(caught.value) == (
        "item 'B': the upper bound 4294967296 is above 2147483647, the largest the engine holds"
    )
    assert Problem.of_sets(["A"], [["A"]], bounds={"A": (0, MAX_BOUND)}).bounds == ((0, MAX_BOUND),)

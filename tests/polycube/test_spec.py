"""Knuth's polycube spec: digits, brackets and ranges, pieces, round trips and every error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.errors import ParseError
from slidelab.polycube.spec import DIGITS, PieceSpec, Spec, cell_name, format_spec, parse_spec


def cells(text: str) -> tuple[tuple[int, int, int], ...]:
    return parse_spec(text + "\n").box


def test_digits_brackets_and_ranges():
    assert cells("[01]a[9b]") == ((0, 10, 9), (0, 10, 11), (1, 10, 9), (1, 10, 11))
    assert len(cells("[0-1][a-a][9-b]")) == 6
    assert len(cells("[1-3][1-4][1-5]")) == 60
    assert cells("[7-z32-4A5-5]00") == cells("[2-57-A]00")
    assert cells("Z00") == ((61, 0, 0),)
    assert cells("[]00 000") == ((0, 0, 0),)  # the empty set is legal, but useless


def test_cells_are_listed_once_and_sorted():
    box = cells("[123]22  2[123]2 22[123]")
    assert len(box) == 7 and list(box) == sorted(box)


def test_pieces_comments_multiplicity_and_merged_lines():
    spec = parse_spec(
        "| a comment\n[0-2][0-2]0\n\nV 000 100 010\n| another\n2*L 000 100 010 020\nV 000 100\n"
    )
    assert spec.pieces == (
        PieceSpec("V", 1, (((0, 0, 0), (0, 1, 0), (1, 0, 0)), ((0, 0, 0), (1, 0, 0)))),
        PieceSpec("L", 2, (((0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 0, 0)),)),
    )


def test_piece_without_cells_is_ignored_as_in_the_seed():
    assert parse_spec("000\nA\nB 000\n").pieces == (PieceSpec("B", 1, (((0, 0, 0),),)),)


def test_name_of_a_cell_outside_the_box_is_allowed():
    assert parse_spec("000\n111 000\n").pieces[0].name == "111"


ERRORS = [
    ("| only comments\n", 1, 1, "ended before the box"),
    ("00\n", 1, 3, "incomplete cell"),
    ("00-\n", 1, 3, "illegal digit"),
    ("0[01\n", 1, 5, "no closing bracket"),
    ("0[0!]0\n", 1, 4, "illegal bracketed digit"),
    ("0[-5]0\n", 1, 3, "illegal range"),
    ("0[1-]0\n", 1, 4, "illegal range"),
    ("0[1-2-3]0\n", 1, 6, "illegal range"),
    ("0[3--5]0\n", 1, 5, "illegal range"),
    ("0[3-2]0\n", 1, 5, "decreasing range"),
    ("0000\n", 1, 4, "missing space"),
    ("[]00\n", 1, 1, "box has no cells"),
    ("000\n!*A 000\n", 2, 1, "unknown multiplicity"),
    ("000\n0*A 000\n", 2, 1, "at least 1"),
    ("000\nA|B 000\n", 2, 2, "illegal character '|'"),
    ("000\nA:B 000\n", 2, 2, "illegal character ':'"),
    ("000\n2*A*B 000\n", 2, 4, "illegal character '*'"),
    ("000\n 000\n", 2, 1, "missing or longer"),
    ("000\nABCDEFGHI 000\n", 2, 1, "missing or longer"),
    ("[01]00\n100 000\n", 2, 1, "is a cell of the box"),
    ("000\n2*A 000\n3*A 000\n", 3, 1, "inconsistent multiplicities"),
    ("000\nA 00\n", 2, 5, "incomplete cell"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), ERRORS)
def test_every_error_names_line_and_column(text, line, column, message):
    with pytest.raises(ParseError) as caught:
        parse_spec(text, "puzzle.pcube")
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert message in error.message
    assert str(error).startswith(f"puzzle.pcube:{line}:{column}: ")


coordinates = st.tuples(*(st.integers(0, 61),) * 3)
shapes = st.lists(coordinates, min_size=1, max_size=5, unique=True).map(lambda c: tuple(sorted(c)))
names = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz_#", min_size=1, max_size=8).filter(
    lambda n: len(n) != 3
)


@given(
    box=st.lists(coordinates, min_size=1, max_size=20, unique=True),
    pieces=st.dictionaries(
        names, st.tuples(st.integers(1, 61), st.lists(shapes, min_size=1, max_size=3)), max_size=4
    ),
)
def test_format_and_parse_round_trip(box, pieces):
    spec = Spec(
        tuple(sorted(box)),
        tuple(PieceSpec(n, m, tuple(s)) for n, (m, s) in pieces.items()),
    )
    text = format_spec(spec)
    assert parse_spec(text) == spec
    assert format_spec(parse_spec(text)) == text


def test_cell_names_use_radix_62():
    assert cell_name((0, 10, 61)) == "0aZ" and DIGITS[36] == "A"

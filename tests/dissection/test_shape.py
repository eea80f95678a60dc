"""The .dots format: cells, round trips and every error with its position."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.dissection.shape import (
    MAX_SIDE,
    Shape,
    format_shape,
    parse_region,
    parse_shape,
    square,
)
from slidelab.errors import ParseError
from tests.dissection.figures import TOY


def test_the_seeds_shape():
    shape = parse_shape(TOY)
    assert shape.cells == ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 3), (2, 1), (2, 2), (2, 3))
    assert (len(shape), shape.rows, shape.columns, shape.side) == (9, 3, 4, 3)


def test_short_lines_blank_rows_and_trailing_blanks():
    shape = parse_shape("\n.*  \n**\n\n*\r\n")
    assert shape.cells == ((1, 1), (2, 0), (2, 1), (4, 0))
    assert format_shape(shape) == "..\n.*\n**\n..\n*.\n"


def test_square():
    assert square(2) == Shape(((0, 0), (0, 1), (1, 0), (1, 1)))
    assert square(3).side == 3


@given(st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1))
def test_format_then_parse_gives_the_shape_back(cells):
    shape = Shape(tuple(cells))
    text = format_shape(shape)
    assert parse_region(text) == shape
    assert format_shape(parse_region(text)) == text


ERRORS = [
    ("**\n*x\n", None, "s.dots:2:2: unexpected character 'x' (use '.' and '*')"),
    ("*.\t*\n", None, "s.dots:1:3: unexpected character '\\t' (use '.' and '*')"),
    (" **\n", None, "s.dots:1:1: unexpected character ' ' (use '.' and '*')"),
    ("...\n\n", None, "s.dots:1:1: the shape has no cells ('*')"),
    ("", None, "s.dots:1:1: the shape has no cells ('*')"),
    ("***\n**\n", None, "s.dots:1:1: the shape has 5 cells, which is not a perfect square"),
    ("****\n", 5, "s.dots:1:1: the shape has 4 cells but the source shape has 5"),
    ("." * MAX_SIDE + "*\n", None, "s.dots:1:65: a shape must fit in 64 rows and 64 columns"),
    ("\n" * MAX_SIDE + "*\n", None, "s.dots:65:1: a shape must fit in 64 rows and 64 columns"),
]


@pytest.mark.parametrize(("text", "cells", "message"), ERRORS)
def test_every_error_names_the_file_line_and_column(text, cells, message):
    with pytest.raises(ParseError) as caught:
        parse_shape(text, "s.dots", cells)
    assert str(caught.value) == message


def test_a_source_shape_needs_no_square_count():
    assert len(parse_region("***\n", "from.dots")) == 3
    assert len(parse_shape("***\n", "to.dots", cells=3)) == 3

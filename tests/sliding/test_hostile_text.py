"""Sliding-block files that used to end in a traceback: blanks in names, huge numbers."""

from __future__ import annotations

import pytest

from slidelab.errors import ParseError
from slidelab.sliding.textformat import parse_puzzle, read_puzzle_file


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("2 x 2\n1 2 = 1\n1\n1\n", "2:1", "bad piece name '1 2': use 1-9 or a-f"),
        (" x 2\n", "1:1", "expected the board size as 'ROWS x COLUMNS'"),
        (f"{'9' * 5000} x 2\n1 = 1\n1\n1\n", "1:1", "the board may have at most 4096 cells"),
        (f"2 x {'9' * 5000}\n1 = 1\n1\n1\n", "1:1", "the board may have at most 4096 cells"),
        (f"0 x {'9' * 5000}\n", "1:1", "the board needs at least one row and one column"),
        ("\u0663 x 3\n1 = 1\n1\n1\n", "1:1", "expected the board size as 'ROWS x COLUMNS'"),
    ],
)
def test_bad_lines_get_messages(text, where, message):
    with pytest.raises(ParseError) as caught:
        parse_puzzle(text, "p.slide")
    assert str(caught.value) == f"p.slide:{where}: {message}"


def test_invalid_utf8_is_reported_where_it_is(tmp_path):
    path = tmp_path / "p.slide"
    path.write_bytes(b"2 x 2 caf\xc3\xa9\n1 = 1\n1\n0\xff1\n")
    with pytest.raises(ParseError) as caught:
        read_puzzle_file(str(path))
    assert str(caught.value) == f"{path}:4:2: invalid UTF-8 (byte 0xff)"

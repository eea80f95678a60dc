"""Pieces kept to one axis (the `h` / `v` suffix of a piece line), counted by hand.

The random puzzles of `test_reference_agreement` mix such pieces in; these
small boards have figures worked out on paper, in the fast search and the
reference alike, so a rule applied the wrong way round cannot agree with itself.
"""

from __future__ import annotations

import pytest

from slidelab.runs import drive
from slidelab.sliding.reference import reference_layers
from slidelab.sliding.search import analyze
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle

# a 1 x 3 row: piece 1 at the left, piece 2 beside it, one empty cell
ROW = "1 x 3 row\n1 = 1{axis}\n2 = 1\n120\n120\n"


def reachable(text: str, style: MoveStyle) -> tuple[int, int]:
    """How many configurations the fast search and the reference reach from the start."""
    puzzle = parse_puzzle(text)
    fast = drive(analyze(puzzle, style, jobs=1)).reachable
    return fast, sum(reference_layers(puzzle, style))


@pytest.mark.parametrize("style", MoveStyle.ALL)
def test_a_vertical_piece_in_one_row_never_moves(style: MoveStyle) -> None:
    # only piece 2 moves: 12. and 1.2
    assert reachable(ROW.format(axis=" v"), style) == (2, 2)


@pytest.mark.parametrize("style", MoveStyle.ALL)
def test_a_horizontal_piece_in_one_row_moves_as_a_free_one(style: MoveStyle) -> None:
    # single pieces: 12., 1.2, .12; superpieces add nothing new on this row
    assert reachable(ROW.format(axis=" h"), style) == (3, 3)
    assert reachable(ROW.format(axis=""), style) == (3, 3)


@pytest.mark.parametrize("style", MoveStyle.ALL)
def test_a_piece_on_its_axis_carries_no_neighbour_across_it(style: MoveStyle) -> None:
    # a 2 x 2 board: 1 (vertical only) above 2 (free), the right column empty.
    # Piece 2 goes right and back, and up once 1 has gone down; 1 moves only when
    # 2 has left the cell below it.  The pair {1, 2} may never move right together.
    text = "2 x 2 column\n1 = 1 v\n2 = 1\n1020\n1020\n"
    # 1 at the top: 2 in any of the other three cells; 1 at the bottom: the same.
    assert reachable(text, style) == (6, 6)

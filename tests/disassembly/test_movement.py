"""Room to slide between two pieces, checked cell by cell."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.disassembly.kernels import FREE, free
from slidelab.disassembly.model import DIRECTIONS, Assembly, Piece
from slidelab.disassembly.movement import MOST_PIECES, AssemblyTooLargeError, build_lines
from slidelab.disassembly.search import disassemble

cells = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 2))
pieces = st.sets(cells, min_size=1, max_size=6)
offsets = st.tuples(st.integers(-5, 5), st.integers(-5, 5), st.integers(-5, 5))


def slid_until_met(mover: set, still: set, step: tuple[int, int, int]) -> int:
    """Cells `mover` slides along `step` before it overlaps `still`; FREE if it never does
    (it is past `still` once it has slid farther than both extents together)."""
    for k in range(1, 30):
        shifted = {(x + step[0] * k, y + step[1] * k, z + step[2] * k) for x, y, z in mover}
        if shifted & still:
            return k - 1
    return FREE


@settings(max_examples=300, deadline=None)
@given(pieces, pieces, offsets, st.integers(0, 5))
def test_room_agrees_with_sliding_cell_by_cell(first, second, offset, direction):
    lines = build_lines(Assembly((Piece(tuple(sorted(first))), Piece(tuple(sorted(second))))))
    placed = {(x + offset[0], y + offset[1], z + offset[2]) for x, y, z in second}
    if placed & first:
        return  # overlapping pieces: no question the search asks
    expected = slid_until_met(first, placed, DIRECTIONS[direction])
    assert free.python(lines, 0, 1, direction, *offset) == expected
    assert free(lines, 0, 1, direction, *offset) == expected
    back = tuple(-c for c in offset)  # the first piece seen from the second, which slides
    expected = slid_until_met(placed, first, DIRECTIONS[direction ^ 1])
    assert free.python(lines, 1, 0, direction ^ 1, *back) == expected
    assert free(lines, 1, 0, direction ^ 1, *back) == expected


def test_room_of_a_cube_in_front_of_another():
    lines = build_lines(Assembly((Piece(((0, 0, 0),)), Piece(((0, 0, 0),)))))
    assert free(lines, 0, 1, 0, 3, 0, 0) == 2  # +x: two cells, then it meets
    assert free(lines, 0, 1, 1, 3, 0, 0) == FREE  # -x: it moves away
    assert free(lines, 0, 1, 0, 3, 1, 0) == FREE  # not on its line


def tube_of_cubes(count: int) -> Assembly:
    """A closed 3 x 3 tube open at its +x end holding a row of `count` cubes: only the cube at
    the open end (the last piece) can leave first."""
    wall = tuple(
        (x, y, z)
        for x in range(count + 1)
        for y in range(3)
        for z in range(3)
        if not (y == z == 1 and x >= 1)
    )
    return Assembly((Piece(wall), *(Piece(((k, 1, 1),)) for k in range(1, count + 1))))


def test_the_most_pieces_a_word_holds_come_out_in_order():
    taken = disassemble(tube_of_cubes(MOST_PIECES - 1))
    assert taken.separation is not None
    assert taken.separation.removed_pieces == (MOST_PIECES - 1,)
    assert taken.level == (1,) * (MOST_PIECES - 1)


def test_more_pieces_than_a_word_holds_are_refused_with_a_message():
    """With 66 pieces the sets of pieces would wrap around the word (the tube was said to
    leave its own cubes behind); the assembly is refused instead."""
    with pytest.raises(AssemblyTooLargeError) as error:
        disassemble(tube_of_cubes(MOST_PIECES + 1))
    assert str(error.value) == "an assembly of 66 pieces; taking apart handles at most 64"

"""Room to slide between two pieces, checked cell by cell."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.disassembly.kernels import FREE, free
from slidelab.disassembly.model import DIRECTIONS, Assembly, Piece
from slidelab.disassembly.movement import build_lines

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


def test_room_of_a_cube_in_front_of_another():
    lines = build_lines(Assembly((Piece(((0, 0, 0),)), Piece(((0, 0, 0),)))))
    assert free(lines, 0, 1, 0, 3, 0, 0) == 2  # +x: two cells, then it meets
    assert free(lines, 0, 1, 1, 3, 0, 0) == FREE  # -x: it moves away
    assert free(lines, 0, 1, 0, 3, 1, 0) == FREE  # not on its line

"""Taking assemblies apart: the search against the brute-force reference, and small cases."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.disassembly.model import Assembly, Disassembly, Piece, separations
from slidelab.disassembly.movement import AssemblyTooLargeError
from slidelab.disassembly.reference import reference_first_separation
from slidelab.disassembly.search import DisassemblyLimitError, disassemble, first_separation

BOX = [(x, y, z) for x in range(3) for y in range(3) for z in range(2)]


@st.composite
def assemblies(draw: st.DrawFn, most: int = 4) -> Assembly:
    """Two to `most` pieces cut out of a 3 x 3 x 2 box (cells may stay empty; a piece need
    not be connected: pieces are rigid sets of cells)."""
    count = draw(st.integers(2, most))
    labels = draw(st.lists(st.integers(-1, count - 1), min_size=len(BOX), max_size=len(BOX)))
    cells = [[c for c, label in zip(BOX, labels, strict=True) if label == k] for k in range(count)]
    cells = [c for c in cells if c]
    if len(cells) < 2:
        cells = [[BOX[0]], [BOX[1]]]
    return Assembly(tuple(Piece(tuple(c)) for c in cells))


def check_against_reference(assembly: Assembly, found: Disassembly, unit_steps: bool) -> None:
    """Every separation is as short as the reference's and leaves from a position the
    reference finds a set can leave from; a stuck part has no separation at all."""
    for separation in separations(found.separation):
        depth, leaving = reference_first_separation(
            assembly, separation.pieces, separation.start, unit_steps=unit_steps
        )
        assert depth == len(separation.moves)
        before = separation.places(len(separation.moves) - 1)
        anchor = before[0]
        assert (
            tuple(tuple(c - a for c, a in zip(at, anchor, strict=True)) for at in before) in leaving
        )
    if not found.separable:
        depth, _ = reference_first_separation(
            assembly, found.stuck, found.stuck_start, unit_steps=unit_steps
        )
        assert depth is None


@settings(max_examples=150, deadline=None)
@given(assemblies(), st.booleans())
def test_the_search_agrees_with_the_reference(assembly, unit_steps):
    found = disassemble(assembly, unit_steps=unit_steps)
    check_against_reference(assembly, found, unit_steps)


@settings(max_examples=60, deadline=None)
@given(assemblies())
def test_the_first_separation_is_as_deep_as_the_reference_says(assembly):
    pieces = tuple(range(len(assembly.pieces)))
    start = ((0, 0, 0),) * len(pieces)
    depth, _ = reference_first_separation(assembly, pieces, start)
    found = first_separation(assembly, pieces, start)
    assert (None if found is None else len(found[0])) == depth


def cubes(*cells: tuple[int, int, int]) -> Piece:
    return Piece(tuple(cells))


def test_two_cubes_side_by_side_come_apart_in_one_move():
    found = disassemble(Assembly((cubes((0, 0, 0)), cubes((1, 0, 0)))))
    assert found.separable and found.level == (1,) and found.first_separation == 1
    (move,) = found.separation.moves
    assert move.distance is None and move.pieces == (1,)  # the first piece stays


CAGE = tuple(
    (x, y, z) for x in range(3) for y in range(3) for z in range(3) if (x, y, z) != (1, 1, 1)
)


def test_a_cube_shut_in_a_cage_is_stuck():
    found = disassemble(Assembly((Piece(CAGE), cubes((1, 1, 1)))))
    assert not found.separable
    assert found.stuck == (0, 1) and found.first_separation is None and found.level == ()


def test_pieces_of_one_group_may_stay_together():
    grouped = frozenset({1})
    caged = Assembly((Piece(CAGE, groups=grouped), Piece(((1, 1, 1),), groups=grouped),
                      cubes((5, 5, 5))))  # fmt: skip
    found = disassemble(caged)
    assert found.separable and found.level == (1,)
    assert found.separation.removed is None and found.separation.left is None


def test_the_heavier_piece_stays():
    light, heavy = cubes((0, 0, 0)), Piece(((1, 0, 0),), weight=2)
    found = disassemble(Assembly((light, heavy)))
    assert found.separation.removed_pieces == (0,)


CHANNEL = {(1, 1, 0), (2, 1, 0), (3, 1, 0), (3, 2, 0), (3, 3, 0), (3, 4, 0)}
"""An L-shaped tunnel through a 5 x 5 x 3 block, open at its far end only."""
BLOCK = Piece(tuple(
    (x, y, z) for x in range(5) for y in range(5) for z in (-1, 0, 1) if (x, y, z) not in CHANNEL
))  # fmt: skip


def test_a_cube_follows_a_bent_tunnel_out():
    found = disassemble(Assembly((BLOCK, cubes((1, 1, 0)))))
    assert found.level == (2,)
    first, last = found.separation.moves
    assert (first.pieces, first.direction, first.distance) == ((1,), 0, 2)  # +x, two cells
    assert (last.pieces, last.direction, last.distance) == ((1,), 2, None)  # out along +y
    assert disassemble(Assembly((BLOCK, cubes((1, 1, 0)))), unit_steps=True).level == (3,)


def test_a_limit_on_positions_is_a_clear_error():
    try:
        disassemble(Assembly((BLOCK, cubes((1, 1, 0)))), max_states=2)
    except DisassemblyLimitError as error:
        assert str(error) == "taking apart 2 pieces needs more than 2 positions"
    else:
        raise AssertionError("no limit error")


def test_cells_too_far_apart_for_the_packed_offsets_are_refused_with_a_message():
    far = Assembly((cubes((0, 0, 0)), cubes((9000, 0, 0))))
    try:
        disassemble(far)
    except AssemblyTooLargeError as error:
        assert str(error) == "a cell lies 9,000 cells from the origin; the most is 8,191"
    else:
        raise AssertionError("no error")

"""Taking assemblies apart: the search against the brute-force reference, and small cases."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.disassembly.model import Assembly, Disassembly, Piece, separations
from slidelab.disassembly.movement import AssemblyTooLargeError
from slidelab.disassembly.reference import (
    reference_first_separation,
    reference_next_places,
    reference_separation,
)
from slidelab.disassembly.search import (
    START_MASKS,
    DisassemblyLimitError,
    disassemble,
    first_separation,
    next_places,
)

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
    """Every separation is as short as the reference's, and is the one BurrTools' order takes:
    the same position before each move and the same part leaving the same way; a stuck part
    has no separation at all."""
    for separation in separations(found.separation):
        depth, leaving = reference_first_separation(
            assembly, separation.pieces, separation.start, unit_steps=unit_steps
        )
        assert depth == len(separation.moves)
        chosen = reference_separation(
            assembly, separation.pieces, separation.start, unit_steps=unit_steps
        )
        assert chosen is not None
        path = [separation.places(k) for k in range(len(separation.moves))]
        assert [normal(at) for at in path] == [normal(at) for at in chosen.path]
        assert normal(path[-1]) in leaving
        last = separation.moves[-1]
        assert last.pieces == separation.removed_pieces
        assert last.pieces == tuple(separation.pieces[i] for i in chosen.leaving)
        assert last.direction == chosen.direction
    if not found.separable:
        depth, _ = reference_first_separation(
            assembly, found.stuck, found.stuck_start, unit_steps=unit_steps
        )
        assert depth is None
        assert (
            reference_separation(assembly, found.stuck, found.stuck_start, unit_steps=unit_steps)
            is None
        )


def normal(places: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int, int], ...]:
    """Places seen from the first piece (the whole part shifted makes no other position)."""
    ax, ay, az = places[0]
    return tuple((x - ax, y - ay, z - az) for x, y, z in places)


@settings(max_examples=150, deadline=None)
@given(assemblies(), st.booleans())
def test_the_search_agrees_with_the_reference(assembly, unit_steps):
    found = disassemble(assembly, unit_steps=unit_steps)
    check_against_reference(assembly, found, unit_steps)


@settings(max_examples=60, deadline=None)
@given(assemblies(most=6), st.booleans())
def test_with_up_to_six_pieces_too(assembly, unit_steps):
    """Five or six pieces: groups of up to three leave, unions of moves reach five."""
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


@st.composite
def caged(draw: st.DrawFn) -> Assembly:
    """A closed cage around the 3 x 3 x 2 box (the first piece) and two to five loose pieces
    in it, each one cell or two side by side, leaving cells empty: nothing leaves and the
    pieces make many moves."""
    shell = [(x, y, z) for x in range(-1, 4) for y in range(-1, 4) for z in range(-1, 3)]
    pieces = [Piece(tuple(c for c in shell if c not in BOX))]
    free = set(BOX)
    for _ in range(draw(st.integers(2, 5))):
        cell = draw(st.sampled_from(sorted(free)))
        step = draw(st.sampled_from([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]))
        other = (cell[0] + step[0], cell[1] + step[1], cell[2] + step[2])
        cells = {cell, other} if other in free else {cell}
        free -= cells
        pieces.append(Piece(tuple(sorted(cells))))
    return Assembly(tuple(pieces))


@settings(max_examples=100, deadline=None)
@given(caged(), st.booleans())
def test_the_moves_from_a_position_come_in_burrtools_order(assembly, unit_steps):
    """The search meets the positions one move away in the reference's order (BurrTools'
    moves and, after each, its unions with the earlier moves of its direction), each once."""
    pieces = tuple(range(len(assembly.pieces)))
    start = ((0, 0, 0),) * len(pieces)
    found = next_places(assembly, start, unit_steps=unit_steps)
    assert found is not None
    assert found == reference_next_places(assembly, pieces, start, unit_steps=unit_steps)


def test_more_moves_in_a_direction_than_the_first_room_holds_come_in_order_too():
    """Four rows of four cubes in a closed tray with one free column: in +x each row offers
    four moves (its last one to four cubes), so their unions are 5 ** 4 - 1 = 624 moves in
    that direction, more than `START_MASKS`: the search grows its room and meets them in the
    reference's order."""
    inside = [(x, y, 0) for x in range(5) for y in range(4)]
    shell = [(x, y, z) for x in range(-1, 6) for y in range(-1, 5) for z in range(-1, 2)]
    tray = Piece(tuple(c for c in shell if c not in inside))
    tray_of_cubes = Assembly((tray, *(cubes(c) for c in inside if c[0] < 4)))
    pieces = tuple(range(len(tray_of_cubes.pieces)))
    start = ((0, 0, 0),) * len(pieces)
    found = next_places(tray_of_cubes, start)
    assert found is not None and len(found) > START_MASKS
    assert found == reference_next_places(tray_of_cubes, pieces, start)


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

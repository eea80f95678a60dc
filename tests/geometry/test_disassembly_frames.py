"""Frames of a disassembly playing: the order of the moves, and every whole-time frame a legal
position (no two shown pieces overlap), on BurrTools' examples and hypothesis assemblies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.burrtools.stored import stored_assembly, stored_separation
from slidelab.disassembly.model import Assembly, Disassembly, Piece, separations
from slidelab.disassembly.search import disassemble
from slidelab.geometry.disassembly_frames import DisassemblyPlay
from tests.burrtools.conftest import EXAMPLES
from tests.disassembly.test_search import CAGE, assemblies

EXAMPLE_FILES = [
    "CubeInCage.xmpuzzle",
    "DraculasDentalDesaster.xmpuzzle",
    "PelikanBurr.xmpuzzle",
]
"""The examples whose stored disassembly records its moves (SolidSixPieceBurrs keeps only
its levels)."""


def check_legal(play: DisassemblyPlay) -> None:
    """At every whole time the shown pieces overlap nowhere; at the end the pieces that left
    are hidden and the others shown; mid-move only the moving pieces change place."""
    pieces = play.assembly.pieces
    for time in range(play.count + 1):
        frame = play.frame(time)
        assert not frame.moving
        filled: set[tuple[float, float, float]] = set()
        for k, piece in enumerate(pieces):
            if k in frame.hidden:
                continue
            cells = {
                tuple(c + o for c, o in zip(cell, frame.offsets[k], strict=True))
                for cell in piece.cells
            }
            assert not filled & cells, f"pieces overlap at time {time}"
            filled |= cells
        if time < play.count:
            half = play.frame(time + 0.5)
            moved = {k for k in range(len(pieces)) if half.offsets[k] != frame.offsets[k]}
            assert moved == set(play.moves[time].move.pieces) == half.moving
            assert half.hidden == frame.hidden
    left = {p for s in separations(play.disassembly.separation) for p in s.removed_pieces}
    assert play.frame(play.count).hidden == left


def example_trees():
    """BurrTools' stored disassemblies of the examples (assembly, tree)."""
    if not EXAMPLES.is_dir():
        pytest.skip(f"BurrTools examples not found at {EXAMPLES}")
    found = []
    for name in EXAMPLE_FILES:
        path = str(EXAMPLES / name)
        puzzle = read_xmpuzzle(path)
        for solution in puzzle.problems[0].stored:
            if solution.disassembly is None:
                continue
            stored = stored_assembly(puzzle, 0, solution, path)
            tree = stored_separation(stored, solution.disassembly)
            if tree is not None:
                found.append((name, stored.assembly, tree))
    return found


def test_burrtools_stored_disassemblies_play_legally():
    trees = example_trees()
    assert [name for name, _, _ in trees] == EXAMPLE_FILES
    for _, assembly, tree in trees:
        play = DisassemblyPlay(assembly, Disassembly(tree))
        assert play.count == sum(tree.level)
        check_legal(play)


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_the_searchs_own_disassemblies_of_the_examples_play_legally(name):
    (_, assembly, _), *_ = [t for t in example_trees() if t[0] == name]
    found = disassemble(assembly)
    play = DisassemblyPlay(assembly, found)
    assert found.separable and play.count == sum(found.level)
    check_legal(play)


def test_cube_in_cage_plays_4_9_3_and_the_caged_pieces_stay():
    (_, assembly, _), *_ = [t for t in example_trees() if t[0] == "CubeInCage.xmpuzzle"]
    play = DisassemblyPlay(assembly, disassemble(assembly))
    assert play.count == 16 and play.separations == 3
    assert play.counter(0) == "move 0 of 16"
    assert play.counter(0.5) == "move 1 of 16 (separation 1)"
    assert play.counter(4) == "move 4 of 16 (separation 1)"
    assert play.counter(4.2) == "move 5 of 16 (separation 2)"
    assert play.counter(16) == "move 16 of 16 (separation 3)"
    caged = {k for k, piece in enumerate(assembly.pieces) if piece.groups}
    assert len(caged) == 3
    assert play.frame(16).hidden == set(range(6)) - caged
    # the leaving piece flies away along its direction before it is gone
    leaving = play.moves[3].move
    assert leaving.distance is None
    (piece,) = leaving.pieces
    before, during = play.frame(3).offsets[piece], play.frame(3.9).offsets[piece]
    assert max(abs(a - b) for a, b in zip(before, during, strict=True)) > 2 * 3
    assert piece in play.frame(4).hidden and piece not in play.frame(3.9).hidden


@settings(max_examples=100, deadline=None)
@given(assemblies(), st.booleans())
def test_hypothesis_disassemblies_play_legally(assembly, unit_steps):
    found = disassemble(assembly, unit_steps=unit_steps)
    play = DisassemblyPlay(assembly, found)
    if not found.separable:
        assert play.count == 0 and play.verdict.startswith("does not come apart: ")
        assert play.frame(0).hidden == frozenset()
        return
    assert play.count == sum(found.level) and play.verdict == ""
    check_legal(play)


def test_a_stuck_assembly_says_how_many_pieces_stay_stuck():
    inside = Piece(((1, 1, 1),))
    found = disassemble(Assembly((Piece(CAGE), inside)))
    assert not found.separable
    play = DisassemblyPlay(Assembly((Piece(CAGE), inside)), found)
    assert play.verdict == "does not come apart: 2 pieces stay stuck"
    assert play.count == 0 and play.counter(0) == "move 0 of 0"


def test_a_removed_part_that_comes_apart_is_shown_alone_in_its_turn():
    """A cube and an L-piece in a frame's hole leave it together (one part), then come apart
    themselves: meanwhile the frame, which stayed, is hidden; at the end it alone shows."""
    hole = {(1, 1, 0), (2, 1, 0)}
    frame = tuple((x, y, 0) for x in range(4) for y in range(3) if (x, y, 0) not in hole)
    assembly = Assembly(
        (
            Piece(frame, weight=5),
            Piece(((1, 1, 0),)),
            Piece(((2, 1, 0), (2, 1, 1), (1, 1, 1))),
        )
    )
    found = disassemble(assembly)
    tree = found.separation
    assert tree is not None and tree.removed is not None and tree.removed_pieces == (1, 2)
    play = DisassemblyPlay(assembly, found)
    check_legal(play)
    first = len(tree.moves)
    assert play.frame(first).hidden == {0}
    assert play.frame(play.count).hidden == {1, 2}

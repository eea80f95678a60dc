"""A flat assembly in a closed frame moves as the matching sliding-block puzzle does.

The board's open cells become a tunnel through a solid frame (the frame is the
piece held still); the pieces' cells lie in it.  One disassembly move is then
exactly one move of the sliding family's superpiece styles: one cell (style 3)
or a straight slide (style 4), by the sliding family's own reference; and the
search meets those positions in BurrTools' order, by the disassembly reference
(several pieces free to slide one way give many unions of moves).
"""

from __future__ import annotations

from hypothesis import assume, given

from slidelab.disassembly.model import Assembly, Piece, Vector
from slidelab.disassembly.reference import reference_next_places
from slidelab.disassembly.search import next_places
from slidelab.sliding.model import Axis, Configuration, Puzzle
from slidelab.sliding.reference import successors
from slidelab.sliding.styles import MoveStyle
from tests.sliding.test_reference_agreement import RANDOM_PUZZLES, puzzles

Layout = tuple[tuple[Vector, ...], ...]
"""The pieces' cells, each piece's sorted, the pieces sorted: identical pieces interchange."""


def cells_of(puzzle: Puzzle, config: Configuration) -> list[tuple[Vector, ...]]:
    return [
        tuple(sorted((c, r, 0) for r, c in puzzle.kind(p.kind).cells_at((p.row, p.col))))
        for p in config.placements
    ]


def flat_assembly(puzzle: Puzzle) -> Assembly:
    """The frame (every cell of a box around the board but its open cells) and the pieces."""
    open_cells = {
        (c, r, 0)
        for r in range(puzzle.rows)
        for c in range(puzzle.cols)
        if (r, c) not in puzzle.obstacles
    }
    frame = tuple(
        (x, y, z)
        for x in range(-1, puzzle.cols + 1)
        for y in range(-1, puzzle.rows + 1)
        for z in (-1, 0, 1)
        if (x, y, z) not in open_cells
    )
    return Assembly((Piece(frame), *(Piece(cells) for cells in cells_of(puzzle, puzzle.start))))


def layout(assembly: Assembly, places: tuple[Vector, ...]) -> Layout:
    return tuple(
        sorted(
            tuple(sorted((x + dx, y + dy, z + dz) for x, y, z in piece.cells))
            for piece, (dx, dy, dz) in zip(assembly.pieces[1:], places[1:], strict=True)
        )
    )


@RANDOM_PUZZLES
@given(puzzles())
def test_a_flat_assembly_moves_as_the_sliding_puzzle(puzzle):
    assume(all(kind.axis is Axis.ANY for kind in puzzle.kinds) and puzzle.start.placements)
    assembly = flat_assembly(puzzle)
    start = ((0, 0, 0),) * len(assembly.pieces)
    for number, unit_steps in ((3, True), (4, False)):
        after = next_places(assembly, start, unit_steps=unit_steps)
        assert after is not None  # the frame is closed: nothing leaves
        moved = successors(puzzle, puzzle.start, MoveStyle.from_number(number))
        expected = {tuple(sorted(cells_of(puzzle, config))) for config in moved}
        assert {layout(assembly, places) for places in after} == expected
        pieces = tuple(range(len(assembly.pieces)))
        assert after == reference_next_places(assembly, pieces, start, unit_steps=unit_steps)

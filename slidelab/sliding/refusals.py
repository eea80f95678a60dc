"""Why a dragged piece (or group) cannot go where it was dropped, in words a player can act on.

Play mode accepts a drop only when it gives one of the configurations one move away
(the kernels' `successors`); this module only explains the refusals, checking the
rules of the move style in the order a player meets them: how many pieces move, the
axis a kind keeps to, the board's edge, what stands on the destination, how far one
move goes and what stands on the way.
"""

from __future__ import annotations

from collections.abc import Sequence

from slidelab.sliding.draft import cell_name
from slidelab.sliding.model import Axis, Cell, Configuration, Placement, Puzzle
from slidelab.sliding.routes import NoRouteError, shortest_route
from slidelab.sliding.styles import MoveStyle, Reach

_KEEPS = {
    Axis.HORIZONTAL: "keeps to its row (its kind moves only left and right)",
    Axis.VERTICAL: "keeps to its column (its kind moves only up and down)",
}


def why_not(
    puzzle: Puzzle,
    style: MoveStyle,
    config: Configuration,
    moving: Sequence[Placement],
    shift: Cell,
) -> str:
    """Why shifting the pieces `moving` of `config` by `shift` is not one move of `style`."""
    number = style.number
    if not style.superpieces and len(moving) > 1:
        return f"style {number} moves one piece at a time: select a single piece"
    for piece in moving:
        axis = puzzle.kind(piece.kind).axis
        if not axis.allows(shift):
            return f"piece {piece.kind} {_KEEPS[axis]}"
    cells = _cells(puzzle, moving)
    others = _owners(puzzle, [p for p in config.placements if p not in moving])
    dr, dc = shift
    for r, c in cells:
        target = (r + dr, c + dc)
        if not puzzle.on_board(target):
            return f"{_naming(moving)} would leave the board"
        blocker = _blocker(puzzle, others, target)
        if blocker:
            return f"{_naming(moving)} would land on {blocker}"
    if style.reach is Reach.STEP and abs(dr) + abs(dc) > 1:
        return f"style {number} moves one cell at a time: drop it on a neighbouring cell"
    straight = style.reach is Reach.LINE or any(
        puzzle.kind(p.kind).axis is not Axis.ANY for p in moving
    )
    if straight:
        if dr and dc:
            return f"style {number} moves in a straight line: drop it in the same row or column"
        length = abs(dr) + abs(dc)
        unit = (dr // length, dc // length)
        for k in range(1, length):
            for r, c in cells:
                blocker = _blocker(puzzle, others, (r + k * unit[0], c + k * unit[1]))
                if blocker:
                    return f"the way is blocked by {blocker}"
    else:
        blocked = frozenset(puzzle.obstacles) | frozenset(others)
        try:
            shortest_route(puzzle.rows, puzzle.cols, frozenset(cells), blocked, shift)
        except NoRouteError:
            return f"no free path takes {_naming(moving)} there: other pieces are in the way"
    return f"that is not one move of style {number}"


def shifted(config: Configuration, moving: Sequence[Placement], shift: Cell) -> Configuration:
    """`config` with the pieces `moving` shifted by `shift` (wherever that puts them)."""
    chosen = list(moving)
    rest = list(config.placements)
    for piece in chosen:
        rest.remove(piece)
    dr, dc = shift
    return Configuration.of(rest + [Placement(p.kind, p.row + dr, p.col + dc) for p in chosen])


def _cells(puzzle: Puzzle, pieces: Sequence[Placement]) -> list[Cell]:
    return [cell for p in pieces for cell in puzzle.kind(p.kind).cells_at(p.anchor)]


def _owners(puzzle: Puzzle, pieces: Sequence[Placement]) -> dict[Cell, Placement]:
    return {cell: p for p in pieces for cell in puzzle.kind(p.kind).cells_at(p.anchor)}


def _blocker(puzzle: Puzzle, others: dict[Cell, Placement], cell: Cell) -> str | None:
    """What stands on `cell`, named, or None when it is free."""
    if cell in puzzle.obstacles:
        return f"an obstacle at {cell_name(cell)}"
    if cell in others:
        return f"piece {others[cell].kind} at {cell_name(cell)}"
    return None


def _naming(pieces: Sequence[Placement]) -> str:
    if len(pieces) == 1:
        return f"piece {pieces[0].kind}"
    return "the pieces " + "+".join(sorted(p.kind for p in pieces))

"""Plain-text pictures of configurations, and names of moves that people read.

Cells of one piece are joined by `-` (across) and `|` (down), as in Knuth's
program, so pieces of the same kind standing side by side stay distinguishable;
the lines of `|` are left out when no piece spans two rows.
"""

from __future__ import annotations

from slidelab.sliding.model import Cell, Configuration, Placement, Puzzle
from slidelab.sliding.routes import move_route

EMPTY = "."
OBSTACLE = "x"


def render_board(puzzle: Puzzle, placements: tuple[Placement, ...], indent: str = "") -> str:
    """The board with each cell's kind name, `.` for empty and `x` for obstacles."""
    owner = puzzle.occupancy(placements)

    def label(cell: Cell) -> str:
        if cell in owner:
            return placements[owner[cell]].kind
        return OBSTACLE if cell in puzzle.obstacles else EMPTY

    def joined(a: Cell, b: Cell) -> bool:
        return a in owner and owner.get(b) == owner[a]

    tall = any(
        joined((r, c), (r + 1, c)) for r in range(puzzle.rows - 1) for c in range(puzzle.cols)
    )
    lines = []
    for r in range(puzzle.rows):
        row = ""
        for c in range(puzzle.cols):
            row += label((r, c))
            if c + 1 < puzzle.cols:
                row += "-" if joined((r, c), (r, c + 1)) else " "
        lines.append(indent + row)
        if tall and r + 1 < puzzle.rows:
            links = " ".join("|" if joined((r, c), (r + 1, c)) else " " for c in range(puzzle.cols))
            lines.append((indent + links).rstrip())
    return "\n".join(lines)


def describe_move(puzzle: Puzzle, before: Configuration, after: Configuration) -> str:
    """The move from `before` to `after` as people say it: the piece (or the pieces of a
    superpiece, joined by `+`), then each straight leg of its route with its length, e.g.
    `3 right 1`, `1 down 2, then left 1`, `3+5 up 1`."""
    route = move_route(puzzle, before, after)
    if not route.pairs:
        return "no move"
    pieces = "+".join(source.kind for source, _ in route.pairs)
    legs = ", then ".join(f"{direction} {cells}" for direction, cells in route.legs())
    return f"{pieces} {legs}"

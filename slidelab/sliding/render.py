"""Plain-text pictures of configurations and move descriptions, for the command line.

Cells of one piece are joined by `-` (across) and `|` (down), as in Knuth's
program, so pieces of the same kind standing side by side stay distinguishable;
the lines of `|` are left out when no piece spans two rows.
"""

from __future__ import annotations

from slidelab.sliding.model import Cell, Configuration, Placement, Puzzle

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


def describe_move(before: Configuration, after: Configuration) -> str:
    """Which pieces left which cells for which, e.g. `3 (4,0)->(1,3)`."""
    left = sorted(set(before.placements) - set(after.placements))
    arrived = sorted(set(after.placements) - set(before.placements))
    parts = []
    for kind in sorted({p.kind for p in left}):
        sources = [p for p in left if p.kind == kind]
        targets = [p for p in arrived if p.kind == kind]
        for source, target in zip(sources, targets, strict=False):
            parts.append(f"{kind} ({source.row},{source.col})->({target.row},{target.col})")
    return ", ".join(parts)

"""The seed's layer notation for packings: parse and format.

One text line per row (y); on each line one group per layer (x), groups separated
by a tab or by two or more spaces; in a group one token per cell (z), separated by
single spaces.  A token is "." for an empty cell or a brick's label; Knuth labels
bricks 1-9, then A, B, C, ...  Lines starting with "#" are comments.

    1 1 .  5 4 4  5 4 4
    1 1 2  5 . 2  5 6 6
    3 3 2  3 3 2  . 6 6
"""

from __future__ import annotations

import re
import string

from slidelab.antislide.model import Box, Placement, orientations
from slidelab.errors import ParseError
from slidelab.integers import DIGITS

LABELS = string.digits[1:] + string.ascii_uppercase + string.ascii_lowercase
_GROUP = re.compile(r"[^\t]+?(?=\t| {2,}|$)")
_TOKEN = re.compile(r"\S+")
_NUMBER = re.compile(DIGITS)
"""A label past the 61 letters and digits: brick 62 on (`label`), ASCII digits only."""


def label(n: int) -> str:
    """The label of brick n (counting from 0): 1-9, A-Z, a-z, then decimal numbers."""
    return LABELS[n] if n < len(LABELS) else str(n + 1)


def format_packing(box: Box, bricks: tuple[Placement, ...] | list[Placement]) -> str:
    """The packing in layer notation, bricks labelled in the order given."""
    grid = ["."] * box.cell_count
    for n, brick in enumerate(bricks):
        for cell in brick.cells(box):
            grid[cell] = label(n)
    lines = []
    for j in range(box.dims[1]):
        groups = [
            " ".join(grid[box.index(i, j, k)] for k in range(box.dims[2]))
            for i in range(box.dims[0])
        ]
        lines.append("  ".join(groups))
    return "\n".join(lines)


def parse_packing(
    text: str, brick: tuple[int, int, int], source: str = "<string>"
) -> tuple[Box, dict[str, Placement]]:
    """Read a packing of `brick`s, labels to bricks; the box's size is read from the layout."""
    rows: list[tuple[int, list[list[tuple[int, str]]]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        groups = []
        for group in _GROUP.finditer(line):
            if not group.group().strip():
                continue
            tokens = [
                (group.start() + t.start() + 1, t.group()) for t in _TOKEN.finditer(group.group())
            ]
            groups.append(tokens)
        rows.append((number, groups))
    if not rows:
        raise ParseError(source, 1, 1, "no packing found")
    first_line, first = rows[0]
    layers, width = len(first), len(first[0])
    cells: dict[str, list[tuple[int, int, int]]] = {}
    where: dict[str, tuple[int, int]] = {}
    for j, (number, groups) in enumerate(rows):
        if len(groups) != layers:
            raise ParseError(
                source,
                number,
                1,
                f"expected {layers} layers, as on line {first_line}, not {len(groups)}",
            )
        for i, tokens in enumerate(groups):
            if len(tokens) != width:
                raise ParseError(
                    source,
                    number,
                    tokens[0][0],
                    f"expected {width} cells in each layer, not {len(tokens)}",
                )
            for k, (column, token) in enumerate(tokens):
                if token != ".":
                    if token not in LABELS and not _NUMBER.fullmatch(token):
                        raise ParseError(
                            source,
                            number,
                            column,
                            f"unexpected {token!r}: a cell is '.' or a brick's label "
                            "(1-9, A-Z, a-z, then numbers)",
                        )
                    cells.setdefault(token, []).append((i, j, k))
                    where.setdefault(token, (number, column))
    box = Box((layers, len(rows), width))
    allowed = orientations(brick)
    bricks = {}
    for token, points in cells.items():
        low = tuple(min(p[a] for p in points) for a in range(3))
        size = tuple(max(p[a] for p in points) - low[a] + 1 for a in range(3))
        if size not in allowed or len(points) != size[0] * size[1] * size[2]:
            shape = "x".join(map(str, brick))
            raise ParseError(source, *where[token], f"brick {token} is not a {shape} block")
        bricks[token] = Placement(low, size)  # type: ignore[arg-type]
    return box, bricks

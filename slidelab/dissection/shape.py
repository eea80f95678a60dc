"""The `.dots` format of Knuth's BACK-DISSECT: a shape drawn with '.' and '*'.

    ****        each line is a row; '*' marks a cell of the shape,
    *..*        '.' a cell that is not in it
    .***

Rows and columns count from 0 at the top left.  Trailing blanks are ignored and a
line may be shorter than the others; an empty line is a row without cells.  A
target shape must have n^2 cells for some n (it is cut from an n x n square),
unless the pieces come from another source shape with as many cells.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from slidelab.errors import ParseError

Cell = tuple[int, int]
"""(row, column)."""

MAX_SIDE = 64
"""Rows and columns a shape may span (Knuth's program allows 32)."""


@dataclass(frozen=True)
class Shape:
    """A set of grid cells, in reading order."""

    cells: tuple[Cell, ...]
    """Sorted (row, column) pairs, each once."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(set(self.cells))))

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def rows(self) -> int:
        """Rows from row 0 to the last row with a cell."""
        return 1 + max((r for r, _ in self.cells), default=-1)

    @property
    def columns(self) -> int:
        """Columns from column 0 to the last column with a cell."""
        return 1 + max((c for _, c in self.cells), default=-1)

    @property
    def side(self) -> int | None:
        """n when the shape has n^2 cells, else None."""
        root = math.isqrt(len(self.cells))
        return root if root * root == len(self.cells) and root > 0 else None


def square(n: int) -> Shape:
    """The n x n square with its top left cell at (0, 0)."""
    return Shape(tuple((r, c) for r in range(n) for c in range(n)))


def parse_region(text: str, source: str = "<input>") -> Shape:
    """Any non-empty shape in `.dots` form; errors are `ParseError`s naming `source`."""
    cells: list[Cell] = []
    for row, line in enumerate(text.splitlines()):
        for column, char in enumerate(line.rstrip()):
            if char not in ".*":
                raise ParseError(
                    source, row + 1, column + 1, f"unexpected character {char!r} (use '.' and '*')"
                )
            if char == "*":
                if row >= MAX_SIDE or column >= MAX_SIDE:
                    raise ParseError(
                        source,
                        row + 1,
                        column + 1,
                        f"a shape must fit in {MAX_SIDE} rows and {MAX_SIDE} columns",
                    )
                cells.append((row, column))
    if not cells:
        raise ParseError(source, 1, 1, "the shape has no cells ('*')")
    return Shape(tuple(cells))


def parse_shape(text: str, source: str = "<input>", cells: int | None = None) -> Shape:
    """A target shape: n^2 cells for the n x n square, or exactly `cells` when given."""
    shape = parse_region(text, source)
    if cells is None and shape.side is None:
        raise ParseError(
            source, 1, 1, f"the shape has {len(shape)} cells, which is not a perfect square"
        )
    if cells is not None and len(shape) != cells:
        raise ParseError(
            source, 1, 1, f"the shape has {len(shape)} cells but the source shape has {cells}"
        )
    return shape


def format_shape(shape: Shape) -> str:
    """`shape` in `.dots` form: rows 0 to the last, each as wide as the widest, '\\n' after each."""
    present = set(shape.cells)
    return "".join(
        "".join("*" if (r, c) in present else "." for c in range(shape.columns)) + "\n"
        for r in range(shape.rows)
    )

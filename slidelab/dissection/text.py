"""The seed's report of a solution: a header, then the source and target colourings side by side.

    Solution 3, from 13~0 15~1:
    212  1222
    212  1..2
    222  .222

The header lists each colour's map as placement~orientation (see `shifts`).
Colours are printed 1-9, then a-g; cells off a shape are '.'.  `solution_text`
writes one solution; `batch_text` and `batch_bytes` write a whole batch from the
search's arrays at the speed of the seed's program.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from slidelab.dissection import kernels
from slidelab.dissection.model import Solution
from slidelab.dissection.search import SolutionsFound
from slidelab.dissection.shape import Shape

COLOUR_DIGITS = "0123456789abcdefg"
"""How colour k is printed."""

GAP = "  "
"""Between the source and the target."""


@dataclass(frozen=True, eq=False)
class Layout:
    """One solution's grid before its digits go in, and where each cell's digit goes."""

    template: np.ndarray
    """The grid's bytes: '.' off the shapes, blanks where a shape has no row, newlines."""
    source_at: np.ndarray
    """Offset of each source cell's digit in `template`."""
    target_at: np.ndarray
    """Offset of each target cell's digit in `template`."""

    @classmethod
    def of(cls, source: Shape, target: Shape) -> Layout:
        rows = max(source.rows, target.rows)
        lines = []
        for r in range(rows):
            left = "." * source.columns if r < source.rows else " " * source.columns
            lines.append(left + (GAP + "." * target.columns if r < target.rows else "") + "\n")
        starts = np.cumsum([0] + [len(line) for line in lines])
        right = source.columns + len(GAP)
        return cls(
            template=np.frombuffer("".join(lines).encode("ascii"), np.uint8).copy(),
            source_at=np.array([starts[r] + c for r, c in source.cells], np.int64),
            target_at=np.array([starts[r] + right + c for r, c in target.cells], np.int64),
        )


def colour_rows(shape: Shape, colours: tuple[int, ...] | list[int]) -> list[str]:
    """The rows of `shape` with each cell's colour digit, and '.' off the shape."""
    grid = [["."] * shape.columns for _ in range(shape.rows)]
    for (r, c), colour in zip(shape.cells, colours, strict=True):
        grid[r][c] = COLOUR_DIGITS[colour]
    return ["".join(row) for row in grid]


def solution_text(number: int, solution: Solution, source: Shape, target: Shape) -> str:
    """The report of one solution, numbered `number`."""
    layout = Layout.of(source, target)
    grid = layout.template.copy()
    for at, colour in zip(layout.source_at, solution.source_colours, strict=True):
        grid[at] = ord(COLOUR_DIGITS[colour])
    for at, colour in zip(layout.target_at, solution.target_colours, strict=True):
        grid[at] = ord(COLOUR_DIGITS[colour])
    maps = " ".join(f"{q}~{t}" for q, t in solution.maps)
    return f"Solution {number}, from {maps}:\n" + grid.tobytes().decode("ascii")


def batch_text(number: int, batch: SolutionsFound, layout: Layout) -> str:
    """The reports of a batch of solutions, numbered from `number`."""
    return batch_bytes(number, batch, layout).tobytes().decode("ascii")


def batch_bytes(number: int, batch: SolutionsFound, layout: Layout) -> np.ndarray:
    """`batch_text` as ASCII bytes in a uint8 array, to write to a binary stream without copies."""
    pieces = batch.maps.shape[1]
    header = len("Solution , from :\n") + 20 + pieces * (2 * 20 + 2)
    out = np.empty(len(batch) * (header + len(layout.template)), np.uint8)
    size = kernels.render(
        number,
        batch.maps,
        batch.source_colours,
        batch.target_colours,
        layout.template,
        layout.source_at,
        layout.target_at,
        out,
    )
    return out[:size]

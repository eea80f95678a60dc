"""Hand-made packings: which brick is at a cell, and whether a new brick fits.

The antislide workbench's edit mode adds and removes bricks one at a time; these
checks say what a click would do, so the widget only reports the answer.
"""

from __future__ import annotations

from slidelab.antislide.layers import label
from slidelab.antislide.model import Box, Placement


def brick_at(box: Box, bricks: list[Placement], cell: tuple[int, int, int]) -> int | None:
    """The index of the brick covering `cell`, or None when it is empty."""
    index = box.index(*cell)
    return next((n for n, brick in enumerate(bricks) if index in brick.cells(box)), None)


def why_not_placed(box: Box, bricks: list[Placement], new: Placement) -> str | None:
    """Why `new` cannot join the packing (outside the box, overlapping), or None if it fits."""
    if any(c < 0 or c + s > d for c, s, d in zip(new.corner, new.size, box.dims, strict=True)):
        return "the brick does not fit in the box there"
    taken = set(new.cells(box))
    clash = next((n for n, brick in enumerate(bricks) if taken & set(brick.cells(box))), None)
    return None if clash is None else f"the brick would overlap brick {label(clash)}"

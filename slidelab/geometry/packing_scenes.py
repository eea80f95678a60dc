"""Scenes for the 3D view from antislide packings and polycube solutions (Qt-free).

Antislide bricks are coloured by orientation, so the eye sees at once how a packing
interlocks; polycube pieces by kind, the same colour in every solution.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from slidelab.antislide.layers import label
from slidelab.antislide.model import Placement, orientations
from slidelab.geometry.palettes import piece_colour
from slidelab.geometry.scene import ScenePiece


def brick_cells(brick: Placement) -> tuple[tuple[int, int, int], ...]:
    """The unit cubes (x, y, z) a placed brick fills."""
    ranges = (range(c, c + s) for c, s in zip(brick.corner, brick.size, strict=True))
    return tuple(itertools.product(*ranges))  # type: ignore[arg-type]


def brick_scene(brick: tuple[int, int, int], bricks: Sequence[Placement]) -> list[ScenePiece]:
    """One piece per brick, keyed by its index, coloured by its orientation."""
    kinds = orientations(brick)
    return [
        ScenePiece(
            key=str(n),
            label=f"brick {label(n)}: {'x'.join(map(str, b.size))} at {b.corner}",
            cells=brick_cells(b),
            colour=piece_colour(kinds.index(b.size)),
        )
        for n, b in enumerate(bricks)
    ]

"""Scenes for the 3D view from antislide packings and polycube solutions (Qt-free).

Antislide bricks are coloured by orientation, so the eye sees at once how a packing
interlocks; polycube pieces by kind, the same colour in every solution.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from slidelab.antislide.layers import label
from slidelab.antislide.model import Placement, orientations
from slidelab.burrtools.packing import BurrPacking
from slidelab.geometry.palettes import piece_colour
from slidelab.geometry.scene import ScenePiece
from slidelab.polycube.packing import Packing


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


def _copies(named: Sequence[tuple[str, int, tuple[tuple[int, int, int], ...]]]) -> list[ScenePiece]:
    """Pieces from (name, colour index, cells); copies of one name become 'name#2', 'name#3'."""
    seen: dict[str, int] = {}
    scene = []
    for name, colour, cells in named:
        seen[name] = seen.get(name, 0) + 1
        key = name if seen[name] == 1 else f"{name}#{seen[name]}"
        scene.append(ScenePiece(key, key, cells, piece_colour(colour)))
    return scene


def polycube_scene(packing: Packing, solution: tuple[int, ...]) -> list[ScenePiece]:
    """The pieces of one solution of a spec, coloured by kind (its place in the spec)."""
    kind = {piece.name: k for k, piece in enumerate(packing.spec.pieces)}
    return _copies([(p.piece, kind[p.piece], p.cells) for p in packing.decode(solution)])


def burr_scene(packing: BurrPacking, solution: tuple[int, ...]) -> list[ScenePiece]:
    """The pieces of one assembly of a BurrTools problem, named and coloured by shape."""
    named = []
    for placement in packing.decode(solution):
        shape = packing.problem.parts[placement.part].shape
        name = packing.puzzle.shapes[shape].name or f"S{shape + 1}"
        named.append((name, shape, placement.cells))
    return _copies(named)

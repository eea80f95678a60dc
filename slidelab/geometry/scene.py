"""What the 3D view shows, and the arithmetic behind it, without Qt (so it is tested alone).

A scene is a list of `ScenePiece`s, each a set of unit cubes with a colour.  The view asks
this module where exploded pieces go, which cells survive a layer slice, which piece a mouse
ray hits and how bright each triangle is under a fixed light; it only draws the answers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from slidelab.geometry.palettes import RGB, piece_colour

__all__ = [
    "AMBIENT",
    "LIGHT_DIRECTION",
    "ScenePiece",
    "explode_offsets",
    "lambert",
    "pick",
    "piece_colour",
    "sliced",
]

Cell = tuple[int, int, int]

LIGHT_DIRECTION: tuple[float, float, float] = (0.33, -0.5, 0.8)
"""Towards the light (need not be unit length): above, in front (-y) and to the right (+x), so
the top, front and right faces seen in the isometric view get three clearly different shades."""

AMBIENT = 0.35
"""The brightness of a face turned straight away from the light, so no face goes black."""


@dataclass(frozen=True)
class ScenePiece:
    """One solid piece of a scene."""

    key: str
    """Unique within a scene, e.g. "3" or "F"; signals and the view's setters use it."""
    label: str
    """Shown when the piece is hovered, e.g. "brick 3 (2x2x1, flat)"."""
    cells: tuple[Cell, ...]
    """Unit cubes; cube (x, y, z) spans [x, x+1] x [y, y+1] x [z, z+1]."""
    colour: RGB
    """Red, green, blue, 0-255."""


def explode_offsets(pieces: Sequence[ScenePiece], factor: float) -> dict[str, np.ndarray]:
    """How far each piece moves in an exploded view: `factor` times the vector from the centre
    of the scene's bounding box to the piece's centre, so pieces fly apart evenly and a piece at
    the centre stays put."""
    filled = [piece for piece in pieces if piece.cells]
    if not filled:
        return {piece.key: np.zeros(3) for piece in pieces}
    every = np.concatenate([np.asarray(piece.cells, float) for piece in filled])
    centre = (every.min(axis=0) + every.max(axis=0) + 1) / 2
    offsets = {piece.key: np.zeros(3) for piece in pieces}
    for piece in filled:
        offsets[piece.key] = (np.asarray(piece.cells, float).mean(axis=0) + 0.5 - centre) * factor
    return offsets


def sliced(pieces: Sequence[ScenePiece], axis: int, upto: int) -> list[ScenePiece]:
    """The pieces cut down to their cells with coordinate `axis` below `upto` (the layers
    0 .. upto-1); pieces left without cells are dropped."""
    kept = []
    for piece in pieces:
        cells = tuple(cell for cell in piece.cells if cell[axis] < upto)
        if cells:
            kept.append(dataclasses.replace(piece, cells=cells))
    return kept


def pick(
    pieces: Sequence[ScenePiece],
    offsets: Mapping[str, Sequence[float] | np.ndarray],
    origin: Sequence[float] | np.ndarray,
    direction: Sequence[float] | np.ndarray,
) -> str | None:
    """The key of the piece whose cube the ray `origin + t * direction` (t >= 0) enters first,
    each piece shifted by its offset (none when missing), or None when the ray misses them all.

    Each cube is tested by the slab method: the ray is inside the cube for the t where it is
    between both planes of every axis at once.
    """
    start = np.asarray(origin, float)
    heading = np.asarray(direction, float)
    parallel = heading == 0
    best_t, best_key = np.inf, None
    for piece in pieces:
        if not piece.cells:
            continue
        low = np.asarray(piece.cells, float) + np.asarray(offsets.get(piece.key, (0, 0, 0)))
        high = low + 1
        with np.errstate(divide="ignore", invalid="ignore"):
            t_low = (low - start) / heading
            t_high = (high - start) / heading
        near = np.where(parallel, -np.inf, np.minimum(t_low, t_high)).max(axis=1)
        far = np.where(parallel, np.inf, np.maximum(t_low, t_high)).min(axis=1)
        # A ray parallel to an axis meets the cube only if it runs between that axis's planes.
        between = np.all(~parallel | ((low <= start) & (start <= high)), axis=1)
        hit = between & (near <= far) & (far >= 0)
        if hit.any():
            entry = float(np.maximum(near[hit], 0).min())
            if entry < best_t:
                best_t, best_key = entry, piece.key
    return best_key


def lambert(
    normals: np.ndarray,
    colour: RGB,
    light: Sequence[float] = LIGHT_DIRECTION,
    alpha: float = 1.0,
) -> np.ndarray:
    """(F, 4) float32 RGBA in 0..1 for triangles with unit `normals` (F, 3) lit from `light`.

    Flat per-face colours keep each side of a block one even shade, and computing them here
    spares the GL item a lighting shader.  The falloff is a wrapped Lambert term,
    ((1 + n.l) / 2) squared: like Lambert it is brightest (the full colour) facing the light,
    but faces turned away still differ from one another instead of all dropping to `AMBIENT`.
    """
    towards = np.asarray(light, float)
    towards = towards / np.linalg.norm(towards)
    wrapped = ((1 + np.asarray(normals, float) @ towards) / 2) ** 2
    intensity = AMBIENT + (1 - AMBIENT) * wrapped
    rgba = np.empty((len(intensity), 4), np.float32)
    rgba[:, :3] = np.outer(intensity, np.asarray(colour, float) / 255)
    rgba[:, 3] = alpha
    return rgba

"""Voxel pieces as merged triangle meshes for the 3D views (Qt-free, so it is tested alone).

A piece is a set of unit cells `(x, y, z)`.  Its mesh keeps only the faces
between a cell of the piece and a cell outside it, so no hidden internal faces
reach the graphics card; triangles wind counter-clockwise seen from outside, and
each carries its outward normal.  The outline keeps the edges where the surface
bends (between faces facing different ways), so a flat side of a piece shows
as one clean polygon rather than a grid of unit squares.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

Voxel = tuple[int, int, int]

_DIRECTIONS: tuple[Voxel, ...] = (
    (1, 0, 0),
    (-1, 0, 0),
    (0, 1, 0),
    (0, -1, 0),
    (0, 0, 1),
    (0, 0, -1),
)


@dataclass(frozen=True, eq=False)
class Mesh:
    """Triangles, their outward normals and the outline of one piece."""

    vertices: np.ndarray
    """(V, 3) float32 corner positions."""
    faces: np.ndarray
    """(F, 3) int32 vertex indices, counter-clockwise seen from outside."""
    normals: np.ndarray
    """(F, 3) float32 outward unit normal of each triangle."""
    outline: np.ndarray
    """(E, 2, 3) float32 segments where the surface bends."""

    @property
    def centre(self) -> np.ndarray:
        return self.vertices.mean(axis=0) if len(self.vertices) else np.zeros(3, np.float32)


def _square(cell: Voxel, direction: Voxel) -> tuple[Voxel, Voxel, Voxel, Voxel]:
    """The corners of the face of `cell` facing `direction`, counter-clockwise from outside."""
    x, y, z = cell
    axis = next(i for i in range(3) if direction[i])
    sign = direction[axis]
    u, v = [(axis + 1) % 3, (axis + 2) % 3]
    base = [x, y, z]
    if sign > 0:
        base[axis] += 1
    corners = []
    for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
        corner = list(base)
        corner[u] += du
        corner[v] += dv
        corners.append((corner[0], corner[1], corner[2]))
    # (u, v, axis) is a right-handed frame, so this order faces +axis; flip it for -axis.
    if sign < 0:
        corners.reverse()
    return corners[0], corners[1], corners[2], corners[3]


def voxel_mesh(cells: Iterable[Voxel]) -> Mesh:
    """The merged surface of the unit cubes at `cells` (cube (x, y, z) spans [x, x+1] etc.)."""
    solid = set(cells)
    index: dict[Voxel, int] = {}
    faces: list[tuple[int, int, int]] = []
    normals: list[Voxel] = []
    edge_normals: dict[tuple[Voxel, Voxel], list[Voxel]] = defaultdict(list)

    def vertex(point: Voxel) -> int:
        return index.setdefault(point, len(index))

    for cell in sorted(solid):
        for direction in _DIRECTIONS:
            neighbour = (cell[0] + direction[0], cell[1] + direction[1], cell[2] + direction[2])
            if neighbour in solid:
                continue
            a, b, c, d = _square(cell, direction)
            ia, ib, ic, id_ = vertex(a), vertex(b), vertex(c), vertex(d)
            faces += [(ia, ib, ic), (ia, ic, id_)]
            normals += [direction, direction]
            for p, q in ((a, b), (b, c), (c, d), (d, a)):
                edge_normals[(min(p, q), max(p, q))].append(direction)

    outline = [
        (p, q) for (p, q), seen in edge_normals.items() if len(seen) != 2 or seen[0] != seen[1]
    ]
    vertices = np.zeros((len(index), 3), np.float32)
    for point, number in index.items():
        vertices[number] = point
    return Mesh(
        vertices=vertices,
        faces=np.array(faces, np.int32).reshape(-1, 3),
        normals=np.array(normals, np.float32).reshape(-1, 3),
        outline=np.array(outline, np.float32).reshape(-1, 2, 3),
    )

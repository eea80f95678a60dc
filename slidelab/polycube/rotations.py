"""The 48 symmetries of the cube lattice: 24 rotations and 24 reflections, acting on cells.

Each symmetry is a signed permutation matrix; rotations have determinant +1,
reflections -1.  Shapes are normalised (shifted so that every coordinate's
minimum is 0) and sorted, so that equal shapes compare equal.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations, product

from slidelab.polycube.spec import Cell

Matrix = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]
Shape = tuple[Cell, ...]


def _signed_permutations() -> tuple[Matrix, ...]:
    matrices: list[Matrix] = []
    for order in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            rows = [[0, 0, 0] for _ in range(3)]
            for row, (column, sign) in enumerate(zip(order, signs, strict=True)):
                rows[row][column] = sign
            first, second, third = ((r[0], r[1], r[2]) for r in rows)
            matrices.append((first, second, third))
    return tuple(matrices)


def determinant(m: Matrix) -> int:
    """The determinant of a 3 x 3 matrix."""
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


SYMMETRIES: tuple[Matrix, ...] = _signed_permutations()
"""All 48 signed permutation matrices, the identity first."""
ROTATIONS: tuple[Matrix, ...] = tuple(m for m in SYMMETRIES if determinant(m) == 1)
"""The 24 rotations of 3-space that map the lattice onto itself."""
REFLECTIONS: tuple[Matrix, ...] = tuple(m for m in SYMMETRIES if determinant(m) == -1)
"""The 24 improper symmetries (a rotation followed by a mirror)."""


def apply(m: Matrix, cell: Cell) -> Cell:
    """The image of `cell` under `m`."""
    x, y, z = cell
    return (
        m[0][0] * x + m[0][1] * y + m[0][2] * z,
        m[1][0] * x + m[1][1] * y + m[1][2] * z,
        m[2][0] * x + m[2][1] * y + m[2][2] * z,
    )


def compose(a: Matrix, b: Matrix) -> Matrix:
    """The matrix of `a` after `b`."""
    return tuple(
        tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3)
    )  # type: ignore[return-value]


def inverse(m: Matrix) -> Matrix:
    """The inverse of a symmetry: its transpose (a signed permutation matrix is orthogonal)."""
    return (
        (m[0][0], m[1][0], m[2][0]),
        (m[0][1], m[1][1], m[2][1]),
        (m[0][2], m[1][2], m[2][2]),
    )


def normalize(cells: Iterable[Cell]) -> Shape:
    """`cells` shifted so each coordinate's minimum is 0, sorted."""
    cells = list(cells)
    low = [min(c[axis] for c in cells) for axis in range(3)]
    return tuple(sorted((x - low[0], y - low[1], z - low[2]) for x, y, z in cells))


def mirror(shape: Iterable[Cell]) -> Shape:
    """The mirror image of a shape (x negated), normalised."""
    return normalize((-x, y, z) for x, y, z in shape)


def orientations(shape: Iterable[Cell]) -> list[Shape]:
    """The distinct rotations of a shape, normalised, in the seed's order.

    Breadth-first from the shape itself, applying the seed's two generators to
    each shape found: (x, y, z) -> (y, -x, z), a quarter turn about the z axis,
    and (x, y, z) -> (y, z, x), a third of a turn about the main diagonal.
    """
    found = [normalize(shape)]
    known = set(found)
    for current in found:
        for image in (
            normalize((y, -x, z) for x, y, z in current),
            normalize((y, z, x) for x, y, z in current),
        ):
            if image not in known:
                known.add(image)
                found.append(image)
    return found

"""Classic exact-cover problems built from scratch: n queens, pentominoes, the Soma cube.

Shared by the tests and by `scripts/bench_exactcover.py`, so the golden counts and
the benchmarks use the very same problems.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from slidelab.exactcover.problem import Problem

Cell = tuple[int, ...]

QUEENS = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200}
"""Solutions of the n-queens problem."""

PENTOMINO_BOXES = {(6, 10): 9356, (5, 12): 4040, (4, 15): 1472, (3, 20): 8}
"""Ways to pack the twelve pentominoes into each box, rotations and reflections all counted."""

SOMA = 11520
"""Ways to pack the seven Soma pieces into a 3 x 3 x 3 cube (240 up to its 48 symmetries)."""


def queens(n: int) -> Problem:
    """n queens: rows and columns primary (in Knuth's organ-pipe order), diagonals secondary."""
    middle = sorted(range(n), key=lambda k: abs(2 * k - n + 1))
    primary = [f"r{k}" for k in middle] + [f"c{k}" for k in middle]
    secondary = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    options = [
        [f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n - 1}"] for r in range(n) for c in range(n)
    ]
    return Problem.of_sets(primary, options, secondary)


PENTOMINOES = {
    "F": [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)],
    "I": [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
    "L": [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)],
    "N": [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)],
    "P": [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)],
    "T": [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)],
    "U": [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)],
    "V": [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)],
    "W": [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)],
    "X": [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
    "Y": [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)],
    "Z": [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)],
}

SOMA_PIECES = {
    "V": [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
    "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "Z": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    "A": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
    "B": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)],
    "P": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)],
}


def _normal(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """`cells` shifted to touch every axis at 0, sorted."""
    cells = list(cells)
    low = [min(c[k] for c in cells) for k in range(len(cells[0]))]
    return tuple(sorted(tuple(v - m for v, m in zip(c, low, strict=True)) for c in cells))


def orientations_2d(cells: list[Cell]) -> set[tuple[Cell, ...]]:
    """The distinct rotations and reflections of a polyomino."""
    found = set()
    for flip in (False, True):
        shape = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]
            found.add(_normal(shape))
    return found


def _rotations_3d() -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """The 24 rotations of space as (axis permutation, signs) with determinant +1."""
    from itertools import permutations, product

    rotations = []
    for perm in permutations(range(3)):
        parity = sum(perm[i] > perm[j] for i in range(3) for j in range(i + 1, 3)) % 2
        for signs in product((1, -1), repeat=3):
            if (-1) ** parity * signs[0] * signs[1] * signs[2] == 1:
                rotations.append((perm, signs))
    return rotations


def orientations_3d(cells: list[Cell]) -> set[tuple[Cell, ...]]:
    """The distinct rotations (no reflections) of a polycube."""
    return {
        _normal(tuple(s * c[p] for p, s in zip(perm, signs, strict=True)) for c in cells)
        for perm, signs in _rotations_3d()
    }


def _placements(shapes: set[tuple[Cell, ...]], box: Cell) -> Iterator[tuple[Cell, ...]]:
    """Every translate of every shape that lies inside `box`."""
    from itertools import product

    for shape in sorted(shapes):
        extent = [max(c[k] for c in shape) for k in range(len(box))]
        for shift in product(*(range(b - e) for b, e in zip(box, extent, strict=True))):
            yield tuple(tuple(v + s for v, s in zip(c, shift, strict=True)) for c in shape)


def _cell_name(cell: Cell) -> str:
    return "".join("0123456789abcdefghijklmnopqrstuvwxyz"[v] for v in cell)


def packing(pieces: dict[str, list[Cell]], box: Cell, three_d: bool) -> Problem:
    """Pack every piece once into `box`: piece items first, then cell items, all primary."""
    from itertools import product

    cells = [_cell_name(c) for c in product(*(range(b) for b in box))]
    orient = orientations_3d if three_d else orientations_2d
    options = [
        [name, *(_cell_name(c) for c in placed)]
        for name, shape in pieces.items()
        for placed in _placements(orient(shape), box)
    ]
    return Problem.of_sets([*pieces, *cells], options)


def pentominoes(rows: int, cols: int) -> Problem:
    """The twelve pentominoes in a rows x cols box, all rotations and reflections."""
    return packing(PENTOMINOES, (rows, cols), three_d=False)


def soma() -> Problem:
    """The seven Soma pieces in a 3 x 3 x 3 cube, all 24 rotations of each."""
    return packing(SOMA_PIECES, (3, 3, 3), three_d=True)

"""Slow, obviously correct oracle: enumerate every antisliding packing, count orbits.

Tries every set of non-overlapping placements of a small box, keeps those where
no brick can slide, and groups them by canonical form (the least image under the
box's symmetries).  Only for tiny boxes: it visits every packing.
"""

from __future__ import annotations

from slidelab.antislide.model import DEFAULT_BRICK, Box, Placement, placements, sliding_faces


def every_packing(
    box: Box, brick: tuple[int, int, int] = DEFAULT_BRICK
) -> list[frozenset[frozenset[int]]]:
    """All antisliding packings, each as the set of its bricks' cell sets.

    Each packing is built once: the first free cell is left empty or gets a brick
    whose first cell it is.
    """
    starting: dict[int, list[tuple[Placement, frozenset[int]]]] = {}
    for p in placements(box, brick):
        cells = p.cells(box)
        starting.setdefault(min(cells), []).append((p, frozenset(cells)))
    result = []

    def extend(
        cell: int, used: frozenset[int], chosen: list[tuple[Placement, frozenset[int]]]
    ) -> None:
        while cell in used:
            cell += 1
        if cell == box.cell_count:
            if not sliding_faces(box, [p for p, _ in chosen]):
                result.append(frozenset(cells for _, cells in chosen))
            return
        extend(cell + 1, used, chosen)
        for p, cells in starting.get(cell, []):
            if not used & cells:
                extend(cell + 1, used | cells, [*chosen, (p, cells)])

    extend(0, frozenset(), [])
    return result


def orbit_counts(box: Box, brick: tuple[int, int, int] = DEFAULT_BRICK) -> dict[int, int]:
    """Classes of antisliding packings by number of blocks, by brute force."""
    perms = box.symmetries.tolist()
    classes: dict[tuple[tuple[int, ...], ...], int] = {}
    for packing in every_packing(box, brick):
        canonical = min(
            tuple(sorted(tuple(sorted(perm[c] for c in b)) for b in packing)) for perm in perms
        )
        classes[canonical] = len(packing)
    counts: dict[int, int] = {}
    for blocks in classes.values():
        counts[blocks] = counts.get(blocks, 0) + 1
    return dict(sorted(counts.items()))

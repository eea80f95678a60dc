"""A slow, obviously correct oracle for taking assemblies apart, for tests.

It shares only the model with `slidelab.disassembly.search` and none of its
cleverness: a move tries every nonempty set of pieces without the first one
(moving a set one way is moving the rest the other way), slides it one cell at
a time and compares cell sets; a set leaves once it has slid past everything
else along the axis without meeting it.  Use it on a few small pieces only.
"""

from __future__ import annotations

from itertools import combinations

from slidelab.disassembly.model import DIRECTIONS, Assembly, Vector

Places = tuple[Vector, ...]
"""Where each piece of a part stands, as an offset from its place in the assembly."""


def reference_moves(
    assembly: Assembly, pieces: tuple[int, ...], places: Places, *, unit_steps: bool = False
) -> tuple[set[Places], bool]:
    """The places one move away (the first piece held still), and whether some set can
    leave from `places` (slide past the rest without meeting it: that needs no unit steps,
    since the set leaves in one move)."""
    others = range(1, len(pieces))
    found: set[Places] = set()
    leaves = False
    for size in range(1, len(pieces)):
        for chosen in combinations(others, size):
            for step in DIRECTIONS:
                distance = 0
                while True:
                    distance += 1
                    moved = _shifted_places(places, chosen, step, distance)
                    moving, still = _split(assembly, pieces, moved, chosen)
                    if moving & still:
                        break  # the set meets the rest
                    if _past(moving, still, step):
                        leaves = True
                        break
                    if distance == 1 or not unit_steps:
                        found.add(_moved(places, chosen, step, distance))
    return found, leaves


def reference_first_separation(
    assembly: Assembly,
    pieces: tuple[int, ...],
    places: Places,
    *,
    unit_steps: bool = False,
    limit: int = 200_000,
) -> tuple[int | None, set[Places]]:
    """The fewest moves to a separation of the part (the leaving move counted), or None
    when no position it reaches lets a set leave; and the positions one move short of a
    separation at that depth (where a fast search may choose to separate)."""
    seen = {_normal(places)}
    layer = [places]
    depth = 0
    while layer and len(seen) <= limit:
        leaving = set()
        following = []
        for at in layer:
            after, leaves = reference_moves(assembly, pieces, at, unit_steps=unit_steps)
            if leaves:
                leaving.add(_normal(at))
            for there in after:
                key = _normal(there)
                if key not in seen:
                    seen.add(key)
                    following.append(there)
        if leaving:
            return depth + 1, leaving
        layer = following
        depth += 1
    if layer:
        raise ValueError("the reference search passed its limit")
    return None, set()


def _cells(assembly: Assembly, piece: int, offset: Vector) -> set[Vector]:
    return {
        (x + offset[0], y + offset[1], z + offset[2]) for x, y, z in assembly.pieces[piece].cells
    }


def _shifted_places(
    places: Places, chosen: tuple[int, ...], step: Vector, distance: int
) -> list[Vector]:
    return [
        tuple(c + s * distance for c, s in zip(at, step, strict=True)) if i in chosen else at  # type: ignore[misc]
        for i, at in enumerate(places)
    ]


def _moved(places: Places, chosen: tuple[int, ...], step: Vector, distance: int) -> Places:
    return tuple(_shifted_places(places, chosen, step, distance))


def _split(
    assembly: Assembly, pieces: tuple[int, ...], places: list[Vector], chosen: tuple[int, ...]
) -> tuple[set[Vector], set[Vector]]:
    moving: set[Vector] = set()
    still: set[Vector] = set()
    for i, (piece, at) in enumerate(zip(pieces, places, strict=True)):
        (moving if i in chosen else still).update(_cells(assembly, piece, at))
    return moving, still


def _past(moving: set[Vector], still: set[Vector], step: Vector) -> bool:
    """Whether the moving cells lie wholly beyond the others along the step."""
    along = [sum(c * s for c, s in zip(cell, step, strict=True)) for cell in moving]
    behind = [sum(c * s for c, s in zip(cell, step, strict=True)) for cell in still]
    return min(along) > max(behind)


def _normal(places: Places) -> Places:
    """Places with the first piece moved back to its own place (the rest shifted along)."""
    ax, ay, az = places[0]
    return tuple((x - ax, y - ay, z - az) for x, y, z in places)

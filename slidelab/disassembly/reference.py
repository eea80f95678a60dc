"""A slow, obviously correct oracle for taking assemblies apart, for tests.

It shares only the model with `slidelab.disassembly.search` and none of its
cleverness: a move tries every nonempty set of pieces without the first one
(moving a set one way is moving the rest the other way), slides it one cell at
a time and compares cell sets; a set leaves once it has slid past everything
else along the axis without meeting it.  `reference_separation` finds which of
the shortest separations BurrTools' order takes, again from cell sets only.
Use it on a few small pieces only.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
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


@dataclass(frozen=True)
class ReferenceSeparation:
    """The separation BurrTools' order takes: where the pieces stand before each move up to
    the leaving one, and the part that leaves (indices into the part's pieces)."""

    path: tuple[Places, ...]
    leaving: tuple[int, ...]
    direction: int


def reference_separation(
    assembly: Assembly,
    pieces: tuple[int, ...],
    places: Places,
    *,
    unit_steps: bool = False,
    limit: int = 200_000,
) -> ReferenceSeparation | None:
    """The first separation of the part in BurrTools' order (`slidelab.disassembly.search`),
    found breadth first from cell sets; None when no position lets a set leave."""
    weights = [assembly.pieces[p].weight for p in pieces]
    seen = {_normal(places)}
    queue: deque[tuple[Places, ...]] = deque([(places,)])
    while queue:
        path = queue.popleft()
        cells = [_cells(assembly, p, at) for p, at in zip(pieces, path[-1], strict=True)]
        leaving = _first_leaving(cells)
        if leaving is not None:
            chosen, direction = leaving
            rest = tuple(i for i in range(len(pieces)) if i not in chosen)
            if max(weights[i] for i in rest) < max(weights[i] for i in chosen):
                chosen, direction = rest, direction ^ 1
            return ReferenceSeparation(path, chosen, direction)
        for there in _next_places(cells, path[-1], unit_steps):
            if _normal(there) not in seen:
                seen.add(_normal(there))
                queue.append((*path, there))
        if len(seen) > limit:
            raise ValueError("the reference search passed its limit")
    return None


def reference_next_places(
    assembly: Assembly, pieces: tuple[int, ...], places: Places, *, unit_steps: bool = False
) -> list[Places] | None:
    """The places one move away, in BurrTools' order, each once and seen from the first
    piece; None when some set can leave from `places`."""
    cells = [_cells(assembly, p, at) for p, at in zip(pieces, places, strict=True)]
    if _first_leaving(cells) is not None:
        return None
    found = [_normal(places)]
    for there in _next_places(cells, places, unit_steps):
        if _normal(there) not in found:
            found.append(_normal(there))
    return found[1:]


def _next_places(cells: list[set[Vector]], places: Places, unit_steps: bool) -> Iterator[Places]:
    for chosen, direction, distance in _burrtools_moves(cells, unit_steps):
        yield _moved(places, chosen, DIRECTIONS[direction], distance)


def _first_leaving(cells: list[set[Vector]]) -> tuple[tuple[int, ...], int] | None:
    """BurrTools' first set that can leave: a single piece, then a group of at most half the
    pieces; directions in order, then pieces, each with every piece it would ever meet."""
    for largest in (1, len(cells) // 2):
        for direction in range(6):
            for piece in range(len(cells)):
                taken = _taken(cells, piece, direction, None)
                if len(taken) <= largest:
                    return taken, direction
    return None


def _burrtools_moves(
    cells: list[set[Vector]], unit_steps: bool
) -> Iterator[tuple[tuple[int, ...], int, int]]:
    """The moves in BurrTools' order: by direction, by piece, by step, the piece with what it
    meets within the step while at most half the pieces move; after each new one, its union
    with every earlier move of the direction by as many cells, newest first, when new,
    neither of the two and not every piece."""
    count = len(cells)
    for direction in range(6):
        made: list[tuple[frozenset[int], int]] = []
        for piece in range(count):
            for distance in range(1, 2 if unit_steps else _span(cells) + 1):
                taken = frozenset(_taken(cells, piece, direction, distance))
                if len(taken) > count // 2:
                    break
                if (taken, distance) in made:
                    continue
                earlier = made[::-1]
                made.append((taken, distance))
                yield tuple(sorted(taken)), direction, distance
                for other, steps in earlier:
                    union = taken | other
                    if (
                        steps == distance
                        and union not in (taken, other)
                        and len(union) < count
                        and (union, distance) not in made
                    ):
                        made.append((union, distance))
                        yield tuple(sorted(union)), direction, distance


def _taken(
    cells: list[set[Vector]], piece: int, direction: int, most: int | None
) -> tuple[int, ...]:
    """The piece and every piece it meets sliding along `direction` by 1 to `most` cells (any
    number when None), directly or through pieces met."""
    taken = {piece}
    grown = True
    while grown:
        grown = False
        for j in range(len(cells)):
            if j not in taken and any(
                _meets(cells[k], cells[j], DIRECTIONS[direction], most) for k in taken
            ):
                taken.add(j)
                grown = True
    return tuple(sorted(taken))


def _meets(moving: set[Vector], still: set[Vector], step: Vector, most: int | None) -> bool:
    """Whether `moving` slid 1 to `most` cells along `step` (any number when None) meets `still`."""
    for a in moving:
        for b in still:
            gap = tuple(y - x for x, y in zip(a, b, strict=True))
            along = sum(g * s for g, s in zip(gap, step, strict=True))
            if gap == tuple(along * s for s in step) and 1 <= along <= (most or along):
                return True
    return False


def _span(cells: list[set[Vector]]) -> int:
    """More than any gap between two cells of the part along an axis."""
    every = [c for piece in cells for c in piece]
    return max(max(c[a] for c in every) - min(c[a] for c in every) for a in range(3)) + 1


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

"""The fewest moves that take an assembly apart, part by part (BurrTools' rule).

A breadth-first search over the places of a part's pieces, one piece (the
anchor, the part's first) held still since moving a set one way is moving the
rest the other way.  In each direction the sets that can slide are the ideals
of the who-blocks-whom digraph (a piece with no room towards another pushes
it), as in the sliding family's superpiece styles; a set slides by any number
of cells up to its room (or one cell per move with `unit_steps`).  A set whose
room is unbounded leaves: that move separates the part, and each of the two
parts is then taken apart from where it stands.

Which separation is taken follows BurrTools' disassembler, so that its figures
come out: the first position of the search's shallowest layer from which some
set can leave; there, a single piece before a group, directions in the order
+x, -x, +y, -y, +z, -z, then pieces in order, each piece taking with it what it
cannot leave behind, a group of at most half the part's pieces.  The part that
holds the heaviest piece (BurrTools' weight) stays.  When either part cannot be
taken apart and its pieces may not stay together (they share no piece group),
the assembly does not come apart: like BurrTools, no other separation is tried.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass

from slidelab.disassembly.model import (
    DIRECTIONS,
    Assembly,
    Disassembly,
    Move,
    Separation,
    Vector,
)
from slidelab.disassembly.movement import FREE, Room
from slidelab.errors import SearchLimitError
from slidelab.runs import Progress, drive

PROGRESS_SECONDS = 0.05
CHECK_EVERY = 64
"""Positions expanded between looks at the clock."""


class DisassemblyLimitError(SearchLimitError):
    """A part's search would visit more positions than the limit allows."""


@dataclass(frozen=True)
class _Part:
    """Pieces of the assembly (indices) and where they stand (offsets from their places)."""

    pieces: tuple[int, ...]
    start: tuple[Vector, ...]


@dataclass
class _Run:
    room: Room
    assembly: Assembly
    unit_steps: bool
    max_states: int | None
    started: float
    states: int = 0
    last: float = 0.0

    def progress(self, depth: int) -> Progress | None:
        now = time.perf_counter()
        if now - self.last < PROGRESS_SECONDS:
            return None
        self.last = now
        return Progress("taking apart", self.states, now - self.started, depth=depth)


def disassemble(
    assembly: Assembly, *, unit_steps: bool = False, max_states: int | None = None
) -> Disassembly:
    """`disassembly_steps` run to its end."""
    return drive(disassembly_steps(assembly, unit_steps=unit_steps, max_states=max_states))


def disassembly_steps(
    assembly: Assembly, *, unit_steps: bool = False, max_states: int | None = None
) -> Generator[Progress, None, Disassembly]:
    """Take `assembly` apart (module doc), yielding progress about every 50 ms; a part whose
    search would hold more than `max_states` positions raises `DisassemblyLimitError`."""
    started = time.perf_counter()
    run = _Run(Room(assembly), assembly, unit_steps, max_states, started, last=started)
    count = len(assembly.pieces)
    if count < 2:
        return Disassembly(None)
    whole = _Part(tuple(range(count)), ((0, 0, 0),) * count)
    separation, stuck = yield from _take_apart(run, whole)
    if stuck is not None:
        return Disassembly(None, stuck.pieces, stuck.start, run.states)
    return Disassembly(separation, states=run.states)


def first_separation(
    assembly: Assembly,
    pieces: tuple[int, ...],
    start: tuple[Vector, ...],
    *,
    unit_steps: bool = False,
) -> tuple[tuple[Move, ...], tuple[int, ...]] | None:
    """The fewest moves that separate `pieces` (standing at offsets `start` from their places)
    and the pieces the last move removes; None when no move ever separates them."""
    now = time.perf_counter()
    run = _Run(Room(assembly), assembly, unit_steps, None, now, last=now)
    found = drive(_first_separation(run, _Part(pieces, start)))
    return None if found is None else (found[0], found[2])


def _take_apart(
    run: _Run, part: _Part
) -> Generator[Progress, None, tuple[Separation | None, _Part | None]]:
    """The separation tree of `part`, or None and a part that could not be taken apart."""
    found = yield from _first_separation(run, part)
    if found is None:
        return None, part
    moves, positions, removed = found
    halves: list[Separation | None] = []
    for chosen in (True, False):
        half = _Part(
            tuple(p for p in part.pieces if (p in removed) == chosen),
            tuple(
                at for p, at in zip(part.pieces, positions, strict=True) if (p in removed) == chosen
            ),
        )
        if len(half.pieces) == 1 or _may_stay_together(run.assembly, half.pieces):
            halves.append(None)
            continue
        tree, stuck = yield from _take_apart(run, half)
        if stuck is not None:
            return None, stuck
        halves.append(tree)
    separation = Separation(part.pieces, part.start, moves, removed, halves[0], halves[1])
    return separation, None


def _may_stay_together(assembly: Assembly, pieces: tuple[int, ...]) -> bool:
    """Whether the pieces share a piece group, so they need not come apart."""
    common = frozenset.intersection(*(assembly.pieces[p].groups for p in pieces))
    return bool(common)


State = tuple[int, ...]
"""Where a part's pieces stand relative to its anchor, flattened: three numbers per piece
after the first."""


def _first_separation(
    run: _Run, part: _Part
) -> Generator[Progress, None, tuple[tuple[Move, ...], tuple[Vector, ...], tuple[int, ...]] | None]:
    """The fewest moves to a separation of `part`: the moves, where the pieces stand before
    the last one, and the pieces it removes; None when no move separates the part."""
    start = _state(part.start)
    parents: dict[State, tuple[State, Move] | None] = {start: None}
    layer = [start]
    depth = 0
    expanded = 0
    while layer:
        following: list[State] = []
        for state in layer:
            positions = _positions(state)
            room = _room(run.room, part.pieces, positions)
            leaving = _leaving(room, len(positions), run.assembly, part.pieces)
            if leaving is not None:
                moved, direction = leaving
                path = _path(parents, state)
                last = Move(tuple(sorted(part.pieces[i] for i in moved)), direction, None)
                placed = Separation(part.pieces, part.start, path, (), None, None).places(len(path))
                return (*path, last), placed, last.pieces
            for moved, direction, distance in _moves(room, len(positions), run.unit_steps):
                child = _shifted(state, moved, DIRECTIONS[direction], distance)
                if child in parents:
                    continue
                move = _shown(run.assembly, part.pieces, moved, direction, distance)
                parents[child] = (state, move)
                following.append(child)
            run.states += 1
            expanded += 1
            if run.max_states is not None and len(parents) > run.max_states:
                raise DisassemblyLimitError(
                    f"taking apart {len(part.pieces)} pieces needs more than "
                    f"{run.max_states:,} positions"
                )
            if expanded % CHECK_EVERY == 0:
                event = run.progress(depth)
                if event is not None:
                    yield event
        layer = following
        depth += 1
    return None


def _shown(
    assembly: Assembly, pieces: tuple[int, ...], moved: list[int], direction: int, distance: int
) -> Move:
    """The move as a person would make it: of the set and the rest (which moves the other
    way to the same effect), the lighter side moves (BurrTools' weights), else the side with
    fewer pieces."""
    inside = set(moved)
    rest = [i for i in range(len(pieces)) if i not in inside]

    def heaviest(side: list[int]) -> int:
        return max(assembly.pieces[pieces[i]].weight for i in side)

    if (heaviest(rest), len(rest)) < (heaviest(moved), len(moved)):
        moved, direction = rest, direction ^ 1
    return Move(tuple(pieces[i] for i in moved), direction, distance)


def _state(positions: tuple[Vector, ...]) -> State:
    ax, ay, az = positions[0]
    return tuple(c for x, y, z in positions[1:] for c in (x - ax, y - ay, z - az))


def _positions(state: State) -> list[Vector]:
    return [(0, 0, 0)] + [(state[k], state[k + 1], state[k + 2]) for k in range(0, len(state), 3)]


def _shifted(state: State, moved: list[int], step: Vector, distance: int) -> State:
    shifted = list(state)
    for i in moved:
        base = 3 * (i - 1)
        for axis in range(3):
            shifted[base + axis] += step[axis] * distance
    return tuple(shifted)


Rooms = list[list[list[int]]]
"""rooms[direction][i][j]: cells piece i can slide that way before it meets piece j."""


def _room(room: Room, pieces: tuple[int, ...], positions: list[Vector]) -> Rooms:
    count = len(pieces)
    rooms: Rooms = []
    for direction in range(len(DIRECTIONS)):
        table = [[0] * count for _ in range(count)]
        for i in range(count):
            for j in range(count):
                if i != j:
                    offset = tuple(b - a for a, b in zip(positions[i], positions[j], strict=True))
                    table[i][j] = room.free(pieces[i], pieces[j], direction, offset)  # type: ignore[arg-type]
        rooms.append(table)
    return rooms


def _closure(table: list[list[int]], start: int, needs: int) -> list[int]:
    """The pieces that must move with `start` for it to slide `needs` cells (those with
    less room, met directly or through others)."""
    taken = [start]
    seen = {start}
    for i in taken:
        for j, free in enumerate(table[i]):
            if j not in seen and j != i and free < needs:
                seen.add(j)
                taken.append(j)
    return taken


def _leaving(
    rooms: Rooms, count: int, assembly: Assembly, pieces: tuple[int, ...]
) -> tuple[list[int], int] | None:
    """A set that can leave, chosen as BurrTools chooses it (module doc), and its direction;
    the set is the one removed: the other part when this one holds a heavier piece."""
    for largest in (1, count // 2):
        for direction, table in enumerate(rooms):
            for piece in range(count):
                moved = _closure(table, piece, FREE)
                if len(moved) <= largest:
                    rest = [i for i in range(count) if i not in moved]
                    heaviest_moved = max(assembly.pieces[pieces[i]].weight for i in moved)
                    heaviest_rest = max(assembly.pieces[pieces[i]].weight for i in rest)
                    if heaviest_rest < heaviest_moved:
                        return rest, direction ^ 1
                    return moved, direction
    return None


def _moves(rooms: Rooms, count: int, unit_steps: bool) -> Iterator[tuple[list[int], int, int]]:
    """Every set without the anchor that can slide, each direction, each distance."""
    for direction, table in enumerate(rooms):
        for moved in _ideals(table, count):
            inside = set(moved)
            reach = min(table[i][j] for i in moved for j in range(count) if j not in inside)
            for distance in range(1, 2 if unit_steps else reach + 1):
                yield moved, direction, distance


def _ideals(table: list[list[int]], count: int) -> Iterator[list[int]]:
    """The sets without piece 0 that no piece outside them blocks: each piece in the set
    takes along every piece it has no room towards (the ideals of the blocking digraph)."""
    pushes = [
        sum(1 << j for j in range(count) if j != i and table[i][j] == 0) for i in range(count)
    ]
    below = [_reach(pushes, v) for v in range(count)]
    above = [sum(1 << u for u in range(count) if below[u] >> v & 1) for v in range(count)]
    everyone = (1 << count) - 1
    stack = [(0, above[0])]
    while stack:
        inside, outside = stack.pop()
        undecided = everyone & ~(inside | outside)
        if undecided:
            v = (undecided & -undecided).bit_length() - 1
            stack.append((inside, outside | above[v]))
            stack.append((inside | below[v], outside))
        elif inside:
            yield [v for v in range(count) if inside >> v & 1]


def _reach(pushes: list[int], start: int) -> int:
    """`start` and every piece it pushes, directly or through others, as a bit set."""
    seen = 1 << start
    frontier = seen
    while frontier:
        v = (frontier & -frontier).bit_length() - 1
        frontier &= frontier - 1
        fresh = pushes[v] & ~seen
        seen |= fresh
        frontier |= fresh
    return seen


def _path(parents: dict[State, tuple[State, Move] | None], state: State) -> tuple[Move, ...]:
    moves = []
    step = parents[state]
    while step is not None:
        state, move = step
        moves.append(move)
        step = parents[state]
    return tuple(reversed(moves))

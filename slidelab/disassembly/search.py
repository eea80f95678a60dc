"""The fewest moves that take an assembly apart, part by part (BurrTools' rule).

A breadth-first search over the places of a part's pieces, one piece (the
anchor, the part's first) held still since moving a set one way is moving the
rest the other way.  A move slides a set of pieces along one axis by one or
more cells (one cell with `unit_steps`) without meeting the rest.  A set whose
room is unbounded leaves: that move separates the part, and each of the two
parts is then taken apart from where it stands.

Which of the equally short separations is taken is BurrTools' (its
disassembler as of 2007, `disassembler_0.cpp`; the example files' stored trees
come out move for move): the positions are met in its order and the first from
which some set can leave separates.  From a position, a set that can leave is
looked for first: a single piece before a group, directions in the order +x,
-x, +y, -y, +z, -z, then pieces in order, each taking with it every piece it
would meet, a group of at most half the part's pieces.  Else the positions one
move away follow in the order of BurrTools' moves (`kernels`): by direction, by
piece, by step, the piece with the pieces it pushes when at most half move,
each followed by its unions with the direction's earlier moves, newest first.
A move and the separation show the set BurrTools moves: the one found, unless
its heaviest piece outweighs every other (BurrTools' weight), when the rest
moves the other way; so the part that holds the heaviest piece stays.  When
either part cannot be taken apart and its pieces may not stay together (they
share no piece group), the assembly does not come apart: like BurrTools, no
other separation is tried.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator
from dataclasses import dataclass

import numpy as np

from slidelab.disassembly import kernels
from slidelab.disassembly.model import (
    Assembly,
    Disassembly,
    Move,
    Piece,
    Separation,
    Vector,
)
from slidelab.disassembly.movement import build_lines
from slidelab.errors import SearchLimitError
from slidelab.runs import Progress, drive, next_budget

PROGRESS_SECONDS = 0.05
KERNEL_SECONDS = 0.02
"""Aim of each kernel call: short enough that progress and stopping stay prompt."""
FIRST_BUDGET = 64
"""Positions the first kernel call of a part may expand (later calls aim at KERNEL_SECONDS)."""
START_CAPACITY = 256
START_MASKS = 256
KEPT_CAPACITY = 1 << 16
"""Largest space kept for the next search (a bigger one is let go, with its memory)."""

_kept = threading.local()
"""Each thread's spaces kept between searches, by number of pieces."""


class DisassemblyLimitError(SearchLimitError):
    """A part's search would visit more positions than the limit allows."""


@dataclass(frozen=True)
class _Part:
    """Pieces of the assembly (indices) and where they stand (offsets from their places)."""

    pieces: tuple[int, ...]
    start: tuple[Vector, ...]


@dataclass
class _Run:
    lines: kernels.Lines
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
    run = _Run(build_lines(assembly), assembly, unit_steps, max_states, started, last=started)
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
    run = _Run(build_lines(assembly), assembly, unit_steps, None, now, last=now)
    found = drive(_first_separation(run, _Part(pieces, start)))
    return None if found is None else (found[0], found[2])


def next_places(
    assembly: Assembly, places: tuple[Vector, ...], *, unit_steps: bool = False
) -> list[tuple[Vector, ...]] | None:
    """Where the pieces can stand one move from `places` (offsets from their places in the
    assembly), the first piece held still, in the order the search meets them; None when
    some set can leave from there."""
    part = _Part(tuple(range(len(places))), places)
    lines = build_lines(assembly)
    space = _start_space(part, None)
    while True:
        status = kernels.search(lines, _kernel_part(part), space, 1, unit_steps)
        if status >= 0:
            _keep(space)
            return None
        if status == kernels.FULL:
            space = _grown(space, None)
        elif status == kernels.MANY:
            space = _more_masks(space)
        else:
            break
    anchor = places[0]
    after = [
        (anchor, *(_unpacked(word, anchor) for word in space.states[row]))
        for row in range(1, int(space.counts[kernels.N]))
    ]
    _keep(space)
    return after


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


def _first_separation(
    run: _Run, part: _Part
) -> Generator[Progress, None, tuple[tuple[Move, ...], tuple[Vector, ...], tuple[int, ...]] | None]:
    """The fewest moves to a separation of `part`: the moves, where the pieces stand before
    the last one, and the pieces it removes; None when no move separates the part."""
    count = len(part.pieces)
    limit = run.max_states
    space = _start_space(part, limit)
    pieces = _kernel_part(part)
    budget = FIRST_BUDGET
    while True:
        before = int(space.counts[kernels.HEAD])
        started = time.perf_counter()
        status = kernels.search(run.lines, pieces, space, budget, run.unit_steps)
        spent = time.perf_counter() - started
        run.states += int(space.counts[kernels.HEAD]) - before
        if status >= 0:
            found = _separated(run, part, space, status)
            _keep(space)
            return found
        if status == kernels.DONE:
            _keep(space)
            return None
        if status == kernels.FULL:
            if limit is not None and space.states.shape[0] >= limit:
                raise DisassemblyLimitError(
                    f"taking apart {count} pieces needs more than {limit:,} positions"
                )
            space = _grown(space, limit)
        elif status == kernels.MANY:
            space = _more_masks(space)
        elif spent > 0:
            budget = next_budget(budget, spent, KERNEL_SECONDS, 1, 1 << 62, growth=4)
        event = run.progress(int(space.depth[int(space.counts[kernels.HEAD]) - 1]))
        if event is not None:
            yield event


def _separated(
    run: _Run, part: _Part, space: kernels.Space, row: int
) -> tuple[tuple[Move, ...], tuple[Vector, ...], tuple[int, ...]]:
    """The moves from the start to position `row`, where the pieces then stand, and the
    leaving move: of the set that can leave and the rest, the part holding the heaviest
    piece stays (BurrTools' weights)."""
    path = []
    at = row
    while space.parent[at] >= 0:
        moved = _members(int(space.moved[at]), len(part.pieces))
        path.append(
            _shown(
                run.assembly, part.pieces, moved, int(space.direction[at]), int(space.distance[at])
            )
        )
        at = int(space.parent[at])
    moves = tuple(reversed(path))
    placed = Separation(part.pieces, part.start, moves, (), None, None).places(len(moves))
    leaving = _members(int(space.counts[kernels.LEAVE_MASK]), len(part.pieces))
    direction = int(space.counts[kernels.LEAVE_DIRECTION])
    rest = [i for i in range(len(part.pieces)) if i not in leaving]
    if _heaviest(run.assembly, part.pieces, rest) < _heaviest(run.assembly, part.pieces, leaving):
        leaving, direction = rest, direction ^ 1
    last = Move(tuple(part.pieces[i] for i in leaving), direction, None)
    return (*moves, last), placed, last.pieces


def _members(bits: int, count: int) -> list[int]:
    return [i for i in range(count) if bits >> i & 1]


def _heaviest(assembly: Assembly, pieces: tuple[int, ...], side: list[int]) -> int:
    return max(assembly.pieces[pieces[i]].weight for i in side)


def _shown(
    assembly: Assembly, pieces: tuple[int, ...], moved: list[int], direction: int, distance: int
) -> Move:
    """The move as BurrTools records it: the set the search moved, unless its heaviest piece
    outweighs every piece of the rest (BurrTools' weights), which then moves the other way
    to the same effect."""
    rest = [i for i in range(len(pieces)) if i not in moved]
    if _heaviest(assembly, pieces, rest) < _heaviest(assembly, pieces, moved):
        moved, direction = rest, direction ^ 1
    return Move(tuple(pieces[i] for i in moved), direction, distance)


def _start_space(part: _Part, limit: int | None) -> kernels.Space:
    """A space holding the part's start only, with room for at most `limit` positions: this
    thread's last space for as many pieces when there is one (a run takes thousands of small
    parts apart), else a new one."""
    count = len(part.pieces)
    kept: dict[int, kernels.Space] = _kept.__dict__.setdefault("spaces", {})
    space = kept.pop(count, None)
    if space is None or (limit is not None and space.states.shape[0] > limit):
        capacity = START_CAPACITY if limit is None else min(START_CAPACITY, limit)
        space = _space(count, capacity, START_MASKS)
    ax, ay, az = part.start[0]
    for i, (x, y, z) in enumerate(part.start[1:]):
        space.child[0, i] = _packed((x - ax, y - ay, z - az))
    kernels.restart(space)
    return space


def _keep(space: kernels.Space) -> None:
    """Let the next search of as many pieces in this thread start from `space`."""
    if space.states.shape[0] <= KEPT_CAPACITY:
        _kept.__dict__.setdefault("spaces", {})[space.states.shape[1] + 1] = space


def _kernel_part(part: _Part) -> np.ndarray:
    return np.array(part.pieces, np.int64)


def _more_masks(space: kernels.Space) -> kernels.Space:
    """`space` with room for twice as many moves of one direction."""
    room = 2 * space.masks.size
    return space._replace(
        masks=np.zeros(room, np.uint64),
        amounts=np.zeros(room, np.int64),
        slots=np.zeros(room, np.int64),
        listed=np.zeros(2 * room, np.int64),
    )


def _unpacked(word: np.uint64, anchor: Vector) -> Vector:
    x, y, z = (int(word) >> shift & 0xFFFF for shift in (0, 16, 32))
    bias = kernels.BIAS
    return (x - bias + anchor[0], y - bias + anchor[1], z - bias + anchor[2])


def _packed(offset: Vector) -> np.uint64:
    x, y, z = (c + kernels.BIAS for c in offset)
    return np.uint64(x | y << 16 | z << 32)


def _space(count: int, capacity: int, masks: int) -> kernels.Space:
    table = 1 << max(4, (4 * capacity - 1).bit_length())
    return kernels.Space(
        states=np.zeros((capacity, count - 1), np.uint64),
        table=np.zeros(table, np.int64),
        parent=np.zeros(capacity, np.int64),
        moved=np.zeros(capacity, np.uint64),
        direction=np.zeros(capacity, np.int64),
        distance=np.zeros(capacity, np.int64),
        depth=np.zeros(capacity, np.int64),
        counts=np.zeros(kernels.COUNTS, np.int64),
        room=np.zeros((6, count, count), np.int64),
        masks=np.zeros(masks, np.uint64),
        amounts=np.zeros(masks, np.int64),
        slots=np.zeros(masks, np.int64),
        listed=np.zeros(2 * masks, np.int64),
        child=np.zeros((1, count - 1), np.uint64),
    )


def _grown(space: kernels.Space, limit: int | None) -> kernels.Space:
    """`space` with twice the room for positions (at most `limit`), its table rebuilt."""
    stored = int(space.counts[kernels.N])
    capacity = 2 * space.states.shape[0]
    capacity = capacity if limit is None else min(capacity, limit)
    bigger = _space(space.states.shape[1] + 1, capacity, space.masks.size)
    for field in ("states", "parent", "moved", "direction", "distance", "depth"):
        getattr(bigger, field)[:stored] = getattr(space, field)[:stored]
    bigger.counts[:] = space.counts
    kernels.rehash(bigger)
    return bigger


def warm_up() -> None:
    """Compile (or load) the kernels on two small assemblies: one that comes apart after a
    move, in both styles, and one that never does (the search runs out of positions)."""
    block = [(x, y, z) for x in range(3) for y in range(3) for z in range(3)]
    cage = Assembly((Piece(tuple(c for c in block if c != (1, 1, 1))), Piece(((1, 1, 1),))))
    bent = Assembly(
        (
            Piece(((0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 2, 0), (2, 2, 0))),
            Piece(((1, 1, 0),)),
            Piece(((1, 0, 0),)),
        )
    )
    for unit_steps in (False, True):
        disassemble(bent, unit_steps=unit_steps)
        disassemble(cage, unit_steps=unit_steps)

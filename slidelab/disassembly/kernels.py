"""numba kernels for taking a part of an assembly apart: breadth-first search to a separation.

A position of a part's m pieces is m - 1 uint64 words, one per piece after the
anchor (the part's first piece, held still), each packing the piece's offset
from its place in the assembly relative to the anchor's: x, y and z biased by
`BIAS` in 16 bits each.  A `Space` holds the positions in breadth-first order
(`states`, also the queue), an open-addressing table of state index + 1, and
for each position the move that reached it, so the path is read back.

Expanding a position follows BurrTools' disassembler (its `find`), so that the
breadth-first order, and with it the separation taken, is BurrTools': the room
between every two pieces in the six directions (`free`, from the pairs'
differences in `Lines`); then a set that can leave (a piece with what it
cannot leave behind, a single piece before a group of at most half the
pieces); else, direction by direction (+x, -x, +y, -y, +z, -z), piece
by piece, step by step (1, 2, ... cells, or 1 with unit steps): the piece
pushing what it meets moves the step, while at most half the pieces move, and
right after each new such move the union of it with each earlier move of the
direction by as many cells, newest first, when the union is new, neither of
the two and not every piece.  A set holding the anchor is stored as the rest
moved back, and recorded as found.

`search` expands a bounded number of positions per call and returns, so the
driver can report progress, grow the arrays or stop between calls; a call that
runs out of room returns before the position it was expanding, which the next
call expands again (its children already stored are found in the table).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from slidelab.kernels import kernel
from slidelab.sliding.kernels import _hash, _lowest_bit

FREE = 1 << 30
"""Room towards a piece never met in that direction."""
BIAS = 1 << 15
"""Added to each coordinate of an offset before it is packed in 16 bits."""

N, HEAD, LEAVE_MASK, LEAVE_DIRECTION = range(4)
"""Fields of `Space.counts`: positions stored, next position to expand, and the set that
leaves (part-local piece bits) and its direction when a separation was found."""
COUNTS = 4

DONE = -1
"""`search`: every reachable position expanded, none lets a set leave."""
MORE = -2
"""`search`: the call's budget is spent; call again."""
FULL = -3
"""`search`: the states, or the table, are full; grow them and call again."""
MANY = -4
"""`search`: more moves in one direction than `Space.masks` holds; grow it and call again."""

_ONE = np.uint64(1)
_MASK16 = np.uint64(0xFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


class Lines(NamedTuple):
    """The differences w - v (v a cell of piece i, w one of piece j) of every pair i < j of
    an assembly's pieces (those of j and i are their negatives), by line along each axis:
    row (i * count + j) * 3 + axis of `plane`
    holds the line table's base in `starts`, the low corner of the plane across the axis and
    its two sizes; `starts[cell]` to `starts[cell + 1]` is the line's slice of `values`,
    the coordinates along the axis in increasing order."""

    plane: np.ndarray
    starts: np.ndarray
    values: np.ndarray
    count: int


class Space(NamedTuple):
    """The search's positions and its working arrays (made and grown by the driver)."""

    states: np.ndarray
    """uint64 [capacity, m - 1]: packed offsets, in breadth-first order."""
    table: np.ndarray
    """int64 [power of two >= 2 * capacity]: state index + 1, 0 for an empty slot."""
    parent: np.ndarray
    """int64 [capacity]: the position each was reached from (-1 for the start)."""
    moved: np.ndarray
    """uint64 [capacity]: the part-local pieces that moved to reach it (the anchor among
    them or not), as BurrTools' move takes them."""
    direction: np.ndarray
    distance: np.ndarray
    depth: np.ndarray
    counts: np.ndarray
    room: np.ndarray
    """int64 [6, m, m], scratch: room[d, i, j] is how far piece i slides along d before
    meeting piece j."""
    masks: np.ndarray
    """uint64 [moves], scratch: the moves of the direction being expanded, in the order made..."""
    amounts: np.ndarray
    """int64 [moves], scratch: ... the cells each slides..."""
    slots: np.ndarray
    """int64 [moves], scratch: ... and its slot in `listed`."""
    listed: np.ndarray
    """int64 [2 * moves], scratch: an open-addressing table of move number + 1, 0 for an empty
    slot (emptied after each direction, slot by slot)."""
    child: np.ndarray
    """uint64 [1, m - 1], scratch: the position being made."""


@kernel(cache=True, nogil=True)
def free(lines, i, j, direction, dx, dy, dz):
    """Cells piece i slides along `direction` (+x, -x, +y, -y, +z, -z) before it meets piece j,
    when j stands (dx, dy, dz) from i (offsets from their places); FREE if it never does.
    That is how far j slides the other way before it meets i, which i standing (-dx, -dy,
    -dz) from j: the tables hold the pairs i < j only."""
    if i > j:
        i, j = j, i
        direction ^= 1
        dx, dy, dz = -dx, -dy, -dz
    axis = direction >> 1
    row = (i * lines.count + j) * 3 + axis
    if axis == 0:
        along, first, second = dx, dy, dz
    elif axis == 1:
        along, first, second = dy, dx, dz
    else:
        along, first, second = dz, dx, dy
    u = -first - lines.plane[row, 1]
    v = -second - lines.plane[row, 2]
    if u < 0 or u >= lines.plane[row, 3] or v < 0 or v >= lines.plane[row, 4]:
        return FREE
    cell = lines.plane[row, 0] + u * lines.plane[row, 4] + v
    low = np.int64(lines.starts[cell])
    high = np.int64(lines.starts[cell + 1])
    values = lines.values
    if direction & 1 == 0:
        target = 1 - along  # the least value c >= target meets at k = c + along
        while low < high:
            middle = (low + high) >> 1
            if values[middle] < target:
                low = middle + 1
            else:
                high = middle
        if low == np.int64(lines.starts[cell + 1]):
            return FREE
        return np.int64(values[low]) + along - 1
    target = -1 - along  # the greatest value c <= target meets at k = -(c + along)
    start = low
    while low < high:
        middle = (low + high) >> 1
        if values[middle] <= target:
            low = middle + 1
        else:
            high = middle
    if low == start:
        return FREE
    return -(np.int64(values[low - 1]) + along) - 1


@kernel(cache=True, nogil=True)
def plan_lines(cells, first, plane):
    """Fill the rows of `plane` of each pair i < j but for the line counts (the box of the pair's
    differences: from the pieces' boxes); returns (cells of every plane, most differences of
    a pair, largest box)."""
    count = first.size - 1
    low = np.zeros((count, 3), np.int64)
    high = np.zeros((count, 3), np.int64)
    for p in range(count):
        for a in range(3):
            low[p, a] = cells[first[p], a]
            high[p, a] = cells[first[p], a]
        for c in range(first[p], first[p + 1]):
            for a in range(3):
                low[p, a] = min(low[p, a], cells[c, a])
                high[p, a] = max(high[p, a], cells[c, a])
    total = np.int64(0)
    largest = np.int64(0)
    for i in range(count):
        for j in range(i + 1, count):
            size = np.zeros(3, np.int64)
            for a in range(3):
                size[a] = high[j, a] - low[i, a] - (low[j, a] - high[i, a]) + 1
            largest = max(largest, size[0] * size[1] * size[2])
            for axis in range(3):
                one, two = (1, 2) if axis == 0 else ((0, 2) if axis == 1 else (0, 1))
                row = (i * count + j) * 3 + axis
                plane[row, 0] = total
                plane[row, 1] = low[j, one] - high[i, one]
                plane[row, 2] = low[j, two] - high[i, two]
                plane[row, 3] = size[one]
                plane[row, 4] = size[two]
                total += size[one] * size[two]
    return total, largest


@kernel(cache=True, nogil=True)
def fill_lines(cells, first, plane, starts, values, grid):
    """Fill `starts` and `values` for the planes `plan_lines` laid out; returns the number of
    values (call first with an empty `values` to count them: nothing is written past it)."""
    count = first.size - 1
    used = np.int64(0)
    for i in range(count):
        for j in range(i + 1, count):
            row = (i * count + j) * 3
            lx = plane[row + 1, 1]  # the low corner of the pair's box: x from an axis-1 row,
            ly = plane[row, 1]  # y and z from the axis-0 row
            lz = plane[row, 2]
            sx = plane[row + 1, 3]
            sy = plane[row, 3]
            sz = plane[row, 4]
            grid[: sx * sy * sz] = False
            for v in range(first[i], first[i + 1]):
                for w in range(first[j], first[j + 1]):
                    dx = cells[w, 0] - cells[v, 0] - lx
                    dy = cells[w, 1] - cells[v, 1] - ly
                    dz = cells[w, 2] - cells[v, 2] - lz
                    grid[(dx * sy + dy) * sz + dz] = True
            strides = (sy * sz, sz, 1)
            sizes = (sx, sy, sz)
            lows = (lx, ly, lz)
            for axis in range(3):
                base = plane[row + axis, 0]
                one, two = (1, 2) if axis == 0 else ((0, 2) if axis == 1 else (0, 1))
                n1, n2, n3 = sizes[one], sizes[two], sizes[axis]
                s1, s2, s3 = strides[one], strides[two], strides[axis]
                low = lows[axis]
                for u in range(n1):
                    for t in range(n2):
                        starts[base + u * n2 + t] = used
                        at = u * s1 + t * s2
                        for along in range(n3):
                            if grid[at]:
                                if used < values.size:
                                    values[used] = along + low
                                used += 1
                            at += s3
    if starts.size:
        starts[starts.size - 1] = used
    return used


@kernel(cache=True, nogil=True, inline="always")
def _coordinate(word, shift):
    return np.int64((word >> np.uint64(shift)) & _MASK16) - BIAS


@kernel(cache=True, nogil=True)
def _rooms(lines, pieces, space, row):
    """Fill `space.room` for the position `states[row]` of the part made of `pieces` (their
    numbers in the assembly, the anchor first): i slides along d before meeting j as far as
    j slides the other way before meeting i."""
    m = pieces.size
    states = space.states
    room = space.room
    for i in range(m):
        xi = yi = zi = np.int64(0)
        if i > 0:
            word = states[row, i - 1]
            xi, yi, zi = _coordinate(word, 0), _coordinate(word, 16), _coordinate(word, 32)
        for j in range(i + 1, m):
            word = states[row, j - 1]
            xj, yj, zj = _coordinate(word, 0), _coordinate(word, 16), _coordinate(word, 32)
            for direction in range(6):
                room[direction, i, j] = room[direction ^ 1, j, i] = free(
                    lines, pieces[i], pieces[j], direction, xj - xi, yj - yi, zj - zi
                )


@kernel(cache=True, nogil=True)
def _pushed(room, direction, piece, step, m, largest):
    """The pieces that move when `piece` slides `step` cells along `direction` and takes along
    every piece it meets on the way, directly or through others (BurrTools' checkmovement);
    0 when they are more than `largest`."""
    taken = _ONE << np.uint64(piece)
    frontier = taken
    size = 1
    while frontier:
        i = _lowest_bit(frontier)
        frontier &= frontier - _ONE
        for j in range(m):
            bit = _ONE << np.uint64(j)
            if taken & bit == 0 and room[direction, i, j] < step:
                size += 1
                if size > largest:
                    return np.uint64(0)
                taken |= bit
                frontier |= bit
    return taken


@kernel(cache=True, nogil=True)
def _leaving(room, m, largest):
    """A set of at most `largest` pieces that can leave, as BurrTools finds one: for each
    direction and piece, the piece and every piece it would ever meet; (set bits,
    direction), or (0, -1)."""
    for direction in range(6):
        for piece in range(m):
            taken = _pushed(room, direction, piece, FREE, m, largest)
            if taken:
                return taken, direction
    return np.uint64(0), -1


@kernel(cache=True, nogil=True)
def _reach(room, direction, chosen, m):
    """How far the set `chosen` slides along `direction` before it meets a piece outside."""
    reach = np.int64(FREE)
    for i in range(m):
        if chosen >> np.uint64(i) & _ONE == 0:
            continue
        for j in range(m):
            if chosen >> np.uint64(j) & _ONE == 0 and room[direction, i, j] < reach:
                reach = room[direction, i, j]
    return reach


@kernel(cache=True, nogil=True)
def _store(space, row, moved, direction, distance, m):
    """Add the position `states[row]` with the pieces `moved` slid `distance` cells along
    `direction` (the anchor among them: the others slid back); returns 1 if new, 0 if known,
    -1 if the states or the table are full."""
    states = space.states
    child = space.child
    axis = direction >> 1
    step = np.int64(distance) if direction & 1 == 0 else -np.int64(distance)
    anchored = moved & _ONE
    shift = np.uint64(16 * axis)
    for i in range(1, m):
        word = states[row, i - 1]
        if (moved >> np.uint64(i) & _ONE) != anchored:
            value = np.int64((word >> shift) & _MASK16) + (-step if anchored else step)
            word = (word & ~(_MASK16 << shift)) | (np.uint64(value) << shift)
        child[0, i - 1] = word
    table = space.table
    mask = table.size - 1
    slot = np.int64(_hash(child, 0) & np.uint64(mask))
    while table[slot] != 0:
        other = table[slot] - 1
        same = True
        for w in range(m - 1):
            if states[other, w] != child[0, w]:
                same = False
                break
        if same:
            return 0
        slot = (slot + 1) & mask
    counts = space.counts
    n = counts[N]
    if n >= states.shape[0] or 2 * (n + 1) > table.size:
        return -1
    for w in range(m - 1):
        states[n, w] = child[0, w]
    table[slot] = n + 1
    space.parent[n] = row
    space.moved[n] = moved
    space.direction[n] = direction
    space.distance[n] = distance
    space.depth[n] = space.depth[row] + 1
    counts[N] = n + 1
    return 1


@kernel(cache=True, nogil=True)
def _slot(space, moved, distance):
    """The slot of `space.listed` that holds the direction's move `moved` by `distance`, or
    the empty slot where it goes."""
    listed = space.listed
    mask = np.uint64(listed.size - 1)
    h = (moved ^ (np.uint64(distance) << np.uint64(48))) * _GOLDEN
    slot = np.int64((h ^ (h >> np.uint64(29))) & mask)
    while listed[slot] != 0:
        k = listed[slot] - 1
        if space.masks[k] == moved and space.amounts[k] == distance:
            return slot
        slot = (slot + 1) & np.int64(mask)
    return slot


@kernel(cache=True, nogil=True)
def _listed(space, moved, distance):
    """Whether the direction's moves include `moved` slid `distance` cells."""
    return space.listed[_slot(space, moved, distance)] != 0


@kernel(cache=True, nogil=True)
def _add(space, row, made, moved, direction, distance, m):
    """List `moved` slid `distance` cells as the direction's move number `made` and store the
    position it leads to from `states[row]`; returns the number of moves listed, or MANY or
    FULL."""
    if made >= space.masks.size:
        return MANY
    slot = _slot(space, moved, distance)
    space.masks[made] = moved
    space.amounts[made] = distance
    space.slots[made] = slot
    space.listed[slot] = made + 1
    if _store(space, row, moved, direction, distance, m) < 0:
        return FULL
    return made + 1


@kernel(cache=True, nogil=True)
def _moves(space, row, m, unit_steps):
    """Store the positions one move from `states[row]` in BurrTools' order (module doc), the
    rooms already in `space.room`; returns 0, MANY or FULL (the driver then replaces the
    scratch arrays, `listed` among them, by empty ones)."""
    everyone = np.uint64(0)
    for i in range(m):
        everyone |= _ONE << np.uint64(i)
    for direction in range(6):
        made = 0
        for piece in range(m):
            step = 1
            while True:
                moved = _pushed(space.room, direction, piece, step, m, m // 2)
                if moved == 0:
                    break
                last = _reach(space.room, direction, moved, m)  # the same set up to there
                if last >= FREE:  # never: the set could leave, and `_leaving` found one
                    break
                if unit_steps:
                    last = 1
                for distance in range(step, last + 1):
                    if _listed(space, moved, distance):
                        continue
                    newest = made
                    made = _add(space, row, made, moved, direction, distance, m)
                    if made < 0:
                        return made
                    for k in range(newest - 1, -1, -1):  # its unions, the newest moves first
                        other = space.masks[k]
                        union = moved | other
                        if (
                            space.amounts[k] == distance
                            and union != moved
                            and union != other
                            and union != everyone
                            and not _listed(space, union, distance)
                        ):
                            made = _add(space, row, made, union, direction, distance, m)
                            if made < 0:
                                return made
                if unit_steps:
                    break
                step = last + 1
        for k in range(made):
            space.listed[space.slots[k]] = 0
    return 0


@kernel(cache=True, nogil=True)
def search(lines, pieces, space, budget, unit_steps):
    """Expand up to `budget` positions of the part made of `pieces` (their numbers in the
    assembly, the anchor first) from `counts[HEAD]` on; returns the index of the first
    position from which a set leaves (that set and its direction in `counts`), or DONE,
    MORE, FULL or MANY."""
    m = pieces.size
    counts = space.counts
    head = counts[HEAD]
    for _ in range(budget):
        if head >= counts[N]:
            counts[HEAD] = head
            return DONE
        _rooms(lines, pieces, space, head)
        for largest in (1, m // 2):
            taken, direction = _leaving(space.room, m, largest)
            if direction >= 0:
                counts[HEAD] = head
                counts[LEAVE_MASK] = np.int64(taken)
                counts[LEAVE_DIRECTION] = direction
                return head
        status = _moves(space, head, m, unit_steps)
        if status < 0:
            counts[HEAD] = head
            return status
        head += 1
    counts[HEAD] = head
    return MORE if head < counts[N] else DONE


@kernel(cache=True, nogil=True)
def rehash(space):
    """Put every stored position in `space.table` again (after the table was replaced)."""
    table = space.table
    mask = table.size - 1
    for n in range(space.counts[N]):
        slot = np.int64(_hash(space.states, n) & np.uint64(mask))
        while table[slot] != 0:
            slot = (slot + 1) & mask
        table[slot] = n + 1


@kernel(cache=True, nogil=True)
def restart(space):
    """Empty `space` for a new search from the position in `space.child`: the slots of the
    stored positions are cleared (not the whole table), then that position is stored."""
    table = space.table
    mask = table.size - 1
    for n in range(space.counts[N]):
        slot = np.int64(_hash(space.states, n) & np.uint64(mask))
        while table[slot] != n + 1:
            slot = (slot + 1) & mask
        table[slot] = 0
    for w in range(space.states.shape[1]):
        space.states[0, w] = space.child[0, w]
    space.counts[:] = 0
    space.counts[N] = 1
    space.parent[0] = -1
    space.depth[0] = 0
    slot = np.int64(_hash(space.states, 0) & np.uint64(mask))
    table[slot] = 1

"""numba kernels over a whole configuration graph held as arrays (`slidelab.sliding.hardest`):
its nodes (every placement of a part, coded), an index of them, its components and the
distances from a set of sources.

A graph is given in compressed rows: the neighbours of node v (configurations numbered
by their row in the part's codes) are `indices[indptr[v]:indptr[v + 1]]`.  Every move
can be undone, so edges go both ways.  Each kernel does a bounded share of the work per
call (a range of nodes, a budget of them), so the search can report progress and stop
between calls.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from slidelab.kernels import kernel
from slidelab.sliding.kernels import _hash, _lowest_bit, _same, pack


@kernel(cache=True, nogil=True)
def _root(parent, v):
    """The representative of v's set, halving the path on the way."""
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


@kernel(cache=True, nogil=True)
def unite(indptr, indices, parent, lo, hi):
    """Join the sets (a union-find forest over the nodes, each set named by its smallest
    node) of the nodes lo..hi and of their neighbours."""
    for v in range(lo, hi):
        for e in range(indptr[v], indptr[v + 1]):
            a = _root(parent, v)
            b = _root(parent, indices[e])
            if a < b:
                parent[b] = a
            elif b < a:
                parent[a] = b


@kernel(cache=True, nogil=True)
def count_roots(parent):
    """How many sets the union-find forest `parent` holds."""
    count = 0
    for v in range(parent.size):
        if parent[v] == v:
            count += 1
    return count


@kernel(cache=True, nogil=True)
def spread(indptr, indices, distance, queue, ends, budget):
    """Go on with a breadth-first search: take up to `budget` nodes from the queue
    `queue[ends[0]:ends[1]]` (distances known, in order), and give each neighbour not yet
    met (distance -1) the next distance, appending it to the queue."""
    head = ends[0]
    tail = ends[1]
    limit = head + budget
    while head < tail and head < limit:
        v = queue[head]
        head += 1
        for e in range(indptr[v], indptr[v + 1]):
            w = indices[e]
            if distance[w] < 0:
                distance[w] = distance[v] + 1
                queue[tail] = w
                tail += 1
    ends[0] = head
    ends[1] = tail


class Plan(NamedTuple):
    """Where the pieces of one part of the placements may stand (`slidelab.sliding.hardest`).

    Slot s places piece slot_piece[s] (pieces in the board's order: by kind), of kind
    slot_kind[s].  A piece of kind k at anchor a covers the board cells
    a + shape_off[shape_lo[k]:shape_lo[k + 1]], and `anchors[s]` (a bitset of board
    cells, in as many words as the board needs) only holds anchors where it lies
    inside the board, clear of obstacles.
    """

    slot_piece: np.ndarray
    slot_kind: np.ndarray
    anchors: np.ndarray
    same: np.ndarray
    """Slot s holds a piece interchangeable with slot s - 1's and takes a later anchor, so
    each set of anchors is met once."""
    shape_lo: np.ndarray
    shape_off: np.ndarray


class Walk(NamedTuple):
    """Where `placement_keys` stopped, so that the next call goes on from there."""

    candidates: np.ndarray
    """(slots, words): the anchors still to try at each level."""
    taken: np.ndarray
    """(slots + 1, words): the cells the pieces above each level cover."""
    anchor: np.ndarray
    """The anchor chosen at each level."""
    level: np.ndarray
    """[0]: the level to go on at; `WALK_START` before the first call, `WALK_DONE` after the
    last placement."""


WALK_START = -1
WALK_DONE = -2


@kernel(cache=True, nogil=True, inline="always")
def _fit(plan, walk, s, after):
    """Set the candidates of level s: the anchors of slot s whose cells the pieces above
    leave free, and later than `after` (-1: any)."""
    words = walk.candidates.shape[1]
    out = walk.candidates
    taken = walk.taken
    k = plan.slot_kind[s]
    for w in range(words):
        out[s, w] = plan.anchors[s, w]
    for i in range(plan.shape_lo[k], plan.shape_lo[k + 1]):
        # bit b of word w is anchor 64w + b, whose cell 64w + b + off is bit b + r of word
        # w + q (floor division: offsets may be negative)
        q = plan.shape_off[i] >> 6
        r = np.uint64(plan.shape_off[i] & 63)
        for w in range(words):
            moved = taken[s, w + q] >> r if 0 <= w + q < words else np.uint64(0)
            if r and 0 <= w + q + 1 < words:
                moved |= taken[s, w + q + 1] << (np.uint64(64) - r)
            out[s, w] &= ~moved
    if after >= 0:
        for w in range(words):
            if w < after >> 6:
                out[s, w] = 0
            elif w == after >> 6:
                out[s, w] &= ~((np.uint64(2) << np.uint64(after & 63)) - np.uint64(1))


@kernel(cache=True, nogil=True)
def placement_keys(board, plan, walk, out):
    """Write the codes of the next placements of the part into the rows of `out`, every
    placement once, in order of their anchors, until `out` is full or none is left
    (`walk.level[0]` is then `WALK_DONE`); returns how many were written."""
    slots = plan.slot_kind.size
    words = plan.anchors.shape[1]
    capacity = out.shape[0]
    row = np.empty(slots, np.int64)
    count = 0
    s = walk.level[0]
    if s == WALK_DONE:
        return 0
    if s == WALK_START:
        if slots == 0:
            if capacity == 0:
                return 0
            _write(board, plan.slot_piece, walk.anchor, row, out, 0)
            walk.level[0] = WALK_DONE
            return 1
        walk.taken[0, :] = 0
        _fit(plan, walk, 0, -1)
        s = 0
    while s >= 0:
        w = 0
        while w < words and walk.candidates[s, w] == 0:
            w += 1
        if w == words:
            s -= 1
            continue
        if s == slots - 1 and count == capacity:
            walk.level[0] = s
            return count
        bits = walk.candidates[s, w]
        a = 64 * w + _lowest_bit(bits)
        walk.candidates[s, w] = bits & (bits - np.uint64(1))
        walk.anchor[s] = a
        if s == slots - 1:
            _write(board, plan.slot_piece, walk.anchor, row, out, count)
            count += 1
            continue
        k = plan.slot_kind[s]
        for v in range(words):
            walk.taken[s + 1, v] = walk.taken[s, v]
        for i in range(plan.shape_lo[k], plan.shape_lo[k + 1]):
            c = a + plan.shape_off[i]
            walk.taken[s + 1, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
        s += 1
        _fit(plan, walk, s, a if plan.same[s] else -1)
    walk.level[0] = WALK_DONE
    return count


@kernel(cache=True, nogil=True, inline="always")
def _write(board, slot_piece, anchor, row, out, n):
    """Code the slots' anchors, as the pieces' and sorted within each kind (slots of a kind
    may come out of order when they stand on different lines), into row n of `out`."""
    for s in range(anchor.size):
        row[slot_piece[s]] = anchor[s]
    for k in range(board.kind_first.size - 1):
        for p in range(board.kind_first[k] + 1, board.kind_first[k + 1]):
            value = row[p]
            q = p - 1
            while q >= board.kind_first[k] and row[q] > value:
                row[q + 1] = row[q]
                q -= 1
            row[q + 1] = value
    pack(board, row, out[n])


@kernel(cache=True, nogil=True)
def index_table(keys, table, lo, hi):
    """Put 1 + the index of each row lo..hi of `keys` in the open-addressing `table` (zeroed
    before the first call; a power of two, more than twice the rows)."""
    mask = table.size - 1
    for r in range(lo, hi):
        slot = np.int64(_hash(keys, r) & np.uint64(mask))
        while table[slot] != 0:
            slot = (slot + 1) & mask
        table[slot] = r + 1


@kernel(cache=True, nogil=True)
def look_up(keys, table, queries, out):
    """The index in `keys` of each row of `queries` into `out`, through `index_table`'s table;
    returns the number of the first query that is not there, or -1."""
    mask = table.size - 1
    for q in range(queries.shape[0]):
        slot = np.int64(_hash(queries, q) & np.uint64(mask))
        while True:
            entry = np.int64(table[slot])
            if entry == 0:
                return q
            if _same(keys, entry - 1, queries, q):
                out[q] = entry - 1
                break
            slot = (slot + 1) & mask
    return -1

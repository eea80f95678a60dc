"""Numba kernels for breadth-first search over sliding-block configurations.

A configuration is packed into `words` uint64s: the anchor cell of every piece,
`bits` bits each, pieces grouped by kind and sorted by anchor within a kind (so
identical pieces give one packing).  Configurations are appended to `states` in
breadth-first order, with the index of their predecessor in `parents`; `table`
is an open-addressing hash table of state index + 1 (0 = empty slot).

The board is padded as in Knuth's program: `width = cols + 1` with one boundary
column, and a boundary row above and below, so a unit step off the board always
lands on a boundary cell.  In the occupancy array `occ`, -1 is a boundary or
obstacle, 0 is empty and k > 0 is piece k - 1.

`expand` works on a bounded number of parents per call and returns, so the
driver can report progress, grow the arrays, or stop between calls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NEW, OLD, FULL = 0, 1, 2
"""Outcomes of inserting a configuration."""

RANGE_DONE, BUDGET_USED, NEED_ROOM = 0, 1, 2
"""Why `expand` returned."""

STEP, RAY, FLOOD = 0, 1, 2
"""How a chosen set of pieces may move: one step, straight slides, any path."""

_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True, nogil=True, inline="always")
def _hash(key):
    h = np.uint64(0x632BE59BD9B4E019)
    for w in range(key.size):
        h = (h ^ key[w]) * _MIX1
        h = (h ^ (h >> np.uint64(31))) * _MIX2
    return h ^ (h >> np.uint64(29))


@njit(cache=True, nogil=True)
def pack(anchors, bits, per_word, out):
    """Pack anchor cells into `out` (uint64 words)."""
    out[:] = 0
    for i in range(anchors.size):
        shift = np.uint64(bits * (i % per_word))
        out[i // per_word] |= np.uint64(anchors[i]) << shift


@njit(cache=True, nogil=True)
def unpack(key, bits, per_word, out):
    """Unpack anchor cells from the words of `key` into `out`."""
    mask = np.uint64((1 << bits) - 1)
    for i in range(out.size):
        shift = np.uint64(bits * (i % per_word))
        out[i] = np.int64((key[i // per_word] >> shift) & mask)


@njit(cache=True, nogil=True)
def insert(states, parents, n, table, key, parent, max_fill):
    """Add `key` if it is new; returns (new n, NEW | OLD | FULL)."""
    mask = table.size - 1
    slot = np.int64(_hash(key) & np.uint64(mask))
    words = key.size
    while True:
        entry = table[slot]
        if entry == 0:
            if n >= states.shape[0] or n >= max_fill:
                return n, FULL
            states[n, :] = key
            parents[n] = parent
            table[slot] = n + 1
            return n + 1, NEW
        index = np.int64(entry) - 1
        same = True
        for w in range(words):
            if states[index, w] != key[w]:
                same = False
                break
        if same:
            return n, OLD
        slot = (slot + 1) & mask


@njit(cache=True, nogil=True)
def rehash(states, n, table):
    """Fill an empty `table` with the first n states."""
    mask = table.size - 1
    for index in range(n):
        slot = np.int64(_hash(states[index]) & np.uint64(mask))
        while table[slot] != 0:
            slot = (slot + 1) & mask
        table[slot] = index + 1


@njit(cache=True, nogil=True)
def _emit(anchors, moved, n_moved, disp, buf, key, states, parents, n, table, parent,
          max_fill, bits, per_word, seg_lo, seg_hi, pad_of, cell_of):
    """Insert the configuration where the pieces in `moved` are shifted by `disp`."""
    buf[:] = anchors
    for m in range(n_moved):
        p = moved[m]
        buf[p] = cell_of[pad_of[anchors[p]] + disp]
    for m in range(n_moved):
        lo = seg_lo[moved[m]]
        hi = seg_hi[moved[m]]
        for i in range(lo + 1, hi):
            value = buf[i]
            j = i - 1
            while j >= lo and buf[j] > value:
                buf[j + 1] = buf[j]
                j -= 1
            buf[j + 1] = value
    pack(buf, bits, per_word, key)
    return insert(states, parents, n, table, key, parent, max_fill)


@njit(cache=True, nogil=True)
def _fits(occ, cells, n_cells, disp):
    for i in range(n_cells):
        if occ[cells[i] + disp] != 0:
            return False
    return True


@njit(cache=True, nogil=True)
def _move_set(mode, first_dir, occ, anchors, moved, n_moved, cells, n_cells, dirs,
              seen, stamp, queue, buf, key, states, parents, n, table, parent, max_fill,
              bits, per_word, seg_lo, seg_hi, pad_of, cell_of):
    """Emit every configuration reachable by moving the set `moved` rigidly.

    `occ` must not contain the moved pieces.  STEP and RAY try `first_dir` only
    (or all four directions when it is 0); FLOOD explores every displacement
    reachable by unit steps that stay clear of the other pieces.
    Returns (n, status) with status FULL when the arrays ran out of room.
    """
    if mode == FLOOD:
        ref = cells[0]
        seen[ref] = stamp
        head = 0
        tail = 1
        queue[0] = 0
        while head < tail:
            disp = queue[head]
            head += 1
            for d in range(4):
                nd = disp + dirs[d]
                if seen[ref + nd] == stamp or not _fits(occ, cells, n_cells, nd):
                    continue
                seen[ref + nd] = stamp
                queue[tail] = nd
                tail += 1
                n, status = _emit(anchors, moved, n_moved, nd, buf, key, states, parents, n,
                                  table, parent, max_fill, bits, per_word, seg_lo, seg_hi,
                                  pad_of, cell_of)
                if status == FULL:
                    return n, FULL
        return n, NEW
    for d in range(4):
        step = dirs[d]
        if first_dir != 0 and step != first_dir:
            continue
        disp = step
        while _fits(occ, cells, n_cells, disp):
            n, status = _emit(anchors, moved, n_moved, disp, buf, key, states, parents, n,
                              table, parent, max_fill, bits, per_word, seg_lo, seg_hi,
                              pad_of, cell_of)
            if status == FULL:
                return n, FULL
            if mode == STEP:
                break
            disp += step
    return n, NEW


@njit(cache=True, nogil=True)
def _gather_cells(anchors, moved, n_moved, kind_of, off_lo, off_hi, offs, pad_of, cells):
    count = 0
    for m in range(n_moved):
        p = moved[m]
        base = pad_of[anchors[p]]
        k = kind_of[p]
        for o in range(off_lo[k], off_hi[k]):
            cells[count] = base + offs[o]
            count += 1
    return count


@njit(cache=True, nogil=True)
def _set_cells(occ, cells, n_cells, value):
    for i in range(n_cells):
        occ[cells[i]] = value


@njit(cache=True, nogil=True)
def _ideals_digraph(occ, delta, n_vertices, succ):
    """Arcs u -> v when u would bump into v on a shift by +delta (vertex 0 = stuck)."""
    succ[:] = 0
    for x in range(occ.size - delta):
        a = occ[x]
        b = occ[x + delta]
        if a == 0 or b == 0 or a == b:
            continue
        u = a if a > 0 else 0
        v = b if b > 0 else 0
        if u != v:
            succ[u] |= np.uint64(1) << np.uint64(v)
    # Warshall's transitive closure, one bitset row per vertex (reflexive).
    for v in range(n_vertices):
        succ[v] |= np.uint64(1) << np.uint64(v)
    for k in range(n_vertices):
        bit = np.uint64(1) << np.uint64(k)
        for v in range(n_vertices):
            if succ[v] & bit:
                succ[v] |= succ[k]


@njit(cache=True, nogil=True)
def expand(states, parents, n, table, lo, hi, budget, style, max_fill,
           bits, per_word, kind_of, seg_lo, seg_hi, off_lo, off_hi, offs,
           pad_of, cell_of, base_occ, width):
    """Expand parents lo.. (at most `budget` of them, stopping at hi).

    Returns (next parent to expand, n, RANGE_DONE | BUDGET_USED | NEED_ROOM).
    A parent interrupted by NEED_ROOM is expanded again from the start on the
    next call; the configurations it already added are found again as old.
    """
    n_pieces = kind_of.size
    n_vertices = n_pieces + 1
    anchors = np.empty(n_pieces, np.int64)
    buf = np.empty(n_pieces, np.int64)
    key = np.empty(states.shape[1], np.uint64)
    occ = np.empty(base_occ.size, np.int64)
    moved = np.empty(n_pieces, np.int64)
    max_cells = 0
    for p in range(n_pieces):
        max_cells += off_hi[kind_of[p]] - off_lo[kind_of[p]]
    cells = np.empty(max_cells, np.int64)
    seen = np.zeros(base_occ.size, np.int64)
    queue = np.empty(base_occ.size, np.int64)
    dirs = np.array([1, -1, width, -width], np.int64)
    desc = np.empty(n_vertices, np.uint64)
    anc = np.empty(n_vertices, np.uint64)
    inc_stack = np.empty(2 * n_vertices + 2, np.uint64)
    exc_stack = np.empty(2 * n_vertices + 2, np.uint64)
    everyone = np.uint64(0)
    for v in range(n_vertices):
        everyone |= np.uint64(1) << np.uint64(v)
    mode = style % 3
    stamp = 0
    parent = lo
    stop = min(hi, lo + budget)
    while parent < stop:
        unpack(states[parent], bits, per_word, anchors)
        occ[:] = base_occ
        for p in range(n_pieces):
            moved[0] = p
            count = _gather_cells(anchors, moved, 1, kind_of, off_lo, off_hi, offs, pad_of,
                                  cells)
            _set_cells(occ, cells, count, p + 1)
        status = NEW
        if style < 3:
            for p in range(n_pieces):
                moved[0] = p
                count = _gather_cells(anchors, moved, 1, kind_of, off_lo, off_hi, offs,
                                      pad_of, cells)
                _set_cells(occ, cells, count, 0)
                stamp += 1
                n, status = _move_set(mode, 0, occ, anchors, moved, 1, cells, count, dirs,
                                      seen, stamp, queue, buf, key, states, parents, n, table,
                                      parent, max_fill, bits, per_word, seg_lo, seg_hi,
                                      pad_of, cell_of)
                _set_cells(occ, cells, count, p + 1)
                if status == FULL:
                    break
        else:
            for axis in range(2):
                delta = 1 if axis == 0 else width
                _ideals_digraph(occ, delta, n_vertices, desc)
                for v in range(n_vertices):
                    anc[v] = 0
                for u in range(n_vertices):
                    for v in range(n_vertices):
                        if desc[u] & (np.uint64(1) << np.uint64(v)):
                            anc[v] |= np.uint64(1) << np.uint64(u)
                # Backtrack over ideals: decide the lowest undecided vertex, excluding it
                # with all its ancestors or including it with all its descendants.
                top = 1
                inc_stack[0] = 0
                exc_stack[0] = 0
                while top > 0 and status != FULL:
                    top -= 1
                    inc = inc_stack[top]
                    exc = exc_stack[top]
                    undecided = everyone & ~(inc | exc)
                    if undecided != 0:
                        v = 0
                        while not (undecided >> np.uint64(v)) & np.uint64(1):
                            v += 1
                        inc_stack[top] = inc
                        exc_stack[top] = exc | anc[v]
                        inc_stack[top + 1] = inc | desc[v]
                        exc_stack[top + 1] = exc
                        top += 2
                        continue
                    if inc & np.uint64(1):
                        chosen = everyone & ~inc
                        first_dir = -delta
                    else:
                        chosen = inc
                        first_dir = delta
                    if chosen == 0:
                        continue
                    n_moved = 0
                    for p in range(n_pieces):
                        if (chosen >> np.uint64(p + 1)) & np.uint64(1):
                            moved[n_moved] = p
                            n_moved += 1
                    count = _gather_cells(anchors, moved, n_moved, kind_of, off_lo, off_hi,
                                          offs, pad_of, cells)
                    _set_cells(occ, cells, count, 0)
                    stamp += 1
                    n, status = _move_set(mode, first_dir, occ, anchors, moved, n_moved, cells,
                                          count, dirs, seen, stamp, queue, buf, key, states,
                                          parents, n, table, parent, max_fill, bits, per_word,
                                          seg_lo, seg_hi, pad_of, cell_of)
                    # put the pieces back, each with its own number
                    for m in range(n_moved):
                        count = _gather_cells(anchors, moved[m:], 1, kind_of, off_lo,
                                              off_hi, offs, pad_of, cells)
                        _set_cells(occ, cells, count, moved[m] + 1)
                if status == FULL:
                    break
        if status == FULL:
            return parent, n, NEED_ROOM
        parent += 1
    return parent, n, (RANGE_DONE if parent >= hi else BUDGET_USED)


@njit(cache=True, nogil=True)
def goal_scan(states, lo, hi, bits, per_word, kind_of, goal_kind_at, n_required, empty_cell,
              check_empty, off_lo, off_hi, offs, pad_of, cell_of, first_only):
    """Find configurations in lo..hi that meet the goal.

    `goal_kind_at[c]` is 1 + the kind required to have an anchor at cell c (0 if
    none); `empty_cell[c]` marks cells that must be empty.  Returns (index of the
    first match or -1, number of matches); with `first_only` it stops at the first.
    """
    n_pieces = kind_of.size
    anchors = np.empty(n_pieces, np.int64)
    first = -1
    count = 0
    for index in range(lo, hi):
        unpack(states[index], bits, per_word, anchors)
        matched = 0
        for p in range(n_pieces):
            if goal_kind_at[anchors[p]] == kind_of[p] + 1:
                matched += 1
        if matched != n_required:
            continue
        ok = True
        if check_empty:
            for p in range(n_pieces):
                base = pad_of[anchors[p]]
                k = kind_of[p]
                for o in range(off_lo[k], off_hi[k]):
                    if empty_cell[cell_of[base + offs[o]]]:
                        ok = False
                        break
                if not ok:
                    break
        if ok:
            count += 1
            if first < 0:
                first = index
                if first_only:
                    break
    return first, count

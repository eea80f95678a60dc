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
driver can report progress, grow the arrays, or stop between calls.  Told to
`sift`, it only reads the table and collects the successors the table lacks, so
several threads can expand disjoint ranges of parents at once (the kernels
release the GIL); `insert_all` then inserts what they collected, in order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NEW, OLD, FULL = 0, 1, 2
"""Outcomes of inserting a configuration."""

RANGE_DONE, BUDGET_USED, NEED_ROOM = 0, 1, 2
"""Why `expand` returned."""

PENDING = 512
"""Successors collected before they are looked up together."""

STEP, RAY, FLOOD = 0, 1, 2
"""How a chosen set of pieces may move: one step, straight slides, any path."""

USED = np.uint64(1 << 63)
"""Marks an occupied table slot; packing leaves the top bit of each word free."""

_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True, nogil=True)
def _hash(key):
    h = np.uint64(0x632BE59BD9B4E019)
    for w in range(key.size):
        h = (h ^ key[w]) * _MIX1
        h = (h ^ (h >> np.uint64(31))) * _MIX2
    return h ^ (h >> np.uint64(29))


@njit(cache=True, nogil=True)
def pack(anchors, bits, per_word, out):
    """Pack anchor cells into `out` (uint64 words)."""
    word = 0
    slot = 0
    acc = np.uint64(0)
    for i in range(anchors.size):
        acc |= np.uint64(anchors[i]) << np.uint64(slot * bits)
        slot += 1
        if slot == per_word:
            out[word] = acc
            word += 1
            slot = 0
            acc = np.uint64(0)
    if slot:
        out[word] = acc


@njit(cache=True, nogil=True)
def unpack(key, bits, per_word, out):
    """Unpack anchor cells from the words of `key` into `out`."""
    unpack_row(key.reshape(1, key.size), np.int64(0), bits, per_word, out)


@njit(cache=True, nogil=True)
def unpack_row(states, row, bits, per_word, out):
    """Unpack the anchor cells of `states[row]` into `out`."""
    mask = np.uint64((1 << bits) - 1)
    word = 0
    slot = 0
    acc = states[row, 0]
    for i in range(out.size):
        out[i] = np.int64(acc & mask)
        acc >>= np.uint64(bits)
        slot += 1
        if slot == per_word and i + 1 < out.size:
            word += 1
            slot = 0
            acc = states[row, word]


@njit(cache=True, nogil=True)
def _find(table, key, slot):
    """Probe `table` for `key` from `slot`: (its slot, True), or (the empty slot, False)."""
    mask = table.shape[0] - 1
    first = key[0] | USED
    while True:
        head = table[slot, 0]
        if head == 0:
            return slot, False
        if head == first:
            same = True
            for w in range(1, key.size):
                if table[slot, w] != key[w]:
                    same = False
                    break
            if same:
                return slot, True
        slot = (slot + 1) & mask


@njit(cache=True, nogil=True)
def insert(states, parents, n, table, key, parent, max_fill):
    """Add `key` if it is new; returns (new n, NEW | OLD | FULL)."""
    slot, found = _find(table, key, np.int64(_hash(key) & np.uint64(table.shape[0] - 1)))
    if found:
        return n, OLD
    if n >= states.shape[0] or n >= max_fill:
        return n, FULL
    table[slot, 0] = key[0] | USED
    for w in range(key.size):
        states[n, w] = key[w]
    for w in range(1, key.size):
        table[slot, w] = key[w]
    parents[n] = parent
    return n + 1, NEW


@njit(cache=True, nogil=True)
def rehash(states, n, table):
    """Fill an empty `table` with the first n states."""
    mask = table.shape[0] - 1
    words = states.shape[1]
    for index in range(n):
        slot = np.int64(_hash(states[index]) & np.uint64(mask))
        while table[slot, 0] != 0:
            slot = (slot + 1) & mask
        table[slot, 0] = states[index, 0] | USED
        for w in range(1, words):
            table[slot, w] = states[index, w]


@njit(cache=True, nogil=True, inline="always")
def _displacements(mode, first_dir, occ, cells, n_cells, dirs, seen, stamp, queue, out):
    """Displacements that move the cells rigidly without hitting anything in `occ`.

    `occ` must not contain the moving cells.  STEP and RAY try `first_dir` only
    (all four directions when it is 0); FLOOD collects every displacement
    reachable by unit steps through free positions.  Returns how many it wrote.
    """
    found = 0
    if mode == FLOOD:
        ref = cells[0]
        seen[ref] = stamp
        head = 0
        queue[0] = 0
        tail = 1
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
                out[found] = nd
                found += 1
        return found
    for d in range(4):
        step = dirs[d]
        if first_dir != 0 and step != first_dir:
            continue
        disp = step
        while _fits(occ, cells, n_cells, disp):
            out[found] = disp
            found += 1
            if mode == STEP:
                break
            disp += step
    return found


@njit(cache=True, nogil=True)
def _fits(occ, cells, n_cells, disp):
    for i in range(n_cells):
        if occ[cells[i] + disp] != 0:
            return False
    return True


@njit(cache=True, nogil=True)
def _closure(occ, delta, n_vertices, desc, anc):
    """Who blocks whom on a shift by +delta, closed transitively (vertex 0 = walls).

    `desc[u]` gets every vertex u pushes against, directly or not, and u itself;
    `anc[v]` the reverse relation.
    """
    for v in range(n_vertices):
        desc[v] = np.uint64(1) << np.uint64(v)
        anc[v] = 0
    for x in range(occ.size - delta):
        a = occ[x]
        b = occ[x + delta]
        if a == 0 or b == 0 or a == b:
            continue
        u = a if a > 0 else 0
        v = b if b > 0 else 0
        if u != v:
            desc[u] |= np.uint64(1) << np.uint64(v)
    # Warshall's algorithm, one bitset row per vertex.
    for k in range(n_vertices):
        bit = np.uint64(1) << np.uint64(k)
        for v in range(n_vertices):
            if desc[v] & bit:
                desc[v] |= desc[k]
    for u in range(n_vertices):
        for v in range(n_vertices):
            if desc[u] & (np.uint64(1) << np.uint64(v)):
                anc[v] |= np.uint64(1) << np.uint64(u)


@njit(cache=True, nogil=True)
def _superpieces(occ, delta, n_vertices, desc, anc, inc_stack, exc_stack, masks, dirs_out, count):
    """Append to `masks` every set of pieces that can shift by +delta or -delta.

    The sets are the ideals of the who-blocks-whom digraph (closed under "pushes
    against"): an ideal without the walls moves by +delta, and the complement of
    one with the walls moves by -delta.  Backtracking decides the lowest
    undecided vertex, excluding it with its ancestors or including it with its
    descendants, so every leaf is a distinct ideal.  Returns the new count, or
    -1 when `masks` is full.
    """
    _closure(occ, delta, n_vertices, desc, anc)
    everyone = np.uint64(0)
    for v in range(n_vertices):
        everyone |= np.uint64(1) << np.uint64(v)
    top = 1
    inc_stack[0] = 0
    exc_stack[0] = 0
    while top > 0:
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
            direction = -delta
        else:
            chosen = inc
            direction = delta
        if chosen == 0:
            continue
        if count >= masks.size:
            return -1
        masks[count] = chosen
        dirs_out[count] = direction
        count += 1
    return count


@njit(cache=True, nogil=True)
def _touch(table, pending, count, slots):
    """Put the home slot of each pending configuration in `slots`, loading each once.

    Hash table and state lookups miss the cache on big searches.  Touching every
    slot first, in a loop of independent loads, lets the processor overlap those
    misses; the lookups that follow then find their memory in cache.
    """
    mask = table.shape[0] - 1
    touched = np.uint64(0)
    for i in range(count):
        slots[i] = np.int64(_hash(pending[i]) & np.uint64(mask))
        touched += table[slots[i], 0]
    slots[count] = np.int64(touched & np.uint64(1))  # keeps the touching loads alive


@njit(cache=True, nogil=True)
def _flush(states, parents, n, table, pending, pending_parent, count, max_fill, slots):
    """Insert the pending configurations in order; returns (n, index of the first that
    did not fit or -1)."""
    _touch(table, pending, count, slots)
    for i in range(count):
        n, status = insert(states, parents, n, table, pending[i], pending_parent[i], max_fill)
        if status == FULL:
            return n, i
    return n, -1


@njit(cache=True, nogil=True)
def _sift(table, pending, pending_parent, count, out, out_parent, n_out, slots):
    """Append the pending configurations that `table` lacks to `out`, in order.

    Returns (n_out, index of the first that did not fit or -1).  When `out` fills
    up, the successors of that configuration's parent already appended are taken
    back too, so `out` holds whole parents only.
    """
    _touch(table, pending, count, slots)
    for i in range(count):
        if _find(table, pending[i], slots[i])[1]:
            continue
        if n_out >= out.shape[0]:
            while n_out > 0 and out_parent[n_out - 1] == pending_parent[i]:
                n_out -= 1
            return n_out, i
        for w in range(out.shape[1]):
            out[n_out, w] = pending[i, w]
        out_parent[n_out] = pending_parent[i]
        n_out += 1
    return n_out, -1


@njit(cache=True, nogil=True)
def _drain(
    sift,
    states,
    parents,
    n,
    table,
    pending,
    pending_parent,
    count,
    max_fill,
    out,
    out_parent,
    slots,
):
    """Hand the pending configurations to `_sift` (into `out`) or to `_flush` (into the table)."""
    if sift:
        return _sift(table, pending, pending_parent, count, out, out_parent, n, slots)
    return _flush(states, parents, n, table, pending, pending_parent, count, max_fill, slots)


@njit(cache=True, nogil=True)
def insert_all(states, parents, n, table, keys, key_parent, max_fill):
    """Insert every row of `keys` in order, as `expand` would have; returns (n, index of
    the first that did not fit or -1)."""
    slots = np.empty(PENDING + 1, np.int64)
    for lo in range(0, keys.shape[0], PENDING):
        hi = min(keys.shape[0], lo + PENDING)
        n, failed = _flush(
            states, parents, n, table, keys[lo:hi], key_parent[lo:hi], hi - lo, max_fill, slots
        )
        if failed >= 0:
            return n, lo + failed
    return n, -1


@njit(cache=True, nogil=True)
def _single_pieces(occ, pad_of, dirs, mode, marks, stamp, set_pieces, set_dir):
    """List the pieces that may move alone, found from the empty cells next to them.

    A piece can start a move in direction d only if some empty cell lies just
    beyond it in direction d, so looking behind every empty cell finds every
    candidate (piece, direction) once.  STEP and RAY keep the pair; FLOOD keeps
    each piece once, to explore all its paths.  Returns how many sets it wrote.
    """
    count = 0
    for c in range(pad_of.size):
        empty = pad_of[c]
        if occ[empty] != 0:
            continue
        for d in range(4):
            piece = occ[empty - dirs[d]] - 1
            if piece < 0:
                continue
            slot = piece if mode == FLOOD else 4 * piece + d
            if marks[slot] == stamp:
                continue
            marks[slot] = stamp
            set_pieces[count] = piece
            set_dir[count] = 0 if mode == FLOOD else dirs[d]
            count += 1
    return count


@njit(cache=True, nogil=True)
def expand(
    states,
    parents,
    n,
    table,
    lo,
    hi,
    budget,
    reach,
    superpieces,
    max_fill,
    bits,
    per_word,
    kind_of,
    seg_lo,
    seg_hi,
    off_lo,
    off_hi,
    offs,
    pad_of,
    cell_of,
    base_occ,
    width,
    sift,
    out,
    out_parent,
):
    """Expand parents lo.. (at most `budget` of them, stopping at hi).

    A move shifts one piece, or with `superpieces` any set of pieces that can shift
    together, by the displacements `reach` (STEP, RAY or FLOOD) allows.
    Returns (next parent to expand, n, RANGE_DONE | BUDGET_USED | NEED_ROOM).
    Successors are inserted in the order they are generated.  When one does not
    fit, its parent is expanded again from the start on the next call; the
    configurations it already added are found again as old.

    With `sift`, the table is only read: the successors it lacks are appended to
    `out` with their parents in `out_parent` (n counts the rows of `out`, `parents`
    and `max_fill` are not used), whole parents at a time, for `insert_all` to
    insert later.  Calls on disjoint ranges can then run on several threads.
    """
    n_pieces = kind_of.size
    n_vertices = n_pieces + 1
    anchors = np.empty(n_pieces, np.int64)
    buf = np.empty(n_pieces, np.int64)
    occ = np.empty(base_occ.size, np.int64)
    # Successors wait in `pending` and are handled in batches (see _drain).
    pending = np.empty((PENDING, states.shape[1]), np.uint64)
    pending_parent = np.empty(PENDING, np.int64)
    slots = np.empty(PENDING + 1, np.int64)
    n_pending = np.int64(0)
    words = states.shape[1]
    field_word = np.empty(n_pieces, np.int64)
    field_shift = np.empty(n_pieces, np.uint64)
    field_mask = np.empty(n_pieces, np.uint64)
    for i in range(n_pieces):
        field_word[i] = i // per_word
        field_shift[i] = np.uint64(bits * (i % per_word))
        field_mask[i] = np.uint64((1 << bits) - 1) << field_shift[i]
    max_cells = 0
    for p in range(n_pieces):
        max_cells += off_hi[kind_of[p]] - off_lo[kind_of[p]]
    cells = np.empty(max_cells, np.int64)
    seen = np.zeros(base_occ.size, np.int64)
    queue = np.empty(base_occ.size, np.int64)
    disps = np.empty(base_occ.size, np.int64)
    dirs = np.array([1, -1, width, -width], np.int64)
    desc = np.empty(n_vertices, np.uint64)
    anc = np.empty(n_vertices, np.uint64)
    inc_stack = np.empty(2 * n_vertices + 2, np.uint64)
    exc_stack = np.empty(2 * n_vertices + 2, np.uint64)
    # The sets of pieces that may move from the current parent, as lists of pieces
    # `set_pieces[set_lo[s]:set_lo[s + 1]]` with the direction of their first step.
    masks = np.empty(256, np.uint64)
    set_dir = np.zeros(max(256, 4 * n_pieces), np.int64)
    set_lo = np.arange(4 * n_pieces + 1)
    set_pieces = np.empty(4 * n_pieces, np.int64)
    marks = np.zeros(4 * n_pieces, np.int64)
    n_sets = np.int64(0)
    stamp = 0
    parent = lo
    stop = min(hi, lo + budget)
    while parent < stop:
        unpack_row(states, parent, bits, per_word, anchors)
        for p in range(n_pieces):
            buf[p] = anchors[p]
        for q in range(occ.size):
            occ[q] = base_occ[q]
        for p in range(n_pieces):
            base = pad_of[anchors[p]]
            k = kind_of[p]
            for o in range(off_lo[k], off_hi[k]):
                occ[base + offs[o]] = p + 1
        if not superpieces:
            n_sets = _single_pieces(
                occ, pad_of, dirs, reach, marks, parent + 1, set_pieces, set_dir
            )
        else:
            n_sets = np.int64(0)
            for axis in range(2):
                n_sets = _superpieces(
                    occ,
                    1 if axis == 0 else width,
                    n_vertices,
                    desc,
                    anc,
                    inc_stack,
                    exc_stack,
                    masks,
                    set_dir,
                    n_sets,
                )
                if n_sets < 0:
                    break
            if n_sets < 0:
                masks = np.empty(2 * masks.size, np.uint64)
                set_dir = np.zeros(masks.size, np.int64)
                continue
            if set_lo.size < n_sets + 1:
                set_lo = np.empty(masks.size + 1, np.int64)
            if set_pieces.size < n_sets * n_pieces:
                set_pieces = np.empty(masks.size * n_pieces, np.int64)
            total = 0
            for s in range(n_sets):
                set_lo[s] = total
                for p in range(n_pieces):
                    if (masks[s] >> np.uint64(p + 1)) & np.uint64(1):
                        set_pieces[total] = p
                        total += 1
            set_lo[n_sets] = total
        for s in range(n_sets):
            n_cells = np.int64(0)
            for m in range(set_lo[s], set_lo[s + 1]):
                p = set_pieces[m]
                base = pad_of[anchors[p]]
                k = kind_of[p]
                for o in range(off_lo[k], off_hi[k]):
                    cells[n_cells] = base + offs[o]
                    occ[base + offs[o]] = 0
                    n_cells += 1
            stamp += 1
            found = _displacements(
                reach, set_dir[s], occ, cells, n_cells, dirs, seen, stamp, queue, disps
            )
            for j in range(found):
                # The successor's words are the parent's with the moved kinds rewritten.
                for w in range(words):
                    pending[n_pending, w] = states[parent, w]
                for m in range(set_lo[s], set_lo[s + 1]):
                    p = set_pieces[m]
                    buf[p] = cell_of[pad_of[anchors[p]] + disps[j]]
                for m in range(set_lo[s], set_lo[s + 1]):
                    lo_k = seg_lo[set_pieces[m]]
                    if m > set_lo[s] and seg_lo[set_pieces[m - 1]] == lo_k:
                        continue  # this kind was rewritten already
                    hi_k = seg_hi[set_pieces[m]]
                    for i in range(lo_k + 1, hi_k):
                        value = buf[i]
                        t = i - 1
                        while t >= lo_k and buf[t] > value:
                            buf[t + 1] = buf[t]
                            t -= 1
                        buf[t + 1] = value
                    for i in range(lo_k, hi_k):
                        w = field_word[i]
                        pending[n_pending, w] = (pending[n_pending, w] & ~field_mask[i]) | (
                            np.uint64(buf[i]) << field_shift[i]
                        )
                        buf[i] = anchors[i]
                pending_parent[n_pending] = parent
                n_pending += 1
                if n_pending == pending_parent.size:
                    n, failed = _drain(
                        sift,
                        states,
                        parents,
                        n,
                        table,
                        pending,
                        pending_parent,
                        n_pending,
                        max_fill,
                        out,
                        out_parent,
                        slots,
                    )
                    n_pending = np.int64(0)
                    if failed >= 0:
                        return pending_parent[failed], n, NEED_ROOM
            for m in range(set_lo[s], set_lo[s + 1]):
                p = set_pieces[m]
                base = pad_of[anchors[p]]
                k = kind_of[p]
                for o in range(off_lo[k], off_hi[k]):
                    occ[base + offs[o]] = p + 1
        parent += 1
    n, failed = _drain(
        sift,
        states,
        parents,
        n,
        table,
        pending,
        pending_parent,
        n_pending,
        max_fill,
        out,
        out_parent,
        slots,
    )
    if failed >= 0:
        return pending_parent[failed], n, NEED_ROOM
    return parent, n, (RANGE_DONE if parent >= hi else BUDGET_USED)


@njit(cache=True, nogil=True)
def goal_scan(
    states,
    lo,
    hi,
    bits,
    per_word,
    kind_of,
    goal_kind_at,
    n_required,
    empty_cell,
    check_empty,
    off_lo,
    off_hi,
    offs,
    pad_of,
    cell_of,
    first_only,
):
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
        unpack_row(states, index, bits, per_word, anchors)
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

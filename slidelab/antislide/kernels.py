"""Numba kernel: backtrack over cells with isomorph rejection (Knuth's ANTISLIDE3).

Level lv covers an undecided cell `cell[lv]` with the fewest options (Knuth's
section 31), either with the empty option (EMPTY) or with a placement covering
it; `mv[lv]` is the option chosen, and the next one tried is the least available
placement above it that covers the cell.  `opt_at[x]` is the option deciding cell x, or
UNSET.

Sets of cells and of placements are bitboards: runs of 64-bit words in flat arrays
(row r of a table starts at word r * words), cell or placement x being bit x % 64 of
word x // 64.  `undecided`, `filled` and `forced` are cell sets; `avail` is the set of
placements whose cells are all undecided, and `blocked[lv]` the placements the move at
level lv took out of it.  The number of options of cell x (the available placements
covering it, plus 1 for leaving it empty unless it is forced) is kept bit-sliced: bit x
of plane k of `counts` is bit k of that number.  So a move lowers the counts of a
placement's cells with a few word operations, and the cell with the fewest options is
found by narrowing the undecided set plane by plane from the top.  Undoing a move copies
back the counts it found (`saved[lv]`, a few words) instead of raising them again.

The numbers of words and planes are lengths of tuples in `Geometry` (powers of two), so
numba compiles `search` once for each and every loop over words or planes has a constant
bound it unrolls: a third less time per node than bounds read from the arrays.

Constraint lists: `cons[cp[lv]:cp[lv + 1]]` are the face sets of placed bricks that
are not yet satisfied, with two or more undecided cells, as they stand before the
move at level lv.  Only the faces that meet the cells a move decides can change: a
brick satisfies them, an empty cell takes one open cell away.  A face set left with
one undecided cell forces that cell to be nonempty; the cells a level forces are
`fstack[fp[lv]:fp[lv + 1]]`.  A level's list holds at most its parent's and the face sets of
one placement, so `cons` needs room for the path searched only: `search` stops (LISTS_FULL)
before a level whose lists might not fit, and its caller gives it a bigger stack.

Dead ends: while a move's constraint list is made, a subtree in which no packing can be
complete is cut at once (Knuth's program searches it): a forced cell no available
placement covers, or a pending face set none of whose open cells one can.  The first is
looked for before the list, so a move that leaves such a cell costs no face set at all.
The test only cuts, it never changes a count, so every other node chooses the same cell as
before and the packings come in the same order.

Symcheck lists: `ssig[sp[lv]:sp[lv + 1]]` are the symmetries s whose image agrees
so far with the moves before level lv, and `sjd[...]` how many levels agree
(Knuth's section 40); a symmetric image that is lexicographically smaller rejects
the partial packing, one that is larger drops s from the list.  `swait[...]` is the cell
whose option the comparison waits for, the image under s of cell[sjd], or -1 while that
level has not chosen its cell: most moves leave it undecided, and then the entry costs
one look at `opt_at`.  The cell chosen at a level depends only on the moves above it, so
within each class exactly one packing (the greedy least one along its own path) survives.

Subproblems: the levels below `goal.prefix.size` are forced to the moves in the prefix
(the search ends when it backs up past them), and when `goal.split_at` >= 0 the search
does not go below that level: each move made at level split_at - 1 is written to
`out.kids` (counted in st[KIDS]) and taken back, which lists a subproblem's children.

`search` runs until it has visited `budget` nodes (backing up a level counts as one, so that
unwinding a deep path is paced too: a 1 x 1 x 100000 box backs up 100,000 levels at its end),
filled the solution buffer, run out of room for the constraint lists, or finished, and
keeps all of its state in the arrays it is given.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from slidelab.kernels import kernel, trailing_zeros

UNSET, EMPTY = -2, -1
"""Values of `opt_at` besides placement numbers."""

DESCEND, NEXT = 0, 1
"""Where `search` resumes: choosing a cell at level lv, or trying level lv's next option."""

DONE, BUDGET_USED, BUFFER_FULL, LISTS_FULL = 0, 1, 2, 3
"""Why `search` returned."""

L, PHASE, NODES, BLOCKS, UNDECIDED, STORED, KIDS = range(7)
"""Slots of the state vector `st`."""

NO_CELL, MANY_CELLS = -1, -2
"""A face set's only open cell, when it has none or several."""

ONE = np.uint64(1)
ZERO = np.uint64(0)
FULL = ~ZERO


class Geometry(NamedTuple):
    """The box and brick as the kernel reads them (never written)."""

    pcells: np.ndarray
    """(P, volume) int32: the cells of each placement."""
    cell_bits: np.ndarray
    """(P x cell words) uint64, flat: the cells of each placement, as a set."""
    conflicts: np.ndarray
    """(P x placement words) uint64, flat: the placements sharing a cell with p (p too)."""
    cover_bits: np.ndarray
    """(cells x placement words) uint64, flat: the placements covering each cell."""
    face_start: np.ndarray
    """(P + 1) int32: the face sets of placement p are face_start[p] <= f < ...[p + 1]."""
    face_bits: np.ndarray
    """(F x cell words) uint64, flat: the cells of each face set."""
    perm: np.ndarray
    """(G, cells) int32: the box's symmetries, identity first."""
    inverse_image: np.ndarray
    """(G, P) int32: the placement that symmetry s maps onto placement p."""
    cell_words: tuple[int, ...]
    """A zero for each word of a cell set: only its length counts, which numba compiles in."""
    placement_words: tuple[int, ...]
    """A zero for each word of a placement set."""
    planes: tuple[int, ...]
    """A zero for each plane of the bit-sliced counts."""
    most_faces: int
    """The most face sets of one placement: the most a move adds to the constraint lists."""


class Stacks(NamedTuple):
    """The search's state: counters, per-level stacks and the current sets."""

    st: np.ndarray
    """int64 counters, indexed by L, PHASE, NODES, ..."""
    cell: np.ndarray
    mv: np.ndarray
    opt_at: np.ndarray
    counts: np.ndarray
    """(planes x cell words) uint64, flat: the options of every cell, bit-sliced."""
    saved: np.ndarray
    """(levels x counts.size) uint64, flat: `counts` as it stood before each level's move."""
    undecided: np.ndarray
    filled: np.ndarray
    forced: np.ndarray
    scratch: np.ndarray
    """The cell set the choice of a cell narrows."""
    avail: np.ndarray
    blocked: np.ndarray
    """(levels x placement words) uint64, flat: the placements each level's move blocked."""
    cp: np.ndarray
    cons: np.ndarray
    fp: np.ndarray
    fstack: np.ndarray
    sp: np.ndarray
    ssig: np.ndarray
    sjd: np.ndarray
    swait: np.ndarray


class Goal(NamedTuple):
    """Which part of the tree to search and which packings count."""

    min_blocks: int
    max_blocks: int
    prefix: np.ndarray
    """int32 moves forced at the first levels."""
    split_at: int
    """The level whose moves are listed instead of searched, or -1."""


class Output(NamedTuple):
    """Where the search writes what it finds."""

    by_blocks: np.ndarray
    """int64 packings found with each number of bricks."""
    sols: np.ndarray
    """(buffer, most bricks) int64: stored packings (no columns: count only)."""
    sol_syms: np.ndarray
    kids: np.ndarray


@kernel(cache=True, nogil=True, error_model="numpy")
def search(s, g, goal, out, budget):
    """Advance the backtrack by up to `budget` nodes; returns DONE, BUDGET_USED, BUFFER_FULL or
    LISTS_FULL.

    One flat loop: a numba call that passes arrays costs reference counting at every
    call, so the set operations are written out here rather than in helpers."""
    st, cell, mv, opt_at = s.st, s.cell, s.mv, s.opt_at
    counts, undecided_cells, filled, forced = s.counts, s.undecided, s.filled, s.forced
    saved = s.saved
    avail, blocked, cand = s.avail, s.blocked, s.scratch
    cp, cons, fp, fstack, sp = s.cp, s.cons, s.fp, s.fstack, s.sp
    ssig, sjd, swait = s.ssig, s.sjd, s.swait
    pcells, cell_bits, conflicts = g.pcells, g.cell_bits, g.conflicts
    cover_bits = g.cover_bits
    face_start, face_bits, perm, inverse_image = g.face_start, g.face_bits, g.perm, g.inverse_image
    prefix, split_at = goal.prefix, goal.split_at
    by_blocks, sols, sol_syms, kids = out.by_blocks, out.sols, out.sol_syms, out.kids
    volume = pcells.shape[1]
    cw, pw, planes = len(g.cell_words), len(g.placement_words), len(g.planes)
    cs = planes * cw
    lv = st[L]
    phase = st[PHASE]
    blocks = st[BLOCKS]
    undecided = st[UNDECIDED]
    stored = st[STORED]
    visited = 0
    backed = 0
    status = DONE
    while True:
        if phase == DESCEND and lv == split_at:
            # Listing a subproblem's children: note the move just made and take it back.
            kids[st[KIDS]] = mv[lv - 1]
            st[KIDS] += 1
            phase = NEXT
            lv -= 1
            x = cell[lv]
        elif phase == DESCEND and 2 * cp[lv + 1] - cp[lv] + g.most_faces > cons.size:
            # The list a move here makes may not fit above this level's own.
            status = LISTS_FULL
            break
        elif phase == DESCEND:
            # Select the undecided cell with the fewest options, or record a solution: the
            # first cell with at most one option if there is one, else the first least.
            # Narrow the undecided cells plane by plane, from the top, to those whose count
            # has the bit clear when some have; plane 0 only if the least count is over 1.
            left = ZERO
            for w in range(cw):
                cand[w] = undecided_cells[w]
                left |= cand[w]
            x = -1
            if left != ZERO:
                low = True
                for k in range(planes - 1, -1, -1):
                    clear = ZERO
                    for w in range(cw):
                        clear |= cand[w] & ~counts[k * cw + w]
                    some = clear != ZERO
                    keep = FULL if some & ((k > 0) | (not low)) else ZERO
                    low = low & (some | (k == 0))
                    for w in range(cw):
                        cand[w] &= ~(counts[k * cw + w] & keep)
                w = 0
                while cand[w] == ZERO:
                    w += 1
                x = w * 64 + int(trailing_zeros(cand[w]))
            if x < 0:
                if blocks >= goal.min_blocks:
                    if sols.shape[1] > 0 and stored == sols.shape[0]:
                        status = BUFFER_FULL
                        break
                    by_blocks[blocks] += 1
                    if sols.shape[1] > 0:
                        sol_syms[stored] = sp[lv + 1] - sp[lv] + 1
                        n = 0
                        for j in range(lv):
                            if mv[j] >= 0:
                                sols[stored, n] = mv[j]
                                n += 1
                        for j in range(n, sols.shape[1]):
                            sols[stored, j] = -1
                        stored += 1
                phase = NEXT
                lv -= 1
                if lv < 0:
                    status = DONE
                    break
                x = cell[lv]
                # fall through to undo the move at level lv
            else:
                cell[lv] = x
                mv[lv] = UNSET
                phase = NEXT
        else:
            x = cell[lv]
        # Undo the move at level lv (if any): the counts as they stood before it (which the
        # cells it forced lowered too), the placements it blocked, then its cells.
        m = mv[lv]
        if m != UNSET:
            for w in range(cs):
                counts[w] = saved[lv * cs + w]
            for w in range(pw):
                avail[w] |= blocked[lv * pw + w]
        if m == EMPTY:
            opt_at[x] = UNSET
            undecided_cells[x >> 6] ^= ONE << np.uint64(x & 63)
            undecided += 1
        elif m >= 0:
            for t in range(volume):
                opt_at[pcells[m, t]] = UNSET
            for w in range(cw):
                undecided_cells[w] ^= cell_bits[m * cw + w]
                filled[w] ^= cell_bits[m * cw + w]
            undecided += volume
            blocks -= 1
        # Cells forced at this level may be empty again.
        while fp[lv + 1] > fp[lv]:
            fp[lv + 1] -= 1
            y = fstack[fp[lv + 1]]
            forced[y >> 6] ^= ONE << np.uint64(y & 63)
        is_forced = (forced[x >> 6] >> np.uint64(x & 63)) & ONE != ZERO
        # The next option: empty first unless x is forced, then the available placements
        # covering x from `lo` up (none if lo < 0).
        lo = -1
        nxt = UNSET
        if lv < prefix.size:
            # A subproblem's forced level: its one move, if it is legal here.
            want = prefix[lv]
            if m == UNSET:
                if want >= 0:
                    lo = want
                elif not is_forced:
                    nxt = EMPTY
        elif m == UNSET:
            if is_forced:
                lo = 0
            else:
                nxt = EMPTY
        else:
            lo = m + 1
        if lo >= 0 and blocks < goal.max_blocks:
            for w in range(pw):
                word = avail[w] & cover_bits[x * pw + w]
                shift = lo - w * 64
                if shift >= 64:
                    word = ZERO
                elif shift > 0:
                    word &= FULL << np.uint64(shift)
                if word != ZERO:
                    nxt = w * 64 + int(trailing_zeros(word))
                    break
            if lv < prefix.size and nxt != prefix[lv]:
                nxt = UNSET
        if nxt == UNSET:
            # Level lv is exhausted: back up to level lv - 1.
            mv[lv] = UNSET
            lv -= 1
            if lv < 0:
                status = DONE
                break
            backed += 1
            if visited + backed >= budget:
                status = BUDGET_USED
                break
            continue
        m = nxt
        mv[lv] = m
        visited += 1
        # Make the move: keep the counts for its undoing, decide its cells, then block the
        # placements that meet them (those covering x, or those sharing a cell with m) and
        # lower the options of their cells that are still undecided.
        for w in range(cs):
            saved[lv * cs + w] = counts[w]
        if m == EMPTY:
            opt_at[x] = EMPTY
            undecided_cells[x >> 6] ^= ONE << np.uint64(x & 63)
            undecided -= 1
            source, row = cover_bits, x
        else:
            for t in range(volume):
                opt_at[pcells[m, t]] = m
            for w in range(cw):
                undecided_cells[w] ^= cell_bits[m * cw + w]
                filled[w] ^= cell_bits[m * cw + w]
            undecided -= volume
            blocks += 1
            source, row = conflicts, m
        for w in range(pw):
            newly = avail[w] & source[row * pw + w]
            avail[w] ^= newly
            blocked[lv * pw + w] = newly
            while newly != ZERO:
                p = w * 64 + int(trailing_zeros(newly))
                newly &= newly - ONE
                for v in range(cw):
                    b = cell_bits[p * cw + v] & undecided_cells[v]
                    k = v
                    while b != ZERO:  # subtract 1 from the counts of the cells in b
                        t = counts[k]
                        counts[k] = t ^ b
                        b &= ~t
                        k += cw
        if goal.min_blocks > 0 and blocks + undecided // volume < goal.min_blocks:
            continue
        # Cut a subtree with no packing in it (Knuth's program searches it): an undecided
        # cell with no option left, or a face set that no available placement can fill.
        # `cand` holds the undecided cells some placement can still cover: count >= 2, or
        # >= 1 when forced (a forced cell has no empty option).  Forcing a cell below lowers
        # its count by one and leaves `cand` as it is, so it is computed once, here, and a
        # cell forced with no placement left is a face set with no cell in `cand`.
        ok = True
        for w in range(cw):
            some = ZERO
            many = ZERO
            for q in range(planes):
                some |= counts[q * cw + w]
                if q > 0:
                    many |= counts[q * cw + w]
            if undecided_cells[w] & ~some != ZERO:
                ok = False
            cand[w] = undecided_cells[w] & (many | (forced[w] & counts[w]))
        if not ok:
            continue
        # Level lv + 1's constraint list.  Only the face sets that meet the cells just
        # decided change: the brick satisfies them, or the empty cell takes one open cell
        # away; then the brick's own face sets join.  A face set with no open cell fails,
        # one with a single open cell forces it and leaves the list.
        k = cp[lv + 1]
        new_faces = face_start[m + 1] - face_start[m] if m >= 0 else 0
        for index in range(cp[lv], cp[lv + 1] + new_faces):
            if index < cp[lv + 1]:
                f = cons[index]
                if m >= 0:
                    # The brick fills it (it leaves), or it stays if it can still be filled.
                    met = ZERO
                    fillable = ZERO
                    for w in range(cw):
                        met |= face_bits[f * cw + w] & cell_bits[m * cw + w]
                        fillable |= face_bits[f * cw + w] & cand[w]
                    if met == ZERO and fillable == ZERO:
                        ok = False
                        break
                    cons[k] = f
                    k += int(met == ZERO)
                    continue
                touched = (face_bits[f * cw + (x >> 6)] >> np.uint64(x & 63)) & ONE != ZERO
                if not touched:
                    fillable = ZERO
                    for w in range(cw):
                        fillable |= face_bits[f * cw + w] & cand[w]
                    if fillable == ZERO:
                        ok = False
                        break
                    cons[k] = f
                    k += 1
                    continue
            else:
                f = face_start[m] + index - cp[lv + 1]
                satisfied = False
                for w in range(cw):
                    if face_bits[f * cw + w] & filled[w] != ZERO:
                        satisfied = True
                if satisfied:
                    continue
            y = NO_CELL
            for w in range(cw):
                o = face_bits[f * cw + w] & undecided_cells[w]
                if o != ZERO:
                    y = (
                        MANY_CELLS
                        if y != NO_CELL or o & (o - ONE) != ZERO
                        else w * 64 + int(trailing_zeros(o))
                    )
            fillable = ZERO
            for w in range(cw):
                fillable |= face_bits[f * cw + w] & cand[w]
            if fillable == ZERO:
                ok = False
                break
            if y == MANY_CELLS:
                cons[k] = f
                k += 1
                continue
            b = ONE << np.uint64(y & 63)
            if forced[y >> 6] & b == ZERO:
                # Cell y must be filled: one option fewer.
                forced[y >> 6] |= b
                fstack[fp[lv + 1]] = y
                fp[lv + 1] += 1
                j = y >> 6
                while b != ZERO:
                    t = counts[j]
                    counts[j] = t ^ b
                    b &= ~t
                    j += cw
        if not ok:
            continue
        cp[lv + 2] = k
        # Compute the new symcheck list; reject if a symmetric image is smaller.
        kk = sp[lv + 1]
        for e in range(sp[lv], sp[lv + 1]):
            sym = ssig[e]
            j = sjd[e]
            y = swait[e]
            keep = True
            while j <= lv:
                if y < 0:
                    y = perm[sym, cell[j]]
                o = opt_at[y]
                if o == UNSET:
                    break
                if o >= 0:
                    o = inverse_image[sym, o]
                if o < mv[j]:
                    ok = False
                    break
                if o > mv[j]:
                    keep = False
                    break
                j += 1
                y = -1
            if not ok:
                break
            if keep:
                ssig[kk] = sym
                sjd[kk] = j
                swait[kk] = y
                kk += 1
        if not ok:
            continue
        sp[lv + 2] = kk
        fp[lv + 2] = fp[lv + 1]
        lv += 1
        phase = DESCEND
        if visited + backed >= budget:
            status = BUDGET_USED
            break
    st[L] = lv
    st[PHASE] = phase
    st[NODES] += visited
    st[BLOCKS] = blocks
    st[UNDECIDED] = undecided
    st[STORED] = stored
    return status

"""Numba kernel: backtrack over cells with isomorph rejection (Knuth's ANTISLIDE3).

Level lv covers an undecided cell `cell[lv]` with the fewest options (Knuth's
section 31), either with the empty option (EMPTY) or with a placement covering
it; `mv[lv]` is the option chosen and `ch[lv]` its index in the cell's `cover`
list.  `opt_at[x]` is the option deciding cell x, or UNSET.  `blocked[p]` counts
decided cells of placement p.  `options[x]` counts the ways left to decide cell x: the
placements that could still cover it, plus 1 for leaving it empty unless it is forced,
plus DECIDED while it is decided (so choosing a cell is a plain minimum over one array).

Constraint lists: `cons[cp[lv]:cp[lv + 1]]` are the face sets of placed bricks that
are not yet satisfied, with two or more undecided cells, as they stand before the
move at level lv.  A face set left with one undecided cell forces that cell to be
nonempty (`forced[x] > 0`, undone through the stack `fstack[fp[lv]:]`).

Symcheck lists: `ssig[sp[lv]:sp[lv + 1]]` are the symmetries s whose image agrees
so far with the moves before level lv, and `sjd[...]` how many levels agree
(Knuth's section 40); a symmetric image that is lexicographically smaller rejects
the partial packing, one that is larger drops s from the list.  The cell chosen at
a level depends only on the moves above it, so within each class exactly one
packing (the greedy least one along its own path) survives.

Subproblems: the levels below `prefix.size` are forced to the moves in `prefix`
(the search ends when it backs up past them), and when `split_at` >= 0 the search
does not go below that level: each move made at level split_at - 1 is written to
`kids` (counted in st[KIDS]) and taken back, which lists a subproblem's children.

`search` runs until it has visited `budget` nodes, filled the solution buffer, or
finished, and keeps all of its state in the arrays it is given.
"""

from __future__ import annotations

from slidelab.kernels import kernel

UNSET, EMPTY = -2, -1
"""Values of `opt_at` besides placement numbers."""

DESCEND, NEXT = 0, 1
"""Where `search` resumes: choosing a cell at level lv, or trying level lv's next option."""

DONE, BUDGET_USED, BUFFER_FULL = 0, 1, 2
"""Why `search` returned."""

L, PHASE, NODES, BLOCKS, UNDECIDED, STORED, KIDS = range(7)
"""Slots of the state vector `st`."""

DECIDED = 1 << 30
"""Added to `options[x]` while cell x is decided, so that the least entry is an undecided cell."""


@kernel(cache=True, nogil=True, error_model="numpy")
def search(
    st,
    opt_at,
    cell,
    mv,
    ch,
    options,
    blocked,
    cp,
    cons,
    fp,
    fstack,
    forced,
    sp,
    ssig,
    sjd,
    pcells,
    cover_start,
    cover,
    face_start,
    fc_start,
    fc,
    perm,
    inv_image,
    by_blocks,
    sols,
    sol_syms,
    min_blocks,
    max_blocks,
    prefix,
    split_at,
    kids,
    budget,
):
    """Advance the backtrack by up to `budget` nodes; returns DONE, BUDGET_USED or BUFFER_FULL."""
    ncells = opt_at.size
    volume = pcells.shape[1]
    lv = st[L]
    phase = st[PHASE]
    blocks = st[BLOCKS]
    undecided = st[UNDECIDED]
    stored = st[STORED]
    visited = 0
    status = DONE
    while True:
        if phase == DESCEND and lv == split_at:
            # Listing a subproblem's children: note the move just made and take it back.
            kids[st[KIDS]] = mv[lv - 1]
            st[KIDS] += 1
            phase = NEXT
            lv -= 1
            x = cell[lv]
        elif phase == DESCEND:
            # Select an undecided cell with the fewest options, or record a solution: the
            # first cell whose count is at most 1 if there is one, else the first least.
            fewest = options[0]
            for y in range(1, ncells):
                fewest = min(fewest, options[y])
            x = -1
            if fewest < DECIDED:
                bound = max(fewest, 1)
                x = 0
                while options[x] > bound:
                    x += 1
            if x < 0:
                if blocks >= min_blocks:
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
                ch[lv] = UNSET
                phase = NEXT
        else:
            x = cell[lv]
        # Undo the move at level lv (if any), then try its next option.
        m = mv[lv]
        if m == EMPTY:
            opt_at[x] = UNSET
            options[x] -= DECIDED
            undecided += 1
            for q in range(cover_start[x], cover_start[x + 1]):
                p = cover[q]
                blocked[p] -= 1
                if blocked[p] == 0:
                    for t in range(volume):
                        options[pcells[p, t]] += 1
        elif m >= 0:
            for t in range(volume):
                y = pcells[m, t]
                opt_at[y] = UNSET
                options[y] -= DECIDED
                for q in range(cover_start[y], cover_start[y + 1]):
                    p = cover[q]
                    blocked[p] -= 1
                    if blocked[p] == 0:
                        for u in range(volume):
                            options[pcells[p, u]] += 1
            undecided += volume
            blocks -= 1
        while fp[lv + 1] > fp[lv]:
            fp[lv + 1] -= 1
            y = fstack[fp[lv + 1]]
            forced[y] -= 1
            if forced[y] == 0:
                options[y] += 1
        c = ch[lv]
        if lv < prefix.size:
            # A subproblem's forced level: its one move, if it is legal here.
            want = prefix[lv]
            if c != UNSET:
                c = cover_start[x + 1]
            elif want == EMPTY:
                c = EMPTY if forced[x] == 0 else cover_start[x + 1]
            else:
                c = cover_start[x]
                while c < cover_start[x + 1] and cover[c] != want:
                    c += 1
        elif c == UNSET:
            c = EMPTY
            if forced[x] > 0:
                c = cover_start[x]
        else:
            c = cover_start[x] if c == EMPTY else c + 1
        # Find the next placement covering x that fits.
        m = EMPTY
        if c >= 0:
            if blocks >= max_blocks:
                c = cover_start[x + 1]
            while c < cover_start[x + 1] and blocked[cover[c]] > 0:
                c += 1
            if c == cover_start[x + 1]:
                # Level lv is exhausted: back up to level lv - 1.
                mv[lv] = UNSET
                lv -= 1
                if lv < 0:
                    status = DONE
                    break
                continue
            m = cover[c]
        ch[lv] = c
        mv[lv] = m
        visited += 1
        # Make the move.
        if m == EMPTY:
            opt_at[x] = EMPTY
            options[x] += DECIDED
            undecided -= 1
            for q in range(cover_start[x], cover_start[x + 1]):
                p = cover[q]
                blocked[p] += 1
                if blocked[p] == 1:
                    for t in range(volume):
                        options[pcells[p, t]] -= 1
        else:
            for t in range(volume):
                y = pcells[m, t]
                opt_at[y] = m
                options[y] += DECIDED
                for q in range(cover_start[y], cover_start[y + 1]):
                    p = cover[q]
                    blocked[p] += 1
                    if blocked[p] == 1:
                        for u in range(volume):
                            options[pcells[p, u]] -= 1
            undecided -= volume
            blocks += 1
        ok = blocks + undecided // volume >= min_blocks
        # Compute the new constraint list from the old one and the faces of the brick just
        # placed; reject if a face set is all empty, force a cell if it has one left.
        k = cp[lv + 1]
        n_old = cp[lv + 1] - cp[lv]
        n_new = face_start[m + 1] - face_start[m] if m >= 0 else 0
        for index in range(n_old + n_new if ok else 0):
            f = cons[cp[lv] + index] if index < n_old else face_start[m] + index - n_old
            open_cells = 0
            last = -1
            satisfied = False
            for q in range(fc_start[f], fc_start[f + 1]):
                o = opt_at[fc[q]]
                if o >= 0:
                    satisfied = True
                    break
                if o == UNSET:
                    open_cells += 1
                    last = fc[q]
            if satisfied:
                continue
            if open_cells == 0:
                ok = False
                break
            if open_cells == 1:
                forced[last] += 1
                if forced[last] == 1:
                    options[last] -= 1
                fstack[fp[lv + 1]] = last
                fp[lv + 1] += 1
            else:
                cons[k] = f
                k += 1
        if not ok:
            continue
        cp[lv + 2] = k
        # Compute the new symcheck list; reject if a symmetric image is smaller.
        kk = sp[lv + 1]
        for e in range(sp[lv], sp[lv + 1]):
            s = ssig[e]
            j = sjd[e]
            keep = True
            while j <= lv:
                o = opt_at[perm[s, cell[j]]]
                if o == UNSET:
                    break
                if o >= 0:
                    o = inv_image[s, o]
                if o < mv[j]:
                    ok = False
                    break
                if o > mv[j]:
                    keep = False
                    break
                j += 1
            if not ok:
                break
            if keep:
                ssig[kk] = s
                sjd[kk] = j
                kk += 1
        if not ok:
            continue
        sp[lv + 2] = kk
        fp[lv + 2] = fp[lv + 1]
        lv += 1
        phase = DESCEND
        if visited >= budget:
            status = BUDGET_USED
            break
    st[L] = lv
    st[PHASE] = phase
    st[NODES] += visited
    st[BLOCKS] = blocks
    st[UNDECIDED] = undecided
    st[STORED] = stored
    return status

"""Numba kernels of the dissection search: maps that cover, forced moves, then exact cover.

`search` walks one tree of 2d levels (Knuth's BACK-DISSECT, sections 6-10):

- levels 0..d-1 choose placements q_0 <= q_1 <= ... <= q_{d-1} (`choice[k]`), keeping
  only multisets whose footprints cover the target.  `cover_t[k]` holds the
  target cells the first k placements cover; a branch is cut when the cells
  still missing cannot be covered by d - k placements numbered q or more (too
  many of them, or one that no such placement reaches).
- levels d..2d-1 choose the orientation index i_k of colour k (`choice[d + k]`);
  i_0 is 0, since turning the whole source is a symmetry.  As in the seed, colour
  k may not repeat colour k - 1's map, unless pieces must be connected (two
  connected pieces may share a map where one disconnected piece could not).
  `cover_s[k]` holds the source cells the first k maps can move; a branch is cut
  when some source cell is out of reach of them and of every orientation of the
  placements still to come (`reach_s[k]`), or when two colours are forced onto
  one source cell (`forced`: a target cell in a single footprint can only be
  reached by that colour, from one source cell per orientation).

At a leaf every cell of both shapes has an edge, and the d maps define a
bipartite graph: source cell x joins target cell y in colour k when map k sends
x to y.  `_prematch` makes the forced moves (a cell with one edge left takes it,
which removes the edges that competed for its partner).  A contradiction ends
the leaf.  `_pair_off` then settles *pairs*: an unmatched source cell whose
edges all go to one target cell with no other edges is matched in any of those
colours, independently of the rest, so the choices multiply (`st[TIMES]`)
instead of being searched.  What is left is an exact-cover problem (items: the
unmatched cells of both shapes; options: their edges) that
`slidelab.exactcover.kernels.search_m` solves in arrays `_build_links` lays out
as Knuth's programs do, over as many calls as it takes.

Solutions are counted in `st[FOUND]`.  With `keep`, `_expand` writes each one
(every choice of colour for the pairs) to the rows of `out_colours` and
`out_target` (colour 1..d of each source and target cell) and `out_maps` (the
placement and orientation number of each colour).  With `connected`, a solution
counts only if each colour class is 4-connected and colours that share a map are
both used, the first cell of the lower colour coming first (so that each split
of a map's cells counts once).

Subproblems: the levels below `prefix.size` are forced to the choices in `prefix`
(a forced choice the whole search would not try there ends the search at once, as
does backing up past a forced level).  Each forced level is reached in the state
the whole search reaches it in, so a subproblem finds exactly the whole search's
solutions below its prefix, in the same order.  When `split_at` >= 0, every choice
at level split_at - 1 that passes its tests is written to `kids` (counted in
st[KIDS]) instead of being followed: that lists a subproblem's children.

`search` runs until `budget` steps (tree nodes and exact-cover nodes) are used,
the output buffer is full, or the search is over; all its state is in `st`,
`choice` and the arrays it is given, so the next call carries on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from slidelab.exactcover import kernels as dlx

LV, PHASE, FOUND, COVERS, TUPLES, SEARCHES, STORED, ITEMS, TIMES, PAIRS, KIDS = range(11)
"""Slots of `st`: level, phase, solutions, covering multisets, covering map tuples,
matchings handed to exact cover, output rows in use, items of that exact cover,
the product of the pairs' choices, the number of pairs, and children listed."""
SLOTS = 11

TRY, NEXT, MATCH, EMIT, OVER = 0, 1, 2, 3, 4
"""Phases: try choice[lv]; advance choice[lv]; run the exact cover; write a matching
settled without it; the search is over."""

DONE, BUDGET_USED, BUFFER_FULL = 0, 1, 2
"""Why `search` returned."""

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, nogil=True)
def _popcount(word):
    """The number of 1 bits of a uint64."""
    word = word - ((word >> np.uint64(1)) & _M1)
    word = (word & _M2) + ((word >> np.uint64(2)) & _M2)
    word = (word + (word >> np.uint64(4))) & _M4
    return np.int64((word * _H01) >> np.uint64(56))


@njit(cache=True, nogil=True)
def _forced_cells(choice, d, group, fp_start, fp_target, fp_source, target_mask, unique, forced):
    """forced[k, i]: the source cells colour k must take when its orientation index is i."""
    for w in range(target_mask.shape[1]):
        once = np.uint64(0)
        twice = np.uint64(0)
        for k in range(d):
            m = target_mask[choice[k], w]
            twice |= once & m
            once |= m
        unique[w] = once & ~twice
        for k in range(d):
            for i in range(group):
                forced[k, i, w] = 0
    for k in range(d):
        q = choice[k]
        for e in range(fp_start[q], fp_start[q + 1]):
            y = fp_target[e]
            if (unique[y >> 6] >> np.uint64(y & 63)) & np.uint64(1):
                for i in range(group):
                    x = fp_source[i, e]
                    forced[k, i, x >> 6] |= np.uint64(1) << np.uint64(x & 63)


@njit(cache=True, nogil=True)
def _prematch(choice, d, fp_start, fp_target, fp_source, edge_s, edge_t, deg_s, deg_t, colour,
              partner, taken, queue):  # fmt: skip
    """Build the bigraph of the maps in `choice` and make every forced move.

    Returns -1 on a contradiction, else how many source cells are left unmatched
    (their edges are the entries of `edge_s` that are not -1).
    """
    n = colour.size
    for x in range(n):
        deg_s[x] = 0
        deg_t[x] = 0
        colour[x] = -1
        taken[x] = 0
        for k in range(d):
            edge_s[x, k] = -1
            edge_t[x, k] = -1
    for k in range(d):
        q = choice[k]
        i = choice[d + k]
        for e in range(fp_start[q], fp_start[q + 1]):
            y = fp_target[e]
            x = fp_source[i, e]
            edge_s[x, k] = y
            edge_t[y, k] = x
            deg_s[x] += 1
            deg_t[y] += 1
    tail = 0
    for x in range(n):
        if deg_s[x] == 1:
            queue[tail] = x
            tail += 1
    for y in range(n):
        if deg_t[y] == 1:
            queue[tail] = n + y
            tail += 1
    left = n
    head = 0
    while head < tail:
        v = queue[head]
        head += 1
        if v < n:
            x = v
            if colour[x] >= 0:
                continue
            k = 0
            while edge_s[x, k] < 0:
                k += 1
            y = edge_s[x, k]
        else:
            y = v - n
            if taken[y]:
                continue
            k = 0
            while edge_t[y, k] < 0:
                k += 1
            x = edge_t[y, k]
        colour[x] = k
        partner[x] = y
        taken[y] = 1
        left -= 1
        for j in range(d):
            if j == k:
                continue
            other = edge_s[x, j]  # x will not go to another target cell
            if other >= 0:
                edge_s[x, j] = -1
                edge_t[other, j] = -1
                deg_t[other] -= 1
                if deg_t[other] == 0:
                    return -1
                if deg_t[other] == 1:
                    queue[tail] = n + other
                    tail += 1
            other = edge_t[y, j]  # no other source cell will come to y
            if other >= 0:
                edge_t[y, j] = -1
                edge_s[other, j] = -1
                deg_s[other] -= 1
                if deg_s[other] == 0:
                    return -1
                if deg_s[other] == 1:
                    queue[tail] = other
                    tail += 1
    return left


@njit(cache=True, nogil=True)
def _pair_off(left, d, edge_s, deg_s, deg_t, colour, partner, taken, pair_cell, pair_colours,
              pair_count, most, st):  # fmt: skip
    """Settle the pairs among the unmatched cells, unless their choices multiply past `most`.

    Returns the cells still unmatched; st[PAIRS] pairs are recorded (source cell,
    its colours) and st[TIMES] is the product of their numbers of colours (both
    left at 0 and 1 when nothing is settled).
    """
    times = 1
    for x in range(colour.size):
        if colour[x] < 0:
            y = _sole_partner(x, d, edge_s)
            if y >= 0 and deg_t[y] == deg_s[x]:
                if times > most // deg_s[x]:
                    return left
                times *= deg_s[x]
    pairs = 0
    for x in range(colour.size):
        if colour[x] >= 0:
            continue
        y = _sole_partner(x, d, edge_s)
        if y < 0 or deg_t[y] != deg_s[x]:
            continue
        pair_cell[pairs] = x
        pair_count[pairs] = 0
        for k in range(d):
            if edge_s[x, k] >= 0:
                pair_colours[pairs, pair_count[pairs]] = k
                pair_count[pairs] += 1
        colour[x] = pair_colours[pairs, 0]
        partner[x] = y
        taken[y] = 1
        pairs += 1
        left -= 1
    st[PAIRS] = pairs
    st[TIMES] = times
    return left


@njit(cache=True, nogil=True)
def _sole_partner(x, d, edge_s):
    """The target cell every edge of source cell x goes to, or -1 if they go to several."""
    y = -1
    for k in range(d):
        z = edge_s[x, k]
        if z >= 0:
            if y >= 0 and z != y:
                return -1
            y = z
    return y


@njit(cache=True, nogil=True)
def _build_links(left, d, edge_s, colour, taken, slot, top, ulink, dlink, color, length, llink,
                 rlink, bound, slack, regs, option_cell, option_colour):  # fmt: skip
    """The exact-cover problem of the unmatched cells, in dancing links; returns its item count.

    Items 1..left are the unmatched source cells, left+1..2 left the unmatched
    target cells, in reading order; option o is an edge, source cell
    `option_cell[o]` in colour `option_colour[o]`.
    """
    n = colour.size
    n_items = 2 * left
    item = 0
    for x in range(n):
        if colour[x] < 0:
            item += 1
            slot[x] = item
    for y in range(n):
        if not taken[y]:
            item += 1
            slot[n + y] = item
    for i in range(n_items + 1):
        top[i] = 0
        color[i] = 0
        ulink[i] = i
        dlink[i] = i
        length[i] = 0
        llink[i] = i - 1
        rlink[i] = i + 1
        bound[i] = 1
        slack[i] = 0
    llink[0] = n_items
    rlink[n_items] = 0
    spacer = n_items + 1
    top[spacer] = 0
    ulink[spacer] = 0
    dlink[spacer] = 0
    option = 0
    for x in range(n):
        if colour[x] >= 0:
            continue
        for k in range(d):
            y = edge_s[x, k]
            if y < 0:
                continue
            first = spacer + 1
            for p in range(first, first + 2):
                i = slot[x] if p == first else slot[n + y]
                top[p] = i
                color[p] = 0
                last = ulink[i]
                ulink[p] = last
                dlink[last] = p
                dlink[p] = i
                ulink[i] = p
                length[i] += 1
            dlink[spacer] = first + 1
            spacer = first + 2
            top[spacer] = -(option + 1)
            ulink[spacer] = first
            dlink[spacer] = 0
            option_cell[option] = x
            option_colour[option] = k
            option += 1
    for r in range(regs.size):
        regs[r] = 0
    return n_items


@njit(cache=True, nogil=True)
def _pieces_ok(choice, d, colour, neighbours, first, size, mark, stack):
    """Whether every colour class is 4-connected and colours sharing a map are in order."""
    n = colour.size
    for k in range(d):
        first[k] = -1
        size[k] = 0
    for x in range(n):
        k = colour[x]
        if first[k] < 0:
            first[k] = x
        size[k] += 1
        mark[x] = 0
    for j in range(d):
        for k in range(j + 1, d):
            if choice[j] == choice[k] and choice[d + j] == choice[d + k]:
                if size[j] == 0 or size[k] == 0 or first[j] > first[k]:
                    return False
    for k in range(d):
        if size[k] == 0:
            continue
        stack[0] = first[k]
        mark[first[k]] = 1
        depth = 1
        reached = 1
        while depth > 0:
            depth -= 1
            x = stack[depth]
            for m in range(neighbours.shape[1]):
                z = neighbours[x, m]
                if z >= 0 and mark[z] == 0 and colour[z] == k:
                    mark[z] = 1
                    stack[depth] = z
                    depth += 1
                    reached += 1
        if reached != size[k]:
            return False
    return True


@njit(cache=True, nogil=True)
def _expand(choice, d, colour, partner, pair_cell, pair_colours, pair_count, digit, connected,
            neighbours, first, size, mark, stack, keep, orientation_of, out_colours, out_target,
            out_maps, st):  # fmt: skip
    """Count (and with `keep` store) the matching in `colour` with every choice for the pairs.

    With `connected`, only the colourings `_pieces_ok` accepts count.
    """
    n = colour.size
    pairs = st[PAIRS]
    for j in range(pairs):
        digit[j] = 0
        colour[pair_cell[j]] = pair_colours[j, 0]
    while True:
        if not connected or _pieces_ok(choice, d, colour, neighbours, first, size, mark, stack):
            st[FOUND] += 1
            if keep:
                row = st[STORED]
                for x in range(n):
                    out_colours[row, x] = colour[x] + 1
                    out_target[row, partner[x]] = colour[x] + 1
                for k in range(d):
                    out_maps[row, k, 0] = choice[k]
                    out_maps[row, k, 1] = orientation_of[choice[k], choice[d + k]]
                st[STORED] = row + 1
        j = pairs - 1
        while j >= 0:
            digit[j] += 1
            if digit[j] < pair_count[j]:
                colour[pair_cell[j]] = pair_colours[j, digit[j]]
                break
            digit[j] = 0
            colour[pair_cell[j]] = pair_colours[j, 0]
            j -= 1
        if j < 0:
            return


@njit(cache=True, nogil=True)
def _choices(lv, d, placements, group):
    """How many choices level lv has: placements, then orientation 0 only for colour 1
    (turning the whole source is a symmetry), then any orientation."""
    if lv < d:
        return placements
    if lv == d:
        return 1
    return group


@njit(cache=True, nogil=True)
def search(
    st, choice, cover_t, cover_s, reach_s, unique, forced, forced_s,
    edge_s, edge_t, deg_s, deg_t, colour, partner, taken, queue, slot,
    pair_cell, pair_colours, pair_count, digit, first, size, mark, stack,
    top, ulink, dlink, color, length, llink, rlink, bound, slack,
    x, ft, degree, tried, regs, rng, sol_opts, sol_ends, option_cell, option_colour,
    fp_start, fp_target, fp_source, target_mask, source_mask, source_union,
    target_reach, largest_after, full_source, full_target, neighbours, orientation_of,
    d, group, connected, keep, out_colours, out_target, out_maps, prefix, split_at, kids,
    budget,
):  # fmt: skip
    """Advance the search by about `budget` steps; returns DONE, BUDGET_USED or BUFFER_FULL."""
    placements = target_mask.shape[0]
    words = target_mask.shape[1]
    rows = out_colours.shape[0]
    listing = keep or connected
    most = rows if keep else dlx.INFINITY
    lv = st[LV]
    phase = st[PHASE]
    steps = 0
    status = BUDGET_USED
    while True:
        if phase == OVER:
            status = DONE
            break
        if steps >= budget:
            break
        if phase == EMIT or phase == MATCH:
            room = dlx.INFINITY
            if keep:
                room = (rows - st[STORED]) // st[TIMES]
                if room == 0:
                    status = BUFFER_FULL
                    break
        if phase == EMIT:
            _expand(choice, d, colour, partner, pair_cell, pair_colours, pair_count, digit,
                    connected, neighbours, first, size, mark, stack, keep, orientation_of,
                    out_colours, out_target, out_maps, st)  # fmt: skip
            phase = NEXT
            continue
        if phase == MATCH:
            nodes = regs[dlx.NODES]
            count = regs[dlx.COUNT]
            limit = min(count + room, dlx.INFINITY)
            dlx.search_m(
                top, ulink, dlink, color, length, llink, rlink, bound, slack,
                x, ft, degree, tried, regs, rng, np.bool_(False), st[ITEMS], st[ITEMS],
                listing, sol_opts, sol_ends, limit, max(budget - steps, 1),
            )  # fmt: skip
            steps += regs[dlx.NODES] - nodes
            if listing:
                begin = 0
                for s in range(regs[dlx.SOLS]):
                    for p in range(begin, sol_ends[s]):
                        cell = option_cell[sol_opts[p]]
                        colour[cell] = option_colour[sol_opts[p]]
                        partner[cell] = edge_s[cell, colour[cell]]
                    begin = sol_ends[s]
                    _expand(choice, d, colour, partner, pair_cell, pair_colours, pair_count, digit,
                            connected, neighbours, first, size, mark, stack, keep,
                            orientation_of, out_colours, out_target, out_maps, st)  # fmt: skip
                regs[dlx.SOLS] = 0
                regs[dlx.FILL] = 0
            else:
                st[FOUND] += st[TIMES] * (regs[dlx.COUNT] - count)
            if regs[dlx.PC] == dlx.DONE:
                phase = NEXT
            continue
        if phase == NEXT:
            if lv < prefix.size:
                phase = OVER  # a forced level has no other choice: the subproblem is done
                continue
            choice[lv] += 1
            if choice[lv] < _choices(lv, d, placements, group):
                phase = TRY
            elif lv == 0:
                phase = OVER
            else:
                lv -= 1
            continue
        # phase == TRY
        steps += 1
        phase = NEXT
        if lv < prefix.size:
            # A forced level: its one choice, if the whole search tries it here.
            if prefix[lv] < choice[lv] or prefix[lv] >= _choices(lv, d, placements, group):
                continue
            choice[lv] = prefix[lv]
        if lv < d:
            k = lv
            q = choice[k]
            # Cut the level when even the largest remaining footprints fall short.
            missing = 0
            for w in range(words):
                missing += _popcount(full_target[w] & ~cover_t[k, w])
            if missing > (d - k) * largest_after[q]:
                choice[k] = placements
                continue
            ok = True
            missing = 0
            for w in range(words):
                cover_t[k + 1, w] = cover_t[k, w] | target_mask[q, w]
                gap = full_target[w] & ~cover_t[k + 1, w]
                missing += _popcount(gap)
                if gap & ~target_reach[q, w]:
                    ok = False
            if not ok or missing > (d - k - 1) * largest_after[q]:
                continue
            if lv + 1 == split_at:
                kids[st[KIDS]] = q
                st[KIDS] += 1
                continue
            if k + 1 < d:
                lv = k + 1
                choice[lv] = q
                phase = TRY
                continue
            st[COVERS] += 1
            for w in range(words):
                reach_s[d, w] = 0
                cover_s[0, w] = 0
                forced_s[0, w] = 0
            for j in range(d - 1, -1, -1):
                for w in range(words):
                    reach_s[j, w] = reach_s[j + 1, w] | source_union[choice[j], w]
            _forced_cells(choice, d, group, fp_start, fp_target, fp_source, target_mask, unique,
                          forced)  # fmt: skip
            lv = d
            choice[lv] = 0
            phase = TRY
            continue
        k = lv - d
        i = choice[lv]
        q = choice[k]
        if not connected and k > 0 and q == choice[k - 1] and i == choice[lv - 1]:
            continue
        ok = True
        for w in range(words):
            cover_s[k + 1, w] = cover_s[k, w] | source_mask[q, i, w]
            forced_s[k + 1, w] = forced_s[k, w] | forced[k, i, w]
            if full_source[w] & ~(cover_s[k + 1, w] | reach_s[k + 1, w]):
                ok = False
            if forced_s[k, w] & forced[k, i, w]:
                ok = False
        if not ok:
            continue
        if lv + 1 == split_at:
            kids[st[KIDS]] = i
            st[KIDS] += 1
            continue
        if k + 1 < d:
            lv += 1
            choice[lv] = 0
            phase = TRY
            continue
        st[TUPLES] += 1
        left = _prematch(choice, d, fp_start, fp_target, fp_source, edge_s, edge_t, deg_s, deg_t,
                         colour, partner, taken, queue)  # fmt: skip
        if left < 0:
            continue
        st[PAIRS] = 0
        st[TIMES] = 1
        if left > 0:
            left = _pair_off(left, d, edge_s, deg_s, deg_t, colour, partner, taken, pair_cell,
                             pair_colours, pair_count, most, st)  # fmt: skip
        if left == 0 and not listing:
            st[FOUND] += st[TIMES]
        elif left == 0:
            phase = EMIT
        else:
            st[SEARCHES] += 1
            st[ITEMS] = _build_links(left, d, edge_s, colour, taken, slot, top, ulink, dlink, color,
                                     length, llink, rlink, bound, slack, regs, option_cell,
                                     option_colour)  # fmt: skip
            phase = MATCH
    st[LV] = lv
    st[PHASE] = phase
    return status


_HEAD = np.frombuffer(b"Solution ", np.uint8)
_FROM = np.frombuffer(b", from ", np.uint8)
_END = np.frombuffer(b":\n", np.uint8)
_DIGITS = np.frombuffer(b"0123456789abcdefg", np.uint8)


@njit(cache=True, nogil=True)
def _put(out, p, text):
    for j in range(text.size):
        out[p + j] = text[j]
    return p + text.size


@njit(cache=True, nogil=True)
def _put_number(out, p, value):
    length = 1
    rest = value // 10
    while rest > 0:
        rest //= 10
        length += 1
    for j in range(length - 1, -1, -1):
        out[p + j] = 48 + value % 10
        value //= 10
    return p + length


@njit(cache=True, nogil=True)
def render(number, maps, source_colours, target_colours, template, source_at, target_at, out):
    """The seed's text of each solution of a batch, numbered from `number`, written into `out`.

    Row r of the arrays is one solution: maps[r, k] the (placement, orientation)
    of colour k + 1, the colours of the source and target cells counting from 1.
    `template` is one solution's grid with '.', blanks and newlines; `source_at`
    and `target_at` say where each cell's digit goes.  Returns the bytes written.
    """
    p = 0
    for r in range(maps.shape[0]):
        p = _put(out, p, _HEAD)
        p = _put_number(out, p, number + r)
        p = _put(out, p, _FROM)
        for k in range(maps.shape[1]):
            if k > 0:
                out[p] = 32
                p += 1
            p = _put_number(out, p, maps[r, k, 0])
            out[p] = 126
            p = _put_number(out, p + 1, maps[r, k, 1])
        p = _put(out, p, _END)
        start = p
        p = _put(out, p, template)
        for x in range(source_at.size):
            out[start + source_at[x]] = _DIGITS[source_colours[r, x]]
        for y in range(target_at.size):
            out[start + target_at[y]] = _DIGITS[target_colours[r, y]]
    return p

"""Numba kernels of the dissection search: maps that cover, forced moves, then matching.

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
unmatched cells of both shapes, sources first, in reading order; options: their
edges, by source cell and colour) that `_match` searches as Knuth's Algorithm X
would (the item with the fewest options left, the leftmost of those; its options
in order), with its stack in `Leaf`, over as many calls as it takes.  A count
that lists nothing asks `_count_bits` instead, right after the forced moves: the
same matchings counted on bitsets, part by connected part (a pair is a part of one
cell of each shape), within `Mode.bits_nodes` nodes.  When the shapes have at most 64
cells a count builds no lists at all: the orientation levels keep each cell's partners
as one word (`Tree.rows`, `Tree.cols`, a colour at a time, so that siblings share their
parents' work), and `_leaf_moves` makes the forced moves on those words (a source cell
with one target cell left takes it in every colour that joins them) and hands the rest
to the same bitset count.

Solutions are counted in `st[FOUND]`.  With `keep`, `_expand` writes each one
(every choice of colour for the pairs) to the rows of `Output` (colour 1..d of
each source and target cell, and the placement and orientation number of each
colour).  With `connected`, a solution counts only if each colour class is
4-connected and colours that share a map are both used, the first cell of the
lower colour coming first (so that each split of a map's cells counts once).

Subproblems: the levels below `prefix.size` are forced to the choices in `prefix`
(a forced choice the whole search would not try there ends the search at once, as
does backing up past a forced level).  Each forced level is reached in the state
the whole search reaches it in, so a subproblem finds exactly the whole search's
solutions below its prefix, in the same order.  When `split_at` >= 0, every choice
at level split_at - 1 that passes its tests is written to `kids` (counted in
st[KIDS]) instead of being followed: that lists a subproblem's children.

`search` runs until `budget` steps (tree nodes and matching nodes) are used, the
output buffer is full, or the search is over; all its state is in the arrays it is
given, so the next call carries on.  It takes them grouped by role in NamedTuples:
`shifts.Arrays` (read only), `Tree` (the levels' stack and the counters), `Leaf` (one
leaf's graph and matching stack), `Output`, and `Mode`.  The orientation levels, where
nearly every node and leaf of a search is, run in `_orient`, a kernel of its own that reads
only the arrays they use (a count's leaves on one-word bitsets included), so that its loop
keeps few values and does not reload them from the stack.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from slidelab.kernels import kernel

LV, PHASE, FOUND, COVERS, TUPLES, SEARCHES, STORED, LEFT, TIMES, PAIRS, KIDS, DEPTH = range(12)
"""Slots of `Tree.st`: level, phase, solutions, covering multisets, covering map tuples,
matchings left to `_match`, output rows in use, source cells `_match` has to match, the
product of the pairs' choices, the number of pairs, children listed, and `_match`'s depth."""
SLOTS = 12

TRY, NEXT, MATCH, EMIT, OVER = 0, 1, 2, 3, 4
"""Phases: try choice[lv]; advance choice[lv]; run the matching search; write a matching
settled without it; the search is over."""

DONE, BUDGET_USED, BUFFER_FULL, SOLVED = 0, 1, 2, 3
"""Why `search` returned (and `_match`, `_walk`: SOLVED, a matching is complete)."""


UNMATCHED = -1
"""`colour` of a source cell not matched yet."""

_UNLIMITED = np.int64(1) << np.int64(62)
"""No limit on the product of the pairs' choices (when nothing is stored)."""


class Tree(NamedTuple):
    """The stack of the 2d levels, and the counters."""

    st: np.ndarray
    """int64 slots LV ... DEPTH."""
    choice: np.ndarray
    """[2d]: the placement of each colour, then its orientation index."""
    cover_t: np.ndarray
    """[k, word]: the target cells the first k placements cover."""
    cover_s: np.ndarray
    """[k, word]: the source cells the first k maps move."""
    reach_s: np.ndarray
    """[k, word]: the source cells the placements from the k-th on can move."""
    unique: np.ndarray
    """[word]: the target cells in a single footprint of the multiset."""
    forced: np.ndarray
    """[k, i, word]: the source cells colour k must take in its i-th orientation."""
    forced_s: np.ndarray
    """[k, word]: the source cells the first k colours must take."""
    prefix: np.ndarray
    """The choices forced at the first levels (a subproblem)."""
    kids: np.ndarray
    """The choices open at level split_at - 1, when listing children."""
    rows: np.ndarray
    """[k, x]: the target cells the first k maps send source cell x to (a count on one-word
    bitsets; no cells when the shapes have more than 64)."""
    cols: np.ndarray
    """[k, y]: the source cells the first k maps send onto target cell y."""
    multi: np.ndarray
    """[k, x]: the cells of rows[k, x] that two or more of those maps send x to."""


class Bits(NamedTuple):
    """`_count_bits`' graph (rows: source cells, columns: target cells) and stack."""

    row_edges: np.ndarray
    """[0, i]: the columns row i has edges to (uint64, 1 x 64 entries: one level, laid out
    as `Tree.rows`, so that `_count_graph` reads both without making views)."""
    col_edges: np.ndarray
    """[0, j]: the rows column j has edges to."""
    column: np.ndarray
    """[y]: the column of target cell y."""
    weight: np.ndarray
    """[i, j]: the colours that join row i and column j (64 x 64), where `multi` says
    there are several (one elsewhere)."""
    multi: np.ndarray
    """[0, i]: the columns row i has several colours to (1 x 64 entries)."""
    free_rows: np.ndarray
    """[depth]: the rows not matched yet (65 entries, as the next ones)."""
    free_cols: np.ndarray
    pivot: np.ndarray
    """[depth]: the row (i) or column (64 + j) branched on."""
    options: np.ndarray
    """[depth]: its partners not tried yet."""
    total: np.ndarray
    """[depth]: the matchings counted below the partners tried."""
    times: np.ndarray
    """[depth]: the weight of the partner being tried."""


class Leaf(NamedTuple):
    """One leaf's bipartite graph, its forced moves and pairs, and the matching search."""

    edge_s: np.ndarray
    """[x, k]: the target cell colour k sends source cell x to, or -1."""
    edge_t: np.ndarray
    """[y, k]: the source cell colour k brings to target cell y, or -1."""
    deg_s: np.ndarray
    """[x]: edges of source cell x left (to targets not taken)."""
    deg_t: np.ndarray
    """[y]: edges of target cell y left (from unmatched sources)."""
    colour: np.ndarray
    """[x]: the colour source cell x is matched in, or UNMATCHED."""
    partner: np.ndarray
    """[x]: the target cell source cell x is matched to."""
    taken: np.ndarray
    """[y]: whether target cell y is matched."""
    queue: np.ndarray
    """Cells with one edge left: source cells x, target cells n + y."""
    pair_cell: np.ndarray
    pair_colours: np.ndarray
    pair_count: np.ndarray
    digit: np.ndarray
    """The odometer over the pairs' colours."""
    free_s: np.ndarray
    """The source cells left to `_match`, increasing."""
    free_t: np.ndarray
    """The target cells left to `_match`, increasing."""
    item: np.ndarray
    """[depth]: the cell `_match` branches on there (x, or n + y), or -1 before it chose."""
    tried: np.ndarray
    """[depth]: the option tried there, x * d + k (-1 before the first)."""
    bits: Bits
    first: np.ndarray
    size: np.ndarray
    mark: np.ndarray
    stack: np.ndarray
    """Scratch of `_pieces_ok`."""


class Output(NamedTuple):
    """Row r is one stored solution."""

    colours: np.ndarray
    """[r, x]: the colour (1..d) of source cell x (int8)."""
    target: np.ndarray
    """[r, y]: the colour of target cell y (int8)."""
    maps: np.ndarray
    """[r, k]: (placement, orientation) of colour k + 1."""


class Mode(NamedTuple):
    """What a run is for."""

    connected: bool
    """Count only solutions whose colour classes are 4-connected."""
    keep: bool
    """Store every solution in `Output`."""
    split_at: int
    """List the choices open at level split_at - 1 instead of following them (-1: never)."""
    bits_nodes: int
    """Nodes a count may spend on one leaf's matchings on bitsets (`_count_bits`) before
    it leaves them to `_match`, which can stop and carry on in the next call."""


# Reference counts.  numba counts the references to every array a function holds, with an
# atomic add at each copy (a field read from a NamedTuple, a row view, an argument, an
# argument copied into an inlined helper) and one at its end, and prunes only the pairs it
# can see are balanced: not those of an array used across loops and calls.  At a leaf or a
# matching node that cost two atomic operations per array per call, about a third of a
# count's time.  So `search` takes its arrays out of the NamedTuples once, at its top, and
# the helpers it calls in its loops are compiled with `_nrt=False` (numba's switch for its
# reference counts, which the helpers they call inherit): they neither allocate nor return
# arrays, and the caller holds a reference to each array they are given for the whole call.

_ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@kernel(cache=True, nogil=True)
def _popcount(word):
    """The number of 1 bits of a uint64."""
    word = word - ((word >> np.uint64(1)) & _M1)
    word = (word & _M2) + ((word >> np.uint64(2)) & _M2)
    word = (word + (word >> np.uint64(4))) & _M4
    return np.int64((word * _H01) >> np.uint64(56))


@kernel(cache=True, nogil=True, _nrt=False)
def _forced_cells(tree, tables):
    """tree.forced[k, i]: the source cells colour k must take when its orientation index is i."""
    choice, unique, forced = tree.choice, tree.unique, tree.forced
    target_mask, footprint_start = tables.target_mask, tables.footprint_start
    footprint_target, footprint_source = tables.footprint_target, tables.footprint_source
    d = choice.size // 2
    group = tables.source_mask.shape[1]
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
        for e in range(footprint_start[q], footprint_start[q + 1]):
            y = footprint_target[e]
            if (unique[y >> 6] >> np.uint64(y & 63)) & np.uint64(1):
                for i in range(group):
                    x = footprint_source[i, e]
                    forced[k, i, x >> 6] |= np.uint64(1) << np.uint64(x & 63)


@kernel(cache=True, nogil=True, inline="always")
def _prematch(choice, tables, leaf):
    """Build the bigraph of the maps in `choice` and make every forced move.

    Returns -1 on a contradiction, else how many source cells are left unmatched
    (their edges are the entries of `edge_s` that are not -1).
    """
    edge_s, edge_t, deg_s, deg_t = leaf.edge_s, leaf.edge_t, leaf.deg_s, leaf.deg_t
    colour, partner, taken, queue = leaf.colour, leaf.partner, leaf.taken, leaf.queue
    d = choice.size // 2
    n = colour.size
    for x in range(n):
        deg_s[x] = 0
        deg_t[x] = 0
        colour[x] = UNMATCHED
        taken[x] = 0
        for k in range(d):
            edge_s[x, k] = -1
            edge_t[x, k] = -1
    for k in range(d):
        q = choice[k]
        i = choice[d + k]
        for e in range(tables.footprint_start[q], tables.footprint_start[q + 1]):
            y = tables.footprint_target[e]
            x = tables.footprint_source[i, e]
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


@kernel(cache=True, nogil=True, _nrt=False)
def _pair_off(left, d, leaf, most, st):
    """Settle the pairs among the unmatched cells, unless their choices multiply past `most`.

    Returns the cells still unmatched; st[PAIRS] pairs are recorded (source cell,
    its colours) and st[TIMES] is the product of their numbers of colours (both
    left at 0 and 1 when nothing is settled).
    """
    edge_s, deg_s, deg_t, colour = leaf.edge_s, leaf.deg_s, leaf.deg_t, leaf.colour
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
        leaf.pair_cell[pairs] = x
        leaf.pair_count[pairs] = 0
        for k in range(d):
            if edge_s[x, k] >= 0:
                leaf.pair_colours[pairs, leaf.pair_count[pairs]] = k
                leaf.pair_count[pairs] += 1
        colour[x] = leaf.pair_colours[pairs, 0]
        leaf.partner[x] = y
        leaf.taken[y] = 1
        pairs += 1
        left -= 1
    st[PAIRS] = pairs
    st[TIMES] = times
    return left


@kernel(cache=True, nogil=True, inline="always")
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


@kernel(cache=True, nogil=True, _nrt=False)
def _start_match(leaf, st):
    """Make the unmatched cells `_match`'s items and put it at its first node."""
    n = leaf.colour.size
    s = 0
    t = 0
    for c in range(n):
        if leaf.colour[c] < 0:
            leaf.free_s[s] = c
            s += 1
        if not leaf.taken[c]:
            leaf.free_t[t] = c
            t += 1
    st[LEFT] = s
    st[DEPTH] = 0
    leaf.item[0] = -1


@kernel(cache=True, nogil=True, _nrt=False)
def _fewest_options(leaf, left, d):
    """The unmatched cell with the fewest options left, sources first, then reading order
    (x, or n + y for a target cell), and that number of options."""
    n = leaf.colour.size
    best = -1
    least = d + 1
    for j in range(left):
        x = leaf.free_s[j]
        if leaf.colour[x] < 0 and leaf.deg_s[x] < least:
            best = x
            least = leaf.deg_s[x]
    for j in range(left):
        y = leaf.free_t[j]
        if not leaf.taken[y] and leaf.deg_t[y] < least:
            best = n + y
            least = leaf.deg_t[y]
    return best, least


@kernel(cache=True, nogil=True, _nrt=False)
def _next_option(leaf, item, after, d):
    """The first option of `item` after option `after` (x * d + k), or -1.

    A source cell's options are its edges by colour; a target cell's, its edges by
    source cell, then colour: the order of the options in Knuth's lists.
    """
    n = leaf.colour.size
    if item < n:
        x = item
        for k in range(after - x * d + 1 if after >= 0 else 0, d):
            y = leaf.edge_s[x, k]
            if y >= 0 and not leaf.taken[y]:
                return x * d + k
        return -1
    y = item - n
    best = -1
    for k in range(d):
        x = leaf.edge_t[y, k]
        if x >= 0 and leaf.colour[x] < 0:
            option = x * d + k
            if option > after and (best < 0 or option < best):
                best = option
    return best


@kernel(cache=True, nogil=True, _nrt=False)
def _take(leaf, x, k, d, change):
    """Match (change = -1) or unmatch (change = 1) source cell x in colour k: the options
    that compete with that edge leave (or come back to) their cells' counts."""
    y = leaf.edge_s[x, k]
    if change > 0:
        leaf.colour[x] = UNMATCHED
        leaf.taken[y] = 0
    for j in range(d):
        z = leaf.edge_s[x, j]
        if z >= 0 and z != y and not leaf.taken[z]:
            leaf.deg_t[z] += change
        w = leaf.edge_t[y, j]
        if w >= 0 and w != x and leaf.colour[w] < 0:
            leaf.deg_s[w] += change
    if change < 0:
        leaf.colour[x] = k
        leaf.partner[x] = y
        leaf.taken[y] = 1


@kernel(cache=True, nogil=True, _nrt=False)
def _walk(leaf, left, depth, d, budget):
    """Search matchings of the `left` cells in `leaf.free_s` and `leaf.free_t` from `depth`
    until one is complete (depth == left), the search is over or `budget` nodes are used.

    Returns (SOLVED, DONE or BUDGET_USED, the depth, the nodes used); the stack is in
    `leaf.item` and `leaf.tried`.  After SOLVED, the caller carries on from depth - 1.
    """
    steps = 0
    while depth >= 0:
        if depth == left:
            return SOLVED, depth, steps
        item = leaf.item[depth]
        if item < 0:
            if steps >= budget:
                return BUDGET_USED, depth, steps
            steps += 1
            item, options = _fewest_options(leaf, left, d)
            if options == 0:
                depth -= 1
                continue
            leaf.item[depth] = item
            leaf.tried[depth] = -1
        option = leaf.tried[depth]
        if option >= 0:
            _take(leaf, option // d, option % d, d, np.int64(1))
        option = _next_option(leaf, item, option, d)
        if option < 0:
            leaf.item[depth] = -1
            depth -= 1
            continue
        _take(leaf, option // d, option % d, d, np.int64(-1))
        leaf.tried[depth] = option
        depth += 1
        if depth < left:
            leaf.item[depth] = -1
    return DONE, 0, steps


@kernel(cache=True, nogil=True, _nrt=False)
def _match(tree, tables, leaf, out, mode, budget):
    """Search the matchings of the unmatched cells for about `budget` nodes, counting or
    storing each one.

    Returns (DONE, BUDGET_USED or BUFFER_FULL, the nodes used); the depth is kept in
    st[DEPTH].
    """
    st = tree.st
    d = tree.choice.size // 2
    left = st[LEFT]
    depth = st[DEPTH]
    listing = mode.keep or mode.connected
    rows = out.colours.shape[0]
    steps = 0
    while True:
        event, depth, used = _walk(leaf, left, depth, d, budget - steps)
        steps += used
        st[DEPTH] = depth
        if event != SOLVED:
            return event, steps
        if mode.keep and rows - st[STORED] < st[TIMES]:
            return BUFFER_FULL, steps
        if listing:
            _expand(tree, tables, leaf, out, mode)
        else:
            st[FOUND] += st[TIMES]
        depth -= 1


@kernel(cache=True, nogil=True, _nrt=False)
def _count_bits(leaf, d, limit):
    """The number of matchings of the unmatched cells (at most 64 of each shape), by a
    search on bitsets, or -1 if that takes more than `limit` nodes; and whether every
    part was a pair (as `_pair_off` settles them: one row, one column).

    Rows are the unmatched source cells, columns the unmatched target cells, renumbered
    from 0 (`_count_graph` counts them).
    """
    bits = leaf.bits
    row_edges, col_edges, multi = bits.row_edges, bits.col_edges, bits.multi
    column, weight = bits.column, bits.weight
    colour, taken, edge_s = leaf.colour, leaf.taken, leaf.edge_s
    n = colour.size
    rows = 0
    cols = 0
    for c in range(n):
        if not taken[c]:
            column[c] = cols
            col_edges[0, cols] = 0
            cols += 1
    for x in range(n):
        if colour[x] >= 0:
            continue
        row_edges[0, rows] = 0
        multi[0, rows] = 0
        for k in range(d):
            y = edge_s[x, k]
            if y >= 0:
                weight[rows, column[y]] = 0
        for k in range(d):
            y = edge_s[x, k]
            if y >= 0:
                j = column[y]
                bit = _ONE << np.uint64(j)
                weight[rows, j] += 1
                if row_edges[0, rows] & bit:
                    multi[0, rows] |= bit
                row_edges[0, rows] |= bit
                col_edges[0, j] |= _ONE << np.uint64(rows)
        rows += 1
    return _count_graph(
        bits, row_edges, col_edges, multi, np.int64(0), _below(rows), _below(cols), limit
    )


@kernel(cache=True, nogil=True, inline="always")
def _below(size):
    """The bitset of 0 .. size - 1 (size at most 64)."""
    if size == 0:
        return np.uint64(0)
    return (_ONE << np.uint64(size - 1)) | ((_ONE << np.uint64(size - 1)) - _ONE)


@kernel(cache=True, nogil=True, inline="always")
def _leaf_moves(choice, image_bit, row_edges, col_edges, multi, weight, free_s, free_t):
    """A count's leaf on one-word bitsets: the forced moves in the graph of the d maps
    (`Tree.rows[d]`, `Tree.cols[d]`, `Tree.multi[d]`) on the source cells `free_s` and the
    target cells `free_t`.  Returns the number of ways they were made (0 when a cell is left
    without partners) and the cells they leave, whose matchings `_count_graph` counts, with
    `weight` set where several colours join a row and a column.

    Forced moves: a source cell with one target cell left takes it (in each colour that
    joins them, which multiplies the count), and a target cell with one source cell left
    likewise, until none is left.

    It takes whole arrays and reads the 2-D ones at [d, x] (a row view would be a new
    reference).  Inlined into `_orient`, which counts no references (`_nrt=False`), with
    `_colours`: a call per leaf, its arguments pushed on the stack, cost more than its work.
    """
    d = choice.size // 2
    total = 1
    again = True
    while again:
        again = False
        rest = free_s
        while rest:
            x = _lowest(rest)
            rest &= rest - _ONE
            r = row_edges[d, x] & free_t
            if r == 0:
                return 0, free_s, free_t
            if r & (r - _ONE) == 0:
                if multi[d, x] & r:
                    total *= _colours(choice, image_bit, x, r)
                free_s &= ~(_ONE << np.uint64(x))
                free_t &= ~r
                again = True
        rest = free_t
        while rest:
            y = _lowest(rest)
            rest &= rest - _ONE
            c = col_edges[d, y] & free_s
            if c == 0:
                return 0, free_s, free_t
            if c & (c - _ONE) == 0:
                x = _lowest(c)
                bit = _ONE << np.uint64(y)
                if multi[d, x] & bit:
                    total *= _colours(choice, image_bit, x, bit)
                free_s &= ~c
                free_t &= ~bit
                again = True
    rest = free_s
    while rest:
        x = _lowest(rest)
        rest &= rest - _ONE
        several = multi[d, x] & free_t
        while several:
            bit = several & (~several + _ONE)
            several &= several - _ONE
            weight[x, _lowest(bit)] = _colours(choice, image_bit, x, bit)
    return total, free_s, free_t


@kernel(cache=True, nogil=True, inline="always")
def _colours(choice, image_bit, x, bit):
    """How many of the d maps send source cell x to the target cell of `bit`."""
    d = choice.size // 2
    ways = 0
    for k in range(d):
        ways += image_bit[choice[k], choice[d + k], x] == bit
    return ways


@kernel(cache=True, nogil=True, inline="always")
def _count_graph(bits, row_edges, col_edges, multi, level, rows, cols, limit):
    """The number of matchings of `rows` with `cols` in the graph of `row_edges[level]` and
    `col_edges[level]` (weighted by `bits.weight` where `multi[level]` says), or -1 if that
    takes more than `limit` nodes; and whether every connected part was one row and one
    column.

    The parts are counted apart (`_count_part`) and their counts multiplied.  Inlined into
    `_orient` and `_count_bits`: a call would push its arrays on the stack at every leaf.
    """
    unseen = rows
    total = 1
    pairs_only = True
    nodes = 0
    while unseen:
        part_rows = unseen & (~unseen + _ONE)
        part_cols = np.uint64(0)
        grown = part_rows
        while grown:
            reached = np.uint64(0)
            while grown:
                reached |= row_edges[level, _lowest(grown)]
                grown &= grown - _ONE
            reached &= cols & ~part_cols
            part_cols |= reached
            while reached:
                grown |= col_edges[level, _lowest(reached)]
                reached &= reached - _ONE
            grown &= rows & ~part_rows
            part_rows |= grown
        unseen &= ~part_rows
        ways, used = _count_part(
            bits, row_edges, col_edges, multi, level, part_rows, part_cols, limit - nodes
        )
        nodes += used
        if ways <= 0:
            return ways, False
        total *= ways
        pairs_only &= part_rows & (part_rows - _ONE) == 0
    return total, pairs_only


@kernel(cache=True, nogil=True)
def _count_part(bits, row_edges, col_edges, multi, level, rows, cols, limit):
    """The number of matchings of `rows` with `cols` (a connected part), and the nodes
    used, or -1 if that takes more than `limit` nodes.

    A node branches on the row or column with the fewest edges left, and the count of a
    choice is weighted by the colours that join its two cells.
    """
    free_rows, free_cols = bits.free_rows, bits.free_cols
    pivot, options, total, times = bits.pivot, bits.options, bits.total, bits.times
    weight = bits.weight
    free_rows[0] = rows
    free_cols[0] = cols
    depth = 0
    nodes = 0
    value = 0
    entering = True
    while True:
        if entering:
            r = free_rows[depth]
            c = free_cols[depth]
            if r == 0:
                value = 1
            else:
                nodes += 1
                if nodes > limit:
                    return -1, nodes
                least = 65
                rest = r
                while rest:
                    i = _lowest(rest)
                    rest &= rest - np.uint64(1)
                    m = _popcount(row_edges[level, i] & c)
                    if m < least:
                        least = m
                        pivot[depth] = i
                        options[depth] = row_edges[level, i] & c
                rest = c
                while rest and least > 1:
                    j = _lowest(rest)
                    rest &= rest - np.uint64(1)
                    m = _popcount(col_edges[level, j] & r)
                    if m < least:
                        least = m
                        pivot[depth] = 64 + j
                        options[depth] = col_edges[level, j] & r
                total[depth] = 0
                value = -1 if least > 0 else 0
        if value < 0 and options[depth]:
            other = _lowest(options[depth])
            options[depth] &= options[depth] - np.uint64(1)
            p = pivot[depth]
            i, j = (p, other) if p < 64 else (other, p - 64)
            bit = _ONE << np.uint64(j)
            times[depth] = weight[i, j] if multi[level, i] & bit else 1
            free_rows[depth + 1] = free_rows[depth] & ~(_ONE << np.uint64(i))
            free_cols[depth + 1] = free_cols[depth] & ~bit
            depth += 1
            entering = True
            continue
        if value < 0:
            value = total[depth]
        if depth == 0:
            return value, nodes
        depth -= 1
        total[depth] += times[depth] * value
        value = -1
        entering = False


@kernel(cache=True, nogil=True)
def _lowest(word):
    """The index of the lowest 1 bit of a nonzero uint64."""
    return _popcount((word & (~word + np.uint64(1))) - np.uint64(1))


@kernel(cache=True, nogil=True, _nrt=False)
def _pieces_ok(choice, leaf, neighbours):
    """Whether every colour class is 4-connected and colours sharing a map are in order."""
    colour, first, size, mark, stack = leaf.colour, leaf.first, leaf.size, leaf.mark, leaf.stack
    d = choice.size // 2
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


@kernel(cache=True, nogil=True, _nrt=False)
def _expand(tree, tables, leaf, out, mode):
    """Count (and with `keep` store) the matching in `colour` with every choice for the pairs.

    With `connected`, only the colourings `_pieces_ok` accepts count.
    """
    st, choice = tree.st, tree.choice
    colour, partner, digit = leaf.colour, leaf.partner, leaf.digit
    pair_cell, pair_colours, pair_count = leaf.pair_cell, leaf.pair_colours, leaf.pair_count
    d = choice.size // 2
    n = colour.size
    pairs = st[PAIRS]
    for j in range(pairs):
        digit[j] = 0
        colour[pair_cell[j]] = pair_colours[j, 0]
    while True:
        if not mode.connected or _pieces_ok(choice, leaf, tables.neighbours):
            st[FOUND] += 1
            if mode.keep:
                row = st[STORED]
                for x in range(n):
                    out.colours[row, x] = colour[x] + 1
                    out.target[row, partner[x]] = colour[x] + 1
                for k in range(d):
                    out.maps[row, k, 0] = choice[k]
                    out.maps[row, k, 1] = tables.orientation_of[choice[k], choice[d + k]]
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


@kernel(cache=True, nogil=True)
def _choices(lv, d, placements, group):
    """How many choices level lv has: placements, then orientation 0 only for colour 1
    (turning the whole source is a symmetry), then any orientation."""
    if lv < d:
        return placements
    if lv == d:
        return 1
    return group


@kernel(cache=True, nogil=True, inline="always")
def _forced_or_free(lv, prefix, choice, d, placements, group):
    """Whether the search tries level lv's current choice: any choice at a free level; at a
    forced level (lv < prefix.size, a subproblem's prefix) its one choice, set here, if the
    whole search would try it at this point, else none."""
    if lv < prefix.size:
        if prefix[lv] < choice[lv] or prefix[lv] >= _choices(lv, d, placements, group):
            return False
        choice[lv] = prefix[lv]
    return True


@kernel(cache=True, nogil=True, _nrt=False)
def _orient(tables, tree, bits, mode, lv, phase, budget, on_bits):
    """Run the orientation levels (lv >= d, phase TRY or NEXT) of one covering multiset for
    about `budget` steps: until they back up to level d - 1, the search is over (a forced
    level is done), the budget is used, or a leaf needs `search`'s lists (a listing, large
    shapes, or a count on bitsets past `Mode.bits_nodes`).

    Returns the level, the phase (NEXT after such a leaf), the steps used and whether a leaf
    is waiting.  A function of its own, apart from `search`'s many arrays, so that its loop
    keeps its few values in registers.
    """
    st, choice, prefix, kids = tree.st, tree.choice, tree.prefix, tree.kids
    cover_s, reach_s, forced, forced_s = tree.cover_s, tree.reach_s, tree.forced, tree.forced_s
    rows_of, cols_of, multi = tree.rows, tree.cols, tree.multi
    source_mask, full_source, full_target = (
        tables.source_mask,
        tables.full_source,
        tables.full_target,
    )
    image_bit, source_bit = tables.image_bit, tables.source_bit
    connected, split_at, bits_nodes = mode.connected, mode.split_at, mode.bits_nodes
    d = choice.size // 2
    placements = source_mask.shape[0]
    group = source_mask.shape[1]
    words = source_mask.shape[2]
    cells = rows_of.shape[1]
    steps = 0
    while True:
        if phase == NEXT:
            if lv < prefix.size:
                return lv, OVER, steps, False  # a forced level has no other choice
            choice[lv] += 1
            if choice[lv] >= _choices(lv, d, placements, group):
                lv -= 1
                if lv < d:
                    return lv, NEXT, steps, False
                continue
        if steps >= budget:
            return lv, TRY, steps, False
        steps += 1
        phase = NEXT
        if not _forced_or_free(lv, prefix, choice, d, placements, group):
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
        if on_bits:
            for x in range(cells):
                image = image_bit[q, i, x]
                multi[k + 1, x] = multi[k, x] | (rows_of[k, x] & image)
                rows_of[k + 1, x] = rows_of[k, x] | image
                cols_of[k + 1, x] = cols_of[k, x] | source_bit[q, i, x]
        if k + 1 < d:
            lv += 1
            choice[lv] = 0
            phase = TRY
            continue
        st[TUPLES] += 1
        if not on_bits:
            return lv, NEXT, steps, True
        # The forced moves on one-word bitsets, then the rest counted on bitsets.
        total, free_s, free_t = _leaf_moves(
            choice, image_bit, rows_of, cols_of, multi, bits.weight, full_source[0], full_target[0]
        )
        if total == 0 or free_s == 0:
            st[FOUND] += total
            continue
        ways, _ = _count_graph(bits, rows_of, cols_of, multi, d, free_s, free_t, bits_nodes)
        if ways < 0:
            return lv, NEXT, steps, True
        st[FOUND] += ways * total
        st[SEARCHES] += 1


@kernel(cache=True, nogil=True)
def search(tables, tree, leaf, out, mode, budget):
    """Advance the search by about `budget` steps; returns DONE, BUDGET_USED or BUFFER_FULL.

    Every array is taken out of its NamedTuple here, once: reading a field (or making a row
    view) inside the loop, or handing a NamedTuple to an inlined helper, costs an atomic
    reference count per array each time, which numba cannot always pair off and remove.
    """
    st, choice, prefix, kids = tree.st, tree.choice, tree.prefix, tree.kids
    cover_t, cover_s, reach_s, forced_s = tree.cover_t, tree.cover_s, tree.reach_s, tree.forced_s
    target_mask, full_target = tables.target_mask, tables.full_target
    source_union, target_reach = tables.source_union, tables.target_reach
    largest_after = tables.largest_after
    bits = leaf.bits
    d = choice.size // 2
    placements = target_mask.shape[0]
    group = tables.source_mask.shape[1]
    words = target_mask.shape[1]
    rows = out.colours.shape[0]
    keep, split_at, bits_nodes = mode.keep, mode.split_at, mode.bits_nodes
    listing = keep or mode.connected
    most = rows if keep else _UNLIMITED
    on_bits = not listing and tree.rows.shape[1] > 0
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
        if phase == EMIT:
            if keep and rows - st[STORED] < st[TIMES]:
                status = BUFFER_FULL
                break
            _expand(tree, tables, leaf, out, mode)
            phase = NEXT
            continue
        if phase == MATCH:
            matched, used = _match(tree, tables, leaf, out, mode, max(budget - steps, 1))
            steps += used
            if matched == BUFFER_FULL:
                status = BUFFER_FULL
                break
            if matched == DONE:
                phase = NEXT
            continue
        if lv >= d:
            lv, phase, used, waiting = _orient(
                tables, tree, bits, mode, lv, phase, max(budget - steps, 1), on_bits
            )
            steps += used
            if not waiting:
                continue
            left = _prematch(choice, tables, leaf)
            if left < 0:
                continue
            if not listing and not on_bits and 0 < left <= 64:
                ways, pairs_only = _count_bits(leaf, d, bits_nodes)
                if ways >= 0:
                    st[FOUND] += ways
                    st[SEARCHES] += not pairs_only
                    continue
            st[PAIRS] = 0
            st[TIMES] = 1
            if left > 0:
                left = _pair_off(left, d, leaf, most, st)
            if left == 0 and not listing:
                st[FOUND] += st[TIMES]
            elif left == 0:
                phase = EMIT
            else:
                st[SEARCHES] += 1
                _start_match(leaf, st)
                phase = MATCH
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
        # phase == TRY, at a placement level
        steps += 1
        phase = NEXT
        if not _forced_or_free(lv, prefix, choice, d, placements, group):
            continue
        k = lv
        q = choice[k]
        largest = largest_after[q]
        # Cut the level when even the largest remaining footprints fall short.
        missing = 0
        for w in range(words):
            missing += _popcount(full_target[w] & ~cover_t[k, w])
        if missing > (d - k) * largest:
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
        if not ok or missing > (d - k - 1) * largest:
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
        _forced_cells(tree, tables)
        lv = d
        choice[lv] = 0
        phase = TRY
        continue
    st[LV] = lv
    st[PHASE] = phase
    return status


_HEAD = np.frombuffer(b"Solution ", np.uint8)
_FROM = np.frombuffer(b", from ", np.uint8)
_END = np.frombuffer(b":\n", np.uint8)
_DIGITS = np.frombuffer(b"0123456789abcdefg", np.uint8)


@kernel(cache=True, nogil=True)
def _put(out, p, text):
    for j in range(text.size):
        out[p + j] = text[j]
    return p + text.size


@kernel(cache=True, nogil=True)
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


@kernel(cache=True, nogil=True)
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

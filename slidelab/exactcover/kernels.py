"""Numba kernels for exact cover: dancing links (Algorithm M), bitsets and dancing cells (C).

Dancing links (`search_m`, `prune`) use the data structure of TAOCP 7.2.2.1 and
Knuth's DLX programs, in flat int32 arrays that the driver owns:

- Items are numbered 1..N, primary ones (1..N1) first.  `llink`/`rlink` link the
  active primary items in a circular list headed by item 0; secondary items link
  to themselves, so covering one leaves that list alone.
- Nodes 0..N are the item headers, whose `ulink`/`dlink` head the vertical list
  of the item's remaining options; `length[i]` is LEN(i).  Node N+1 and the node
  after each option are spacers: TOP(spacer) = -k before option k, ULINK(spacer)
  is the first node of the option before it and DLINK(spacer) the last node of
  the option after it.  Other nodes carry TOP = their item and COLOR: 0 for no
  colour, c > 0 for colour c, -1 once a purification has made it moot.
- Multiplicities: BOUND(i) is how many more options may still cover primary item
  i and SLACK(i) = high - low, both per item.

`search_m` is Algorithm M (multiplicities and colours; Algorithms X and C are its
special cases).  `search_bits` walks the same tree as Algorithm C on bitsets, for
small problems whose primary items are covered exactly once, and `search_cells` on
sparse sets (Knuth's dancing cells), for any such problem.  The comments name
the steps C2-C8 / M2-M9 of the published algorithms.

The choice stack, the branching degree and the index of the current choice at
every level, and the registers in `regs` are all the state there is.  A call
runs until `budget` more nodes have been entered, a solution limit is reached,
the solution buffer is nearly full, or the search ends; it saves where it
stopped in `regs[PC]` (ENTER = at step 2 of level l, LEAVE = at step 8/9 after a
solution), so the next call carries on from there.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from slidelab.kernels import kernel, popcount, trailing_zeros

LEVEL, PC, NODES, COUNT, FILL, SOLS = range(6)
"""Indices into `regs`: level l, resume point, nodes, solutions, solution buffer use."""
REGS = 6

ENTER, LEAVE, DONE = 0, 1, 2
"""Values of regs[PC]: resume at entering level l, at leaving level l, or the search is over."""

INFINITY = np.int64(1) << 62
"""A branching degree larger than any real one."""

_C2, _C5, _C6, _C8, _VISIT = map(np.int64, range(5))
_M2, _M3, _M5, _M6, _M7, _M8, _M9 = map(np.int64, range(10, 17))
"""The steps of the searches' state machines.  numpy integers, since numba types a global
`int` as a literal, and a variable holding several literals types only when compiled just in
time (`slidelab.native_build` compiles it ahead of time)."""

_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@kernel(cache=True, nogil=True, inline="always")
def _random_below(rng, n):
    """A pseudo-random integer in [0, n) from the xorshift64* generator whose state is rng[0]."""
    s = rng[0]
    s ^= s >> np.uint64(12)
    s ^= s << np.uint64(25)
    s ^= s >> np.uint64(27)
    rng[0] = s
    return np.int64(((s * _MULTIPLIER) >> np.uint64(33)) % np.uint64(n))


@kernel(cache=True, nogil=True, inline="always")
def _hide(p, top, ulink, dlink, color, length):
    """hide'(p): take the other nodes of p's option out of their item lists."""
    q = p + 1
    while q != p:
        x = top[q]
        u = ulink[q]
        d = dlink[q]
        if x <= 0:
            q = u  # spacer: back to the first node of this option
        elif color[q] < 0:
            q += 1  # purified already: its item needs no bookkeeping
        else:
            dlink[u] = d
            ulink[d] = u
            length[x] -= 1
            q += 1


@kernel(cache=True, nogil=True, inline="always")
def _unhide(p, top, ulink, dlink, color, length):
    """unhide'(p): put back what hide'(p) took out, in reverse order."""
    q = p - 1
    while q != p:
        x = top[q]
        u = ulink[q]
        d = dlink[q]
        if x <= 0:
            q = d  # spacer: on to the last node of this option
        elif color[q] < 0:
            q -= 1
        else:
            dlink[u] = q
            ulink[d] = q
            length[x] += 1
            q -= 1


@kernel(cache=True, nogil=True, inline="always")
def _cover(i, top, ulink, dlink, color, length, llink, rlink):
    """cover'(i): hide every option of item i and take i out of the active list."""
    p = dlink[i]
    while p != i:
        _hide(p, top, ulink, dlink, color, length)
        p = dlink[p]
    left = llink[i]
    right = rlink[i]
    rlink[left] = right
    llink[right] = left


@kernel(cache=True, nogil=True, inline="always")
def _uncover(i, top, ulink, dlink, color, length, llink, rlink):
    """uncover'(i): undo cover'(i)."""
    left = llink[i]
    right = rlink[i]
    rlink[left] = i
    llink[right] = i
    p = ulink[i]
    while p != i:
        _unhide(p, top, ulink, dlink, color, length)
        p = ulink[p]


@kernel(cache=True, nogil=True, inline="always")
def _purify(p, top, ulink, dlink, color, length):
    """purify(p): hide the options that give p's item another colour; mark the agreeing ones."""
    c = color[p]
    i = top[p]
    q = dlink[i]
    while q != i:
        if color[q] == c:
            if q != p:
                color[q] = -1
        else:
            _hide(q, top, ulink, dlink, color, length)
        q = dlink[q]


@kernel(cache=True, nogil=True, inline="always")
def _unpurify(p, top, ulink, dlink, color, length):
    """unpurify(p): undo purify(p)."""
    c = color[p]
    i = top[p]
    q = ulink[i]
    while q != i:
        if color[q] < 0:
            color[q] = c
        elif q != p:
            _unhide(q, top, ulink, dlink, color, length)
        q = ulink[q]


@kernel(cache=True, nogil=True, inline="always")
def _commit(p, j, top, ulink, dlink, color, length, llink, rlink):
    """commit(p, j) for a secondary item j of a chosen option."""
    if color[p] == 0:
        _cover(j, top, ulink, dlink, color, length, llink, rlink)
    elif color[p] > 0:
        _purify(p, top, ulink, dlink, color, length)


@kernel(cache=True, nogil=True, inline="always")
def _uncommit(p, j, top, ulink, dlink, color, length, llink, rlink):
    """uncommit(p, j): undo commit(p, j)."""
    if color[p] == 0:
        _uncover(j, top, ulink, dlink, color, length, llink, rlink)
    elif color[p] > 0:
        _unpurify(p, top, ulink, dlink, color, length)


@kernel(cache=True, nogil=True, inline="always")
def _visit(x, level, n_items, top, sol_opts, sol_ends, regs):
    """Append the options x_0..x_{l-1} (null choices left out) to the solution buffer."""
    fill = regs[FILL]
    for k in range(level):
        q = x[k]
        if q > n_items:
            while top[q] > 0:
                q += 1
            sol_opts[fill] = -top[q] - 1  # the spacer after option k has TOP = -(k + 1)
            fill += 1
    sol_ends[regs[SOLS]] = fill
    regs[SOLS] += 1
    regs[FILL] = fill


@kernel(cache=True, nogil=True, inline="always")
def _buffer_full(x, regs, sol_opts, sol_ends):
    return regs[SOLS] >= sol_ends.size or regs[FILL] + x.size > sol_opts.size


@kernel(cache=True, nogil=True, inline="always")
def _tweak(xl, i, hide, top, ulink, dlink, color, length):
    """tweak(x_l, i) (or tweak' without `hide`): take x_l, the top option of i, out of the game."""
    if hide:
        _hide(xl, top, ulink, dlink, color, length)
    d = dlink[xl]
    dlink[i] = d
    ulink[d] = i
    length[i] -= 1


@kernel(cache=True, nogil=True, inline="always")
def _untweak(a, i, unhide, top, ulink, dlink, color, length):
    """untweak(l) (or untweak' without `unhide`): restore the options tweaked from FT_l = a on."""
    xx = a
    y = i
    z = dlink[i]
    dlink[i] = xx
    k = 0
    while xx != z:
        ulink[xx] = y
        k += 1
        if unhide:
            _unhide(xx, top, ulink, dlink, color, length)
        y = xx
        xx = dlink[xx]
    ulink[z] = y
    length[i] += k


class LinksArrays(NamedTuple):
    """Dancing links and the choice stack of `search_m`, handed to it as one argument; names
    as in TAOCP 7.2.2.1 (see the module's docstring)."""

    top: np.ndarray
    ulink: np.ndarray
    dlink: np.ndarray
    color: np.ndarray
    length: np.ndarray
    llink: np.ndarray
    rlink: np.ndarray
    bound: np.ndarray
    slack: np.ndarray
    x: np.ndarray
    """The choice x_l at each level: a node of the chosen option, or item i for a null choice."""
    ft: np.ndarray
    """FT_l: the first option tweaked at level l (Algorithm M)."""
    degree: np.ndarray
    """Branching degree at each level, for the progress estimate."""
    tried: np.ndarray
    """How many choices came before x_l at each level."""
    regs: np.ndarray
    """Level, resume point and counters (indices in `kernels`)."""
    rng: np.ndarray
    """State of the kernels' random-number generator (used by seeded runs)."""


@kernel(cache=True, nogil=True)
def search_m(a, randomize, n_items, n_primary, listing, sol_opts, sol_ends, limit, budget):
    """Algorithm M (exact cover with multiplicities and colours) for at most `budget` nodes.

    Primary item i must be covered between BOUND(i) - SLACK(i) and BOUND(i) times.
    A level may make a null choice (x_l = i, no option): item i then takes no
    more options.  With `listing`, solutions go to `sol_opts` / `sol_ends` as option
    numbers; the search stops at `limit` solutions.  Everything it did is in the arrays.
    """
    top, ulink, dlink, color, length = a.top, a.ulink, a.dlink, a.color, a.length
    llink, rlink, bound, slack = a.llink, a.rlink, a.bound, a.slack
    x, ft, degree, tried, regs, rng = a.x, a.ft, a.degree, a.tried, a.regs, a.rng
    level = regs[LEVEL]
    nodes = regs[NODES]
    stop = nodes + budget
    i = 0
    step = _M2 if regs[PC] == ENTER else _M9
    while True:
        if step == _M2:
            # M2. [Enter level l.]
            if nodes >= stop:
                regs[PC] = ENTER
                break
            step = _VISIT if rlink[0] == 0 else _M3
        elif step == _M3:
            # M3. [Choose i.] Minimum branching degree theta = LEN + 1 - max(BOUND - SLACK, 0);
            # ties go to the smaller min(SLACK, BOUND), then to the longer list, then to the
            # leftmost item (Knuth's DLX3).  An item that no choice can violate any more
            # (SLACK >= BOUND >= LEN) is branched on only when nothing else is left; if all
            # of those have empty lists, the partial solution is complete.
            theta = INFINITY
            best_s = INFINITY
            best_len = -1
            ties = 0
            free = 0
            p = rlink[0]
            while p != 0:
                b = bound[p]
                s = min(slack[p], b)
                lam = length[p]
                if lam > b or s < b:
                    t = lam + s - b + 1
                    if t < theta or (
                        t == theta and (s < best_s or (s == best_s and lam > best_len))
                    ):
                        theta = t
                        i = p
                        best_s = s
                        best_len = lam
                        ties = 1
                        if t <= 0:
                            break
                    elif t == theta and s == best_s and lam == best_len and randomize:
                        ties += 1
                        if _random_below(rng, ties) == 0:
                            i = p
                elif lam > 0 and free == 0:
                    free = p
                p = rlink[p]
            if theta == INFINITY:
                if free == 0:
                    step = _VISIT
                    continue
                i = free
                theta = length[free] + 1
            nodes += 1
            degree[level] = theta
            tried[level] = 0
            if theta <= 0:
                step = _M9
                continue
            # M4. [Prepare to branch on i.]
            x[level] = dlink[i]
            bound[i] -= 1
            if bound[i] == 0:
                _cover(i, top, ulink, dlink, color, length, llink, rlink)
            if bound[i] != 0 or slack[i] != 0:
                ft[level] = x[level]
            step = _M5
        elif step == _M5:
            # M5. [Possibly tweak x_l.]
            xl = x[level]
            if bound[i] == 0 and slack[i] == 0:
                step = _M6 if xl != i else _M8
                continue
            if length[i] <= bound[i] - slack[i]:
                step = _M8  # too few options left for i's lower bound
                continue
            if xl != i:
                _tweak(xl, i, bound[i] != 0, top, ulink, dlink, color, length)
            elif bound[i] != 0:
                # the null choice: i takes no more options
                left = llink[i]
                right = rlink[i]
                rlink[left] = right
                llink[right] = left
            step = _M6
        elif step == _M6:
            # M6. [Try x_l.] Commit the other items of x_l (primary ones lose one from BOUND).
            xl = x[level]
            if xl != i:
                p = xl + 1
                while p != xl:
                    j = top[p]
                    if j <= 0:
                        p = ulink[p]
                    elif j <= n_primary:
                        bound[j] -= 1
                        p += 1
                        if bound[j] == 0:
                            _cover(j, top, ulink, dlink, color, length, llink, rlink)
                    else:
                        _commit(p, j, top, ulink, dlink, color, length, llink, rlink)
                        p += 1
            level += 1
            step = _M2
        elif step == _M7:
            # M7. [Try again.] Uncommit the items of x_l right to left; try the next option.
            xl = x[level]
            p = xl - 1
            while p != xl:
                j = top[p]
                if j <= 0:
                    p = dlink[p]
                elif j <= n_primary:
                    bound[j] += 1
                    p -= 1
                    if bound[j] == 1:
                        _uncover(j, top, ulink, dlink, color, length, llink, rlink)
                else:
                    _uncommit(p, j, top, ulink, dlink, color, length, llink, rlink)
                    p -= 1
            x[level] = dlink[xl]
            tried[level] += 1
            step = _M5
        elif step == _M8:
            # M8. [Restore i.]
            if bound[i] == 0 and slack[i] == 0:
                _uncover(i, top, ulink, dlink, color, length, llink, rlink)
            else:
                _untweak(ft[level], i, bound[i] != 0, top, ulink, dlink, color, length)
                if bound[i] == 0:
                    _uncover(i, top, ulink, dlink, color, length, llink, rlink)
            bound[i] += 1
            step = _M9
        elif step == _M9:
            # M9. [Leave level l.]
            if level == 0:
                regs[PC] = DONE
                break
            level -= 1
            xl = x[level]
            if xl <= n_items:
                # undo the null choice: reactivate i
                i = xl
                left = llink[i]
                right = rlink[i]
                rlink[left] = i
                llink[right] = i
                step = _M8
            else:
                i = top[xl]
                step = _M7
        else:
            # M2 found a solution: the options among x_0 .. x_{l-1}.
            regs[COUNT] += 1
            if listing:
                _visit(x, level, n_items, top, sol_opts, sol_ends, regs)
            step = _M9
            if regs[COUNT] >= limit or (listing and _buffer_full(x, regs, sol_opts, sol_ends)):
                regs[PC] = LEAVE
                break
    regs[LEVEL] = level
    regs[NODES] = nodes


@kernel(cache=True, nogil=True)
def prune(links, n_primary, first, alive, start, budget):
    """Remove options that cannot be in any solution of an exactly-once problem.

    Option k is tried as Algorithm C would choose it at level 0 (cover one of its
    primary items, commit the others); if that leaves an active primary item with
    no options, no solution contains k, and k leaves every list for good.  Options
    without a primary item go too, as in Knuth's programs.  Looks at options
    start, start+1, ... (node `first[k]` begins option k) until `budget` have been
    tried; returns (next option, how many were removed).
    """
    top, ulink, dlink, color = links.top, links.ulink, links.dlink, links.color
    length, llink, rlink = links.length, links.llink, links.rlink
    removed = 0
    k = start
    while k < first.size and k < start + budget:
        if alive[k]:
            a = first[k]
            b = a
            xl = -1
            while top[b] > 0:
                if xl < 0 and top[b] <= n_primary:
                    xl = b
                b += 1
            useless = xl < 0
            if not useless:
                i = top[xl]
                _cover(i, top, ulink, dlink, color, length, llink, rlink)
                p = xl + 1
                while p != xl:
                    j = top[p]
                    if j <= 0:
                        p = ulink[p]
                    else:
                        _commit(p, j, top, ulink, dlink, color, length, llink, rlink)
                        p += 1
                q = rlink[0]
                while q != 0:
                    if length[q] == 0:
                        useless = True
                        break
                    q = rlink[q]
                p = xl - 1
                while p != xl:
                    j = top[p]
                    if j <= 0:
                        p = dlink[p]
                    else:
                        _uncommit(p, j, top, ulink, dlink, color, length, llink, rlink)
                        p -= 1
                _uncover(i, top, ulink, dlink, color, length, llink, rlink)
            if useless:
                for q in range(a, b):
                    u = ulink[q]
                    d = dlink[q]
                    dlink[u] = d
                    ulink[d] = u
                    length[top[q]] -= 1
                alive[k] = False
                removed += 1
        k += 1
    return k, removed


class BitsArrays(NamedTuple):
    """The tables and the choice stack of `search_bits`, handed to it as one argument.

    Option sets are rows of uint64 words, option k at bit k % 64 of word k // 64; a
    row's summary has bit w % 64 of its word w // 64 set when word w of the row is not 0.
    A search that reads whole rows (`search_bits`) keeps no summaries of `live` past level
    0, and its live rows hold no stale words.
    """

    item_opts: np.ndarray
    """Row i: the options containing primary item i."""
    item_words: np.ndarray
    """Row i: the summary of row i of `item_opts`."""
    conflict: np.ndarray
    """Row k: the options that cannot go with option k (k itself included)."""
    option_cover: np.ndarray
    """Row k: the primary items option k covers (bit i - 1 for item i)."""
    order: np.ndarray
    """Option k of the engine is option order[k] of the problem (shuffled by a seed)."""
    live: np.ndarray
    """Row l: the options that agree with the choices above level l."""
    live_words: np.ndarray
    """Row l: the summary of row l of `live`."""
    covered: np.ndarray
    """Row l: the primary items the choices above level l cover."""
    x: np.ndarray
    """The option chosen at each level (-1: none left)."""
    item: np.ndarray
    """The item branched on at each level."""
    degree: np.ndarray
    """Branching degree at each level, for the progress estimate."""
    tried: np.ndarray
    """How many choices came before x_l at each level."""
    regs: np.ndarray
    """Level, resume point and counters (indices above)."""
    rng: np.ndarray
    """State of the random-number generator (used by seeded runs)."""


# Reading an array of a NamedTuple costs numba's reference counts, two atomic operations, each
# time it is read in a loop, and so does handing a NamedTuple to a helper inlined into its
# caller.  So `search_bits` takes its arrays out of `a` once, at its top, and hands the
# inlined helpers arrays; the helpers that take `a` are compiled with `_nrt=False` (numba's
# switch for its reference counts, which the helpers inlined into them inherit): they
# neither allocate nor return arrays, and the caller holds `a` for the whole call.  Counting
# the Soma cube reading whole rows, helpers inlined with `a`: 47 ms; now: 23-26 ms.


@kernel(cache=True, nogil=True, inline="always")
def _next_in_rows(live, item_opts, level, i, start):
    """The first option >= start that is still live at `level` and contains item i, or -1,
    reading the words of the rows one after another."""
    w = start >> 6
    words = live.shape[1]
    if w >= words:
        return -1
    word = live[level, w] & item_opts[i, w] & (_ALL << np.uint64(start & 63))
    while word == 0:
        w += 1
        if w == words:
            return -1
        word = live[level, w] & item_opts[i, w]
    return (w << 6) + np.int64(trailing_zeros(word))


@kernel(cache=True, nogil=True, _nrt=False)
def _next_in_summaries(a, level, i, start):
    """`_next_in_rows`, reading only the words where both the live options and item i's
    options have a bit (their summaries say which; a live row's other words may hold stale
    bits)."""
    w = start >> 6
    if w >= a.live.shape[1]:
        return -1
    s = w >> 6
    both = a.live_words[level, s] & a.item_words[i, s] & (_ALL << np.uint64(w & 63))
    while True:
        while both == 0:
            s += 1
            if s == a.item_words.shape[1]:
                return -1
            both = a.live_words[level, s] & a.item_words[i, s]
        v = (s << 6) + np.int64(trailing_zeros(both))
        both &= both - np.uint64(1)
        word = a.live[level, v] & a.item_opts[i, v]
        if v == w:
            word &= _ALL << np.uint64(start & 63)
        if word != 0:
            return (v << 6) + np.int64(trailing_zeros(word))


@kernel(cache=True, nogil=True, inline="always")
def _row_length(live, item_opts, level, i):
    """LEN(i) at `level`, counted over every word of the rows (no branch: the loop
    vectorises)."""
    lam = 0
    for w in range(live.shape[1]):
        lam += np.int64(popcount(live[level, w] & item_opts[i, w]))
    return lam


@kernel(cache=True, nogil=True, inline="always")
def _live_length(a, level, i, theta):
    """LEN(i) at `level`, or some number above theta once it is known to be above it.

    Only the words where both the live options and item i's options have a bit are read
    (their summaries say which): deep in the tree most live words are 0."""
    lam = 0
    for s in range(a.item_words.shape[1]):
        both = a.live_words[level, s] & a.item_words[i, s]
        while both != 0:
            w = (s << 6) + np.int64(trailing_zeros(both))
            both &= both - np.uint64(1)
            lam += np.int64(popcount(a.live[level, w] & a.item_opts[i, w]))
            if lam > theta:
                return lam
    return lam


@kernel(cache=True, nogil=True, _nrt=False)
def _choose_item(a, whole_rows, level, randomize, n_primary):
    """C3: (LEN, item) of the uncovered primary item with the fewest live options, the
    leftmost of several (or one of them at random); LEN is INFINITY when all are covered.
    `whole_rows`: count LEN over whole rows, else through their summaries."""
    live, item_opts, covered = a.live, a.item_opts, a.covered
    theta = INFINITY
    best = 0
    ties = 0
    for v in range(covered.shape[1]):
        open_items = ~covered[level, v]
        while open_items != 0:
            p = (v << 6) + np.int64(trailing_zeros(open_items)) + 1
            open_items &= open_items - np.uint64(1)
            if p > n_primary:
                break
            if whole_rows:
                lam = _row_length(live, item_opts, level, p)
            else:
                lam = _live_length(a, level, p, theta)
            if lam < theta:
                theta = lam
                best = p
                ties = 1
                if lam == 0 and not randomize:
                    return theta, best
            elif lam == theta and randomize:
                ties += 1
                if _random_below(a.rng, ties) == 0:
                    best = p
        if theta == 0:
            break
    return theta, best


@kernel(cache=True, nogil=True, inline="always")
def _take_in_rows(live, conflict, level, xl):
    """Row l + 1 of `live` after x_l, every word of it: the live options of row l less those
    in conflict with x_l."""
    for w in range(live.shape[1]):
        live[level + 1, w] = live[level, w] & ~conflict[xl, w]


@kernel(cache=True, nogil=True, _nrt=False)
def _take_in_summaries(a, level, xl):
    """Row l + 1 of `live` after x_l and its summary, from the live words of row l only: the
    other words of row l + 1 keep what they held, and the summary leaves them out (every
    reader of a live row then goes through its summary)."""
    for s in range(a.live_words.shape[1]):
        summary = np.uint64(0)
        words = a.live_words[level, s]
        while words != 0:
            bit = trailing_zeros(words)
            words &= words - np.uint64(1)
            w = (s << 6) + np.int64(bit)
            word = a.live[level, w] & ~a.conflict[xl, w]
            a.live[level + 1, w] = word
            if word != 0:
                summary |= np.uint64(1) << bit
        a.live_words[level + 1, s] = summary


@kernel(cache=True, nogil=True)
def search_bits(a, whole_rows, randomize, n_primary, listing, sol_opts, sol_ends, limit, budget):
    """Algorithm C (exactly-once items, colours) on bitsets; stops as `search_m` does.
    `whole_rows` reads every word of a row (narrow rows), else only the words its summary
    names (wide rows, mostly 0 deep in the tree).

    The search tree is the one dancing links explore: `a.live[l]` holds, one bit per
    option, the options that agree with x_0 .. x_{l-1} (those a DLX search still has
    in its lists at level l), so LEN(i) = |live[l] & item_opts[i]| and the MRV choice,
    Knuth's leftmost tie rule and the order of the options (their numbers) all match.
    Covering an option is `live[l + 1] = live[l] & ~conflict[x_l]`, and undoing it is
    free.  `covered[l]` has one bit per primary item (bit i - 1 for item i) already
    covered at level l.  Option k here is option `order[k]` of the problem.
    """
    regs, x, item, degree, tried, order = a.regs, a.x, a.item, a.degree, a.tried, a.order
    live, item_opts, conflict = a.live, a.item_opts, a.conflict
    covered, option_cover = a.covered, a.option_cover
    level = regs[LEVEL]
    nodes = regs[NODES]
    stop = nodes + budget
    i = 0
    step = _C2 if regs[PC] == ENTER else _C8
    while True:
        if step == _C2:
            # C2. [Enter level l.]
            if nodes >= stop:
                regs[PC] = ENTER
                break
            # C3. [Choose i.]
            theta, i = _choose_item(a, whole_rows, level, randomize, n_primary)
            if theta == INFINITY:
                step = _VISIT  # every primary item is covered
                continue
            nodes += 1
            degree[level] = theta
            tried[level] = 0
            item[level] = i
            # C4. [Cover i.] (Nothing to do: level l + 1 starts from live[l].)  C6 finds the
            # next option the same way; going through C6 from here instead cost 8% a node.
            if whole_rows:
                x[level] = _next_in_rows(live, item_opts, level, i, 0)
            else:
                x[level] = _next_in_summaries(a, level, i, np.int64(0))
            step = _C5
        elif step == _C5:
            # C5. [Try x_l.]
            xl = x[level]
            if xl < 0:
                step = _C8  # C7. [Backtrack.] (Nothing to uncover.)
                continue
            if whole_rows:
                _take_in_rows(live, conflict, level, xl)
            else:
                _take_in_summaries(a, level, xl)
            for v in range(covered.shape[1]):
                covered[level + 1, v] = covered[level, v] | option_cover[xl, v]
            level += 1
            step = _C2
        elif step == _C6:
            # C6. [Try again.]
            i = item[level]
            tried[level] += 1
            if whole_rows:
                x[level] = _next_in_rows(live, item_opts, level, i, x[level] + 1)
            else:
                x[level] = _next_in_summaries(a, level, i, x[level] + 1)
            step = _C5
        elif step == _C8:
            # C8. [Leave level l.]
            if level == 0:
                regs[PC] = DONE
                break
            level -= 1
            step = _C6
        else:
            # C2 found a solution: x_0 .. x_{l-1}.
            regs[COUNT] += 1
            if listing:
                fill = regs[FILL]
                for k in range(level):
                    sol_opts[fill] = order[x[k]]
                    fill += 1
                sol_ends[regs[SOLS]] = fill
                regs[SOLS] += 1
                regs[FILL] = fill
            step = _C8
            if regs[COUNT] >= limit or (listing and _buffer_full(x, regs, sol_opts, sol_ends)):
                regs[PC] = LEAVE
                break
    regs[LEVEL] = level
    regs[NODES] = nodes


class Options(NamedTuple):
    """A matrix's options, for `lay_out_options`: option k holds entries starts[k] ..
    starts[k + 1] - 1, entry e naming item items[e] with colour colours[e] (0: none)."""

    starts: np.ndarray
    items: np.ndarray
    colours: np.ndarray


class Nodes(NamedTuple):
    """The node arrays of dancing links while `lay_out_options` and `link_nodes` fill them
    (names as in `LinksArrays`)."""

    top: np.ndarray
    color: np.ndarray
    ulink: np.ndarray
    dlink: np.ndarray
    length: np.ndarray
    last: np.ndarray
    """The bottom node of each item's list so far (the item itself while it is empty); the
    driver closes the circular lists once every node is in (DLINK(last) = the header,
    ULINK(header) = last)."""


@kernel(cache=True, nogil=True)
def link_nodes(listed, nodes, start, stop):
    """Append nodes `listed[start:stop]` to the bottom of their items' vertical lists:
    appending in a given order makes that order the list's."""
    top, ulink, dlink, length, last = nodes.top, nodes.ulink, nodes.dlink, nodes.length, nodes.last
    for k in range(start, stop):
        node = listed[k]
        _append(node, top[node], ulink, dlink, length, last)


@kernel(cache=True, nogil=True, inline="always")
def _append(node, item, ulink, dlink, length, last):
    """Put `node` at the bottom of `item`'s list (see `link_nodes`)."""
    above = last[item]
    ulink[node] = above
    dlink[above] = node
    last[item] = node
    length[item] += 1


@kernel(cache=True, nogil=True)
def lay_out_options(options, alive, n, nodes, linking, first, stop):
    """Put options first..stop-1 of `n` items into the node arrays: TOP and COLOR of their
    nodes, and the spacers around them; when `linking`, also append the nodes of the
    `alive` ones to their items' lists, in input order (as `link_nodes` does)."""
    starts, items, colours = options.starts, options.items, options.colours
    top, color, ulink, dlink = nodes.top, nodes.color, nodes.ulink, nodes.dlink
    length, last = nodes.length, nodes.last
    for k in range(first, stop):
        spacer = n + 1 + k + starts[k]
        after = n + 2 + k + starts[k + 1]
        top[spacer] = -k
        top[after] = -(k + 1)
        dlink[spacer] = after - 1
        ulink[after] = spacer + 1
        for e in range(starts[k], starts[k + 1]):
            node = n + 2 + k + e
            top[node] = items[e]
            color[node] = colours[e]
            if linking and alive[k]:
                _append(node, items[e], ulink, dlink, length, last)


class CellsArrays(NamedTuple):
    """The sparse sets and the choice stack of `search_cells`, handed to it as one argument.

    Entry e of the matrix (the e-th item of all the options, one option after another) is
    a cell of its item's set: `cell[base[i]:base[i + 1]]` holds the entries of item i, the
    first `size[i]` of them those of the options still in play for i, and `loc[e]` is
    where entry e sits.  Items are kept in the sparse set `active`: primary items in its
    first `n_primary` places, secondary ones after, the first `regs[ACTIVE_P]` and
    `regs[ACTIVE_S]` of each kind active."""

    cell: np.ndarray
    loc: np.ndarray
    base: np.ndarray
    size: np.ndarray
    entry_item: np.ndarray
    """The item of each entry."""
    entry_colour: np.ndarray
    """The colour of each entry (0: none)."""
    entry_option: np.ndarray
    """The option of each entry."""
    option_start: np.ndarray
    """Option k has entries option_start[k] .. option_start[k + 1] - 1."""
    active: np.ndarray
    """Items, primary ones in places 0..n_primary-1 and secondary ones after."""
    where: np.ndarray
    """The place of item i in `active`."""
    trail: np.ndarray
    """The item of every cell taken out of a set on the way down, in turn (at most one per
    entry): undoing is adding 1 back to their sizes."""
    frame: np.ndarray
    """Row l: the trail's height and the active counts of each kind before level l covers
    its item, and after (columns `_BEFORE` and `_AFTER` + 0, 1, 2)."""
    x: np.ndarray
    """The place in its item's set of the option tried at each level."""
    item: np.ndarray
    """The item branched on at each level."""
    degree: np.ndarray
    """Branching degree at each level, for the progress estimate."""
    tried: np.ndarray
    """How many choices came before x_l at each level."""
    regs: np.ndarray
    """Level, resume point and counters as in the other engines, the active counts, and the
    trail's height (`ACTIVE_P`, `ACTIVE_S`, `TRAIL`)."""
    rng: np.ndarray
    """State of the random-number generator (used by seeded runs)."""


ACTIVE_P, ACTIVE_S, TRAIL = REGS, REGS + 1, REGS + 2
"""Indices into the dancing-cells engine's `regs` after the common ones."""
CELLS_REGS = REGS + 3

_BEFORE, _AFTER = 0, 3
"""Columns of `CellsArrays.frame` where a level's two saves begin."""


@kernel(cache=True, nogil=True, inline="always")
def _deactivate(a, j, n_primary, regs):
    """Take item j out of the active items (swapped with the last active one of its kind)."""
    if j <= n_primary:
        last = regs[ACTIVE_P] - 1
        regs[ACTIVE_P] = last
    else:
        last = n_primary + regs[ACTIVE_S] - 1
        regs[ACTIVE_S] -= 1
    p = a.where[j]
    other = a.active[last]
    a.active[last] = j
    a.active[p] = other
    a.where[j] = last
    a.where[other] = p


@kernel(cache=True, nogil=True, inline="always")
def _hide_cells(a, e, regs):
    """hide(o) for the option o of entry e: o leaves the sets of its other items (each of its
    cells swapped with the last live cell of the set, which then shrinks; the item goes on
    the trail).  Sets of items no longer active may shrink too: nobody reads them until the
    trail has grown them back."""
    o = a.entry_option[e]
    t = regs[TRAIL]
    for f in range(a.option_start[o], a.option_start[o + 1]):
        if f != e:
            j = a.entry_item[f]
            p = a.loc[f]
            last = a.base[j] + a.size[j] - 1
            g = a.cell[last]
            a.cell[last] = f
            a.cell[p] = g
            a.loc[f] = last
            a.loc[g] = p
            a.size[j] -= 1
            a.trail[t] = j
            t += 1
    regs[TRAIL] = t


@kernel(cache=True, nogil=True, inline="always")
def _cover_cells(a, j, colour, n_primary, regs):
    """cover(j) (colour 0) or purify(j) for a colour: j stops being active, and the options
    of its set (of another colour, when purifying) leave every other item."""
    _deactivate(a, j, n_primary, regs)
    start = a.base[j]
    for p in range(start, start + a.size[j]):
        e = a.cell[p]
        if colour == 0 or a.entry_colour[e] != colour:
            _hide_cells(a, e, regs)


@kernel(cache=True, nogil=True, inline="always")
def _save(a, level, column, regs):
    """Note the trail's height and the active counts in row `level` of the frame."""
    a.frame[level, column] = regs[TRAIL]
    a.frame[level, column + 1] = regs[ACTIVE_P]
    a.frame[level, column + 2] = regs[ACTIVE_S]


@kernel(cache=True, nogil=True, inline="always")
def _restore(a, level, column, regs):
    """Undo everything since `_save(a, level, column, regs)`: grow back the sets on the trail
    above the height saved, and put back the active counts."""
    mark = a.frame[level, column]
    t = regs[TRAIL]
    while t > mark:
        t -= 1
        a.size[a.trail[t]] += 1
    regs[TRAIL] = mark
    regs[ACTIVE_P] = a.frame[level, column + 1]
    regs[ACTIVE_S] = a.frame[level, column + 2]


@kernel(cache=True, nogil=True, inline="always")
def _choose_cell_item(a, randomize, regs):
    """C3: (size, item) of the active primary item with the fewest options, the one with the
    smallest number of several (as the leftmost in Knuth's list), or one at random."""
    theta = INFINITY
    best = 0
    ties = 0
    for k in range(regs[ACTIVE_P]):
        j = a.active[k]
        s = a.size[j]
        if s < theta or (s == theta and not randomize and j < best):
            theta = s
            best = j
            ties = 1
        elif s == theta and randomize:
            ties += 1
            if _random_below(a.rng, ties) == 0:
                best = j
    return theta, best


@kernel(cache=True, nogil=True, inline="always")
def _sort_set(a, i):
    """Put item i's live cells in the order of their options (insertion sort; short sets)."""
    start = a.base[i]
    for p in range(start + 1, start + a.size[i]):
        e = a.cell[p]
        q = p
        while q > start and a.cell[q - 1] > e:
            a.cell[q] = a.cell[q - 1]
            a.loc[a.cell[q]] = q
            q -= 1
        a.cell[q] = e
        a.loc[e] = q


@kernel(cache=True, nogil=True)
def search_cells(a, randomize, n_primary, listing, sol_opts, sol_ends, limit, budget):
    """Algorithm C (exactly-once items, colours) on sparse sets, Knuth's dancing cells; stops
    as `search_m` does.

    The tree is the one dancing links explore: item i's live cells are the options its list
    holds at that level, and the item chosen is the one dancing links choose.  Undoing is
    growing back the sets on the trail (the cells taken out wait just past each live part)
    and putting back the active counts.  An item's set gets out of order as cells are
    swapped out, so when the order is seen (listing without a seed) the chosen item's set
    is sorted before it is tried.
    """
    regs = a.regs
    x = a.x
    level = regs[LEVEL]
    nodes = regs[NODES]
    stop = nodes + budget
    ordered = listing and not randomize
    i = 0
    step = _C2 if regs[PC] == ENTER else _C8
    while True:
        if step == _C2:
            # C2. [Enter level l.]
            if nodes >= stop:
                regs[PC] = ENTER
                break
            if regs[ACTIVE_P] == 0:
                step = _VISIT
                continue
            # C3. [Choose i.]
            theta, i = _choose_cell_item(a, randomize, regs)
            nodes += 1
            a.degree[level] = theta
            a.tried[level] = 0
            a.item[level] = i
            if theta == 0:
                step = _C8  # C7 at once: nothing to try, nothing to undo
                continue
            # C4. [Cover i.] The trail's height before and after, to undo i and the options.
            _save(a, level, _BEFORE, regs)
            _cover_cells(a, i, 0, n_primary, regs)
            _save(a, level, _AFTER, regs)
            if ordered:
                _sort_set(a, i)
            x[level] = a.base[i]
            step = _C5
        elif step == _C5:
            # C5. [Try x_l.] Commit the other items of its option (a secondary item already
            # purified to the same colour stays as it is).
            i = a.item[level]
            p = x[level]
            if p >= a.base[i] + a.size[i]:
                # C7. [Backtrack.] Uncover i.
                _restore(a, level, _BEFORE, regs)
                step = _C8
                continue
            e = a.cell[p]
            o = a.entry_option[e]
            for f in range(a.option_start[o], a.option_start[o + 1]):
                j = a.entry_item[f]
                if f != e and (
                    j <= n_primary or a.where[j] < n_primary + regs[ACTIVE_S]
                ):  # fmt: skip
                    _cover_cells(a, j, a.entry_colour[f], n_primary, regs)
            level += 1
            step = _C2
        elif step == _C6:
            # C6. [Try again.]
            _restore(a, level, _AFTER, regs)
            x[level] += 1
            a.tried[level] += 1
            step = _C5
        elif step == _C8:
            # C8. [Leave level l.]
            if level == 0:
                regs[PC] = DONE
                break
            level -= 1
            step = _C6
        else:
            # C2 found a solution: the options of x_0 .. x_{l-1}.
            regs[COUNT] += 1
            if listing:
                fill = regs[FILL]
                for k in range(level):
                    sol_opts[fill] = a.entry_option[a.cell[x[k]]]
                    fill += 1
                sol_ends[regs[SOLS]] = fill
                regs[SOLS] += 1
                regs[FILL] = fill
            step = _C8
            if regs[COUNT] >= limit or (listing and _buffer_full(x, regs, sol_opts, sol_ends)):
                regs[PC] = LEAVE
                break
    regs[LEVEL] = level
    regs[NODES] = nodes

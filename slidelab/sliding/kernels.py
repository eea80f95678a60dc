"""Numba kernels for breadth-first search over sliding-block configurations.

A configuration is a code of `board.words` uint64s (one for most puzzles; see
`encoding`): each kind of piece either has one field per piece holding the
position of its anchor cell, the fields of identical pieces in increasing
order, or one bit per possible anchor position, set where a piece of the kind
stands.  Either way identical pieces give one code.  Most kinds are
*xor-coded*: moving one of their pieces from anchor a to anchor b flips
`xor_bits[k, a]` and `xor_bits[k, b]` in their words; only kinds with several
pieces stored as fields need their fields sorted again.

A `Space` holds the configurations in breadth-first order (`states`, which is
also the queue) and `table`, an open-addressing hash table of state index + 1
(0 = empty slot).  Every move can be undone, so the successors of a
configuration at distance d lie at distance d - 1, d or d + 1: the table only
has to find the configurations from index `counts[FLOOR]` on (the start of the
layer before the one being expanded), and `rebuild` drops the older ones when
it fills up.  Paths are found again from the layers (`first_match`).

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

from typing import NamedTuple

import numpy as np

from slidelab.kernels import kernel, trailing_zeros


class Board(NamedTuple):
    """The puzzle as the kernels see it (made by `encoding.build_tables`)."""

    kind_of: np.ndarray
    """Kind of each piece; pieces are numbered by kind, then by anchor cell."""
    kind_first: np.ndarray
    """Pieces of kind k are kind_first[k] .. kind_first[k + 1] - 1."""
    cover_piece: np.ndarray
    cover_off: np.ndarray
    """The cells of every piece, one flat list (a loop over kinds' cells nested in a loop over
    pieces costs three times as much): piece cover_piece[i] covers the padded cell
    cover_off[i] away from its anchor."""
    pad_of: np.ndarray
    """Padded cell of each board cell."""
    cell_of: np.ndarray
    """Board cell of each padded cell (-1 on the boundary)."""
    base_occ: np.ndarray
    """The padded board without pieces: -1 boundary or obstacle, 0 free."""
    width: int
    """Padded row length."""
    words: int
    """uint64 words in a code."""
    pos_of: np.ndarray
    """pos_of[k, cell]: the position number of an anchor of kind k there (-1: cannot stand)."""
    cell_at: np.ndarray
    """cell_at[k, position]: the inverse of pos_of."""
    mask_base: np.ndarray
    """Global bit of position 0 of each kind coded by a mask, -1 for kinds coded by fields."""
    field_bits: np.ndarray
    """Bits of each field, per kind (0 for mask kinds)."""
    field_at: np.ndarray
    """Global bit of each piece's field (-1 for pieces of mask kinds)."""
    xor_word: np.ndarray
    xor_bits: np.ndarray
    """xor_word[k, cell], xor_bits[k, cell]: what a piece of a xor-coded kind adds there."""
    sorted_kind: np.ndarray
    """Kinds coded by several fields kept in order (moving one re-sorts them)."""
    edge_lo: np.ndarray
    edge_hi: np.ndarray
    edges: np.ndarray
    """edges[edge_lo[4k + d]:edge_hi[4k + d]]: offsets from the anchor of the cells a piece of
    kind k enters on a unit step in direction d (see `DIRECTIONS`)."""
    piece_dirs: np.ndarray
    """The directions each piece may step in, one bit per number of `DIRECTIONS`: all four, or
    the two along its kind's axis."""
    bitboards: bool
    """Whether moves and who blocks whom are worked out on bitboards (`_fits`,
    `_blocking_bits`): the padded board has at most 64 cells."""


class Space(NamedTuple):
    """The configurations met so far and the hash table that finds the recent ones."""

    states: np.ndarray
    """(capacity, words) uint64 codes in breadth-first order."""
    table: np.ndarray
    """uint32 open-addressing table of state index + 1; its size is a power of two."""
    counts: np.ndarray
    """int64: see N, FILL, ROOM, MAX_FILL, FLOOR, KNOWN."""


N, FILL, ROOM, MAX_FILL, FLOOR, KNOWN = 0, 1, 2, 3, 4, 5
"""Slots of `Space.counts`: configurations held, table entries, most configurations that may
be held now, most table entries before a rebuild, first index the table must find, and the
configurations sifting may compare with (those held when the chunk began: others may be
being written by the inserting thread)."""


class Sifted(NamedTuple):
    """A thread's successors that the table lacked, with the index of their parents."""

    keys: np.ndarray
    parents: np.ndarray
    resume: np.ndarray
    """Where a probe for each may start while the table is not rebuilt (see `_probe`)."""


class GoalTest(NamedTuple):
    """What a configuration must hold to meet the goal (made by `encoding.Tables.goal_test`)."""

    kind_at: np.ndarray
    """1 + the kind required to have an anchor at each board cell (0: none)."""
    required: int
    """How many anchors are required."""
    empty: np.ndarray
    """Whether each board cell must be empty."""
    check_empty: bool
    must_mask: np.ndarray
    must_value: np.ndarray
    """Per code word: only codes with word & must_mask == must_value can meet the goal (the
    required anchors of kinds coded by a mask or by one field), tested before decoding."""


RANGE_DONE, BUDGET_USED, NEED_ROOM = 0, 1, 2
"""Why `expand` returned."""

PENDING = 512
"""Successors collected before they are looked up together."""

STEP, RAY, FLOOD = 0, 1, 2
"""How a chosen set of pieces may move: one step, straight slides, any path."""

DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))
"""The unit steps (drow, dcol) numbered 0-3: right, left, down, up."""

ALL_DIRECTIONS = 0b1111
ACROSS = 0b0011
"""Bits of the directions right and left in `Board.piece_dirs` (down and up are ACROSS << 2)."""

_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)
_ONE = np.uint64(1)


@kernel(cache=True, nogil=True, inline="always")
def _hash(keys, row):
    """Hash of the code keys[row] (rows, not views: a view costs reference counting)."""
    h = np.uint64(0x632BE59BD9B4E019)
    for w in range(keys.shape[1]):
        h = (h ^ keys[row, w]) * _MIX1
        h = (h ^ (h >> np.uint64(31))) * _MIX2
    return h ^ (h >> np.uint64(29))


@kernel(cache=True, nogil=True, inline="always")
def _lowest_bit(bits):
    """Index of the lowest set bit of a nonzero uint64."""
    return np.int64(trailing_zeros(bits))


@kernel(cache=True, nogil=True)
def pack(board, anchors, out):
    """Code the anchor cells (pieces in order, sorted within each kind) into `out`."""
    for w in range(out.size):
        out[w] = 0
    for p in range(anchors.size):
        k = board.kind_of[p]
        pos = board.pos_of[k, anchors[p]]
        if board.mask_base[k] >= 0:
            g = board.mask_base[k] + pos
            out[g >> 6] |= _ONE << np.uint64(g & 63)
        else:
            g = board.field_at[p]
            out[g >> 6] |= np.uint64(pos) << np.uint64(g & 63)


@kernel(cache=True, nogil=True)
def pack_rows(board, anchors, out):
    """`pack` each row of `anchors` into the same row of `out`."""
    for row in range(anchors.shape[0]):
        pack(board, anchors[row], out[row])


@kernel(cache=True, nogil=True)
def unpack(board, key, out):
    """Decode the anchor cells of `key` into `out`."""
    _decode(
        board.kind_first,
        board.mask_base,
        board.field_bits,
        board.field_at,
        board.cell_at,
        key.reshape(1, key.size),
        np.int64(0),
        out,
    )


@kernel(cache=True, nogil=True, inline="always")
def _decode(kind_first, mask_base, field_bits, field_at, cell_at, states, row, out):
    """Decode the anchor cells of `states[row]` into `out`, in piece order."""
    for k in range(mask_base.size):
        base = mask_base[k]
        if base < 0:
            mask = (_ONE << np.uint64(field_bits[k])) - _ONE
            for p in range(kind_first[k], kind_first[k + 1]):
                g = field_at[p]
                out[p] = cell_at[k, (states[row, g >> 6] >> np.uint64(g & 63)) & mask]
            continue
        p = kind_first[k]
        w = base >> 6
        bits = states[row, w] & ~((_ONE << np.uint64(base & 63)) - _ONE)
        while p < kind_first[k + 1]:
            while bits and p < kind_first[k + 1]:
                out[p] = cell_at[k, 64 * w + _lowest_bit(bits) - base]
                p += 1
                bits &= bits - _ONE
            w += 1
            if p < kind_first[k + 1]:
                bits = states[row, w]


@kernel(cache=True, nogil=True, inline="always")
def _same(states, index, keys, row):
    for w in range(keys.shape[1]):
        if states[index, w] != keys[row, w]:
            return False
    return True


@kernel(cache=True, nogil=True, inline="always")
def _probe(table, states, keys, row, slot, known):
    """Probe the table for keys[row] among the states before `known` from `slot`: (its slot,
    True, its slot), or (the empty slot, False, the first slot met holding a state from
    `known` on, else the empty slot).  The slots before that third one hold states that
    are not keys[row] and stay there until the table is rebuilt: a later probe for it may
    start there."""
    mask = table.size - 1
    resume = np.int64(-1)
    while True:
        entry = table[slot]
        if entry == 0:
            return slot, False, slot if resume < 0 else resume
        if np.int64(entry) > known:
            if resume < 0:
                resume = slot
        elif _same(states, np.int64(entry) - 1, keys, row):
            return slot, True, slot
        slot = (slot + 1) & mask


@kernel(cache=True, nogil=True)
def rebuild(space):
    """Fill the (cleared) table with the states from counts[FLOOR] on."""
    table = space.table
    states = space.states
    table[:] = 0
    mask = table.size - 1
    counts = space.counts
    for index in range(counts[FLOOR], counts[N]):
        slot = np.int64(_hash(states, index) & np.uint64(mask))
        while table[slot] != 0:
            slot = (slot + 1) & mask
        table[slot] = np.uint32(index + 1)
    counts[FILL] = counts[N] - counts[FLOOR]


@kernel(cache=True, nogil=True)
def first_match(states, lo, hi, keys):
    """The first index in lo..hi whose state is a row of `keys`, or -1."""
    size = 1
    while size < 2 * keys.shape[0]:
        size *= 2
    mask = size - 1
    table = np.zeros(size, np.int64)
    for r in range(keys.shape[0]):
        slot = np.int64(_hash(keys, r) & np.uint64(mask))
        while table[slot] != 0:
            slot = (slot + 1) & mask
        table[slot] = r + 1
    for index in range(lo, hi):
        slot = np.int64(_hash(states, index) & np.uint64(mask))
        while table[slot] != 0:
            if _same(keys, table[slot] - 1, states, index):
                return index
            slot = (slot + 1) & mask
    return -1


@kernel(cache=True, nogil=True, inline="always")
def _fits(board, occ, set_at, set_edges, lo, hi, base, mask, disp, d, bits, blockers, to):
    """Whether the pieces lo..hi of a moving set (vertices `base` + the bits of `mask`;
    anchored at padded cells set_at[lo:hi], their kinds' edge lists in `board` from
    set_edges[lo:hi]), shifted by `disp` where they fit, can take a unit step in direction d
    to displacement `to`: every cell one of them enters is empty or held by one of them in
    `occ` (the other cells they cover next are theirs already).

    A superpiece's vertices fit in `mask` from base 0 (it has at most
    `MAX_SUPERPIECE_PIECES`); a single piece, one of up to thousands, is base = its vertex
    with mask 1.  A holder outside the 64 vertices from `base` (a wall too) blocks before
    any shift: a shift by 64 or more is undefined in compiled code, and x86 takes it modulo
    64, which once let a piece step onto the piece 64 after it.

    On a padded board of at most 64 cells the check is one test on bitboards instead:
    `bits` holds the set's cells where it stands and `blockers` every other cell of a
    wall or a piece (`bits` is 0 on bigger boards).
    """
    if bits:
        moved = bits << np.uint64(to) if to >= 0 else bits >> np.uint64(-to)
        return not (moved & blockers)
    for m in range(lo, hi):
        at = set_at[m] + disp
        i = set_edges[m] + d
        for e in range(board.edge_lo[i], board.edge_hi[i]):
            held = occ[at + board.edges[e]]
            offset = np.uint64(held - base)  # walls and vertices below base wrap round
            if held != 0 and (offset > 63 or not (mask >> offset) & _ONE):
                return False
    return True


@kernel(cache=True, nogil=True)
def _blocking(occ, width, pinned_across, pinned_down, across, across_anc, down, down_anc):
    """Who blocks whom on a shift right (`across`) and down (`down`), closed transitively
    where `_superpieces` reads it (see `_close`).

    Vertex 0 is the walls, vertex p + 1 piece p.  `across[u]` gets every vertex u
    pushes against on a shift right, directly or not, and u itself; `across_anc`
    the reverse relation; `down` and `down_anc` the same for a shift down.  The
    direct pushes come from one branch-free pass over neighbouring cells.  The
    vertices of `pinned_across` (pieces that may not move sideways) push the walls
    and are pushed by them across, as if they were walls; `pinned_down` the same
    for a shift down.
    """
    for v in range(across.size):
        across[v] = _ONE << np.uint64(v)
        across_anc[v] = across[v]
        down[v] = across[v]
        down_anc[v] = across[v]
    for x in range(occ.size - width):
        a = occ[x]
        u = np.uint64(max(a, 0))
        b = occ[x + 1]
        v = max(b, 0)
        pushes = np.uint64((a != 0) & (b != 0) & (a != b))
        across[u] |= pushes << np.uint64(v)
        across_anc[v] |= pushes << u
        b = occ[x + width]
        v = max(b, 0)
        pushes = np.uint64((a != 0) & (b != 0) & (a != b))
        down[u] |= pushes << np.uint64(v)
        down_anc[v] |= pushes << u
    _pin(across, across_anc, pinned_across)
    _pin(down, down_anc, pinned_down)
    _close(across, across_anc)
    _close(down, down_anc)


@kernel(cache=True, nogil=True, inline="always")
def _pin(desc, anc, pinned):
    """Tie the vertices of `pinned` to the walls both ways, so no moving set holds them."""
    desc[0] |= pinned
    anc[0] |= pinned
    rest = pinned
    while rest:
        v = _lowest_bit(rest)
        rest &= rest - _ONE
        desc[v] |= _ONE
        anc[v] |= _ONE


@kernel(cache=True, nogil=True, inline="always")
def _reach(rel, start):
    """Every vertex `start` reaches in `rel` (rows of direct arcs, each holding its vertex)."""
    seen = rel[start]
    todo = seen & ~(_ONE << np.uint64(start))
    while todo:
        new = rel[_lowest_bit(todo)] & ~seen
        seen |= new
        todo = (todo & (todo - _ONE)) | new
    return seen


@kernel(cache=True, nogil=True, inline="always")
def _close(desc, anc):
    """Close the relation `desc` (and its reverse `anc`) as far as `_superpieces` reads it.

    The walls (vertex 0) push the pieces on one side and are pushed by those on
    the other, which ties most pieces to them: those pieces are decided with the
    walls, and `_superpieces` only ever reads the rows of the walls and of the
    rest, the `free` vertices.  The walls' rows are closed by a search from them;
    the free vertices' rows by Warshall's algorithm through the free vertices
    only, which suffices: a path between two vertices that the walls do not
    reach (or that do not reach the walls) never leaves them.
    """
    reached = _reach(desc, 0)
    reaching = _reach(anc, 0)
    desc[0] = reached
    anc[0] = reaching
    _close_free(desc, anc, ~(reached & reaching) & ~(~_ONE << np.uint64(desc.size - 1)))


@kernel(cache=True, nogil=True, inline="always")
def _close_free(desc, anc, free):
    """Warshall's algorithm on the rows of the `free` vertices, through them only."""
    ks = free
    while ks:
        k = _lowest_bit(ks)
        ks &= ks - _ONE
        bit = _ONE << np.uint64(k)
        below = anc[k]
        above = desc[k]
        rest = below & free & ~bit
        while rest:
            desc[_lowest_bit(rest)] |= above
            rest &= rest - _ONE
        rest = above & free & ~bit
        while rest:
            anc[_lowest_bit(rest)] |= below
            rest &= rest - _ONE


@kernel(cache=True, nogil=True, inline="always")
def _shifted(bits, step):
    """A bitboard moved by `step` cells (either sign)."""
    return bits << np.uint64(step) if step >= 0 else bits >> np.uint64(-step)


@kernel(cache=True, nogil=True, inline="always")
def _flood(hit, cells, piece_bits, multi, step):
    """`hit` grown by every piece cell from which a step of `step` enters it, repeatedly,
    with the whole piece (`multi`: the pieces of several cells)."""
    while True:
        new = _shifted(hit, -step) & cells & ~hit
        if not new:
            return hit
        for p in multi:
            if piece_bits[p] & new:
                new |= piece_bits[p]
        hit |= new


@kernel(cache=True, nogil=True)
def _blocking_bits(occ, piece_bits, cells, walls, multi, step, desc, anc):
    """`_blocking` for a shift by `step` (1 or the padded width) on bitboards (`cells`: those
    of every piece), directly closed as `_close` closes it: the walls' rows from two floods
    of cells, the rows of the free vertices from the pieces their cells push."""
    pushing = _flood(walls, cells, piece_bits, multi, step)
    pushed = _flood(walls, cells, piece_bits, multi, -step)
    reaching = _ONE
    reached = _ONE
    for p in range(piece_bits.size):
        bit = _ONE << np.uint64(p + 1)
        reaching |= bit if piece_bits[p] & pushing else np.uint64(0)
        reached |= bit if piece_bits[p] & pushed else np.uint64(0)
    desc[0] = reached
    anc[0] = reaching
    free = ~(reached & reaching) & ~(~_ONE << np.uint64(desc.size - 1))
    rest = free
    while rest:
        u = _lowest_bit(rest)
        rest &= rest - _ONE
        desc[u] = _ONE << np.uint64(u)
        anc[u] = desc[u]
    rest = free
    while rest:
        u = _lowest_bit(rest)
        rest &= rest - _ONE
        mine = piece_bits[u - 1]
        entered = _shifted(mine, step) & cells & ~mine
        while entered:
            v = occ[_lowest_bit(entered)]
            entered &= entered - _ONE
            if (free >> np.uint64(v)) & _ONE:
                desc[u] |= _ONE << np.uint64(v)
                anc[v] |= _ONE << np.uint64(u)
    _close_free(desc, anc, free)


@kernel(cache=True, nogil=True, inline="always")
def _pinned_bits(piece_bits, pinned):
    """The cells of the pieces whose vertices are in `pinned`."""
    bits = np.uint64(0)
    rest = pinned
    while rest:
        v = _lowest_bit(rest)
        rest &= rest - _ONE
        bits |= piece_bits[v - 1]
    return bits


@kernel(cache=True, nogil=True)
def _superpieces(desc, anc, forward, inc_stack, exc_stack, masks, dirs_out, count):
    """Append to `masks` every set of pieces that can step in direction `forward` or back
    (direction forward + 1), and that direction to `dirs_out`.

    The sets are the ideals of the who-blocks-whom digraph of `_blocking` (closed under "pushes
    against"): an ideal without the walls moves forward, and the complement of
    one with the walls moves back.  Backtracking decides the lowest
    undecided vertex, excluding it with its ancestors or including it with its
    descendants, so every leaf is a distinct ideal.  Returns the new count, or
    -1 when `masks` is full.
    """
    everyone = np.uint64(0)
    for v in range(desc.size):
        everyone |= _ONE << np.uint64(v)
    top = 1
    inc_stack[0] = 0
    exc_stack[0] = 0
    while top > 0:
        top -= 1
        inc = inc_stack[top]
        exc = exc_stack[top]
        undecided = everyone & ~(inc | exc)
        if undecided != 0:
            v = _lowest_bit(undecided)
            inc_stack[top] = inc
            exc_stack[top] = exc | anc[v]
            inc_stack[top + 1] = inc | desc[v]
            exc_stack[top + 1] = exc
            top += 2
            continue
        if inc & _ONE:
            chosen = everyone & ~inc
            direction = forward + 1
        else:
            chosen = inc
            direction = forward
        if chosen == 0:
            continue
        if count >= masks.size:
            return -1
        masks[count] = chosen
        dirs_out[count] = direction
        count += 1
    return count


@kernel(cache=True, nogil=True)
def _touch(table, states, pending, count, slots):
    """Put the home slot of each pending configuration in `slots`, loading each once.

    Table and state lookups miss the cache on big searches.  Touching every slot
    and the state it names first, in a loop of independent loads, lets the
    processor overlap those misses; the lookups that follow find them in cache.
    """
    mask = table.size - 1
    touched = np.uint64(0)
    for i in range(count):
        slot = np.int64(_hash(pending, i) & np.uint64(mask))
        slots[i] = slot
        entry = table[slot]
        if entry != 0:
            touched += states[np.int64(entry) - 1, 0]
    slots[count] = np.int64(touched & _ONE)  # keeps the touching loads alive


@kernel(cache=True, nogil=True)
def _flush(space, pending, count, slots):
    """Insert the pending configurations in order; returns the index of the first that
    did not fit, or -1."""
    _touch(space.table, space.states, pending, count, slots)
    return _insert_from(space, pending, count, slots)


@kernel(cache=True, nogil=True)
def _insert_from(space, pending, count, slots):
    """Insert the pending configurations in order, probing for each from its slot in
    `slots`; returns the index of the first that did not fit, or -1."""
    table = space.table
    states = space.states
    counts = space.counts
    for i in range(count):
        slot, found, _ = _probe(table, states, pending, i, slots[i], counts[N])
        if found:
            continue
        n = counts[N]
        if n >= counts[ROOM] or counts[FILL] >= counts[MAX_FILL]:
            return i
        for w in range(pending.shape[1]):
            states[n, w] = pending[i, w]
        table[slot] = np.uint32(n + 1)
        counts[N] = n + 1
        counts[FILL] += 1
    return -1


@kernel(cache=True, nogil=True)
def _sift(space, pending, pending_parent, count, sifted, n_out, slots):
    """Append the pending configurations that the table lacks to `sifted`, in order.

    Returns (n_out, index of the first that did not fit or -1).  When `sifted`
    fills up, the successors of that configuration's parent already appended are
    taken back too, so it holds whole parents only.
    """
    table = space.table
    states = space.states
    out = sifted.keys
    out_parent = sifted.parents
    _touch(table, states, pending, count, slots)
    for i in range(count):
        _, found, resume = _probe(table, states, pending, i, slots[i], space.counts[KNOWN])
        if found:
            continue
        if n_out >= out.shape[0]:
            while n_out > 0 and out_parent[n_out - 1] == pending_parent[i]:
                n_out -= 1
            return n_out, i
        for w in range(out.shape[1]):
            out[n_out, w] = pending[i, w]
        out_parent[n_out] = pending_parent[i]
        sifted.resume[n_out] = resume
        n_out += 1
    return n_out, -1


@kernel(cache=True, nogil=True)
def insert_sifted(space, sifted, lo, hi):
    """Insert rows lo..hi of `sifted` that are new, in order, as `insert_all` would, each
    probed for from its `resume` slot: the table must not have been rebuilt since they were
    sifted.  Returns the index from lo of the first that did not fit, or -1.

    This spares comparing them again with the states sifting compared them with: each such
    comparison loads a state from memory.
    """
    return _insert_from(space, sifted.keys[lo:hi], hi - lo, sifted.resume[lo:hi])


@kernel(cache=True, nogil=True)
def insert_all(space, keys):
    """Insert every row of `keys` that is new, in order, as `expand` would have; returns the
    index of the first that did not fit, or -1."""
    slots = np.empty(PENDING + 1, np.int64)
    for lo in range(0, keys.shape[0], PENDING):
        hi = min(keys.shape[0], lo + PENDING)
        failed = _flush(space, keys[lo:hi], hi - lo, slots)
        if failed >= 0:
            return lo + failed
    return -1


@kernel(cache=True, nogil=True)
def _single_pieces(occ, pad_of, dirs, piece_dirs, mode, marks, stamp, set_pieces, set_dir):
    """List the pieces that may move alone, found from the empty cells next to them.

    A piece can start a move in direction d only if it may move that way
    (`piece_dirs`) and some empty cell lies just beyond it in direction d, so
    looking behind every empty cell finds every candidate (piece, direction
    number) once.  STEP and RAY keep the pair; FLOOD keeps each piece once, to
    explore all its paths.  Returns how many it wrote.
    """
    count = 0
    for c in range(pad_of.size):
        empty = pad_of[c]
        if occ[empty] != 0:
            continue
        for d in range(4):
            piece = occ[empty - dirs[d]] - 1
            if piece < 0 or not (piece_dirs[piece] >> d) & 1:
                continue
            slot = piece if mode == FLOOD else 4 * piece + d
            if marks[slot] == stamp:
                continue
            marks[slot] = stamp
            set_pieces[count] = piece
            set_dir[count] = d
            count += 1
    return count


@kernel(cache=True, nogil=True)
def _resort(board, keys, row, buf, anchors, k):
    """Rewrite the fields of kind k in keys[row] from `buf` (sorted here), then reset `buf`."""
    lo = board.kind_first[k]
    hi = board.kind_first[k + 1]
    for i in range(lo + 1, hi):
        value = buf[i]
        t = i - 1
        while t >= lo and buf[t] > value:
            buf[t + 1] = buf[t]
            t -= 1
        buf[t + 1] = value
    mask = (_ONE << np.uint64(board.field_bits[k])) - _ONE
    for i in range(lo, hi):
        g = board.field_at[i]
        shift = np.uint64(g & 63)
        pos = np.uint64(board.pos_of[k, buf[i]])
        keys[row, g >> 6] = (keys[row, g >> 6] & ~(mask << shift)) | (pos << shift)
        buf[i] = anchors[i]


@kernel(cache=True, nogil=True)
def expand(board, space, lo, hi, budget, reach, superpieces, sift, sifted):
    """Expand parents lo.. (at most `budget` of them, stopping at hi).

    A move shifts one piece, or with `superpieces` any set of pieces that can shift
    together, by the displacements `reach` (STEP, RAY or FLOOD) allows.
    Returns (next parent to expand, RANGE_DONE | BUDGET_USED | NEED_ROOM, rows).
    Successors are inserted in the order they are generated.  When one does not
    fit, its parent is expanded again from the start on the next call; the
    configurations it already added are found again as old.

    With `sift`, the table is only read: the successors it lacks go to `sifted`
    with their parents (`rows` counts them), whole parents at a time, for
    `insert_all` to insert later.  Calls on disjoint ranges can then run on
    several threads.

    The per-move work reads the board's arrays through local names: handing a
    named tuple of arrays to a function updates the reference count of each.
    """
    states = space.states
    words = states.shape[1]
    kind_of = board.kind_of
    kind_first = board.kind_first
    cover_piece = board.cover_piece
    cover_off = board.cover_off
    pad_of = board.pad_of
    cell_of = board.cell_of
    base_occ = board.base_occ
    mask_base = board.mask_base
    field_bits = board.field_bits
    field_at = board.field_at
    cell_at = board.cell_at
    xor_word = board.xor_word
    xor_bits = board.xor_bits
    sorted_kind = board.sorted_kind
    n_pieces = kind_of.size
    n_vertices = n_pieces + 1
    width = board.width
    anchors = np.empty(n_pieces, np.int64)
    buf = np.empty(n_pieces, np.int64)
    occ = np.empty(board.base_occ.size, np.int64)
    # Successors wait in `pending` and are handled in batches (see _flush and _sift).
    pending = np.empty((PENDING, words), np.uint64)
    pending_parent = np.empty(PENDING, np.int64)
    slots = np.empty(PENDING + 1, np.int64)
    n_pending = np.int64(0)
    rows = np.int64(0)
    seen = np.zeros(occ.size, np.int64)
    queue = np.empty(occ.size, np.int64)
    disps = np.empty(occ.size, np.int64)
    dirs = np.array([1, -1, width, -width], np.int64)
    across = np.empty(n_vertices, np.uint64)
    across_anc = np.empty(n_vertices, np.uint64)
    down = np.empty(n_vertices, np.uint64)
    down_anc = np.empty(n_vertices, np.uint64)
    inc_stack = np.empty(2 * n_vertices + 2, np.uint64)
    exc_stack = np.empty(2 * n_vertices + 2, np.uint64)
    # The sets of pieces that may move from the current parent, as lists of pieces
    # `set_pieces[set_lo[s]:set_lo[s + 1]]` with the direction of their first step.
    masks = np.empty(256, np.uint64)
    set_dir = np.zeros(max(256, 4 * n_pieces), np.int64)
    set_lo = np.arange(4 * n_pieces + 1)
    set_pieces = np.empty(4 * n_pieces, np.int64)
    set_at = np.empty(4 * n_pieces, np.int64)
    set_edges = np.empty(4 * n_pieces, np.int64)
    marks = np.zeros(4 * n_pieces, np.int64)
    right = np.int64(0)  # the direction numbers of DIRECTIONS: right, left, down, up
    bitboards = board.bitboards
    walls = np.uint64(0)
    if bitboards:
        for x in range(occ.size):
            if base_occ[x] < 0:
                walls |= _ONE << np.uint64(x)
    piece_bits = np.zeros(n_pieces, np.uint64)
    sizes = np.zeros(n_pieces, np.int64)
    for i in range(cover_piece.size):
        sizes[cover_piece[i]] += 1
    multi = np.flatnonzero(sizes > 1)  # the pieces of several cells (see _flood)
    piece_dirs = board.piece_dirs
    # the vertices of pieces that may not move across (right, left) or down (down, up),
    # which only superpiece styles read (their pieces fit in a word)
    pinned_across = np.uint64(0)
    pinned_down = np.uint64(0)
    for p in range(n_pieces):
        if piece_dirs[p] & ACROSS == 0:
            pinned_across |= _ONE << np.uint64(p + 1)
        if piece_dirs[p] & (ACROSS << 2) == 0:
            pinned_down |= _ONE << np.uint64(p + 1)
    stamp = 0
    parent = lo
    stop = min(hi, lo + budget)
    while parent < stop:
        _decode(kind_first, mask_base, field_bits, field_at, cell_at, states, parent, anchors)
        for p in range(n_pieces):
            buf[p] = anchors[p]
        for x in range(occ.size):
            occ[x] = base_occ[x]
        taken = walls
        bits = np.uint64(0)
        for i in range(cover_piece.size):
            p = cover_piece[i]
            x = pad_of[anchors[p]] + cover_off[i]
            occ[x] = p + 1
            if bitboards:
                bits |= _ONE << np.uint64(x)
                if i + 1 == cover_piece.size or cover_piece[i + 1] != p:
                    piece_bits[p] = bits
                    taken |= bits
                    bits = np.uint64(0)
        if not superpieces:
            n_sets = _single_pieces(
                occ, pad_of, dirs, piece_dirs, reach, marks, parent + 1, set_pieces, set_dir
            )
        else:
            n_sets = np.int64(0)
            if bitboards:
                cells = taken & ~walls
                # pieces that may not move one way stand as walls for that way
                walls_across = walls | _pinned_bits(piece_bits, pinned_across)
                walls_down = walls | _pinned_bits(piece_bits, pinned_down)
                # the steps come from `dirs`: a literal would compile a second specialisation
                _blocking_bits(
                    occ, piece_bits, cells, walls_across, multi, dirs[0], across, across_anc
                )
                _blocking_bits(occ, piece_bits, cells, walls_down, multi, dirs[2], down, down_anc)
            else:
                _blocking(
                    occ, width, pinned_across, pinned_down, across, across_anc, down, down_anc
                )
            n_sets = _superpieces(
                across, across_anc, right, inc_stack, exc_stack, masks, set_dir, n_sets
            )
            if n_sets >= 0:
                n_sets = _superpieces(
                    down, down_anc, right + 2, inc_stack, exc_stack, masks, set_dir, n_sets
                )
            if n_sets < 0:
                masks = np.empty(2 * masks.size, np.uint64)
                set_dir = np.zeros(masks.size, np.int64)
                continue
            if set_lo.size < n_sets + 1:
                set_lo = np.empty(masks.size + 1, np.int64)
            if set_pieces.size < n_sets * n_pieces:
                set_pieces = np.empty(masks.size * n_pieces, np.int64)
                set_at = np.empty(set_pieces.size, np.int64)
                set_edges = np.empty(set_pieces.size, np.int64)
            total = 0
            for s in range(n_sets):
                set_lo[s] = total
                bits = masks[s] >> _ONE
                while bits:
                    set_pieces[total] = _lowest_bit(bits)
                    total += 1
                    bits &= bits - _ONE
            set_lo[n_sets] = total
        for m in range(0 if bitboards else set_lo[n_sets]):
            set_at[m] = pad_of[anchors[set_pieces[m]]]
            set_edges[m] = 4 * kind_of[set_pieces[m]]
        for s in range(n_sets):
            # The displacements of the moving set, checked on the cells it enters on each
            # unit step; the first step of a superpiece always fits (that is how the
            # ideals were chosen).
            first_piece = set_lo[s]
            last_piece = set_lo[s + 1]
            base = 0 if superpieces else set_pieces[s] + 1
            mask = masks[s] if superpieces else _ONE
            set_bits = np.uint64(0)
            if bitboards:
                for m in range(first_piece, last_piece):
                    set_bits |= piece_bits[set_pieces[m]]
            blockers = taken & ~set_bits
            found = 0
            if reach == FLOOD:
                allowed = ALL_DIRECTIONS
                for m in range(first_piece, last_piece):
                    allowed &= piece_dirs[set_pieces[m]]
                ref = pad_of[anchors[set_pieces[first_piece]]]
                stamp += 1
                seen[ref] = stamp
                queue[0] = 0
                head = 0
                tail = 1
                while head < tail:
                    disp = queue[head]
                    head += 1
                    for d in range(4):
                        nd = disp + dirs[d]
                        if (
                            not (allowed >> d) & 1
                            or seen[ref + nd] == stamp
                            or not _fits(
                                board,
                                occ,
                                set_at,
                                set_edges,
                                first_piece,
                                last_piece,
                                base,
                                mask,
                                disp,
                                d,
                                set_bits,
                                blockers,
                                nd,
                            )
                        ):
                            continue
                        seen[ref + nd] = stamp
                        queue[tail] = nd
                        tail += 1
                        disps[found] = nd
                        found += 1
            else:
                d = set_dir[s]
                disp = 0
                while (superpieces and disp == 0) or _fits(
                    board,
                    occ,
                    set_at,
                    set_edges,
                    first_piece,
                    last_piece,
                    base,
                    mask,
                    disp,
                    d,
                    set_bits,
                    blockers,
                    disp + dirs[d],
                ):
                    disp += dirs[d]
                    disps[found] = disp
                    found += 1
                    if reach == STEP:
                        break
            for j in range(found):
                # The parent's code with the moved pieces' bits flipped, or their kind's
                # fields sorted again.
                for w in range(words):
                    pending[n_pending, w] = states[parent, w]
                resort = False
                for m in range(first_piece, last_piece):
                    p = set_pieces[m]
                    k = kind_of[p]
                    a = anchors[p]
                    b = cell_of[pad_of[a] + disps[j]]
                    if sorted_kind[k]:
                        buf[p] = b
                        resort = True
                    else:
                        pending[n_pending, xor_word[k, a]] ^= xor_bits[k, a]
                        pending[n_pending, xor_word[k, b]] ^= xor_bits[k, b]
                if resort:
                    for m in range(first_piece, last_piece):
                        k = kind_of[set_pieces[m]]
                        if sorted_kind[k] and (m == first_piece or kind_of[set_pieces[m - 1]] != k):
                            _resort(board, pending, n_pending, buf, anchors, k)
                pending_parent[n_pending] = parent
                n_pending += 1
                if n_pending == PENDING:
                    if sift:
                        rows, failed = _sift(
                            space, pending, pending_parent, n_pending, sifted, rows, slots
                        )
                    else:
                        failed = _flush(space, pending, n_pending, slots)
                    n_pending = np.int64(0)
                    if failed >= 0:
                        return pending_parent[failed], NEED_ROOM, rows
        parent += 1
    if sift:
        rows, failed = _sift(space, pending, pending_parent, n_pending, sifted, rows, slots)
    else:
        failed = _flush(space, pending, n_pending, slots)
    if failed >= 0:
        return pending_parent[failed], NEED_ROOM, rows
    return parent, (RANGE_DONE if parent >= hi else BUDGET_USED), rows


@kernel(cache=True, nogil=True)
def goal_scan(board, states, lo, hi, goal, first_only):
    """Find configurations in lo..hi that meet the `goal` (a `GoalTest`).

    Returns (index of the first match or -1, number of matches); with `first_only` it
    stops at the first.
    """
    anchors = np.empty(board.kind_of.size, np.int64)
    must_mask = goal.must_mask
    must_value = goal.must_value
    first = -1
    count = 0
    for index in range(lo, hi):
        if _may_meet(states, index, must_mask, must_value) and _meets(
            board, states, index, goal, anchors
        ):
            count += 1
            if first < 0:
                first = index
                if first_only:
                    break
    return first, count


@kernel(cache=True, nogil=True)
def goal_marks(board, states, goal, marks):
    """Set `marks[i]` to whether configuration i of `states` meets the `goal`."""
    anchors = np.empty(board.kind_of.size, np.int64)
    must_mask = goal.must_mask
    must_value = goal.must_value
    for index in range(marks.size):
        marks[index] = _may_meet(states, index, must_mask, must_value) and _meets(
            board, states, index, goal, anchors
        )


@kernel(cache=True, nogil=True, inline="always")
def _may_meet(states, index, must_mask, must_value):
    """Whether the words of `states[index]` pass the goal's `must_mask`, a test that spares
    decoding most codes.  It takes the goal's arrays themselves: reading them from the
    named tuple at every code costs reference counting (80 times the test itself)."""
    for w in range(must_mask.size):
        if (states[index, w] & must_mask[w]) != must_value[w]:
            return False
    return True


@kernel(cache=True, nogil=True)
def _meets(board, states, index, goal, anchors):
    """Whether `states[index]`, whose words pass `_may_meet`, meets the `goal` (decoded into
    `anchors`)."""
    _decode(
        board.kind_first,
        board.mask_base,
        board.field_bits,
        board.field_at,
        board.cell_at,
        states,
        index,
        anchors,
    )
    matched = 0
    for p in range(anchors.size):
        if goal.kind_at[anchors[p]] == board.kind_of[p] + 1:
            matched += 1
    if matched != goal.required:
        return False
    if goal.check_empty:
        for i in range(board.cover_piece.size):
            at = board.pad_of[anchors[board.cover_piece[i]]] + board.cover_off[i]
            if goal.empty[board.cell_of[at]]:
                return False
    return True

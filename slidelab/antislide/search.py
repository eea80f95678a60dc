"""Every antisliding packing of a box, one per symmetry class: the search driver.

`solve` is a generator: it builds the tables as its first phase (`Tables.steps`), then
the kernel's bitboards (`_geometry`), then yields `Progress` between kernel chunks of about
50 ms (and, when streaming, `PackingsFound` with the packings of each chunk) and returns
an `AntislideResult`; closing it stops the run.  The kernel's
stacks live in `kernels.Stacks`, which this module owns.

Memory: the bitboards and the per-level stacks grow with the square of the box's cells
(1 x 1 x 1000000 would need 500 GB), so a search counts every array it makes against the
memory budget (`slidelab.memory`) before making it, and refuses to start
(`MemoryBudgetError`) rather than pass the budget; so do the constraint lists when they
grow, and the packings a run keeps for its result (a streaming run hands them out instead).
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field

import numpy as np

from slidelab.antislide import kernels
from slidelab.antislide.model import (
    DEFAULT_BRICK,
    Box,
    Placement,
    Tables,
    placement_count,
    table_bytes,
)
from slidelab.errors import SlidelabError
from slidelab.memory import MemoryBudget
from slidelab.runs import Found, Pacer, Progress, drive, next_budget

CHUNK_SECONDS = 0.05
BUFFER = 4096
"""Packings the kernel may store before the driver collects them."""
BUFFER_BYTES = 1 << 21
"""Most bytes of that buffer (8 a brick): a box that holds more than 64 bricks stores fewer
packings at a time rather than 8 bytes times BUFFER for each brick it could hold."""
BLOCK_WORDS = 1 << 20
"""Words of a table of bitboards `_geometry` makes in one step (about 10 ms): a bounded
temporary, with progress between steps.  Made at once, 2 x 2 x 8000's conflict sets took
4 s and 1.3 GB, and its face sets 0.4 s, most of it touching fresh memory."""
KEPT_PACKING_BYTES = 160
"""Bytes a packing kept for the result holds besides 8 for each brick: its object, its tuple
of bricks, its place in the list (measured: 4 x 4 x 5's, 19.6 bricks on average, 292)."""
INTERPRETED_CELLS = 48
INTERPRETED_NODES = 4096
"""A box of at most INTERPRETED_CELLS cells runs the kernel in the interpreter for its first
INTERPRETED_NODES nodes (about 0.3 s at most), which spares small commands loading numba;
a search that goes on past them continues compiled from where it stands."""


@dataclass(frozen=True)
class Packing:
    """One antisliding packing: its bricks and the order of its symmetry group."""

    bricks: tuple[Placement, ...]
    symmetries: int

    @property
    def blocks(self) -> int:
        return len(self.bricks)


@dataclass(frozen=True, eq=False)
class PackingsFound(Found):
    """Packings found since the last event, in the order found (streaming runs only), kept in
    the engine's own compact encoding so that a million of them cost a few bytes each."""

    placements: tuple[Placement, ...]
    """The run's placements (`Tables.placements`), which `moves` numbers."""
    moves: np.ndarray
    """(packings, most bricks): each packing's placement numbers, then -1s."""
    symmetries: np.ndarray
    """(packings,) uint8: the order of each packing's symmetry group."""

    def __len__(self) -> int:
        return len(self.symmetries)

    @property
    def blocks(self) -> np.ndarray:
        """(packings,) uint8: how many bricks each packing has."""
        counts: np.ndarray = np.count_nonzero(self.moves >= 0, axis=1)
        return counts.astype(np.uint8)

    @property
    def packings(self) -> tuple[Packing, ...]:
        """The packings as values (costly for big batches: for output and tests)."""
        return tuple(
            decode_packing(self.placements, row, int(k))
            for row, k in zip(self.moves, self.symmetries, strict=True)
        )


def decode_packing(
    placements: tuple[Placement, ...], moves: np.ndarray, symmetries: int
) -> Packing:
    """The packing whose placement numbers (of `placements`, -1 for none) are `moves`."""
    return Packing(tuple(placements[p] for p in moves.tolist() if p >= 0), symmetries)


@dataclass(frozen=True)
class AntislideResult:
    """Classes of antisliding packings of one box, with counts by number of blocks."""

    box: Box
    brick: tuple[int, int, int]
    symmetries: int
    """Order of the box's symmetry group."""
    by_blocks: dict[int, int]
    """Classes with each number of blocks (only counts that are not zero)."""
    nodes: int
    packings: tuple[Packing, ...] = field(default=())
    """The packings themselves, when asked for (in the order found)."""

    @property
    def solutions(self) -> int:
        return sum(self.by_blocks.values())

    @property
    def min_blocks(self) -> int | None:
        """Fewest blocks of a non-empty packing (None if there is none)."""
        return min((b for b in self.by_blocks if b > 0), default=None)

    @property
    def max_blocks(self) -> int | None:
        return max((b for b in self.by_blocks if b > 0), default=None)


LEAST_CELL_WORDS, LEAST_PLACEMENT_WORDS, LEAST_PLANES = 2, 4, 4
"""The fewest words of a cell set and of a placement set, and the fewest count planes, the
kernel is given: those of 4x4x5 to 5x5x5 with the default brick, so that every box of up
to 128 cells and 256 placements runs the one compiled kernel the warm-up compiles (and
`slidelab.native` builds ahead of time); smaller boxes take a word of zeros more."""


def _power_of_two(n: int, least: int) -> int:
    """The least power of two at least n and `least` (a power of two): the kernel is compiled
    for each number of words and planes it meets, so rounding them up keeps those few."""
    return max(1 << max(n - 1, 0).bit_length(), least)


def _cell_words(n: int) -> int:
    """Words of a set of n cells."""
    return _power_of_two(-(-n // 64), LEAST_CELL_WORDS)


def _placement_words(placed: int) -> int:
    """Words of a set of `placed` placements."""
    return _power_of_two(-(-placed // 64), LEAST_PLACEMENT_WORDS)


def _bitsets(rows: np.ndarray, members: np.ndarray, count: int, words: int) -> np.ndarray:
    """(count, words) uint64 bitboards: row r holds the members m of every pair (r, m)."""
    sets = np.zeros((count, words), np.uint64)
    bits = np.left_shift(np.uint64(1), (members & 63).astype(np.uint64))
    np.bitwise_or.at(sets, (rows, members >> 6), bits)
    return sets


def _bitset(members: np.ndarray, words: int) -> np.ndarray:
    """One bitboard (a row of uint64 words) holding `members`."""
    row: np.ndarray = _bitsets(np.zeros(len(members), np.int64), members, 1, words)[0]
    return row


@dataclass(frozen=True)
class _Sizes:
    """The lengths of one search's arrays, known before any is made: their bytes are counted
    against the memory budget first."""

    cells: int
    placed: int
    volume: int
    faces: int
    """Face sets, of all placements."""
    groups: int
    cell_words: int
    placement_words: int
    planes: int
    """Planes of the bit-sliced counts: enough for the most options of a cell."""
    most_faces: int
    """The most face sets of one placement."""
    lists: int
    """The constraint lists' room to start with: one brick's face sets for each level, more
    than 4 x 5 x 5 uses (384 entries at most); `_Run.grow_lists` adds more when a path needs
    it.  Room for every brick's face sets at each level, the size it had, was 44 MB for
    3 x 3 x 300, which used 0.3 MB of it in its first 15 s."""
    rows: int
    width: int
    """The solution buffer: `rows` packings of `width` bricks (one row of none for counting)."""
    members: int
    """The longest list `_geometry` makes bitboards of."""

    @classmethod
    def of(cls, tables: Tables, keep: bool) -> _Sizes:
        """The sizes of a search of `tables`; `keep`: it stores the packings it finds."""
        n, placed = tables.box.cell_count, len(tables.placements)
        volume = tables.cells.shape[1]
        most_faces = int(np.diff(tables.face_start).max(initial=0))
        options = int(np.diff(tables.cover_start).max(initial=0)) + 1  # any placement, or empty
        width = max(n // volume, 1) if keep else 0
        return cls(
            cells=n,
            placed=placed,
            volume=volume,
            faces=len(tables.face_cells_start) - 1,
            groups=tables.perm.shape[0],
            cell_words=_cell_words(n),
            placement_words=_placement_words(placed),
            planes=_power_of_two(options.bit_length(), LEAST_PLANES),
            most_faces=most_faces,
            lists=(n + 2) * most_faces,
            rows=min(BUFFER, max(BUFFER_BYTES // (8 * width), 1)) if keep else 1,
            width=width,
            members=max(tables.cover.size, tables.face_cells.size),
        )

    @property
    def held(self) -> int:
        """Bytes of the arrays `_geometry`, `_stacks` and `_output` make."""
        n, placed, groups = self.cells, self.placed, self.groups
        cw, pw, counts = self.cell_words, self.placement_words, self.planes * self.cell_words
        words = (  # uint64 and int64
            placed * (cw + pw) + n * pw + self.faces * cw  # bitboards of the geometry
            + 7 + (n + 2) * (counts + pw) + 4 * cw  # counters, current and saved sets
            + n // self.volume + 1 + self.rows * (self.width + 1) + placed + 1  # output
        )  # fmt: skip
        halves = (  # int32
            placed * self.volume + placed + 1 + groups * (n + placed)  # geometry
            + 4 * (n + 1) - 1 + 3 * (n + 3) + self.lists + 3 * (n + 2) * groups  # stacks
        )  # fmt: skip
        return 8 * words + 4 * halves

    @property
    def bytes(self) -> int:
        """`held`, and the biggest temporaries `_geometry` makes on the way: a block of
        bitboards, and a few int64 arrays as long as the lists it makes bitboards of."""
        cw, pw = self.cell_words, self.placement_words
        shapes = ((self.cells, pw), (self.placed, pw), (self.placed, cw), (self.faces, cw))
        block = max(min(_block_rows(words), count) * words for count, words in shapes)
        return self.held + 8 * block + 40 * self.members


def check_memory(box: Box, brick: tuple[int, int, int]) -> None:
    """Refuse (`MemoryBudgetError`) a search of `box` whose tables, or whose arrays alone,
    would pass the memory budget, before the tables are built: the least the arrays can be
    is known from the box and the brick (1 x 1 x 10**7's tables took 28 s and 3 GB before
    the search was refused)."""
    budget = MemoryBudget.of(None)
    budget.check(table_bytes(box, brick), "building the tables")
    n, placed = box.cell_count, placement_count(box, brick)
    least = _Sizes(
        cells=n, placed=placed, volume=brick[0] * brick[1] * brick[2], faces=0,
        groups=box.symmetry_count, cell_words=_cell_words(n),
        placement_words=_placement_words(placed), planes=LEAST_PLANES, most_faces=0, lists=0,
        rows=1, width=0, members=0,
    )  # fmt: skip
    budget.check(least.held, "the search", least=True)


def _block_rows(words: int) -> int:
    """Rows of a table of bitboards of `words` words that `_geometry` makes in one step."""
    return max(BLOCK_WORDS // words, 1)


def _bitboards(
    rows: np.ndarray, members: np.ndarray, count: int, words: int, pacer: Pacer
) -> Generator[Progress, None, np.ndarray]:
    """`_bitsets` of pairs (r, m) whose rows r ascend, made a block of rows at a time, with
    progress between."""
    sets = np.empty((count, words), np.uint64)
    step = _block_rows(words)
    for first in range(0, count, step):
        low, high = np.searchsorted(rows, (first, first + step)).tolist()
        block = sets[first : first + step]
        block[:] = _bitsets(rows[low:high] - first, members[low:high], len(block), words)
        if event := pacer.due(first):
            yield event
    return sets


def _geometry(
    tables: Tables, sizes: _Sizes, pacer: Pacer
) -> Generator[Progress, None, kernels.Geometry]:
    """The kernel's view of `tables`: small integers and bitboards, made a block of rows at
    a time, with progress between."""
    n, placed, cw, pw = sizes.cells, sizes.placed, sizes.cell_words, sizes.placement_words
    cells = tables.cells
    covering = np.repeat(np.arange(n), np.diff(tables.cover_start))
    cover_bits = yield from _bitboards(covering, tables.cover, n, pw, pacer)
    conflicts = np.zeros((placed, pw), np.uint64)
    step = _block_rows(pw)
    for first in range(0, placed, step):
        block = conflicts[first : first + step]
        for column in cells[first : first + step].T:
            block |= cover_bits[column]
        if event := pacer.due(first):
            yield event
    placing = np.repeat(np.arange(placed), sizes.volume)
    cell_bits = yield from _bitboards(placing, cells.ravel(), placed, cw, pacer)
    bounding = np.repeat(np.arange(sizes.faces), np.diff(tables.face_cells_start))
    face_bits = yield from _bitboards(bounding, tables.face_cells, sizes.faces, cw, pacer)
    return kernels.Geometry(
        cells.astype(np.int32),
        cell_bits.ravel(),
        conflicts.ravel(),
        cover_bits.ravel(),
        tables.face_start.astype(np.int32),
        face_bits.ravel(),
        tables.perm.astype(np.int32),
        tables.inverse_image.astype(np.int32),
        (0,) * cw,
        (0,) * pw,
        (0,) * sizes.planes,
        sizes.most_faces,
    )


def _stacks(tables: Tables, sizes: _Sizes) -> kernels.Stacks:
    """The kernel's stacks and counters at the root, sized for the deepest search (each level
    decides a cell at least); the constraint lists start smaller (`_Run.grow_lists`)."""
    n, groups = sizes.cells, sizes.groups
    cell_words, placement_words = sizes.cell_words, sizes.placement_words
    options = np.diff(tables.cover_start) + 1  # any placement, or empty
    counts = np.concatenate(
        [_bitset(np.flatnonzero((options >> k) & 1), cell_words) for k in range(sizes.planes)]
    )
    st = np.zeros(7, np.int64)
    st[kernels.UNDECIDED] = n
    sp = np.zeros(n + 3, np.int32)
    sp[1] = groups - 1
    ssig = np.zeros((n + 2) * groups, np.int32)
    ssig[: groups - 1] = np.arange(1, groups)
    return kernels.Stacks(
        st=st,
        cell=np.zeros(n + 1, np.int32),
        mv=np.full(n + 1, kernels.UNSET, np.int32),
        opt_at=np.full(n, kernels.UNSET, np.int32),
        counts=counts,
        saved=np.zeros((n + 1) * counts.size, np.uint64),
        undecided=_bitset(np.arange(n), cell_words),
        filled=np.zeros(cell_words, np.uint64),
        forced=np.zeros(cell_words, np.uint64),
        scratch=np.zeros(cell_words, np.uint64),
        avail=_bitset(np.arange(sizes.placed), placement_words),
        blocked=np.zeros((n + 1) * placement_words, np.uint64),
        cp=np.zeros(n + 3, np.int32),
        cons=np.zeros(sizes.lists, np.int32),
        fp=np.zeros(n + 3, np.int32),
        fstack=np.zeros(n + 1, np.int32),
        sp=sp,
        ssig=ssig,
        sjd=np.zeros((n + 2) * groups, np.int32),
        swait=np.full((n + 2) * groups, -1, np.int32),
    )


def _output(sizes: _Sizes) -> kernels.Output:
    """Where the kernel writes its counts, the packings it stores, and a subproblem's children."""
    return kernels.Output(
        np.zeros(sizes.cells // sizes.volume + 1, np.int64),
        np.zeros((sizes.rows, sizes.width), np.int64),
        np.zeros(sizes.rows, np.int64),
        np.zeros(sizes.placed + 1, np.int64),
    )


def solve(
    box: Box,
    brick: tuple[int, int, int] = DEFAULT_BRICK,
    *,
    min_blocks: int = 0,
    max_blocks: int | None = None,
    keep: bool = False,
    stream: bool = False,
    prefix: tuple[int, ...] = (),
) -> Generator[Progress | PackingsFound, None, AntislideResult]:
    """Find one packing of each symmetry class with min_blocks..max_blocks bricks.

    With `keep`, the result lists the packings; otherwise it only counts them.  With
    `stream`, each chunk's packings are yielded as found (`PackingsFound`, compact arrays).
    `prefix` restricts the search to one subproblem: the moves forced at its first levels
    (placement numbers of `Tables.build(box, brick)`, or -1 for "this cell stays empty").
    """
    check_memory(box, brick)
    tables = yield from Tables.steps(box, brick)
    return (yield from solve_tables(tables, min_blocks, max_blocks, keep, stream, prefix))


def solve_tables(
    tables: Tables,
    min_blocks: int = 0,
    max_blocks: int | None = None,
    keep: bool = False,
    stream: bool = False,
    prefix: tuple[int, ...] = (),
) -> Generator[Progress | PackingsFound, None, AntislideResult]:
    """`solve` on tables already built (a split run searches many subproblems of one box).
    The packings kept for the result are counted against the memory budget too."""
    run = yield from _Run.start(tables, min_blocks, max_blocks, keep or stream, prefix, -1)
    found: list[Packing] = []
    while True:
        status = run.chunk()
        fresh = run.take_packings()
        if keep and fresh is not None:
            more = len(fresh) * KEPT_PACKING_BYTES + 8 * int(fresh.blocks.sum())
            run.hold(more, "keeping the listed packings")
            found += fresh.packings
        if stream and fresh is not None:
            yield fresh
        if status == kernels.DONE:
            break
        yield run.progress()
    counts = {b: int(c) for b, c in enumerate(run.out.by_blocks.tolist()) if c}
    return AntislideResult(
        tables.box,
        tables.brick,
        tables.perm.shape[0],
        counts,
        int(run.state.st[kernels.NODES]),
        tuple(found),
    )


def branch_moves(
    tables: Tables,
    *,
    min_blocks: int = 0,
    max_blocks: int | None = None,
    prefix: tuple[int, ...] = (),
) -> list[int]:
    """The moves open at the level after `prefix`: each one with `prefix` is a subproblem,
    and together they cover the subproblem `prefix`, except a packing complete at `prefix`
    itself (then the list is empty)."""
    run = drive(_Run.start(tables, min_blocks, max_blocks, False, prefix, len(prefix) + 1))
    while run.chunk() != kernels.DONE:
        pass
    if int(run.out.by_blocks.sum()):
        return []
    kids: list[int] = run.out.kids[: run.state.st[kernels.KIDS]].tolist()
    return kids


class _Run:
    """The kernel's arrays for one search, and chunks of it sized to take CHUNK_SECONDS."""

    def __init__(
        self,
        tables: Tables,
        sizes: _Sizes,
        geometry: kernels.Geometry,
        goal: kernels.Goal,
        memory: MemoryBudget,
        started: float,
    ) -> None:
        self.tables = tables
        self.geometry = geometry
        self.goal = goal
        self.memory = memory
        self.held = tables.nbytes + sizes.held
        """Bytes counted against `memory`: the tables, the kernel's arrays, kept packings."""
        self.state = _stacks(tables, sizes)
        self.out = _output(sizes)
        self.started = started
        self.budget = 1024

    @classmethod
    def start(
        cls,
        tables: Tables,
        min_blocks: int,
        max_blocks: int | None,
        keep: bool,
        prefix: tuple[int, ...],
        split_at: int,
    ) -> Generator[Progress, None, _Run]:
        """A run at the root of the search (or of the subproblem `prefix`), refused
        (`MemoryBudgetError`) before its arrays would pass the memory budget.  Block counts
        beyond the most bricks the box holds are cut to ones that mean the same and that the
        kernel's integers hold (at least one more: none; at most that many: no limit):
        --max-blocks 18446744073709551616 stopped numba ("Int value is too large")."""
        started = time.perf_counter()
        most = tables.box.cell_count // tables.cells.shape[1]
        if min_blocks < 0 or (max_blocks is not None and max_blocks < 0):
            raise SlidelabError("--min-blocks and --max-blocks must not be negative")
        limit = most if max_blocks is None else min(max_blocks, most)
        goal = kernels.Goal(min(min_blocks, most + 1), limit, np.array(prefix, np.int32), split_at)
        sizes = _Sizes.of(tables, keep)
        memory = MemoryBudget.of(None)
        memory.check(tables.nbytes + sizes.bytes, "the search")
        pacer = Pacer("preparing the search", started, CHUNK_SECONDS)
        geometry = yield from _geometry(tables, sizes, pacer)
        return cls(tables, sizes, geometry, goal, memory, started)

    def hold(self, more: int, what: str) -> None:
        """Count `more` bytes as held, refused (`MemoryBudgetError`) past the memory budget."""
        self.memory.check(self.held + more, what)
        self.held += more

    def chunk(self) -> int:
        """One kernel call (and more room for the constraint lists if it asks); its status."""
        tick = time.perf_counter()
        interpreted = (
            self.tables.box.cell_count <= INTERPRETED_CELLS
            and self.state.st[kernels.NODES] < INTERPRETED_NODES
        )
        search = kernels.search.python if interpreted else kernels.search
        status = int(search(self.state, self.geometry, self.goal, self.out, self.budget))
        if status == kernels.BUDGET_USED:  # a call stopped sooner tells nothing of the pace
            took = time.perf_counter() - tick
            self.budget = next_budget(self.budget, took, CHUNK_SECONDS, 64, 1 << 24)
        elif status == kernels.LISTS_FULL:
            self.grow_lists()
        return status

    def grow_lists(self) -> None:
        """Give the constraint lists a stack twice as big, or as big as the level the kernel
        stopped at may need, counted against the memory budget beside the old one."""
        cp, level = self.state.cp, int(self.state.st[kernels.L])
        old = self.state.cons
        size = max(2 * old.size, 2 * int(cp[level + 1]) - int(cp[level]) + self.geometry.most_faces)
        self.hold(4 * size, "the search")
        cons = np.zeros(size, np.int32)
        cons[: old.size] = old
        self.state = self.state._replace(cons=cons)
        self.held -= old.nbytes

    def take_packings(self) -> PackingsFound | None:
        """The packings the kernel stored since the last call (None if none); the buffer is
        emptied.  Copying two small arrays keeps this thread's hold on the interpreter short."""
        stored = int(self.state.st[kernels.STORED])
        if not stored:
            return None
        self.state.st[kernels.STORED] = 0
        numbers = np.int16 if len(self.tables.placements) < 2**15 else np.int32
        return PackingsFound(
            self.tables.placements,
            self.out.sols[:stored].astype(numbers),
            self.out.sol_syms[:stored].astype(np.uint8),
        )

    def progress(self) -> Progress:
        return Progress(
            phase="antislide search",
            explored=int(self.state.st[kernels.NODES]),
            elapsed=time.perf_counter() - self.started,
            depth=int(self.state.st[kernels.L]),
            found=int(self.out.by_blocks.sum()),
            fraction=self.fraction(),
        )

    def fraction(self) -> float:
        """Knuth's estimate of the share of the tree explored: the position of the current path
        among the siblings at each level, as if every choice led to an equal subtree.  A path
        may be as deep as the box has cells, so only the levels that can change the sum are
        read one by one: those of more than one choice, while the weight left can."""
        path = slice(self.goal.prefix.size, int(self.state.st[kernels.L]) + 1)
        cells, moves = self.state.cell[path], self.state.mv[path]
        ends = np.flatnonzero((cells < 0) | (moves == kernels.UNSET))
        if ends.size:
            cells, moves = cells[: ends[0]], moves[: ends[0]]
        start, cover = self.tables.cover_start, self.tables.cover
        options = start[cells + 1] - start[cells] + 1  # every placement covering x, or empty
        done, weight = 0.0, 1.0
        for level in np.flatnonzero(options > 1).tolist():  # one choice adds 0, keeps the weight
            if done + weight == done:  # each later term is less than `weight`: none counts
                break
            x, move, choices = int(cells[level]), int(moves[level]), int(options[level])
            covering = cover[start[x] : start[x + 1]]  # in increasing order
            position = 0 if move == kernels.EMPTY else int(np.searchsorted(covering, move)) + 1
            done += weight * position / choices
            weight /= choices
        return min(done, 1.0)

"""Every antisliding packing of a box, one per symmetry class: the search driver.

`solve` is a generator: it builds the tables as its first phase (`Tables.steps`), then
yields `Progress` between kernel chunks of about 50 ms
(and, when streaming, `PackingsFound` with the packings of each chunk) and returns
an `AntislideResult`; closing it stops the run.  The kernel's
stacks live in `_State`, which this module owns.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field

import numpy as np

from slidelab.antislide import kernels
from slidelab.antislide.model import DEFAULT_BRICK, Box, Placement, Tables
from slidelab.errors import SlidelabError
from slidelab.runs import Found, Progress, next_budget

CHUNK_SECONDS = 0.05
BUFFER = 4096
"""Packings the kernel may store before the driver collects them."""
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


def _geometry(tables: Tables) -> kernels.Geometry:
    """The kernel's view of `tables`: small integers and bitboards."""
    n, placed = tables.box.cell_count, len(tables.placements)
    cw, pw = _cell_words(n), _placement_words(placed)
    cells = tables.cells
    faces = len(tables.face_cells_start) - 1
    cover_bits = _bitsets(np.repeat(np.arange(n), np.diff(tables.cover_start)), tables.cover, n, pw)
    return kernels.Geometry(
        cells.astype(np.int32),
        _bitsets(np.repeat(np.arange(placed), cells.shape[1]), cells.ravel(), placed, cw).ravel(),
        np.bitwise_or.reduce(cover_bits[cells], axis=1).ravel(),
        cover_bits.ravel(),
        tables.face_start.astype(np.int32),
        _bitsets(
            np.repeat(np.arange(faces), np.diff(tables.face_cells_start)),
            tables.face_cells,
            faces,
            cw,
        ).ravel(),
        tables.perm.astype(np.int32),
        tables.inverse_image.astype(np.int32),
        (0,) * cw,
        (0,) * pw,
        (0,) * _planes(tables),
    )


def _planes(tables: Tables) -> int:
    """Planes of the bit-sliced counts: enough for the most options of a cell (any
    placement covering it, or empty)."""
    options = int(np.diff(tables.cover_start).max(initial=0)) + 1
    return _power_of_two(options.bit_length(), LEAST_PLANES)


def _stacks(tables: Tables) -> kernels.Stacks:
    """The kernel's stacks and counters at the root, sized for the deepest search."""
    n = tables.box.cell_count
    placed = len(tables.placements)
    groups = tables.perm.shape[0]
    faces_per_brick = max(np.diff(tables.face_start).max(initial=0), 1)
    pending = faces_per_brick * (n // tables.cells.shape[1] + 1)
    options = np.diff(tables.cover_start) + 1  # any placement, or empty
    cell_words = _cell_words(n)
    counts = np.concatenate(
        [_bitset(np.flatnonzero((options >> k) & 1), cell_words) for k in range(_planes(tables))]
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
        avail=_bitset(np.arange(placed), _placement_words(placed)),
        blocked=np.zeros((n + 1) * _placement_words(placed), np.uint64),
        cp=np.zeros(n + 3, np.int32),
        cons=np.zeros((n + 2) * pending, np.int32),
        fp=np.zeros(n + 3, np.int32),
        fstack=np.zeros(n + 1, np.int32),
        sp=sp,
        ssig=ssig,
        sjd=np.zeros((n + 2) * groups, np.int32),
        swait=np.full((n + 2) * groups, -1, np.int32),
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
    """`solve` on tables already built (a split run searches many subproblems of one box)."""
    run = _Run(tables, min_blocks, max_blocks, keep or stream, prefix, -1)
    found: list[Packing] = []
    while True:
        status = run.chunk()
        fresh = run.take_packings()
        if keep and fresh is not None:
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
    run = _Run(tables, min_blocks, max_blocks, False, prefix, len(prefix) + 1)
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
        min_blocks: int,
        max_blocks: int | None,
        keep: bool,
        prefix: tuple[int, ...],
        split_at: int,
    ) -> None:
        n = tables.box.cell_count
        volume = tables.cells.shape[1]
        limit = n // volume if max_blocks is None else max_blocks
        if min_blocks < 0 or limit < 0:
            raise SlidelabError("--min-blocks and --max-blocks must not be negative")
        self.tables = tables
        self.state = _stacks(tables)
        self.geometry = _geometry(tables)
        self.goal = kernels.Goal(min_blocks, limit, np.array(prefix, np.int32), split_at)
        width = max(n // volume, 1) if keep else 0
        sols = np.zeros((BUFFER if keep else 1, width), np.int64)
        self.out = kernels.Output(
            np.zeros(n // volume + 1, np.int64),
            sols,
            np.zeros(sols.shape[0], np.int64),
            np.zeros(len(tables.placements) + 1, np.int64),
        )
        self.started = time.perf_counter()
        self.budget = 1024

    def chunk(self) -> int:
        """One kernel call; returns its status."""
        tick = time.perf_counter()
        interpreted = (
            self.tables.box.cell_count <= INTERPRETED_CELLS
            and self.state.st[kernels.NODES] < INTERPRETED_NODES
        )
        search = kernels.search.python if interpreted else kernels.search
        status = search(self.state, self.geometry, self.goal, self.out, self.budget)
        took = time.perf_counter() - tick
        self.budget = next_budget(self.budget, took, CHUNK_SECONDS, 64, 1 << 24)
        return int(status)

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
        among the siblings at each level, as if every choice led to an equal subtree."""
        done, weight = 0.0, 1.0
        start, cover = self.tables.cover_start, self.tables.cover
        for level in range(self.goal.prefix.size, int(self.state.st[kernels.L]) + 1):
            x = int(self.state.cell[level])
            move = int(self.state.mv[level])
            if x < 0 or move == kernels.UNSET:
                break
            covering = cover[start[x] : start[x + 1]]  # in increasing order
            choices = len(covering) + 1  # every placement covering x, or empty
            position = 0 if move == kernels.EMPTY else int(np.searchsorted(covering, move)) + 1
            done += weight * position / choices
            weight /= choices
        return min(done, 1.0)

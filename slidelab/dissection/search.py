"""Every dissection of a source shape into d pieces that rebuild a target: the search driver.

`solve` is a generator: between kernel chunks of about 50 ms it yields a
`Progress` and, when listing, a `SolutionsFound` batch with the solutions of that
chunk (as arrays: toy problems already have millions of solutions); it returns
a `DissectionResult`.  Closing it stops the run.  The kernel's stacks live in
`_State`, which this module owns.  `smallest` raises d from 2 until some
dissection exists.  `solve(..., prefix=...)` searches one subtree, and
`branch_choices` lists the subtrees below one (see `split`).

    drive(solve(Dissection(square(3), target, pieces=2)), on_found=keep)
    # keep(batch): batch.solutions() are `Solution` values
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator
from dataclasses import dataclass, fields, replace

import numpy as np

from slidelab.dissection import kernels
from slidelab.dissection.model import MAX_PIECES, Dissection, DissectionError, Solution
from slidelab.dissection.motions import WITH_FLIPS
from slidelab.dissection.shape import Shape
from slidelab.dissection.shifts import Tables
from slidelab.exactcover import kernels as dlx
from slidelab.exactcover.state import LinksArrays
from slidelab.runs import Found, Progress, drive

CHUNK_SECONDS = 0.05
"""How long one kernel call should run before control returns to the driver."""

BUFFER_CELLS = 1 << 20
"""Cells of stored solutions the kernel may hold before the driver collects them (each call
of the kernel costs about 0.2 ms, so batches should be large)."""

TABLES_KEPT = 4
"""Tables kept for the shapes last searched (a split search asks for them per subproblem)."""
MATCH_BATCH = 256
"""Solutions of one exact-cover call the kernel reads back at a time."""


@dataclass(frozen=True, eq=False)
class SolutionsFound(Found):
    """Solutions found since the last event; row r of each array is one solution."""

    maps: np.ndarray
    """[r, k] = (placement, orientation) of colour k + 1."""
    source_colours: np.ndarray
    """[r, x] = the colour (1..d) of source cell x."""
    target_colours: np.ndarray
    """[r, y] = the colour of target cell y."""

    def __len__(self) -> int:
        return len(self.maps)

    def solutions(self) -> list[Solution]:
        """The batch as `Solution` values."""
        return [
            Solution(
                maps=tuple((q, t) for q, t in maps),
                source_colours=tuple(source),
                target_colours=tuple(target),
            )
            for maps, source, target in zip(
                self.maps.tolist(),
                self.source_colours.tolist(),
                self.target_colours.tolist(),
                strict=True,
            )
        ]


@dataclass(frozen=True)
class DissectionResult:
    """The outcome of a search, with Knuth's counts of how far candidates got."""

    dissection: Dissection
    shifts: int
    """Legal placements of the source over the target (Knuth's m for the square)."""
    count: int
    """Solutions found."""
    covers: int
    """Multisets of placements whose footprints cover the target."""
    tuples: int
    """Choices of orientations after which every source cell can move."""
    searches: int
    """Matchings that forced moves did not settle, handed to the exact-cover engine."""
    seconds: float


@dataclass(eq=False)
class _State:
    """The kernel's stacks and scratch arrays, sized for d pieces and n cells."""

    st: np.ndarray
    choice: np.ndarray
    cover_t: np.ndarray
    cover_s: np.ndarray
    reach_s: np.ndarray
    unique: np.ndarray
    forced: np.ndarray
    forced_s: np.ndarray
    edge_s: np.ndarray
    edge_t: np.ndarray
    deg_s: np.ndarray
    deg_t: np.ndarray
    colour: np.ndarray
    partner: np.ndarray
    taken: np.ndarray
    queue: np.ndarray
    slot: np.ndarray
    pair_cell: np.ndarray
    pair_colours: np.ndarray
    pair_count: np.ndarray
    digit: np.ndarray
    first: np.ndarray
    size: np.ndarray
    mark: np.ndarray
    stack: np.ndarray
    links: LinksArrays
    """The exact-cover engine's dancing links for the matchings (filled by the kernel)."""
    sol_opts: np.ndarray
    sol_ends: np.ndarray
    option_cell: np.ndarray
    option_colour: np.ndarray

    @classmethod
    def create(cls, cells: int, words: int, d: int) -> _State:
        nodes = 2 * cells + 2 + 3 * cells * d  # headers, spacers and two nodes per edge
        levels = 2 * cells + 2
        return cls(
            st=np.zeros(kernels.SLOTS, np.int64),
            choice=np.zeros(2 * d, np.int64),
            cover_t=np.zeros((d + 1, words), np.uint64),
            cover_s=np.zeros((d + 1, words), np.uint64),
            reach_s=np.zeros((d + 1, words), np.uint64),
            unique=np.zeros(words, np.uint64),
            forced=np.zeros((d, WITH_FLIPS, words), np.uint64),
            forced_s=np.zeros((d + 1, words), np.uint64),
            edge_s=np.zeros((cells, d), np.int32),
            edge_t=np.zeros((cells, d), np.int32),
            deg_s=np.zeros(cells, np.int32),
            deg_t=np.zeros(cells, np.int32),
            colour=np.zeros(cells, np.int32),
            partner=np.zeros(cells, np.int32),
            taken=np.zeros(cells, np.int32),
            queue=np.zeros(2 * cells, np.int32),
            slot=np.zeros(2 * cells, np.int32),
            pair_cell=np.zeros(cells, np.int32),
            pair_colours=np.zeros((cells, d), np.int32),
            pair_count=np.zeros(cells, np.int32),
            digit=np.zeros(cells, np.int32),
            first=np.zeros(d, np.int32),
            size=np.zeros(d, np.int32),
            mark=np.zeros(cells, np.int32),
            stack=np.zeros(cells, np.int32),
            links=LinksArrays(
                top=np.zeros(nodes, np.int32),
                ulink=np.zeros(nodes, np.int32),
                dlink=np.zeros(nodes, np.int32),
                color=np.zeros(nodes, np.int32),
                length=np.zeros(2 * cells + 1, np.int32),
                llink=np.zeros(2 * cells + 1, np.int32),
                rlink=np.zeros(2 * cells + 1, np.int32),
                bound=np.zeros(2 * cells + 1, np.int32),
                slack=np.zeros(2 * cells + 1, np.int32),
                x=np.zeros(levels, np.int32),
                ft=np.zeros(levels, np.int32),
                degree=np.zeros(levels, np.int64),
                tried=np.zeros(levels, np.int64),
                regs=np.zeros(dlx.REGS, np.int64),
                rng=np.ones(1, np.uint64),
            ),
            sol_opts=np.zeros(MATCH_BATCH * cells + levels, np.int32),
            sol_ends=np.zeros(MATCH_BATCH, np.int64),
            option_cell=np.zeros(cells * d, np.int32),
            option_colour=np.zeros(cells * d, np.int32),
        )

    def arrays(self) -> list[np.ndarray]:
        """The arrays in the order `kernels.search` takes them (the links' in their place)."""
        found: list[np.ndarray] = []
        for f in fields(self):
            value = getattr(self, f.name)
            found += (
                [getattr(value, g.name) for g in fields(value)] if f.name == "links" else [value]
            )
        return found


def solve(
    dissection: Dissection, *, listing: bool = True, prefix: tuple[int, ...] = ()
) -> Generator[Progress | SolutionsFound, None, DissectionResult]:
    """Find every dissection, yielding progress and (when `listing`) batches of solutions.

    `prefix` restricts the search to one subtree: the choices forced at its first levels
    (placement numbers for colours 1, 2, ..., then orientation indices, as in `kernels`).
    Its counts are those the whole search makes in that subtree, forced levels included.
    """
    yield from table_steps(dissection)
    run = _Run(dissection, listing, prefix, -1)
    state = run.state
    d = dissection.pieces
    placements = len(run.tables.placements)
    while True:
        status = run.chunk()
        stored = int(state.st[kernels.STORED])
        state.st[kernels.STORED] = 0
        if stored:
            yield SolutionsFound(
                maps=run.out_maps[:stored].copy(),
                source_colours=run.out_colours[:stored].copy(),
                target_colours=run.out_target[:stored].copy(),
            )
        if status == kernels.DONE:
            break
        level = int(state.st[kernels.LV])
        yield Progress(
            phase=f"dissection into {d} pieces",
            explored=int(state.st[kernels.TUPLES]),
            elapsed=time.perf_counter() - run.started,
            depth=d,
            found=int(state.st[kernels.FOUND]),
            fraction=_fraction(state.choice, level, placements, d, run.tables.group, len(prefix)),
        )
    return DissectionResult(
        dissection=dissection,
        shifts=placements,
        count=int(state.st[kernels.FOUND]),
        covers=int(state.st[kernels.COVERS]),
        tuples=int(state.st[kernels.TUPLES]),
        searches=int(state.st[kernels.SEARCHES]),
        seconds=time.perf_counter() - run.started,
    )


def branch_choices(dissection: Dissection, prefix: tuple[int, ...] = ()) -> list[int]:
    """The choices open at the level after `prefix`, increasing: each one with `prefix` is a
    subtree, and together they hold every solution below `prefix` (none after all 2d levels)."""
    if len(prefix) >= 2 * dissection.pieces:
        return []
    run = _Run(dissection, False, prefix, len(prefix) + 1)
    while run.chunk() != kernels.DONE:
        pass
    kids: list[int] = run.kids[: run.state.st[kernels.KIDS]].tolist()
    return kids


_kept_tables: dict[tuple[Shape, Shape, bool], Tables] = {}


def shift_tables(dissection: Dissection) -> Tables:
    """The kernel's tables for `dissection`, built once per process (a split search asks for
    them for every subproblem)."""
    return drive(table_steps(dissection))


def table_steps(dissection: Dissection) -> Generator[Progress, None, Tables]:
    """`shift_tables` as a solver's first phase: kept tables at once, others built with
    progress (`Tables.steps`); the last `TABLES_KEPT` are kept."""
    key = (dissection.source, dissection.target, dissection.flips)
    tables = _kept_tables.get(key)
    if tables is None:
        tables = yield from Tables.steps(*key)
        if len(_kept_tables) >= TABLES_KEPT:
            del _kept_tables[next(iter(_kept_tables))]
        _kept_tables[key] = tables
    return tables


class _Run:
    """The kernel's arrays for one search, and chunks of it sized to take CHUNK_SECONDS."""

    def __init__(
        self, dissection: Dissection, listing: bool, prefix: tuple[int, ...], split_at: int
    ) -> None:
        self.started = time.perf_counter()
        tables = self.tables = shift_tables(dissection)
        self.dissection = dissection
        self.listing = listing
        d = dissection.pieces
        cells = len(dissection.source)
        self.state = _State.create(cells, tables.target_mask.shape[1], d)
        rows = max(BUFFER_CELLS // cells, 64) if listing else 1
        self.out_colours = np.zeros((rows, cells), np.int8)
        self.out_target = np.zeros((rows, cells), np.int8)
        self.out_maps = np.zeros((rows, d, 2), np.int32)
        self.orientation_of = np.array(
            [tables.stances[p.stance].orientations for p in tables.placements], np.int32
        )
        self.prefix = np.array(prefix, np.int64)
        self.split_at = split_at
        self.kids = np.zeros(max(len(tables.placements), tables.group), np.int64)
        self.budget = 1024

    def chunk(self) -> int:
        """One kernel call; returns its status."""
        tables = self.tables
        tick = time.perf_counter()
        status = kernels.search(
            *self.state.arrays(),
            tables.footprint_start,
            tables.footprint_target,
            tables.footprint_source,
            tables.target_mask,
            tables.source_mask,
            tables.source_union,
            tables.target_reach,
            tables.largest_after,
            tables.full_source,
            tables.full_target,
            tables.neighbours,
            self.orientation_of,
            self.dissection.pieces,
            tables.group,
            self.dissection.connected,
            self.listing,
            self.out_colours,
            self.out_target,
            self.out_maps,
            self.prefix,
            self.split_at,
            self.kids,
            self.budget,
        )
        took = time.perf_counter() - tick
        self.budget = int(min(max(self.budget * CHUNK_SECONDS / max(took, 1e-4), 64), 1 << 30))
        return int(status)


def smallest(
    dissection: Dissection, *, listing: bool = True, most: int = MAX_PIECES
) -> Generator[Progress | SolutionsFound, None, DissectionResult]:
    """The search for the fewest pieces, from 2 up to `most`, that has solutions.

    `dissection.pieces` is ignored; the result is that of the first d with a
    solution, or of d = `most` when none has.
    """
    if not 2 <= most <= MAX_PIECES:
        raise DissectionError(f"the number of pieces must be from 2 to {MAX_PIECES}, not {most}")
    for d in range(2, most + 1):
        result = yield from solve(replace(dissection, pieces=d), listing=listing)
        if result.count:
            break
    return result


def count_solutions(dissection: Dissection) -> DissectionResult:
    """Count the dissections without listing them."""
    return drive(solve(dissection, listing=False))


def find_solutions(dissection: Dissection) -> list[Solution]:
    """Every dissection, as `Solution` values in the order found."""
    found: list[Solution] = []
    drive(solve(dissection), on_found=lambda batch: found.extend(batch.solutions()))
    return found


def _fraction(
    choice: np.ndarray, level: int, placements: int, d: int, group: int, start: int
) -> float:
    """The share of the subtree below the first `start` levels that comes before the current
    path: exact over the placement multisets, then as if every orientation led to an equal
    subtree (Knuth's estimate)."""
    done, weight = 0.0, 1.0
    if start < d:
        low = int(choice[start - 1]) if start else 0
        total = math.comb(placements - low + d - start - 1, d - start)
        before = 0
        for k in range(start, min(level + 1, d)):
            value = min(int(choice[k]), placements)
            rest = d - k - 1
            before += sum(math.comb(placements - u + rest - 1, rest) for u in range(low, value))
            low = value
        done, weight = before / total, 1 / total
    for k in range(max(start, d + 1), level + 1):
        done += weight * int(choice[k]) / group
        weight /= group
    return min(done, 1.0)

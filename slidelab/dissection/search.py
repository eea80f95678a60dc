"""Every dissection of a source shape into d pieces that rebuild a target: the search driver.

`solve` is a generator: between kernel chunks of about 50 ms it yields a
`Progress` and, when listing, a `SolutionsFound` batch with the solutions of that
chunk (as arrays: toy problems already have millions of solutions); it returns
a `DissectionResult`.  Closing it stops the run.  The kernel's stacks live in
arrays this module owns (`kernels.Tree` and `kernels.Leaf`).  `smallest` raises d from 2 until some
dissection exists.  `solve(..., prefix=...)` searches one subtree, and
`branch_choices` lists the subtrees below one (see `split`).

    drive(solve(Dissection(square(3), target, pieces=2)), on_found=keep)
    # keep(batch): batch.solutions() are `Solution` values
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator
from dataclasses import dataclass, replace

import numpy as np

from slidelab.dissection import kernels
from slidelab.dissection.model import MAX_PIECES, Dissection, DissectionError, Solution
from slidelab.dissection.motions import WITH_FLIPS
from slidelab.dissection.shape import Shape
from slidelab.dissection.shifts import Tables
from slidelab.runs import Found, Progress, drive, next_budget

CHUNK_SECONDS = 0.05
"""How long one kernel call should run before control returns to the driver."""

BUFFER_CELLS = 1 << 20
"""Cells of stored solutions the kernel may hold before the driver collects them (each call
of the kernel costs about 0.2 ms, so batches should be large)."""

BITS_NODES = 4096
"""Nodes a count spends on one leaf's matchings on bitsets before it searches them in
steps that can stop (see `kernels.Mode`): a few hundred microseconds at most."""

TABLES_KEPT = 4
"""Tables kept for the shapes last searched (a split search asks for them per subproblem)."""


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
    """Map tuples whose matchings forced moves did not settle, left to a search.  A count on
    one-word bitsets (shapes of at most 64 cells) also moves where several colours join two
    cells, so it may leave fewer than a listing."""
    seconds: float


def _tree(d: int, words: int, prefix: tuple[int, ...], kids: int, bit_cells: int) -> kernels.Tree:
    """The kernel's stack of the 2d levels for a search below `prefix` (`bit_cells`: the
    cells of a count on one-word bitsets, or 0)."""
    return kernels.Tree(
        st=np.zeros(kernels.SLOTS, np.int64),
        choice=np.zeros(2 * d, np.int64),
        cover_t=np.zeros((d + 1, words), np.uint64),
        cover_s=np.zeros((d + 1, words), np.uint64),
        reach_s=np.zeros((d + 1, words), np.uint64),
        unique=np.zeros(words, np.uint64),
        forced=np.zeros((d, WITH_FLIPS, words), np.uint64),
        forced_s=np.zeros((d + 1, words), np.uint64),
        prefix=np.array(prefix, np.int64),
        kids=np.zeros(kids, np.int64),
        rows=np.zeros((d + 1, bit_cells), np.uint64),
        cols=np.zeros((d + 1, bit_cells), np.uint64),
        multi=np.zeros((d + 1, bit_cells), np.uint64),
    )


def _leaf(cells: int, d: int) -> kernels.Leaf:
    """The kernel's scratch for one leaf of `cells` cells and d colours."""
    return kernels.Leaf(
        edge_s=np.zeros((cells, d), np.int32),
        edge_t=np.zeros((cells, d), np.int32),
        deg_s=np.zeros(cells, np.int32),
        deg_t=np.zeros(cells, np.int32),
        colour=np.zeros(cells, np.int32),
        partner=np.zeros(cells, np.int32),
        taken=np.zeros(cells, np.int32),
        queue=np.zeros(2 * cells, np.int32),
        pair_cell=np.zeros(cells, np.int32),
        pair_colours=np.zeros((cells, d), np.int32),
        pair_count=np.zeros(cells, np.int32),
        digit=np.zeros(cells, np.int32),
        free_s=np.zeros(cells, np.int32),
        free_t=np.zeros(cells, np.int32),
        item=np.zeros(cells + 1, np.int32),
        tried=np.zeros(cells + 1, np.int32),
        bits=kernels.Bits(
            row_edges=np.zeros((1, 64), np.uint64),
            col_edges=np.zeros((1, 64), np.uint64),
            column=np.zeros(cells, np.int64),
            weight=np.zeros((64, 64), np.int64),
            multi=np.zeros((1, 64), np.uint64),
            free_rows=np.zeros(65, np.uint64),
            free_cols=np.zeros(65, np.uint64),
            pivot=np.zeros(65, np.int64),
            options=np.zeros(65, np.uint64),
            total=np.zeros(65, np.int64),
            times=np.zeros(65, np.int64),
        ),
        first=np.zeros(d, np.int32),
        size=np.zeros(d, np.int32),
        mark=np.zeros(cells, np.int32),
        stack=np.zeros(cells, np.int32),
    )


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
    st = run.tree.st
    d = dissection.pieces
    placements = len(run.tables.placements)
    while True:
        status = run.chunk()
        stored = int(st[kernels.STORED])
        st[kernels.STORED] = 0
        if stored:
            yield SolutionsFound(
                maps=run.out.maps[:stored].copy(),
                source_colours=run.out.colours[:stored].copy(),
                target_colours=run.out.target[:stored].copy(),
            )
        if status == kernels.DONE:
            break
        level = int(st[kernels.LV])
        yield Progress(
            phase=f"dissection into {d} pieces",
            explored=int(st[kernels.TUPLES]),
            elapsed=time.perf_counter() - run.started,
            depth=d,
            found=int(st[kernels.FOUND]),
            fraction=_fraction(
                run.tree.choice, level, placements, d, run.tables.group, len(prefix)
            ),
        )
    return DissectionResult(
        dissection=dissection,
        shifts=placements,
        count=int(st[kernels.FOUND]),
        covers=int(st[kernels.COVERS]),
        tuples=int(st[kernels.TUPLES]),
        searches=int(st[kernels.SEARCHES]),
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
    kids: list[int] = run.tree.kids[: run.tree.st[kernels.KIDS]].tolist()
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
        d = dissection.pieces
        cells = len(dissection.source)
        words = tables.arrays.target_mask.shape[1]
        kids = max(len(tables.placements), tables.group)
        bit_cells = 0 if listing or dissection.connected else tables.arrays.image_bit.shape[2]
        self.tree = _tree(d, words, prefix, kids, bit_cells)
        self.leaf = _leaf(cells, d)
        rows = max(BUFFER_CELLS // cells, 64) if listing else 1
        self.out = kernels.Output(
            colours=np.zeros((rows, cells), np.int8),
            target=np.zeros((rows, cells), np.int8),
            maps=np.zeros((rows, d, 2), np.int32),
        )
        self.kernel_tables = tables.arrays
        self.mode = kernels.Mode(
            connected=dissection.connected, keep=listing, split_at=split_at, bits_nodes=BITS_NODES
        )
        self.budget = 1024

    def chunk(self) -> int:
        """One kernel call; returns its status."""
        tick = time.perf_counter()
        status = kernels.search(
            self.kernel_tables, self.tree, self.leaf, self.out, self.mode, self.budget
        )
        took = time.perf_counter() - tick
        self.budget = next_budget(self.budget, took, CHUNK_SECONDS, 64, 1 << 30)
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

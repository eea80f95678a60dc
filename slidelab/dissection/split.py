"""The dissection search cut into subproblems, for several processes or machines.

A subproblem forces the placements of the first colours: the kernel reaches a
forced level in the very state the whole search reaches it in (the tests there
depend only on the choices above), so the placements open after a prefix
(`branch_choices`) partition its solutions, and the subproblems' solutions in key
order are the whole search's, in its order.  Splitting stops at the d placement
levels: below them a subtree is one covering multiset (at most group^(d-1)
orientation tuples), and each multiset's cover then counts in one subproblem, so
all of Knuth's counts add up to the whole search's.  `slidelab.parallel.run`
decides which subtrees to search where.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Generator
from dataclasses import dataclass

import numpy as np

from slidelab.dissection.model import Dissection
from slidelab.dissection.search import (
    DissectionResult,
    SolutionsFound,
    branch_choices,
    shift_tables,
    solve,
)
from slidelab.parallel.payload import fields, items, whole
from slidelab.parallel.run import SPLIT_RULES, run_journaled, within_budget
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress, relay


@dataclass(frozen=True)
class Branch:
    key: tuple[int, ...]
    prefix: tuple[int, ...]
    """The placements forced for colours 1, 2, ..., len(prefix)."""


@dataclass(frozen=True)
class DissectionJob:
    """What every worker needs to search subtrees of one dissection (a `SplitJob`)."""

    dissection: Dissection
    listing: bool

    def root(self) -> Branch:
        return Branch((), ())

    def children(self, branch: Branch) -> list[Branch]:
        if len(branch.prefix) >= self.dissection.pieces:
            return []
        return [
            Branch((*branch.key, n), (*branch.prefix, q))
            for n, q in enumerate(branch_choices(self.dissection, branch.prefix))
        ]

    def explore(
        self, branch: Branch, budget: int | None, growth: float | None = None
    ) -> Generator[Progress, None, TaskResult | None]:
        return within_budget(self._search(branch), budget, growth)

    def _search(self, branch: Branch) -> Generator[Progress, None, TaskResult]:
        search = solve(self.dissection, listing=self.listing, prefix=branch.prefix)
        rows: list[list[int]] = []
        result = yield from relay(search, lambda batch: rows.extend(_rows(batch)))
        payload: dict[str, object] = {"covers": result.covers, "searches": result.searches}
        if self.listing:
            payload["solutions"] = rows
        return TaskResult(branch.key, result.count, result.tuples, payload)

    def check(self, result: TaskResult) -> None:
        """A payload as `_search` writes it: Knuth's counts and, when listing, one row of
        `_rows` for each solution counted, every placement, orientation and colour one the
        tables have."""
        payload = result.payload
        fields(
            payload, ("covers", "searches", "solutions") if self.listing else ("covers", "searches")
        )
        whole(payload["covers"], "covers")
        whole(payload["searches"], "searches")
        if not self.listing:
            return
        d, cells = self.dissection.pieces, len(self.dissection.source)
        tables = shift_tables(self.dissection)
        placement, orientation = (0, len(tables.placements) - 1), (0, tables.group - 1)
        bounds = [placement, orientation] * d + [(1, d)] * (2 * cells)
        for n, row in enumerate(items(payload["solutions"], "solutions", result.count)):
            values = items(row, f"solutions[{n}]", len(bounds))
            for k, (value, (low, high)) in enumerate(zip(values, bounds, strict=True)):
                whole(value, f"solutions[{n}][{k}]", low, high)

    def fingerprint(self) -> str:
        """Names the shapes, pieces, options, kind of run and splitting rules, for journals."""
        problem = self.dissection
        text = (
            f"dissection {problem.source.cells} into {problem.pieces} pieces for "
            f"{problem.target.cells} connected={problem.connected} flips={problem.flips} "
            f"listing={self.listing}; {SPLIT_RULES}"
        )
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class SplitDissection:
    """A split run's result and solutions, and how it was split."""

    result: DissectionResult
    found: SolutionsFound
    """Every solution (when listing), in the order of the whole search."""
    subproblems: int
    resumed: int
    """Subproblems whose results came from the journal."""


def solve_split(
    dissection: Dissection,
    *,
    listing: bool = True,
    jobs: int = 1,
    scheduler: str | None = None,
    journal: str | None = None,
) -> Generator[Progress, None, SplitDissection]:
    """`solve` in subproblems: on `jobs` processes, or on the Dask cluster at `scheduler`,
    recording each finished one in the `journal` file."""
    started = time.perf_counter()
    job = DissectionJob(dissection, listing)
    results, resumed = yield from run_journaled(
        job, jobs=jobs, scheduler=scheduler, journal=journal,
        what=f"dissection into {dissection.pieces} pieces",
    )  # fmt: skip
    result = DissectionResult(
        dissection=dissection,
        shifts=len(shift_tables(dissection).placements),
        count=sum(r.count for r in results),
        covers=sum(r.payload["covers"] for r in results),
        tuples=sum(r.nodes for r in results),
        searches=sum(r.payload["searches"] for r in results),
        seconds=time.perf_counter() - started,
    )
    rows = [row for r in results for row in r.payload.get("solutions", [])]
    found = _batch(rows, dissection.pieces, len(dissection.source))
    return SplitDissection(result, found, len(results), resumed)


def _rows(batch: SolutionsFound) -> list[list[int]]:
    """Each solution as one list of ints (JSON for journals): the (placement, orientation)
    of every colour, then the colours of the source cells, then those of the target cells."""
    flat_maps = batch.maps.reshape(len(batch), -1)
    rows: list[list[int]] = np.hstack(
        [flat_maps, batch.source_colours, batch.target_colours]
    ).tolist()
    return rows


def _batch(rows: list[list[int]], d: int, cells: int) -> SolutionsFound:
    """The solutions `_rows` wrote, as one batch."""
    table = np.array(rows, np.int32).reshape(len(rows), 2 * d + 2 * cells)
    return SolutionsFound(
        maps=table[:, : 2 * d].reshape(-1, d, 2),
        source_colours=table[:, 2 * d : 2 * d + cells].astype(np.int8),
        target_colours=table[:, 2 * d + cells :].astype(np.int8),
    )

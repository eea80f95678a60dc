"""The antislide search cut into subproblems, for several processes or machines.

A subproblem is a prefix of the backtrack's moves: the cells chosen at its first
levels are the same as in the whole search (the choice depends only on the moves
above), so fixing the moves there gives a subtree, and the subtrees of the moves
open after a prefix partition its packings.  Isomorph rejection looks only at a
packing's own path, so every subtree keeps exactly the packings the whole search
keeps there.  `slidelab.parallel.run` decides which subtrees to search where.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter
from collections.abc import Generator
from dataclasses import dataclass
from functools import lru_cache

from slidelab.antislide.model import DEFAULT_BRICK, Box, Tables
from slidelab.antislide.search import (
    KEPT_PACKING_BYTES,
    AntislideResult,
    Packing,
    branch_moves,
    check_memory,
    solve_tables,
)
from slidelab.memory import MemoryBudget
from slidelab.parallel.payload import adds_up, expect, fields, items, whole
from slidelab.parallel.run import SPLIT_RULES, run_journaled, within_budget
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress, relay

PAYLOAD_PACKING_BYTES, PAYLOAD_BRICK_BYTES = 160, 168
"""Bytes a listed packing holds in a subproblem's payload (lists of numbers, as it comes from
a worker), and more for each brick (4 x 4 x 4's and 4 x 4 x 5's, 15.8 and 19.6 bricks on
average, measured 2,715 and 3,319)."""
GATHERING = "gathering the subproblems' packings"


def _gathered_bytes(packings: int, bricks: int) -> int:
    """Bytes `packings` listed packings of `bricks` bricks in all hold while a split run
    gathers them: as payloads, and as packings."""
    each = PAYLOAD_PACKING_BYTES + KEPT_PACKING_BYTES
    return packings * each + bricks * (PAYLOAD_BRICK_BYTES + 8)


@dataclass(frozen=True)
class Branch:
    key: tuple[int, ...]
    moves: tuple[int, ...]
    """The moves forced at the first levels (placement numbers, or -1 for an empty cell)."""


@lru_cache(maxsize=1)
def _tables(box: Box, brick: tuple[int, int, int]) -> Tables:
    """The tables of the box a process is splitting or searching, built once: every
    subproblem and every split of one run needs the same (tens of ms each to build)."""
    return Tables.build(box, brick)


@dataclass(frozen=True)
class AntislideJob:
    """What every worker needs to search subtrees of one box (a `SplitJob`)."""

    box: Box
    brick: tuple[int, int, int]
    min_blocks: int
    max_blocks: int | None
    keep: bool

    def root(self) -> Branch:
        return Branch((), ())

    def children(self, branch: Branch) -> list[Branch]:
        moves = branch_moves(
            _tables(self.box, self.brick), min_blocks=self.min_blocks,
            max_blocks=self.max_blocks, prefix=branch.moves,
        )  # fmt: skip
        return [Branch((*branch.key, n), (*branch.moves, m)) for n, m in enumerate(moves)]

    def explore(
        self, branch: Branch, budget: int | None, growth: float | None = None
    ) -> Generator[Progress, None, TaskResult | None]:
        return within_budget(self._search(branch), budget, growth)

    def _search(self, branch: Branch) -> Generator[Progress, None, TaskResult]:
        search = solve_tables(
            _tables(self.box, self.brick), self.min_blocks, self.max_blocks, self.keep,
            prefix=branch.moves,
        )  # fmt: skip
        result: AntislideResult = yield from search  # type: ignore[misc]
        payload: dict[str, object] = {"by_blocks": {str(b): c for b, c in result.by_blocks.items()}}
        if self.keep:
            bricks = sum(p.blocks for p in result.packings)
            MemoryBudget.of(None).check(_gathered_bytes(len(result.packings), bricks), GATHERING)
            payload["packings"] = [
                [p.symmetries, [[*b.corner, *b.size] for b in p.bricks]] for p in result.packings
            ]
        return TaskResult(branch.key, result.solutions, result.nodes, payload)

    def check(self, result: TaskResult) -> None:
        """A payload as `_search` writes it: packings counted by their blocks, within the
        filters, adding up to the count; with `keep`, the packings themselves, as many of
        each size as counted, each brick one of the box's placements."""
        payload = result.payload
        fields(payload, ("by_blocks", "packings") if self.keep else ("by_blocks",))
        by_blocks = payload["by_blocks"]
        expect(isinstance(by_blocks, dict), "by_blocks must be an object")
        most = self.box.cell_count // math.prod(self.brick)
        high = most if self.max_blocks is None else min(most, self.max_blocks)
        sizes = {str(b): b for b in range(self.min_blocks, high + 1)}
        counted: Counter[int] = Counter()
        for blocks, count in by_blocks.items():
            expect(
                blocks in sizes,
                f"by_blocks key {blocks!r} must be a number of blocks from {self.min_blocks} "
                f"to {high}",
            )
            counted[sizes[blocks]] = whole(count, f"by_blocks[{blocks!r}]")
        adds_up(sum(counted.values()), result.count, "by_blocks")
        if not self.keep:
            return
        group = self.box.symmetry_count
        placed = {(*p.corner, *p.size) for p in _tables(self.box, self.brick).placements}
        listed: Counter[int] = Counter()
        for n, packing in enumerate(items(payload["packings"], "packings", result.count)):
            symmetries, bricks = items(packing, f"packings[{n}]", 2)
            expect(
                group % whole(symmetries, f"packings[{n}][0]", 1) == 0,
                f"packings[{n}][0] must divide {group}, the order of the box's symmetry group",
            )
            for k, brick in enumerate(items(bricks, f"packings[{n}][1]")):
                expect(
                    isinstance(brick, list)
                    and all(type(number) is int for number in brick)
                    and tuple(brick) in placed,
                    f"packings[{n}][1][{k}] must be a brick in the box: its corner, its size",
                )
            listed[len(bricks)] += 1
        expect(+listed == +counted, "the packings' numbers of blocks are not those of by_blocks")

    def fingerprint(self) -> str:
        """Names the box, brick, filters, kind of run and splitting rules, for journals."""
        text = (
            f"antislide {self.box.dims} brick {self.brick} blocks {self.min_blocks}.."
            f"{self.max_blocks} keep={self.keep}; {SPLIT_RULES}"
        )
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class SplitAntislide:
    """A split run's result, and how it was split."""

    result: AntislideResult
    subproblems: int
    resumed: int
    seconds: float


def solve_split(
    box: Box,
    brick: tuple[int, int, int] = DEFAULT_BRICK,
    *,
    min_blocks: int = 0,
    max_blocks: int | None = None,
    keep: bool = False,
    jobs: int = 1,
    scheduler: str | None = None,
    journal: str | None = None,
) -> Generator[Progress, None, SplitAntislide]:
    """`solve` in subproblems: on `jobs` processes, or on the Dask cluster at `scheduler`,
    recording each finished one in the `journal` file.  Packings come subproblem by
    subproblem, in the order the whole search would find them: they are kept until every
    subproblem has ended, and the run is refused (`MemoryBudgetError`) when those gathered
    would pass the memory budget (counted at the most bricks the box holds)."""
    started = time.perf_counter()
    check_memory(box, brick)
    job = AntislideJob(box, brick, min_blocks, max_blocks, keep)
    dims = "x".join(map(str, box.dims))
    budget = MemoryBudget.of(None)
    most = box.cell_count // (brick[0] * brick[1] * brick[2])

    def check_gathered(listed: int) -> None:
        budget.check(_gathered_bytes(listed, listed * most), GATHERING)

    def during(event: Progress) -> Progress:
        check_gathered(event.found)  # the packings of the subproblems ended so far
        return event

    search = run_journaled(
        job, jobs=jobs, scheduler=scheduler, journal=journal, what=f"antislide {dims}"
    )
    results, resumed = yield from relay(search, report=during if keep else None)
    if keep:
        check_gathered(sum(r.count for r in results))
    by_blocks: dict[int, int] = {}
    packings = []
    placements = {(*p.corner, *p.size): p for p in _tables(box, brick).placements} if keep else {}
    for r in results:
        for b, c in r.payload["by_blocks"].items():
            by_blocks[int(b)] = by_blocks.get(int(b), 0) + c
        for syms, bricks in r.payload.get("packings", []):
            packings.append(Packing(tuple(placements[tuple(b)] for b in bricks), syms))
    symmetries = len(box.symmetries)
    result = AntislideResult(
        box, brick, symmetries, dict(sorted(by_blocks.items())), sum(r.nodes for r in results),
        tuple(packings),
    )  # fmt: skip
    return SplitAntislide(result, len(results), resumed, time.perf_counter() - started)

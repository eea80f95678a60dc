"""An exact-cover search cut into independent subproblems, for several processes or machines.

A subproblem is a branch of the search tree: options forced into every solution
and options excluded from all.  A branch splits on its primary item i with the
fewest options o_1 .. o_n: child k forces o_k and excludes o_1 .. o_(k-1), and
when i may stay uncovered (lower bound 0) one more child excludes them all.
Every solution of the branch falls in exactly one child (the one forcing its
first option of i), multiplicities included, so the children's counts add up.
`slidelab.parallel.run` decides which branches to search where.  A search on local
processes first runs here alone while its estimate says it ends soon (`ALONE_SECONDS`):
forking the workers and building the subproblems would cost more than it finishes.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Generator
from dataclasses import dataclass

from slidelab.exactcover.problem import Problem
from slidelab.exactcover.search import SEARCH_PHASE, ExactCoverResult, SolutionsFound, solve
from slidelab.parallel.payload import fields, items, wholes
from slidelab.parallel.run import SPLIT_RULES, run_journaled, within_budget
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress, RunStopped, relay

ALONE_SECONDS = 0.3
"""A split search on local processes is searched in this process instead while its own
estimate of the time left is at most this: about what forking the workers, building the
subproblems and probing them costs (Soma cube, 245,000 nodes in 0.05 s alone: 0.6 s split)."""
FIRST_LOOK = 0.05
"""Seconds of that search before its estimate is trusted (the first nodes say little)."""


@dataclass(frozen=True)
class Branch:
    """A subproblem: `forced` options are in every solution, `excluded` ones in none."""

    key: tuple[int, ...]
    """Child numbers on the path from the root (the journal's name for the branch)."""
    forced: tuple[int, ...]
    excluded: tuple[int, ...]


@dataclass(frozen=True)
class Restricted:
    """A branch as a problem of its own, and how its options map back to the original."""

    problem: Problem | None
    """None when the forced options already cover every primary item: one solution."""
    original: tuple[int, ...]
    """Original number of each option of `problem`."""


def restrict(problem: Problem, branch: Branch) -> Restricted:
    """The problem left after choosing `branch.forced` and dropping `branch.excluded`."""
    dropped = set(branch.excluded) | set(branch.forced)
    bounds = dict(zip(problem.primary, problem.bounds, strict=True))
    gone_items: set[object] = set()
    colours: dict[object, object] = {}
    for k in branch.forced:
        for item, colour in problem.options[k]:
            if item in bounds:
                low, high = bounds[item]
                bounds[item] = (max(low - 1, 0), high - 1)
                if high == 1:
                    gone_items.add(item)
            elif colour is None:
                gone_items.add(item)
            else:
                colours[item] = colour
    kept = [
        k
        for k, option in enumerate(problem.options)
        if k not in dropped
        and not any(
            item in gone_items or (item in colours and colour != colours[item])
            for item, colour in option
        )
    ]
    primary = tuple(i for i in problem.primary if i not in gone_items)
    if not primary:
        return Restricted(None, ())
    return Restricted(
        Problem(
            primary=primary,
            options=tuple(problem.options[k] for k in kept),
            secondary=tuple(i for i in problem.secondary if i not in gone_items),
            bounds=tuple(bounds[i] for i in primary),
        ),
        tuple(kept),
    )


def children(problem: Problem, branch: Branch, restricted: Restricted) -> list[Branch]:
    """The branches `branch` splits into (see the module doc); [] for a leaf: a branch with
    one solution or none, which is quicker searched than split."""
    sub = restricted.problem
    if sub is None:
        return []
    by_item: dict[object, list[int]] = {item: [] for item in sub.primary}
    for k, option in enumerate(sub.options):
        for item, _ in option:
            if item in by_item:
                by_item[item].append(k)
    low = dict(zip(sub.primary, (lo for lo, _ in sub.bounds), strict=True))
    if any(low[i] > 0 and not by_item[i] for i in sub.primary):
        return []  # an item that must be covered cannot be: no solution, nothing to split
    candidates = [i for i in sub.primary if by_item[i]]
    if not candidates:
        return []  # nothing left to choose: the branch is its one solution
    item = min(candidates, key=lambda i: len(by_item[i]))
    options = [restricted.original[k] for k in by_item[item]]
    found = [
        Branch((*branch.key, n), (*branch.forced, o), (*branch.excluded, *options[:n]))
        for n, o in enumerate(options)
    ]
    if low[item] == 0:
        found.append(
            Branch((*branch.key, len(options)), branch.forced, (*branch.excluded, *options))
        )
    return found


def solve_branch(
    problem: Problem, branch: Branch, listing: bool
) -> Generator[Progress, None, TaskResult]:
    """Search one branch to its end (without preprocessing, which would delay a probe)."""
    restricted = restrict(problem, branch)
    if restricted.problem is None:
        solutions = [list(branch.forced)] if listing else []
        return TaskResult(branch.key, 1, 0, {"solutions": solutions})
    found: list[list[int]] = []

    def keep(batch: SolutionsFound) -> None:
        found.extend(
            [*branch.forced, *(restricted.original[k] for k in s)] for s in batch.solutions
        )

    search = solve(restricted.problem, count_only=not listing, preprocess=False)
    result = yield from relay(search, keep)
    payload = {"solutions": found} if listing else {}
    return TaskResult(branch.key, result.count, result.nodes, payload)


@dataclass(frozen=True)
class ExactCoverJob:
    """What every worker needs to search branches of one problem (a `SplitJob`)."""

    problem: Problem
    listing: bool
    big_root: bool = False
    """The whole search was found too big to run alone here (see `search_split`): the root
    is split at once instead of probed again."""

    def root(self) -> Branch:
        return Branch((), (), ())

    def children(self, branch: Branch) -> list[Branch]:
        return children(self.problem, branch, restrict(self.problem, branch))

    def explore(
        self, branch: Branch, budget: int | None, growth: float | None = None
    ) -> Generator[Progress, None, TaskResult | None]:
        if self.big_root and not branch.key and budget is not None:
            return _found_big()
        return within_budget(solve_branch(self.problem, branch, self.listing), budget, growth)

    def check(self, result: TaskResult) -> None:
        """A payload as `solve_branch` writes it: when listing, each solution counted, as
        option numbers of the problem; otherwise none (a branch that its forced options settle
        says so with an empty list)."""
        payload = result.payload
        fields(payload, ("solutions",) if self.listing else (), ("solutions",))
        solutions = items(
            payload.get("solutions", []), "solutions", result.count if self.listing else 0
        )
        for n, solution in enumerate(solutions):
            wholes(solution, f"solutions[{n}]", high=len(self.problem.options) - 1)

    def fingerprint(self) -> str:
        """Names the problem, the kind of run and the splitting rules, for journals."""
        digest = hashlib.sha256(self.problem.matrix().fingerprint().encode())
        digest.update(f"exact cover; listing={self.listing}; {SPLIT_RULES}".encode())
        return digest.hexdigest()


@dataclass(frozen=True)
class SplitOutcome:
    """The result of a split search."""

    count: int
    solutions: list[list[int]]
    """Every solution as original option numbers (when listing), subproblem by subproblem."""
    nodes: int
    subproblems: int
    resumed: int
    """Subproblems whose results came from the journal."""
    seconds: float


def search_split(
    problem: Problem,
    *,
    listing: bool = False,
    jobs: int = 1,
    scheduler: str | None = None,
    journal: str | None = None,
    what: str = "",
) -> Generator[Progress, None, SplitOutcome]:
    """Count (or list) the solutions of `problem` in subproblems: on `jobs` processes, or on
    the Dask cluster at `scheduler`, recording each finished one in the `journal` file."""
    started = time.perf_counter()
    alone_first = jobs > 1 and scheduler is None and journal is None
    if alone_first:
        alone = yield from _alone(problem, listing)
        if alone is not None:
            return alone
    job = ExactCoverJob(problem, listing, big_root=alone_first)
    results, resumed = yield from run_journaled(
        job, jobs=jobs, scheduler=scheduler, journal=journal,
        what=what or "an exact-cover problem",
    )  # fmt: skip
    return SplitOutcome(
        count=sum(r.count for r in results),
        solutions=[s for r in results for s in r.payload.get("solutions", [])],
        nodes=sum(r.nodes for r in results),
        subproblems=len(results),
        resumed=resumed,
        seconds=time.perf_counter() - started,
    )


def _found_big() -> Generator[Progress, None, TaskResult | None]:
    """A probe of the root that ends at once, finding it big (`ExactCoverJob.big_root`)."""
    yield from ()
    return None


def _alone(problem: Problem, listing: bool) -> Generator[Progress, None, SplitOutcome | None]:
    """The whole search in this process, if its estimate keeps saying that it ends within
    `ALONE_SECONDS`; None (the search stopped) once it says otherwise.  The pace is taken
    from the search's first progress event on (the kernel may be loaded before that)."""
    found: list[list[int]] = []
    first: Progress | None = None

    def keep(batch: SolutionsFound) -> None:
        found.extend(list(s) for s in batch.solutions)

    def check(event: Progress) -> Progress:
        nonlocal first
        if event.phase != SEARCH_PHASE:
            if event.elapsed >= FIRST_LOOK:
                raise RunStopped  # a problem slow to prepare is big
            return event
        first = first or event
        if event.elapsed - first.elapsed >= FIRST_LOOK:
            pace = (event.elapsed - first.elapsed) / max(event.explored - first.explored, 1)
            left = event.explored * (1 / event.fraction - 1) * pace if event.fraction else None
            if left is None or left > ALONE_SECONDS:
                raise RunStopped
        return event

    try:
        result: ExactCoverResult = yield from relay(
            solve(problem, count_only=not listing), keep, check
        )
    except RunStopped:
        return None
    return SplitOutcome(result.count, found, result.nodes, 1, 0, result.seconds)

"""An exact-cover search cut into independent subproblems, for several processes or machines.

A subproblem is a branch of the search tree: options forced into every solution, and cuts
of the options of some items.  A branch splits on its primary item i with the fewest
options, o_1 < ... < o_d by number (the problem's order):

- when one more option at most may cover i (its upper bound less the forced options that
  cover it is 1), child k forces o_k, which leaves no other option of i.  Of more than
  `FANOUT` options, child k takes the k-th of `FANOUT` runs of consecutive options instead
  (as many within one): only those of i's options are kept (a *window*), and one of them
  must cover i;
- when more may (multiplicities), child k forces o_k and cuts i's options numbered below
  o_k (a *floor*), so that a solution falls in the child of its first option of i only.  Of
  more than `FANOUT` options, only o_1 .. o_(FANOUT-1) get such a child, and one more has
  the floor o_FANOUT alone: the solutions whose first option of i comes later, or that have
  none (windows would not do: a solution with options of i in two runs is in no window);
- when i may stay uncovered (lower bound 0), one more child, unless that one holds them
  already, has the floor o_d + 1: the solutions without an option of i.

Every solution falls in exactly one child, so the children's counts add up.  A child adds
one option and one cut at most to its parent's, and a branch has at most `FANOUT` + 1
children whatever d: an item of 200,000 options gave 200,000 children, the k-th excluding
o_1 .. o_(k-1) one by one (20 billion numbers, built before any memory budget could refuse
them: 14 GB within a minute).  An item of at most `FANOUT` options splits as it always did,
into the same subproblems under the same keys.

`slidelab.parallel.run` decides which branches to search where.  A search on local
processes first runs here alone while its estimate says it ends soon (`ALONE_SECONDS`):
forking the workers and building the subproblems would cost more than it finishes.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Generator
from dataclasses import dataclass
from functools import cached_property
from math import inf

import numpy as np

from slidelab.exactcover.problem import Item, Problem
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
FANOUT = 64
"""Most children a branch has besides the one without its item: an item of more options is
cut into runs of them (see the module doc).  Above the most options of any item the splits of
the knuth-bench problems meet (Soma's root 55, pento-3x4x5 48, Bedlam 37): those split as they
always did, the same subproblems under the same keys."""

ItemOptions = dict[Item, np.ndarray]
"""The numbers of the options that name each item, in increasing order."""


@dataclass(frozen=True)
class Branch:
    """A subproblem: `forced` options are in every solution, and `floors` and `windows` cut
    the options of some items (see the module doc)."""

    key: tuple[int, ...]
    """Child numbers on the path from the root (the journal's name for the branch)."""
    forced: tuple[int, ...]
    floors: tuple[tuple[Item, int], ...] = ()
    """(item, first): no solution holds an option of `item` numbered below `first`."""
    windows: tuple[tuple[Item, int, int], ...] = ()
    """(item, start, stop): `item`, which one more option at most may cover, is covered by
    one numbered from `start` to `stop` (not included)."""

    def child(
        self,
        number: int,
        *,
        force: int | None = None,
        floor: tuple[Item, int] | None = None,
        window: tuple[Item, int, int] | None = None,
    ) -> Branch:
        """Child `number`: this branch with option `force` forced, and `floor` and `window`
        added to its cuts (those given)."""
        return Branch(
            (*self.key, number),
            self.forced if force is None else (*self.forced, force),
            self.floors if floor is None else (*self.floors, floor),
            self.windows if window is None else (*self.windows, window),
        )


@dataclass(frozen=True)
class Restricted:
    """A branch as a problem of its own, and how its options map back to the original."""

    problem: Problem | None
    """None when the forced options already cover every primary item: one solution."""
    original: tuple[int, ...]
    """Original number of each option of `problem`, in increasing order."""


def restrict(problem: Problem, branch: Branch, item_options: ItemOptions) -> Restricted:
    """The problem left after choosing `branch.forced` and cutting what its floors and windows
    cut."""
    bounds, gone, colours = _forcing(problem, branch.forced)
    primary = tuple(i for i in problem.primary if i not in gone)
    if not primary:
        return Restricted(None, ())
    for item, _, _ in branch.windows:
        if item not in gone:
            bounds[item] = (1, 1)  # covered once more, by an option of its window
    cut = _cut(problem, branch, item_options, gone, colours)
    kept: list[int] = np.flatnonzero(~cut).tolist()
    return Restricted(
        Problem(
            primary=primary,
            options=tuple(problem.options[k] for k in kept),
            secondary=tuple(i for i in problem.secondary if i not in gone),
            bounds=tuple(bounds[i] for i in primary),
        ),
        tuple(kept),
    )


def _cut(
    problem: Problem,
    branch: Branch,
    item_options: ItemOptions,
    gone: set[Item],
    colours: dict[Item, object],
) -> np.ndarray:
    """Which options `branch` leaves out (a mask): its forced ones, those naming an item
    `gone`, those giving an item of `colours` another colour, and those its floors and windows
    cut.  Only these items' options are read (`item_options`): reading every option, as
    `restrict` once did, took 0.15-0.3 s a branch of an item's 200,000 options (the tests'
    `many_options`), each branch keeping a few thousand of them."""
    cut = np.zeros(len(problem.options), bool)
    cut[list(branch.forced)] = True
    for item in gone:
        cut[item_options[item]] = True
    for item, colour in colours.items():
        cut[[k for k in item_options[item] if dict(problem.options[k])[item] != colour]] = True
    for item, (start, stop) in _spans(branch, gone).items():
        numbers = item_options[item]
        cut[numbers[(numbers < start) | (numbers >= stop)]] = True
    return cut


def options_by_item(problem: Problem) -> ItemOptions:
    """The numbers of the options that name each item, in increasing order, from the problem's
    arrays (built within the memory budget, `Problem.matrix_steps`)."""
    matrix = problem.matrix()
    owners = np.repeat(np.arange(matrix.n_options), np.diff(matrix.option_starts))
    grouped = owners[np.argsort(matrix.option_items, kind="stable")]
    ends = np.cumsum(np.bincount(matrix.option_items, minlength=matrix.n_items + 1))
    return {item: grouped[ends[n] : ends[n + 1]] for n, item in enumerate(problem.items)}


def _forcing(
    problem: Problem, forced: tuple[int, ...]
) -> tuple[dict[Item, tuple[int, int]], set[Item], dict[Item, object]]:
    """What choosing the `forced` options leaves: the primary items' bounds, the items no
    other option may cover any more, and the colours the coloured secondary items took."""
    bounds = dict(zip(problem.primary, problem.bounds, strict=True))
    gone: set[Item] = set()
    colours: dict[Item, object] = {}
    for k in forced:
        for item, colour in problem.options[k]:
            if item in bounds:
                low, high = bounds[item]
                bounds[item] = (max(low - 1, 0), high - 1)
                if high == 1:
                    gone.add(item)
            elif colour is None:
                gone.add(item)
            else:
                colours[item] = colour
    return bounds, gone, colours


def _spans(branch: Branch, gone: set[Item]) -> dict[Item, tuple[float, float]]:
    """The numbers an option of each item the branch cuts may have (from, to not included),
    all its floors and windows on that item together; items `gone` need none."""
    spans: dict[Item, tuple[float, float]] = {}
    cuts = [(item, first, inf) for item, first in branch.floors]
    for item, start, stop in [*cuts, *branch.windows]:
        if item not in gone:
            low, high = spans.get(item, (0, inf))
            spans[item] = (max(low, start), min(high, stop))
    return spans


def children(branch: Branch, restricted: Restricted) -> list[Branch]:
    """The branches `branch` splits into (see the module doc); [] for a leaf: a branch with
    one solution or none, which is quicker searched than split."""
    sub = restricted.problem
    if sub is None:
        return []
    by_item: dict[Item, list[int]] = {item: [] for item in sub.primary}
    for k, option in enumerate(sub.options):
        for item, _ in option:
            if item in by_item:
                by_item[item].append(k)
    bounds = dict(zip(sub.primary, sub.bounds, strict=True))
    if any(bounds[i][0] > 0 and not by_item[i] for i in sub.primary):
        return []  # an item that must be covered cannot be: no solution, nothing to split
    candidates = [i for i in sub.primary if by_item[i]]
    if not candidates:
        return []  # nothing left to choose: the branch is its one solution
    item = min(candidates, key=lambda i: len(by_item[i]))
    options = [restricted.original[k] for k in by_item[item]]  # in increasing order
    low, high = bounds[item]
    if high == 1:
        return _covered_once(branch, item, options, optional=low == 0)
    return _covered_repeatedly(branch, item, options, optional=low == 0)


def _covered_once(branch: Branch, item: Item, options: list[int], optional: bool) -> list[Branch]:
    """The children on `item`, which one more option at most may cover: one for each of at
    most `FANOUT` runs of as many of its `options` (increasing, within one), forcing the
    option of a run of one, else keeping the run as the item's window; and one without the
    item's options if it is `optional` (lower bound 0)."""
    parts = min(FANOUT, len(options))
    edges = [len(options) * k // parts for k in range(parts + 1)]
    runs = [options[edges[k] : edges[k + 1]] for k in range(parts)]
    found = [
        branch.child(n, force=run[0])
        if len(run) == 1
        else branch.child(n, window=(item, run[0], run[-1] + 1))
        for n, run in enumerate(runs)
    ]
    if optional:
        found.append(branch.child(len(found), floor=(item, options[-1] + 1)))
    return found


def _covered_repeatedly(
    branch: Branch, item: Item, options: list[int], optional: bool
) -> list[Branch]:
    """The children on `item`, which more options may cover: one forcing each of its first
    `options` (increasing) with the earlier ones cut, at most `FANOUT` - 1 of them when there
    are more than `FANOUT`; and one for the rest: the solutions whose first option of the item
    comes later, or that have none if it is `optional` (lower bound 0)."""
    firsts = options if len(options) <= FANOUT else options[: FANOUT - 1]
    found = [branch.child(n, force=o, floor=(item, o)) for n, o in enumerate(firsts)]
    if len(firsts) < len(options):
        found.append(branch.child(len(found), floor=(item, options[len(firsts)])))
    elif optional:
        found.append(branch.child(len(found), floor=(item, options[-1] + 1)))
    return found


def solve_branch(job: ExactCoverJob, branch: Branch) -> Generator[Progress, None, TaskResult]:
    """Search one branch to its end (without preprocessing, which would delay a probe)."""
    restricted = job.restrict(branch)
    if restricted.problem is None:
        solutions = [list(branch.forced)] if job.listing else []
        return TaskResult(branch.key, 1, 0, {"solutions": solutions})
    found: list[list[int]] = []

    def keep(batch: SolutionsFound) -> None:
        found.extend(
            [*branch.forced, *(restricted.original[k] for k in s)] for s in batch.solutions
        )

    search = solve(restricted.problem, count_only=not job.listing, preprocess=False)
    result = yield from relay(search, keep)
    payload = {"solutions": found} if job.listing else {}
    return TaskResult(branch.key, result.count, result.nodes, payload)


@dataclass(frozen=True)
class ExactCoverJob:
    """What every worker needs to search branches of one problem (a `SplitJob`)."""

    problem: Problem
    listing: bool
    big_root: bool = False
    """The whole search was found too big to run alone here (see `search_split`): the root
    is split at once instead of probed again."""

    @cached_property
    def item_options(self) -> ItemOptions:
        """`options_by_item` of the problem, built once a process (forked workers find it
        built: the first split needs it)."""
        return options_by_item(self.problem)

    def root(self) -> Branch:
        return Branch((), ())

    def restrict(self, branch: Branch) -> Restricted:
        return restrict(self.problem, branch, self.item_options)

    def children(self, branch: Branch) -> list[Branch]:
        return children(branch, self.restrict(branch))

    def explore(
        self, branch: Branch, budget: int | None, growth: float | None = None
    ) -> Generator[Progress, None, TaskResult | None]:
        if self.big_root and not branch.key and budget is not None:
            return _found_big()
        return within_budget(solve_branch(self, branch), budget, growth)

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
        rules = f"exact cover; listing={self.listing}; fanout={FANOUT}; {SPLIT_RULES}"
        digest.update(rules.encode())
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

"""Run a search cut into subproblems: here, on local processes, or on a Dask cluster.

A family's job (picklable: all a worker needs) describes the search tree through
`root`, `children` (deterministic, so subproblem keys mean the same in every run)
and `explore(branch, budget)`, which searches a branch to its end, or gives up
after `budget` nodes.  The plan balances the work without knowing it in advance:

1. the root is explored here with `ROOT_NODES`; searches it estimates at no more than
   `ROOT_GROWTH` budgets end there;
2. otherwise branches are split breadth first until there are `TARGET_BRANCHES`;
3. every branch is explored with a budget of `PROBE_NODES` by the workers: a branch
   that finishes, or that its own search estimates at no more than `GROWTH` times
   the budget in all, goes on; the others are big, and each big one is split once
   more, its children searched to their end.  A branch that goes on is estimated
   again each time its nodes double, and is found big after all when more than
   `RECHECK_GROWTH` times what it has done still lies ahead (early estimates can be
   far too small, and one such branch would keep one worker busy long after the
   others finished).

The waste is at most one probe per big branch, or a fraction 1 / `RECHECK_GROWTH` of a
branch found big on a recheck.  Split decisions may depend on
timing (the estimate is taken when the budget runs out), which is safe: a branch
is either recorded whole or split.  With a journal, every finished
subproblem is recorded; a rerun skips recorded branches, and splits a branch at
once when some of its descendants are recorded.  The driver is a solver: it yields
`Progress` about every 50 ms, and closing it stops the run (worker processes
are killed, Dask tasks cancelled).  Local runs search here too, beside worker processes
forked from this one, or spawned when other threads run here (`slidelab.parallel.local`).
Tasks a Dask cluster loses (its workers restarted or killed) are submitted again.  Results
come back sorted by key.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from slidelab.errors import SlidelabError
from slidelab.parallel.journal import Journal
from slidelab.parallel.options import checked_scheduler
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress, RunStopped, drive, relay

ROOT_NODES = 20_000
"""Nodes the root is explored with before the search is split at all.  Its work is thrown
away when the search is split, and no other process works meanwhile: 100,000 nodes took
34 ms of a 0.85 s toy d = 5 dissection on two processes, 20,000 take 11 ms.  Forking local
workers costs about as much as the searches it still keeps here."""
ROOT_GROWTH = 2
"""The root is searched here to its end if its estimated size is at most this many budgets."""
PROBE_NODES = 1_000_000
"""Nodes each branch is first explored with; a branch that needs more is split again."""
TARGET_BRANCHES = 32
"""Branches the first split aims for: enough to keep a few dozen workers busy."""
MAX_DEPTH = 8
"""Deepest level the first split goes to."""
CONNECT_SECONDS = 10
"""How long to keep trying to reach a Dask scheduler."""
GROWTH = 8
"""A probed branch whose estimated size is at most this many budgets is not split."""
RECHECK_GROWTH = 4
"""A branch that went on past its budget is split after all if, when its nodes double, it
estimates more than this many times the nodes it has explored still to do."""
POLL_SECONDS = 0.05
MAX_LOSSES = 10_000
"""Subproblems a Dask run resubmits after the cluster lost them before it gives up."""

SPLIT_RULES = " ".join(
    f"{name}={value}"
    for name, value in (
        ("root", ROOT_NODES), ("root-growth", ROOT_GROWTH), ("probe", PROBE_NODES),
        ("growth", GROWTH), ("recheck", RECHECK_GROWTH), ("target", TARGET_BRANCHES),
        ("depth", MAX_DEPTH),
    )
)  # fmt: skip
"""The splitting rules, for journal fingerprints: other rules give other subproblems."""

R = TypeVar("R")


class Branch(Protocol):
    """A subproblem: `key` is its path in the split tree (a journal's record names it)."""

    @property
    def key(self) -> tuple[int, ...]: ...


class SplitJob(Protocol):
    """What a family provides to be searched in pieces."""

    def root(self) -> Branch: ...

    def children(self, branch: Any) -> list[Any]:
        """The branches `branch` splits into, or [] for a leaf (searched whole)."""
        ...

    def explore(
        self, branch: Any, budget: int | None, growth: float | None = None
    ) -> Generator[Progress, None, TaskResult | None]:
        """Search `branch` (`within_budget`: None when it is big)."""
        ...

    def fingerprint(self) -> str:
        """Names the search and the splitting rules, so a journal is used for its search only."""
        ...

    def check(self, result: TaskResult) -> None:
        """Raise `PayloadError` unless `result`, read back from a journal, is one `explore`
        could return (`slidelab.parallel.payload`)."""
        ...


class ClusterError(SlidelabError):
    """The Dask scheduler could not be reached or used."""


def within_budget(
    search: Generator[Progress, None, R], budget: int | None, growth: float | None = None
) -> Generator[Progress, None, R | None]:
    """Run `search` to its end, unless it passes `budget` nodes while its own estimate of its
    size (nodes / fraction done) exceeds `growth` (default `GROWTH`) budgets, or later, at a
    doubling of its nodes, its estimate of what is left exceeds `RECHECK_GROWTH` times what
    it has done: then stop it and return None."""
    growth = GROWTH if growth is None else growth
    checkpoint = budget

    def check(event: Progress) -> Progress:
        nonlocal checkpoint
        if checkpoint is not None and event.explored >= checkpoint:
            estimate = event.explored / event.fraction if event.fraction else float("inf")
            first = checkpoint == budget
            if estimate > (growth * checkpoint if first else (1 + RECHECK_GROWTH) * event.explored):
                raise RunStopped
            checkpoint = 2 * event.explored
        return event

    try:
        return (yield from relay(search, report=check))
    except RunStopped:
        return None


@dataclass(frozen=True)
class _Task:
    branch: Any
    budget: int | None


def run_split(
    job: SplitJob,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    journal: Journal | None = None,
) -> Generator[Progress, None, list[TaskResult]]:
    """Search `job` in pieces (module doc) and return every piece's result, sorted by key;
    a malformed `scheduler` address is refused first (`checked_scheduler`)."""
    if scheduler is not None:
        checked_scheduler(scheduler)
    started = time.perf_counter()
    done = dict(journal.done) if journal is not None else {}
    results: dict[tuple[int, ...], TaskResult] = {}
    queued = 0

    def finish(result: TaskResult) -> None:
        results[result.key] = result
        if journal is not None:
            journal.record(result)

    def has_recorded_descendants(key: tuple[int, ...]) -> bool:
        return any(len(k) > len(key) and k[: len(key)] == key for k in done)

    def progress(running: int = 0) -> Progress:
        total = len(results) + queued
        return Progress(
            phase=f"{len(results)} of {total} subproblems done" if queued else "splitting",
            explored=sum(r.nodes for r in results.values()) + running,
            elapsed=time.perf_counter() - started,
            found=sum(r.count for r in results.values()),
            fraction=len(results) / total if queued else None,
        )

    def during(event: Progress) -> Progress:
        """The run's progress while a search here is at `event`."""
        return progress(event.explored)

    root = job.root()
    if root.key in done:
        return [done[root.key]]
    branches: deque[Any] = deque([root])
    if not has_recorded_descendants(root.key):
        finished = yield from relay(job.explore(root, ROOT_NODES, ROOT_GROWTH), report=during)
        if finished is not None:
            finish(finished)
            return [finished]
    # Split breadth first; a branch with recorded descendants must be split (as it was).
    tasks: list[_Task] = []
    while branches:
        branch = branches.popleft()
        if branch.key in done:
            results[branch.key] = done[branch.key]
        elif has_recorded_descendants(branch.key) or (
            len(branches) + len(tasks) < TARGET_BRANCHES and len(branch.key) < MAX_DEPTH
        ):
            kids = job.children(branch)
            if kids:
                branches.extend(kids)
            else:  # a leaf: nothing to split
                tasks.append(_Task(branch, None))
        else:
            tasks.append(_Task(branch, PROBE_NODES))
        yield progress()
    queued = len(tasks)

    def outcome(task: _Task, result: TaskResult | None) -> list[_Task]:
        """Record a finished task; a probe that ran out becomes its children's tasks."""
        nonlocal queued
        queued -= 1
        if result is not None:
            finish(result)
            return []
        follow = []
        for child in job.children(task.branch) or [task.branch]:
            if child.key in done:
                results[child.key] = done[child.key]
            else:
                follow.append(_Task(child, None))
        queued += len(follow)
        return follow

    if scheduler is not None:
        yield from _on_dask(scheduler, job, tasks, outcome, progress)
    else:
        yield from _on_processes(jobs, job, tasks, outcome, progress)
    return [results[key] for key in sorted(results)]


def run_journaled(
    job: SplitJob,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    journal: str | None = None,
    what: str = "",
) -> Generator[Progress, None, tuple[list[TaskResult], int]]:
    """`run_split` with the journal file `journal` (if any) opened for `job` and closed after;
    returns the results and how many of them the journal held already."""
    record = Journal(journal, job.fingerprint(), what, job.check) if journal else None
    try:
        resumed = len(record.done) if record is not None else 0
        results = yield from run_split(job, jobs=jobs, scheduler=scheduler, journal=record)
    finally:
        if record is not None:
            record.close()
    return results, resumed


Outcome = Callable[[_Task, TaskResult | None], list[_Task]]


class _Lost:
    """A task's value when the workers lost it: it is to be submitted again."""


def _drain(
    submit: Callable[[_Task], Any],
    ready: Callable[[Any], bool],
    value: Callable[[Any], TaskResult | _Lost | None],
    tasks: list[_Task],
    outcome: Outcome,
    progress: Callable[[], Progress],
) -> Generator[Progress, None, None]:
    """Submit `tasks`, then poll the handles `submit` returns every `POLL_SECONDS` until
    every task has an outcome, submitting follow-up tasks (the children of a branch found
    big) and lost tasks as they come."""
    waiting = {submit(task): task for task in tasks}
    while waiting:
        time.sleep(POLL_SECONDS)
        for handle in [h for h in waiting if ready(h)]:
            task = waiting.pop(handle)
            result = value(handle)
            for follow in [task] if isinstance(result, _Lost) else outcome(task, result):
                waiting[submit(follow)] = follow
        yield progress()


# Local processes ----------------------------------------------------------------------------


def _start_method() -> str:
    """How worker processes start: forked when this process runs no other thread, so that
    they begin with the kernels this process has loaded (a spawned worker spends about half a
    second loading them); spawned beside threads (a GUI's, Qt's), where forking is unsafe."""
    return "fork" if threading.active_count() == 1 and hasattr(os, "fork") else "spawn"


def _on_processes(
    jobs: int,
    job: SplitJob,
    tasks: list[_Task],
    outcome: Outcome,
    progress: Callable[..., Progress],
) -> Generator[Progress, None, None]:
    """Explore tasks on this process and `jobs - 1` others (none for one job)."""
    from slidelab.parallel.local import run_local  # here: most runs start no process

    spawn = _start_method() == "spawn"
    yield from run_local(jobs, job, tasks, outcome, progress, spawn=spawn)


# Dask ---------------------------------------------------------------------------------------


def _explore_on_worker(job: SplitJob, task: _Task) -> TaskResult | None:
    return drive(job.explore(task.branch, task.budget))


def _lost(future: Any) -> bool:
    """Whether the cluster lost `future`'s task: cancelled with a restarted worker, or given up
    (`KilledWorker`) after the workers running it died too often."""
    from distributed import KilledWorker

    if future.status in ("cancelled", "lost"):
        return True
    return future.status == "error" and isinstance(future.exception(), KilledWorker)


class _DaskWork:
    """Tasks on a Dask cluster, resubmitted when the cluster loses them: a worker restarted
    or killed takes its tasks and the scattered job with it, and the client only sees them
    cancelled, or failed with `KilledWorker` (finished subproblems are already recorded, so
    only lost ones run again)."""

    def __init__(self, client: Any, job: SplitJob) -> None:
        self.client = client
        self.job = job
        self.shared: Any = None
        self.submitted: dict[Any, _Task] = {}
        self.losses = 0

    def submit(self, task: _Task) -> Any:
        """Submit `task`, scattering the job first if the cluster does not hold it."""
        if self.shared is None or self.shared.status != "finished":
            self.shared = self.client.scatter(self.job, broadcast=True)
        future = self.client.submit(_explore_on_worker, self.shared, task, pure=False)
        self.submitted[future] = task
        return future

    def value(self, future: Any) -> TaskResult | _Lost | None:
        """The task's result, or `_Lost` if the cluster lost it (then it is submitted again)."""
        del self.submitted[future]
        if not _lost(future):
            result: TaskResult | None = future.result()
            return result
        self.losses += 1
        if self.losses > MAX_LOSSES:
            raise ClusterError(
                f"the Dask cluster lost {self.losses} subproblems: is it being restarted?"
            )
        return _Lost()

    def cancel(self) -> None:
        """Cancel whatever is still running."""
        self.client.cancel(list(self.submitted))


def _on_dask(
    scheduler: str,
    job: SplitJob,
    tasks: list[_Task],
    outcome: Outcome,
    progress: Callable[[], Progress],
) -> Generator[Progress, None, None]:
    """Explore tasks on the Dask cluster whose scheduler listens at `scheduler` (an address
    `checked_scheduler` accepted, so that distributed is installed)."""
    from distributed import Client

    try:
        client = Client(scheduler, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, ValueError) as error:  # ValueError: an address Dask still cannot use
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    except Exception as error:  # something else answers there: its bytes read as a huge frame
        raise ClusterError(
            f"the server at {scheduler} does not answer as a Dask scheduler "
            f"({type(error).__name__})"
        ) from None
    work = _DaskWork(client, job)
    try:
        yield from _drain(
            work.submit, lambda future: future.done(), work.value, tasks, outcome, progress
        )
    finally:
        work.cancel()
        client.close()

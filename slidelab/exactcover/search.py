"""Exact-cover search driver: count, list, stop early, randomize, save and resume.

`solve` is a generator.  Between kernel chunks of about 50 ms it yields a
`Progress` (nodes, solutions, Knuth's estimate of the fraction done) and, when
listing, a `SolutionsFound` with the solutions of that chunk; it returns an
`ExactCoverResult`.  Closing the generator stops the run; with `checkpoint`
the search state is written to that file every `checkpoint_seconds`, when the
run is stopped and when it ends, and `load_state` + `solve(state=...)`
carries on from there.

    result = drive(solve(problem), on_found=keep)  # keep(batch) reads batch.solutions
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass

import numpy as np

from slidelab.errors import SlidelabError
from slidelab.exactcover import kernels
from slidelab.exactcover.kernels import BitsArrays, CellsArrays
from slidelab.exactcover.problem import Matrix, Option, Problem
from slidelab.exactcover.state import (
    CELLS,
    LINKS,
    SearchState,
    choose_engine,
    first_nodes,
    links_for_pruning,
    save_state,
    unflattened,
)
from slidelab.memory import MemoryBudget
from slidelab.runs import Found, Progress, drive, next_budget

CHUNK_SECONDS = 0.05
"""How long one kernel call should run before control returns to the driver."""

PRUNE_CHUNK = 1
"""Options examined per preprocessing call, to begin with (trying one option can take
milliseconds on big problems: the calls grow from there)."""

SOLUTION_BATCH = 4096
"""Most solutions a chunk hands back at once."""

SEARCH_PHASE = "exact cover"
"""The phase of the progress events of the search itself (their `fraction` is Knuth's
estimate); those before it read, prune and lay out the problem."""


@dataclass(frozen=True)
class SolutionsFound(Found):
    """Solutions found since the last event, each a tuple of option numbers in the order chosen.

    Option numbers index `Problem.options`.
    """

    solutions: tuple[tuple[int, ...], ...]

    def __len__(self) -> int:
        return len(self.solutions)


@dataclass(frozen=True)
class ExactCoverResult:
    """The outcome of a search."""

    count: int
    """Solutions found (all of them when `complete`)."""
    nodes: int
    """Search-tree nodes at which an item was chosen for branching (Knuth's DLX1 'nodes')."""
    complete: bool
    """Whether the whole search tree was explored (False when stopped by `limit`)."""
    seconds: float
    """Time this call spent, preprocessing included."""
    engine: str
    """"bits" (Algorithm C on bitsets), "cells" (Algorithm C on sparse sets, dancing cells)
    or "links" (dancing links, Algorithm M)."""
    options_removed: int
    """Options preprocessing removed because no solution can contain them."""


def solve(
    problem: Problem,
    *,
    limit: int | None = None,
    count_only: bool = False,
    random_seed: int | None = None,
    preprocess: bool | None = None,
    engine: str | None = None,
    state: SearchState | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    checkpoint_seconds: float = 60.0,
    max_chunk_nodes: int | None = None,
) -> Generator[Progress | SolutionsFound, None, ExactCoverResult]:
    """Search `problem` for solutions, yielding progress and (unless `count_only`) solutions.

    `limit` stops the search after that many solutions in all; `random_seed` shuffles
    the options of every item and breaks ties at random.  `engine` forces "links", "bits"
    or "cells" (default: `state.choose_engine`).  `preprocess` first removes options no
    solution can contain (problems without multiplicities only); by default it does
    so for the links engine, where it pays, and not for the bits engine, where it
    costs about what it saves (see docs/EXACTCOVER.md).  `state` resumes a saved
    search, whose own settings then apply.  `max_chunk_nodes` caps the nodes of one
    kernel call (for tests and very frequent progress).
    """
    if limit is not None and limit < 1:
        raise SlidelabError("the solution limit must be at least 1")
    started = time.perf_counter()
    budget = MemoryBudget.of(None)
    matrix = yield from problem.matrix_steps(budget, started)
    if state is None:
        engine = engine or choose_engine(problem)
        if preprocess is None:
            preprocess = engine == LINKS
        alive = None
        if preprocess and not problem.has_multiplicities:
            alive = yield from _useless_options(matrix, started)
        state = yield from SearchState.start_steps(
            problem, engine=engine, random_seed=random_seed, alive=alive, matrix=matrix,
            budget=budget,
        )  # fmt: skip
    elif state.fingerprint != matrix.fingerprint():
        raise SlidelabError("the saved search belongs to another problem")
    run = _Run(state, not count_only, limit, max_chunk_nodes)
    saved_at = time.perf_counter()
    try:
        if state.pending and run.listing:
            yield from _hand_out(state.pending, state.forget_pending)
        while not state.done and state.count < run.limit:
            run.chunk()
            if run.found:
                yield from _hand_out(run.solutions(), run.forget_solutions)
            if checkpoint is not None and time.perf_counter() - saved_at >= checkpoint_seconds:
                save_state(checkpoint, state)
                saved_at = time.perf_counter()
            yield Progress(
                phase=SEARCH_PHASE,
                explored=state.nodes,
                elapsed=time.perf_counter() - started,
                depth=state.level,
                found=state.count,
                fraction=state.fraction(),
            )
    finally:
        # Stopped between finding solutions and handing them out (Ctrl-C comes between two
        # Python steps: after a kernel call, or while the caller shows a batch), the search
        # is past them: the save keeps them for the run that resumes it.
        if checkpoint is not None:
            if run.found:
                state.pending = (*state.pending, *run.solutions())
            save_state(checkpoint, state)
    return ExactCoverResult(
        count=state.count,
        nodes=state.nodes,
        complete=state.done,
        seconds=time.perf_counter() - started,
        engine=state.engine,
        options_removed=state.options_removed,
    )


def _hand_out(
    solutions: tuple[tuple[int, ...], ...], forget: Callable[[], None]
) -> Generator[SolutionsFound, None, None]:
    """Yield `solutions`, then `forget` them: also when the caller closes the run after taking
    them, but not when its handling of them failed (`runs.translate` raises that error here),
    so that the state saved on the way out keeps them (`SearchState.pending`)."""
    try:
        yield SolutionsFound(solutions)
    except GeneratorExit:
        forget()
        raise
    forget()


class _Run:
    """Calls the right kernel in chunks sized to take about CHUNK_SECONDS."""

    def __init__(
        self, state: SearchState, listing: bool, limit: int | None, max_nodes: int | None
    ) -> None:
        self.state = state
        self.listing = listing
        self.limit = limit if limit is not None else int(kernels.INFINITY)
        self.max_nodes = max_nodes or 1 << 40
        self.budget = min(1024, self.max_nodes)
        levels = len(state.arrays.x)
        state.arrays.regs[kernels.SOLS] = state.arrays.regs[kernels.FILL] = 0
        self.sol_ends = np.zeros(SOLUTION_BATCH if listing else 1, np.int64)
        self.sol_opts = np.zeros(max(16 * levels, 1 << 16) if listing else 1, np.int32)

    @property
    def found(self) -> bool:
        return bool(self.state.arrays.regs[kernels.SOLS] > 0)

    def chunk(self) -> None:
        a = self.state.arrays
        tick = time.perf_counter()
        if isinstance(a, BitsArrays):
            kernels.search_bits(
                a, self.state.whole_rows, self.state.random_seed is not None,
                self.state.n_primary, self.listing,
                self.sol_opts, self.sol_ends, self.limit, self.budget,
            )  # fmt: skip
        elif isinstance(a, CellsArrays):
            kernels.search_cells(
                a, self.state.random_seed is not None, self.state.n_primary, self.listing,
                self.sol_opts, self.sol_ends, self.limit, self.budget,
            )  # fmt: skip
        else:
            kernels.search_m(
                a, self.state.random_seed is not None, self.state.n_items, self.state.n_primary,
                self.listing, self.sol_opts, self.sol_ends, self.limit, self.budget,
            )  # fmt: skip
        took = time.perf_counter() - tick
        self.budget = next_budget(
            self.budget, took, CHUNK_SECONDS, 16, min(1 << 26, self.max_nodes)
        )

    def solutions(self) -> tuple[tuple[int, ...], ...]:
        """The solutions in the buffer (left there until `forget_solutions`)."""
        regs = self.state.arrays.regs
        return unflattened(self.sol_opts[: regs[kernels.FILL]], self.sol_ends[: regs[kernels.SOLS]])

    def forget_solutions(self) -> None:
        """Empty the buffer, once its solutions are handed out."""
        regs = self.state.arrays.regs
        regs[kernels.SOLS] = regs[kernels.FILL] = 0


def _useless_options(matrix: Matrix, started: float) -> Generator[Progress, None, np.ndarray]:
    """Which options to keep: pass after pass of `kernels.prune` until no option goes."""
    a = yield from links_for_pruning(matrix)
    first = first_nodes(matrix)
    alive = np.ones(len(first), np.bool_)
    budget = PRUNE_CHUNK
    changed = True
    while changed:
        changed = False
        start = 0
        while start < len(first):
            tick = time.perf_counter()
            start, removed = kernels.prune(a, matrix.n_primary, first, alive, start, budget)
            took = time.perf_counter() - tick
            budget = next_budget(budget, took, CHUNK_SECONDS, 1, 1 << 24)
            changed = changed or removed > 0
            yield Progress(
                phase="removing useless options",
                explored=int(len(alive) - alive.sum()),
                elapsed=time.perf_counter() - started,
            )
    return alive


def count_solutions(problem: Problem, **settings: object) -> int:
    """How many solutions `problem` has (`settings` as for `solve`)."""
    search = solve(problem, count_only=True, **settings)  # type: ignore[arg-type]
    return drive(search).count


def find_solutions(
    problem: Problem, limit: int | None = None, **settings: object
) -> list[list[Option]]:
    """The solutions of `problem` (at most `limit`), each as the list of its options."""
    found: list[list[Option]] = []

    def keep(batch: SolutionsFound) -> None:
        found.extend([problem.options[k] for k in solution] for solution in batch.solutions)

    drive(solve(problem, limit=limit, **settings), on_found=keep)  # type: ignore[arg-type]
    return found


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel, so a first search starts at once."""
    for bounded in (False, True):
        warm_up_kind(bounded)


def warm_up_kind(bounded: bool) -> None:
    """Compile the kernels of plain problems (with a secondary item) or of bounded ones, with
    and without random tie-breaking, in every engine that takes them."""
    if bounded:
        problem = Problem.of_sets(["a", "b"], [["a"], ["b"], ["a", "b"]], bounds={"a": (1, 2)})
    else:
        problem = Problem.of_sets(["a", "b"], [["a"], ["b"], ["a", "b"]], secondary=["s"])
    for seed in (None, 1):
        find_solutions(problem, random_seed=seed, preprocess=True)
        count_solutions(problem, random_seed=seed, engine=LINKS)
    if not bounded:
        count_solutions(problem, engine=CELLS)

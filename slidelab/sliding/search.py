"""Breadth-first search for shortest sliding-block solutions, and whole-space analysis.

`solve` and `analyze` are generators: they yield `Progress` between bounded
kernel calls (about 50 ms each) and return their result, so a caller can show
progress or stop at any time by closing the generator.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from slidelab.errors import SlidelabError
from slidelab.runs import Progress
from slidelab.sliding import kernels
from slidelab.sliding.encoding import Tables, build_tables
from slidelab.sliding.model import Configuration, Goal, PieceKind, Placement, Puzzle
from slidelab.sliding.styles import MAX_SUPERPIECE_PIECES, MoveStyle

ResultT = TypeVar("ResultT")

CHUNK_SECONDS = 0.05
"""How long one kernel call should run before control returns to the driver."""

MAX_LOAD = 0.7
"""Fill factor at which the hash table doubles."""

FARTHEST_EXAMPLES = 5


@dataclass(frozen=True)
class SolveResult:
    """The outcome of a shortest-solution search."""

    style: int
    moves: int | None
    """Length of a shortest solution; None if the goal is unreachable or the run was limited."""
    layers: tuple[int, ...]
    """New configurations met at each distance (the last one up to the goal)."""
    states: int
    """Configurations explored in all."""
    path: tuple[Configuration, ...]
    """One shortest solution, start first; empty when there is none."""
    limit_message: str | None = None
    """Why the run stopped early, if it hit --max-states."""
    memory_bytes: int = 0
    """Memory the search's tables held at the end."""


@dataclass(frozen=True)
class Analysis:
    """The whole space reachable from the start."""

    style: int
    layers: tuple[int, ...]
    reachable: int
    farthest_distance: int
    farthest_count: int
    farthest_examples: tuple[Configuration, ...]
    goal_count: int
    """How many reachable configurations meet the goal."""
    limit_message: str | None = None
    memory_bytes: int = 0


@dataclass
class _Space:
    """The growing arrays of one breadth-first search."""

    tables: Tables
    states: np.ndarray
    parents: np.ndarray
    table: np.ndarray
    n: int = 0

    @classmethod
    def create(cls, tables: Tables, capacity: int = 1 << 12) -> _Space:
        return cls(
            tables,
            np.zeros((capacity, tables.words), np.uint64),
            np.full(capacity, -1, np.int32),
            np.zeros((2 * capacity, tables.words), np.uint64),
        )

    @property
    def max_fill(self) -> int:
        return min(int(self.table.shape[0] * MAX_LOAD), self.states.shape[0])

    def bytes_used(self) -> int:
        return self.states.nbytes + self.parents.nbytes + self.table.nbytes

    def make_room(self) -> None:
        """Grow whichever array stopped the kernel."""
        if self.n >= self.states.shape[0]:
            capacity = 2 * self.states.shape[0]
            states = np.zeros((capacity, self.tables.words), np.uint64)
            states[: self.n] = self.states[: self.n]
            parents = np.full(capacity, -1, np.int32)
            parents[: self.n] = self.parents[: self.n]
            self.states, self.parents = states, parents
        if self.n >= int(self.table.shape[0] * MAX_LOAD):
            self.table = np.zeros((2 * self.table.shape[0], self.tables.words), np.uint64)
            kernels.rehash(self.states, self.n, self.table)

    def path_to(self, index: int) -> tuple[Configuration, ...]:
        chain = []
        while index >= 0:
            chain.append(self.tables.decode(self.states[index]))
            index = int(self.parents[index])
        return tuple(reversed(chain))


@dataclass(frozen=True)
class _GoalTables:
    kind_at: np.ndarray
    required: int
    empty: np.ndarray

    @classmethod
    def build(cls, tables: Tables) -> _GoalTables:
        puzzle = tables.puzzle
        kind_at = np.zeros(puzzle.cell_count, np.int64)
        for p in puzzle.goal.placements:
            kind_at[p.row * puzzle.cols + p.col] = tables.kind_names.index(p.kind) + 1
        empty = np.zeros(puzzle.cell_count, np.bool_)
        for r, c in puzzle.goal.empty:
            empty[r * puzzle.cols + c] = True
        return cls(kind_at, len(puzzle.goal.placements), empty)

    def scan(self, space: _Space, lo: int, hi: int, first_only: bool) -> tuple[int, int]:
        t = space.tables
        first, count = kernels.goal_scan(
            space.states,
            lo,
            hi,
            t.bits,
            t.per_word,
            t.kind_of,
            self.kind_at,
            self.required,
            self.empty,
            bool(self.empty.any()),
            t.off_lo,
            t.off_hi,
            t.offs,
            t.pad_of,
            t.cell_of,
            first_only,
        )
        return int(first), int(count)


@dataclass
class _Outcome:
    space: _Space
    layer_starts: list[int]
    goal_index: int = -1
    limit_message: str | None = None

    @property
    def layers(self) -> tuple[int, ...]:
        bounds = [*self.layer_starts, self.space.n]
        sizes = [b - a for a, b in itertools.pairwise(bounds)]
        while sizes and sizes[-1] == 0:
            sizes.pop()
        return tuple(sizes)


def check_style(puzzle: Puzzle, style: int) -> MoveStyle:
    """The move style numbered `style`, if this puzzle can be searched with it."""
    try:
        move_style = MoveStyle(style)
    except ValueError:
        raise SlidelabError(f"the style must be between 0 and 5, not {style}") from None
    pieces = len(puzzle.start.placements)
    if move_style.superpieces and pieces > MAX_SUPERPIECE_PIECES:
        raise SlidelabError(
            f"styles 3-5 handle at most {MAX_SUPERPIECE_PIECES} pieces; this puzzle has {pieces}"
        )
    return move_style


def default_max_states(tables: Tables) -> int:
    """A state limit that keeps the search within about 60% of the available memory."""
    per_state = 1.5 * (tables.bytes_per_key + 4) + 4 * 2 / MAX_LOAD
    return max(1 << 16, int(0.6 * available_memory() / per_state))


def available_memory() -> int:
    """Bytes of memory available to this process (MemAvailable on Linux)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 4 << 30


def _bfs(
    puzzle: Puzzle, style: int, max_states: int | None, stop_at_goal: bool
) -> Generator[Progress, None, _Outcome]:
    check_style(puzzle, style)
    tables = build_tables(puzzle)
    limit = max_states if max_states is not None else default_max_states(tables)
    goal = _GoalTables.build(tables)
    space = _Space.create(tables)
    outcome = _Outcome(space, [0])
    space.n, _ = kernels.insert(
        space.states,
        space.parents,
        0,
        space.table,
        tables.encode(puzzle.start.placements),
        -1,
        space.max_fill,
    )
    if stop_at_goal and goal.scan(space, 0, 1, True)[0] == 0:
        outcome.goal_index = 0
        return outcome
    started = time.perf_counter()
    budget = 64
    distance = 0
    while outcome.layer_starts[-1] < space.n:
        lo, hi = outcome.layer_starts[-1], space.n
        outcome.layer_starts.append(hi)
        distance += 1
        parent = lo
        while parent < hi:
            before = space.n
            tick = time.perf_counter()
            parent, space.n, status = kernels.expand(
                space.states,
                space.parents,
                space.n,
                space.table,
                parent,
                hi,
                budget,
                style,
                min(space.max_fill, limit),
                tables.bits,
                tables.per_word,
                tables.kind_of,
                tables.seg_lo,
                tables.seg_hi,
                tables.off_lo,
                tables.off_hi,
                tables.offs,
                tables.pad_of,
                tables.cell_of,
                tables.base_occ,
                tables.width,
            )
            took = time.perf_counter() - tick
            budget = int(min(max(budget * CHUNK_SECONDS / max(took, 1e-4), 8), 1 << 22))
            if stop_at_goal and space.n > before:
                first, _ = goal.scan(space, before, space.n, True)
                if first >= 0:
                    outcome.goal_index = first
                    return outcome
            if status == kernels.NEED_ROOM:
                if space.n >= limit:
                    outcome.limit_message = (
                        f"stopped at distance {distance} after {space.n:,} configurations, "
                        f"the limit set by --max-states ({limit:,}); the search held "
                        f"{space.bytes_used() / 2**20:,.1f} MiB"
                    )
                    return outcome
                space.make_room()
            yield Progress(
                phase=f"breadth-first search, style {style}",
                explored=space.n,
                elapsed=time.perf_counter() - started,
                depth=distance,
            )
    return outcome


def solve(
    puzzle: Puzzle, style: int, *, max_states: int | None = None
) -> Generator[Progress, None, SolveResult]:
    """Find a shortest solution of `puzzle` with moves of `style` (0-5)."""
    outcome = yield from _bfs(puzzle, style, max_states, stop_at_goal=True)
    space = outcome.space
    memory = space.bytes_used()
    if outcome.goal_index < 0:
        return SolveResult(style, None, outcome.layers, space.n, (), outcome.limit_message, memory)
    space.n = outcome.goal_index + 1  # what was met after the goal does not count
    path = space.path_to(outcome.goal_index)
    return SolveResult(style, len(path) - 1, outcome.layers, space.n, path, None, memory)


def analyze(
    puzzle: Puzzle, style: int, *, max_states: int | None = None
) -> Generator[Progress, None, Analysis]:
    """Explore everything reachable from the start of `puzzle` with moves of `style`."""
    outcome = yield from _bfs(puzzle, style, max_states, stop_at_goal=False)
    space = outcome.space
    layers = outcome.layers
    last = sum(layers[:-1])
    examples = tuple(
        space.tables.decode(space.states[i])
        for i in range(last, min(space.n, last + FARTHEST_EXAMPLES))
    )
    _, goal_count = _GoalTables.build(space.tables).scan(space, 0, space.n, False)
    return Analysis(
        style,
        layers,
        space.n,
        len(layers) - 1,
        layers[-1],
        examples,
        goal_count,
        outcome.limit_message,
        space.bytes_used(),
    )


def every_style(
    search: Callable[..., Generator[Progress, None, ResultT]],
    puzzle: Puzzle,
    *,
    max_states: int | None = None,
) -> Generator[Progress, None, tuple[ResultT, ...]]:
    """Run `search` (`solve` or `analyze`) in every move style, one after the other."""
    results = []
    for style in MoveStyle:
        results.append((yield from search(puzzle, style, max_states=max_states)))
    return tuple(results)


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel, so a first search starts at once."""
    puzzle = Puzzle(
        rows=2,
        cols=2,
        kinds=(PieceKind("1", ((0, 0),)),),
        obstacles=frozenset(),
        start=Configuration.of([Placement("1", 0, 0)]),
        goal=Goal((Placement("1", 1, 1),), frozenset()),
    )
    for style in MoveStyle:
        for search in (solve, analyze):
            for _ in search(puzzle, style):
                pass
    space = _Space.create(build_tables(puzzle), capacity=4)
    kernels.rehash(space.states, 0, space.table)

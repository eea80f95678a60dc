"""Breadth-first search for shortest sliding-block solutions, and whole-space analysis.

`solve` and `analyze` are generators: they yield `Progress` between bounded
kernel calls (about 50 ms each) and return their result, so a caller can show
progress or stop at any time by closing the generator.

With `jobs` > 1, a chunk of a big layer is cut into pieces that threads take in turn,
generating successors and dropping those already known (the kernels release the GIL);
this thread inserts the rest, piece by piece as they come, in the order one thread
would have met them, so the results are the same for every `jobs`.
"""

from __future__ import annotations

import bisect
import itertools
import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

import numpy as np

from slidelab.errors import SlidelabError
from slidelab.memory import MemoryBudget, mebibytes
from slidelab.parallel.options import default_jobs
from slidelab.runs import Progress
from slidelab.sliding import kernels
from slidelab.sliding.encoding import Tables, build_tables
from slidelab.sliding.model import Configuration, Goal, PieceKind, Placement, Puzzle
from slidelab.sliding.styles import MAX_SUPERPIECE_PIECES, MoveStyle, Reach

ResultT = TypeVar("ResultT")

CHUNK_SECONDS = 0.05
"""How long one kernel call should run before control returns to the driver."""

MAX_LOAD = 0.6
"""Fill factor at which the hash table is rebuilt without the configurations it no longer needs."""

REBUILT_LOAD = 0.3
"""Most fill factor a rebuilt table may start with: a bigger window doubles the table."""

STATE_GROWTH = 1.25
"""Factor by which the array of configurations grows (in place, by reallocation)."""

FARTHEST_EXAMPLES = 5

SPLIT_SECONDS = 0.001
"""Work each thread must get, at the pace measured on the previous chunk, for a chunk to be split
between threads: a hand-off costs about 0.1 ms."""

SPLIT_PARENTS = 64
"""Parents each thread must get too: a pace timed on a few parents is mostly noise."""

STATE_CAPACITY = (1 << 31) - 1
"""Most configurations a search can hold: the table holds uint32 indices + 1."""
SIFT_ROWS = 1 << 16
"""Initial rows of each buffer of unknown successors (doubled when one overflows)."""

_REACH_CODES = {Reach.STEP: kernels.STEP, Reach.LINE: kernels.RAY, Reach.PATH: kernels.FLOOD}
"""How `kernels.expand` is told each reach."""


@dataclass(frozen=True)
class SolveResult:
    """The outcome of a shortest-solution search."""

    style: MoveStyle
    moves: int | None
    """Length of a shortest solution; None if the goal is unreachable or the run was limited."""
    layers: tuple[int, ...]
    """New configurations met at each distance (the last one up to the goal)."""
    states: int
    """Configurations explored in all."""
    path: tuple[Configuration, ...]
    """One shortest solution, start first; empty when there is none."""
    limit_message: str | None = None
    """Why the run stopped early, if it hit --max-states or the memory budget."""
    memory_bytes: int = 0
    """Memory the search's tables held at the end."""


@dataclass(frozen=True)
class Analysis:
    """The whole space reachable from the start."""

    style: MoveStyle
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
    """The growing arrays of one breadth-first search, as `kernels.Space` shows them."""

    tables: Tables
    store: kernels.Space
    limit: int
    """Most configurations the search may hold (`--max-states`)."""
    rebuilds: int = 0
    """Times the table was rebuilt (which moves its entries)."""

    @classmethod
    def create(cls, tables: Tables, limit: int, capacity: int = 1 << 12) -> _Space:
        counts = np.zeros(6, np.int64)
        store = kernels.Space(
            np.zeros((capacity, tables.words), np.uint64), np.zeros(2 * capacity, np.uint32), counts
        )
        space = cls(tables, store, limit)
        space._bound()
        return space

    @property
    def states(self) -> np.ndarray:
        return self.store.states

    @property
    def n(self) -> int:
        return int(self.store.counts[kernels.N])

    @n.setter
    def n(self, value: int) -> None:
        self.store.counts[kernels.N] = value

    def _bound(self) -> None:
        """Tell the kernels how far the arrays as they are now may fill."""
        counts = self.store.counts
        counts[kernels.ROOM] = min(self.limit, self.store.states.shape[0])
        counts[kernels.MAX_FILL] = int(self.store.table.size * MAX_LOAD)

    def set_floor(self, index: int) -> None:
        """From now on the table need only find configurations from `index` on."""
        self.store.counts[kernels.FLOOR] = index

    def bytes_used(self) -> int:
        return self.store.states.nbytes + self.store.table.nbytes

    def _states_full(self) -> bool:
        return self.n >= int(self.store.states.shape[0])

    def _table_size(self) -> int:
        """The size of the table after the next rebuild: doubled until the window fits."""
        size = self.store.table.size
        while self.n - int(self.store.counts[kernels.FLOOR]) > size * REBUILT_LOAD:
            size *= 2
        return size

    def growth_peak(self) -> int:
        """Bytes held at the peak of the next `make_room`: a reallocated array may be copied,
        and a grown table is filled while the old one is held (a table rebuilt at its size is
        cleared and refilled in place)."""
        rows, table = self.store.states.nbytes, self.store.table.nbytes
        peak = rows + table
        if self._states_full():
            grown = int(rows * STATE_GROWTH)
            peak = max(peak, rows + grown + table)
            rows = grown
        if self.store.counts[kernels.FILL] >= self.store.counts[kernels.MAX_FILL]:
            size = self._table_size()
            if size != self.store.table.size:
                peak = max(peak, rows + table + 4 * size)
        return peak

    def make_room(self) -> None:
        """Grow the configurations or rebuild the table, whichever stopped the kernel."""
        store = self.store
        if self._states_full():
            capacity = max(int(store.states.shape[0] * STATE_GROWTH), store.states.shape[0] + 1)
            store.states.resize((capacity, self.tables.words), refcheck=False)
        if store.counts[kernels.FILL] >= store.counts[kernels.MAX_FILL]:
            size = self._table_size()
            table = store.table if size == store.table.size else np.zeros(size, np.uint32)
            self.store = kernels.Space(store.states, table, store.counts)
            kernels.rebuild(self.store)
            self.rebuilds += 1
        self._bound()


@dataclass(frozen=True)
class _GoalTables:
    test: kernels.GoalTest

    @classmethod
    def build(cls, tables: Tables) -> _GoalTables:
        return cls(tables.goal_test())

    def scan(self, space: _Space, lo: int, hi: int, first_only: bool) -> tuple[int, int]:
        first, count = kernels.goal_scan(
            space.tables.board, space.states, lo, hi, self.test, first_only
        )
        return int(first), int(count)


@dataclass
class _Outcome:
    space: _Space
    layer_starts: list[int]
    goal_index: int = -1
    limit_message: str | None = None
    path: tuple[int, ...] = (0,)
    """Indices of the configurations of a shortest solution, once the goal is met."""

    @property
    def layers(self) -> tuple[int, ...]:
        bounds = [*self.layer_starts, self.space.n]
        sizes = [b - a for a, b in itertools.pairwise(bounds)]
        while sizes and sizes[-1] == 0:
            sizes.pop()
        return tuple(sizes)


class _Expander:
    """Expands a chunk of a layer on this thread, or split over up to `jobs` threads."""

    def __init__(self, tables: Tables, style: MoveStyle, jobs: int, limits: Limits) -> None:
        self.board = tables.board
        self.limits = limits
        self.refusal = ""
        """Why the space could not grow, once `room` said so."""
        self.tables_bytes = tables.bytes_used()
        self.style = style
        self.reach_code = _REACH_CODES[style.reach]
        self.jobs = jobs
        self.words = tables.words
        self.pool = ThreadPoolExecutor(max(1, jobs - 1))  # starts threads on first use
        self.pace = 0.0  # seconds of one thread's work per parent, on the last step
        self.no_out = self._buffers(0)
        # the threads' buffers take at most an eighth of the memory budget
        pieces = jobs if jobs > 1 else 0
        rows = min(SIFT_ROWS, limits.memory.limit // (64 * max(pieces, 1) * (self.words + 2)))
        self.outs = [self._buffers(rows) for _ in range(pieces)]
        """A buffer for each piece of a split chunk."""

    def _buffers(self, rows: int) -> kernels.Sifted:
        return kernels.Sifted(
            np.empty((rows, self.words), np.uint64),
            np.empty(rows, np.int64),
            np.empty(rows, np.int64),
        )

    def close(self) -> None:
        self.pool.shutdown()

    def bytes_used(self) -> int:
        """Bytes of the puzzle's tables and the threads' output buffers."""
        buffers = sum(a.nbytes for out in (self.no_out, *self.outs) for a in out)
        return self.tables_bytes + buffers

    def room(self, space: _Space) -> bool:
        """Grow `space` for more configurations, unless that passes a limit: then say which
        in `refusal` and return False.  Memory counts every array held, growth included."""
        limits = self.limits
        if space.n >= limits.states:
            self.refusal = (
                f"the limit set by --max-states ({limits.states:,})"
                if limits.max_states is not None
                else f"the most configurations a search holds ({limits.states:,})"
            )
            return False
        peak = space.growth_peak() + self.bytes_used()
        if peak > limits.memory.limit:
            self.refusal = (
                f"growing its tables to {mebibytes(peak)} would pass {limits.memory.source}"
            )
            return False
        space.make_room()
        return True

    def step(self, space: _Space, lo: int, hi: int, budget: int) -> tuple[int, int]:
        """Expand parents lo.. (at most `budget`, stopping at hi) into `space`, up to the
        limits, as `kernels.expand` does; returns (next parent, status)."""
        stop = min(hi, lo + budget)
        work = (stop - lo) * self.pace
        threads = min(self.jobs, (stop - lo) // SPLIT_PARENTS, int(work / SPLIT_SECONDS))
        tick = time.perf_counter()
        if threads > 1:
            parent, status = self._split(space, lo, stop, hi, threads)
        else:
            parent, status = self._expand(space, lo, hi, budget)
        if parent > lo:
            self.pace = (time.perf_counter() - tick) * max(threads, 1) / (parent - lo)
        return parent, status

    def _expand(self, space: _Space, lo: int, hi: int, budget: int) -> tuple[int, int]:
        """`kernels.expand` on this thread, inserting as it goes."""
        parent, status, _ = kernels.expand(
            self.board,
            space.store,
            lo,
            hi,
            budget,
            self.reach_code,
            self.style.superpieces,
            False,
            self.no_out,
        )
        return parent, status

    def _split(self, space: _Space, lo: int, stop: int, hi: int, threads: int) -> tuple[int, int]:
        """Sift parents lo..stop in one piece per thread, and insert what each piece found,
        in order, as soon as it is sifted.

        Each thread takes the next piece nobody has taken, this one too while the piece due
        next is not sifted yet: then a thread that starts late leaves its piece to the others.
        One piece per thread was measured best (1.71x one thread's speed in style 0, against
        1.52x with two per thread and 1.43x with four: every piece costs a hand-off).  The
        tables grow here as needed (a chunk is not sifted again).  A piece whose buffer
        filled up is finished on this thread, and the buffers grow for the next chunk.
        """
        bounds = [lo + (stop - lo) * k // threads for k in range(threads + 1)]
        pieces = _Pieces(bounds, self.outs[:threads])
        space.store.counts[kernels.KNOWN] = space.n
        rebuilds = space.rebuilds
        helpers = [self.pool.submit(self._sift_all, space, pieces) for _ in range(threads - 1)]
        for index, out in enumerate(pieces.outs):
            while not pieces.ready[index].is_set() and self._sift_next(space, pieces):
                pass
            parent, rows = pieces.found_by(index)
            end = bounds[index + 1]
            done = 0
            while done < rows:
                # rows sifted against the table as it still is: probed from where sifting stopped
                if space.rebuilds == rebuilds:
                    failed = kernels.insert_sifted(space.store, out, done, rows)
                else:
                    failed = kernels.insert_all(space.store, out.keys[done:rows])
                done = rows if failed < 0 else done + failed
                if done < rows and not self._room_after(helpers, space):
                    return int(out.parents[done]), kernels.NEED_ROOM
            rows_now = out.keys.shape[0]
            if parent < end and self._buffers_fit(2 * rows_now, space):
                self.outs = [self._buffers(2 * rows_now) for _ in self.outs]
            while parent < end:
                parent, status = self._expand(space, parent, end, end - parent)
                if status == kernels.NEED_ROOM and not self._room_after(helpers, space):
                    return parent, status
        return stop, kernels.RANGE_DONE if stop >= hi else kernels.BUDGET_USED

    def _room_after(self, helpers: list[Future[None]], space: _Space) -> bool:
        """`room`, once the other threads have sifted every piece: they read the arrays it
        grows (what they found stays true)."""
        wait(helpers)
        return self.room(space)

    def _sift_all(self, space: _Space, pieces: _Pieces) -> None:
        """Sift pieces nobody has taken until none is left (another thread's task)."""
        while self._sift_next(space, pieces):
            pass

    def _sift_next(self, space: _Space, pieces: _Pieces) -> bool:
        """Sift the next piece nobody has taken; False when none is left."""
        index = pieces.claim()
        if index is None:
            return False
        try:
            pieces.found[index] = self._sift(
                space, pieces.outs[index], pieces.bounds[index], pieces.bounds[index + 1]
            )
        except BaseException as error:
            pieces.found[index] = error
            raise
        finally:
            pieces.ready[index].set()
        return True

    def _buffers_fit(self, rows: int, space: _Space) -> bool:
        """Whether buffers of `rows` rows, made while the old ones are held, fit the memory
        budget (smaller buffers only mean more work on this thread)."""
        grown = len(self.outs) * rows * (self.words + 2) * 8
        return space.bytes_used() + self.bytes_used() + grown <= self.limits.memory.limit

    def _sift(self, space: _Space, out: kernels.Sifted, lo: int, hi: int) -> tuple[int, int]:
        """Successors of parents lo..hi the table lacks, into `out`; (next parent, rows)."""
        return self._sift_store(space.store, out, lo, hi)

    def _sift_store(
        self, store: kernels.Space, out: kernels.Sifted, lo: int, hi: int
    ) -> tuple[int, int]:
        parent, _, rows = kernels.expand(
            self.board,
            store,
            lo,
            hi,
            hi - lo,
            self.reach_code,
            self.style.superpieces,
            True,
            out,
        )
        return parent, rows

    def neighbours(self, key: np.ndarray) -> np.ndarray:
        """Every configuration one move from `key` (repeats possible), as rows of codes."""
        return successors(self.board, self.style, key.reshape(1, -1)).keys


class _Pieces:
    """A split chunk's parents in pieces (piece k: parents bounds[k]..bounds[k + 1], sifted
    into outs[k]) that threads take one at a time, and what sifting each found."""

    def __init__(self, bounds: list[int], outs: list[kernels.Sifted]) -> None:
        self.bounds = bounds
        self.outs = outs
        self.found: list[tuple[int, int] | BaseException | None] = [None] * len(outs)
        """(next parent, rows) of each piece sifted, or what it raised."""
        self.ready = [threading.Event() for _ in outs]
        self._taken = itertools.count()  # next() on it is atomic: one C call under the GIL

    def claim(self) -> int | None:
        """The next piece nobody has taken, now taken, or None when none is left."""
        index = next(self._taken)
        return index if index < len(self.outs) else None

    def found_by(self, index: int) -> tuple[int, int]:
        """What sifting piece `index` found, once it is sifted (raising what it raised)."""
        self.ready[index].wait()
        found = self.found[index]
        if isinstance(found, BaseException):
            raise found
        assert found is not None
        return found


class Successors(NamedTuple):
    """Configurations one move from some rows, with the index of the row each came from."""

    keys: np.ndarray
    parents: np.ndarray


def successors(board: kernels.Board, style: MoveStyle, rows: np.ndarray) -> Successors:
    """Every configuration one move from each row of `rows` (repeats possible), with the
    index in `rows` of the row it came from, in the order the search meets them."""
    counts = np.zeros(6, np.int64)
    alone = kernels.Space(np.ascontiguousarray(rows), np.zeros(2, np.uint32), counts)
    words = rows.shape[1]
    found: list[Successors] = []
    lo, size = 0, max(64, 8 * rows.shape[0])
    while lo < rows.shape[0]:
        out = kernels.Sifted(
            np.empty((size, words), np.uint64), np.empty(size, np.int64), np.empty(size, np.int64)
        )
        parent, _, count = kernels.expand(
            board,
            alone,
            lo,
            rows.shape[0],
            rows.shape[0] - lo,
            _REACH_CODES[style.reach],
            style.superpieces,
            True,
            out,
        )
        found.append(Successors(out.keys[:count], out.parents[:count]))
        if parent == lo:
            size *= 2
        lo = parent
    return Successors(
        np.concatenate([f.keys for f in found]), np.concatenate([f.parents for f in found])
    )


def check_style(puzzle: Puzzle, style: MoveStyle) -> None:
    """Refuse a superpiece style on a puzzle with more pieces than one mask holds."""
    pieces = len(puzzle.start.placements)
    if style.superpieces and pieces > MAX_SUPERPIECE_PIECES:
        raise SlidelabError(
            f"styles 3-5 handle at most {MAX_SUPERPIECE_PIECES} pieces; this puzzle has {pieces}"
        )


@dataclass(frozen=True)
class Limits:
    """How far a search may grow: configurations (`--max-states`, None for no limit) and
    the bytes of every array it holds."""

    max_states: int | None
    memory: MemoryBudget

    @classmethod
    def of(cls, max_states: int | None, max_memory: int | None) -> Limits:
        return cls(max_states, MemoryBudget.of(max_memory))

    @property
    def states(self) -> int:
        """The configuration count the kernels stop at."""
        return self.max_states if self.max_states is not None else STATE_CAPACITY


def _bfs(
    puzzle: Puzzle, style: MoveStyle, limits: Limits, stop_at_goal: bool, jobs: int | None
) -> Generator[Progress, None, _Outcome]:
    check_style(puzzle, style)
    tables = build_tables(puzzle)
    start = tables.encode(puzzle.start.placements).reshape(1, -1)
    return (yield from _search(tables, start, style, limits, stop_at_goal, jobs))


def _search(
    tables: Tables,
    seeds: np.ndarray,
    style: MoveStyle,
    limits: Limits,
    stop_at_goal: bool,
    jobs: int | None,
) -> Generator[Progress, None, _Outcome]:
    """Breadth-first search from the rows of `seeds` (distance 0), up to the goal if
    `stop_at_goal` (only the first seed is tested: the start) or the whole space."""
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise SlidelabError(f"the number of jobs must be at least 1, not {jobs}")
    goal = _GoalTables.build(tables)
    space = _Space.create(tables, limits.states)
    outcome = _Outcome(space, [0])
    expander = _Expander(tables, style, jobs, limits)
    try:
        if not _seed(space, seeds, expander):
            outcome.limit_message = (
                f"{seeds.shape[0]:,} configurations to start from do not fit: {expander.refusal}"
            )
            return outcome
        if stop_at_goal and goal.scan(space, 0, 1, True)[0] == 0:
            outcome.goal_index = 0
            return outcome
        yield from _layers(space, outcome, goal if stop_at_goal else None, expander)
        if outcome.goal_index > 0:
            outcome.path = _path_back(space, outcome.layer_starts, outcome.goal_index, expander)
    finally:
        expander.close()
    return outcome


def _seed(space: _Space, seeds: np.ndarray, expander: _Expander) -> bool:
    """Insert the rows of `seeds`, growing `space` as needed; False if a limit stops it."""
    done = 0
    while done < seeds.shape[0]:
        failed = int(kernels.insert_all(space.store, seeds[done:]))
        if failed < 0:
            return True
        done += failed
        if not expander.room(space):
            return False
    return True


@dataclass(frozen=True)
class Explored:
    """Every configuration reachable from some seeds, in order of distance from them."""

    states: np.ndarray
    """(configurations, words) codes, the seeds first; a view of the search's array."""
    layer_starts: tuple[int, ...]
    """Where each distance begins in `states`, then the number of configurations."""
    limit_message: str | None
    memory_bytes: int


def explore(
    tables: Tables,
    seeds: np.ndarray,
    style: MoveStyle,
    *,
    max_states: int | None = None,
    max_memory: int | None = None,
    jobs: int | None = None,
) -> Generator[Progress, None, Explored]:
    """Everything reachable from the rows of `seeds` (codes of `tables`) with moves of
    `style`, layer by layer; the start of the puzzle plays no part."""
    limits = Limits.of(max_states, max_memory)
    outcome = yield from _search(tables, seeds, style, limits, False, jobs)
    space = outcome.space
    starts = [*outcome.layer_starts[: len(outcome.layers)], space.n]
    return Explored(
        space.states[: space.n], tuple(starts), outcome.limit_message, space.bytes_used()
    )


def _path_back(
    space: _Space, layer_starts: list[int], index: int, expander: _Expander
) -> tuple[int, ...]:
    """The indices of a shortest path from the start to configuration `index`, start first.

    Each step back goes to the first configuration of the layer before that is one move
    away: the one whose expansion met the configuration first, since every move can be
    undone.
    """
    chain = [index]
    layer = bisect.bisect_right(layer_starts, index) - 1
    while layer > 0:
        neighbours = expander.neighbours(space.states[index])
        index = int(
            kernels.first_match(
                space.states, layer_starts[layer - 1], layer_starts[layer], neighbours
            )
        )
        chain.append(index)
        layer -= 1
    return tuple(reversed(chain))


def _layers(
    space: _Space, outcome: _Outcome, goal: _GoalTables | None, expander: _Expander
) -> Generator[Progress, None, None]:
    """Expand one distance layer after another into `outcome`, until none is new, the goal
    (if any) is met or a limit is reached (`_Expander.room`)."""
    started = time.perf_counter()
    budget = 64
    distance = 0
    while outcome.layer_starts[-1] < space.n:
        lo, hi = outcome.layer_starts[-1], space.n
        outcome.layer_starts.append(hi)
        space.set_floor(outcome.layer_starts[-3] if distance > 0 else 0)
        distance += 1
        parent = lo
        while parent < hi:
            before, first_parent = space.n, parent
            tick = time.perf_counter()
            parent, status = expander.step(space, parent, hi, budget)
            took = time.perf_counter() - tick
            if parent > first_parent:  # the pace of the parents done: a step can stop early
                pace = (parent - first_parent) / max(took, 1e-4)
                budget = int(min(max(pace * CHUNK_SECONDS, 8), 1 << 22))
            if goal is not None and space.n > before:
                first, _ = goal.scan(space, before, space.n, True)
                if first >= 0:
                    outcome.goal_index = first
                    yield _progress(expander, first + 1, started, distance)
                    return
            if status == kernels.NEED_ROOM and not expander.room(space):
                outcome.limit_message = (
                    f"stopped at distance {distance} after {space.n:,} configurations, "
                    f"{expander.refusal}; the search held "
                    f"{mebibytes(space.bytes_used())}"
                )
                return
            yield _progress(expander, space.n, started, distance if space.n > hi else distance - 1)


def _progress(expander: _Expander, explored: int, started: float, depth: int) -> Progress:
    """A progress event whose `depth` is the distance, in moves, of the farthest
    configurations met so far and whose `explored` counts them as the result will, so
    the last event of a run shows the same figures as its result."""
    return Progress(
        phase=f"breadth-first search, style {expander.style.number}",
        explored=explored,
        elapsed=time.perf_counter() - started,
        depth=depth,
    )


def solve(
    puzzle: Puzzle,
    style: MoveStyle,
    *,
    max_states: int | None = None,
    max_memory: int | None = None,
    jobs: int | None = None,
) -> Generator[Progress, None, SolveResult]:
    """Find a shortest solution of `puzzle` with moves of `style`, on `jobs` threads
    (default: every core), within `max_memory` bytes (default: `MemoryBudget.of`)."""
    outcome = yield from _bfs(puzzle, style, Limits.of(max_states, max_memory), True, jobs)
    space = outcome.space
    memory = space.bytes_used()
    if outcome.goal_index < 0:
        return SolveResult(style, None, outcome.layers, space.n, (), outcome.limit_message, memory)
    space.n = outcome.goal_index + 1  # what was met after the goal does not count
    path = tuple(space.tables.decode(space.states[i]) for i in outcome.path)
    return SolveResult(style, len(path) - 1, outcome.layers, space.n, path, None, memory)


def analyze(
    puzzle: Puzzle,
    style: MoveStyle,
    *,
    max_states: int | None = None,
    max_memory: int | None = None,
    jobs: int | None = None,
) -> Generator[Progress, None, Analysis]:
    """Explore everything reachable from the start of `puzzle` with moves of `style`, on
    `jobs` threads (default: every core), within `max_memory` bytes."""
    outcome = yield from _bfs(puzzle, style, Limits.of(max_states, max_memory), False, jobs)
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
    max_memory: int | None = None,
    jobs: int | None = None,
) -> Generator[Progress, None, tuple[ResultT, ...]]:
    """Run `search` (`solve` or `analyze`) in every move style, one after the other; a style
    that cannot take the puzzle is refused before any runs."""
    for style in MoveStyle.ALL:
        check_style(puzzle, style)
    results = []
    for style in MoveStyle.ALL:
        found = yield from search(
            puzzle, style, max_states=max_states, max_memory=max_memory, jobs=jobs
        )
        results.append(found)
    return tuple(results)


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel, so a first search starts at once."""
    warm_up_tables()
    for style in MoveStyle.ALL:
        warm_up_style(style)


def warm_up_tables() -> None:
    """Compile the hash-table kernels on an empty table (those inserting what threads sifted
    too: the tiny puzzle's layers are never split)."""
    space = _Space.create(build_tables(_TINY_PUZZLE), 1, capacity=4)
    kernels.rebuild(space.store)
    kernels.insert_all(space.store, space.states[:0])
    none = np.empty(0, np.int64)
    kernels.insert_sifted(space.store, kernels.Sifted(space.states[:0], none, none), 0, 0)


def warm_up_style(style: MoveStyle) -> None:
    """Compile the kernels a search and an analysis in move style `style` call."""
    for search in (solve, analyze):
        for _ in search(_TINY_PUZZLE, style):
            pass


_TINY_PUZZLE = Puzzle(
    rows=2,
    cols=2,
    kinds=(PieceKind("1", ((0, 0),)),),
    obstacles=frozenset(),
    start=Configuration.of([Placement("1", 0, 0)]),
    goal=Goal((Placement("1", 1, 1),), frozenset()),
)
"""One 1 x 1 piece on a 2 x 2 board: every kernel runs on it in a moment."""

"""The hardest start for a set of pieces (`--hardest`): every placement of the start's pieces
on the board, and the ones farthest from the goal among those that can reach it.

Every move can be undone, so one breadth-first search from all the placements that
meet the goal gives each placement its distance to the goal; the others cannot reach
it.  A piece kept to one axis never leaves its row (or column), so the placements
split into parts by the lines such pieces occupy, and no move joins two parts: they
are enumerated (`graph_kernels.placement_keys`) and searched part by part, several
small parts to a batch, so memory holds one batch at a time.  A batch is indexed by
an open-addressing table, its moves become compressed rows of a graph, and its
components and distances are found on that graph.  Parts are also the subproblems of
a split run (`slidelab.parallel.run`): on local processes, a Dask cluster, or with a
journal that a rerun resumes from.

A part is searched whole, so the limits (`search.Limits`) are a part's: one of more than
`max_states` placements, or whose search would hold more than the memory budget, stops the
run.  A batch of several parts holds at most `BATCH` placements and never more than
`max_states`, and is searched one part at a time if it does not fit in memory, so only a
part too big by itself stops a run, however its parts are batched or spread over
processes.  A stop is raised (`SearchLimitError`), never recorded in a journal: a rerun
with other limits resumes from the parts that were finished.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from functools import lru_cache, partial
from math import comb, prod
from typing import Any

import numpy as np

from slidelab.errors import SearchLimitError, SlidelabError
from slidelab.memory import MemoryBudget, MemoryBudgetError, chosen_limit, mebibytes
from slidelab.parallel.payload import expect, fields, items, whole, wholes
from slidelab.parallel.run import SPLIT_RULES, run_journaled
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress
from slidelab.sliding import graph_kernels
from slidelab.sliding.distance import goal_indices, to_goal
from slidelab.sliding.encoding import Tables, build_tables
from slidelab.sliding.model import Axis, Configuration, Goal, PieceKind, Placement, Puzzle
from slidelab.sliding.search import Limits, check_style, successors
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_puzzle

BATCH = 1 << 18
"""Placements gathered (whole parts at a time) before a batch is searched; a batch of several
parts holds no more."""

CODE_CHUNK = 1 << 16
"""Placements coded per kernel call."""

SUCCESSOR_CHUNK = 1 << 14
"""Placements whose moves are generated per kernel call."""

NODE_CHUNK = 1 << 18
"""Nodes joined into components, or taken from the search's queue, per kernel call."""

MAX_PARTS = 1 << 12
"""Most parts the placements are split into: kinds whose lines would split them further
keep all their anchors in every part (parts are then bigger, and fewer calls are made)."""

HARDEST_SHOWN = 20
"""Most hardest placements a result lists (it counts them all)."""


@dataclass(frozen=True)
class HardestStarts:
    """Every placement of the start's pieces, and the ones hardest to solve."""

    style: MoveStyle
    placements: int
    """Ways to place the start's pieces on the board (pieces of one kind interchangeable)."""
    components: int
    """Classes of placements joined by moves."""
    can_reach: int
    """Placements from which the goal can be reached."""
    hardest_distance: int | None
    """Fewest moves to the goal from the hardest placements; None if none reaches it."""
    hardest_count: int
    hardest: tuple[Configuration, ...]
    """The first `HARDEST_SHOWN` hardest placements, in order of their codes."""
    limit_message: str | None = None
    """Why the run stopped before its end (a part past a limit); it then decides nothing:
    its counts are 0 and it lists no placement."""


@dataclass(frozen=True)
class _Slot:
    """Pieces of one kind placed together: `count` of them, at anchors chosen among `cells`
    (all the kind's anchors, or those on one line for a kind kept to an axis)."""

    kind: int
    count: int
    cells: tuple[int, ...]


@dataclass(frozen=True)
class _Findings:
    """What the search of some parts found; findings of other parts merge with `add`."""

    placements: int = 0
    components: int = 0
    can_reach: int = 0
    farthest: int = -1
    hardest_count: int = 0
    hardest: tuple[tuple[int, ...], ...] = ()
    """The smallest codes (as words) among the hardest, at most `HARDEST_SHOWN`."""

    def add(self, other: _Findings) -> _Findings:
        farthest = max(self.farthest, other.farthest)
        tied = [f for f in (self, other) if f.farthest == farthest and farthest >= 0]
        return _Findings(
            self.placements + other.placements,
            self.components + other.components,
            self.can_reach + other.can_reach,
            farthest,
            sum(f.hardest_count for f in tied),
            tuple(sorted(code for f in tied for code in f.hardest)[:HARDEST_SHOWN]),
        )

    def payload(self) -> dict[str, object]:
        """The findings as JSON values, for a split run's results and journal."""
        return {
            "placements": self.placements,
            "components": self.components,
            "can_reach": self.can_reach,
            "farthest": self.farthest,
            "hardest_count": self.hardest_count,
            "hardest": [list(code) for code in self.hardest],
        }

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> _Findings:
        return cls(
            payload["placements"],
            payload["components"],
            payload["can_reach"],
            payload["farthest"],
            payload["hardest_count"],
            tuple(tuple(code) for code in payload["hardest"]),
        )


class _Parts:
    """The parts of the placements of a puzzle's pieces, numbered in a fixed order."""

    def __init__(self, tables: Tables, max_parts: int) -> None:
        self.tables = tables
        self.choices = _parts(tables, _kind_anchors(tables), max_parts)
        self.count = prod(len(choices) for choices in self.choices)
        self._shapes = _shapes(tables)

    def plan(self, index: int) -> graph_kernels.Plan:
        """Where the pieces of part `index` may stand (parts numbered as
        `itertools.product` of the kinds' choices gives them)."""
        slots: list[_Slot] = []
        for choices in reversed(self.choices):
            index, choice = divmod(index, len(choices))
            slots[:0] = choices[choice]
        return _plan(self.tables, slots, self._shapes)


@lru_cache(maxsize=1)
def _parts_of(puzzle: Puzzle, max_parts: int) -> _Parts:
    """The parts of `puzzle`, built once per process: every subproblem of a run needs them."""
    return _Parts(build_tables(puzzle), max_parts)


def hardest_starts(
    puzzle: Puzzle,
    style: MoveStyle,
    *,
    max_states: int | None = None,
    max_memory: int | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    journal: str | None = None,
) -> Generator[Progress, None, HardestStarts]:
    """Search every placement of `puzzle`'s pieces for the ones farthest from its goal: here,
    or split by parts over `jobs` processes, a Dask cluster at `scheduler`, or with the
    `journal` file recording finished parts.  A part of more than `max_states` placements,
    or whose search would hold more than `max_memory` bytes (default: `MemoryBudget.of`;
    local processes share it), stops the run, with a message."""
    check_style(puzzle, style)
    try:
        if jobs > 1 or scheduler is not None or journal is not None:
            budget = _process_budget(max_memory, jobs, scheduler)
            job = HardestJob(puzzle, style, max_states, budget, MAX_PARTS)
            results, _ = yield from run_journaled(
                job, jobs=jobs, scheduler=scheduler, journal=journal, what="hardest start"
            )
            found = _Findings()
            for result in results:
                found = found.add(_Findings.from_payload(result.payload))
        else:
            parts = _parts_of(puzzle, MAX_PARTS)
            limits = Limits.of(max_states, max_memory)
            searched = yield from _search_parts(parts, style, range(parts.count), limits)
            assert searched is not None  # no budget: every part is searched
            found = searched
    except SearchLimitError as stop:
        return HardestStarts(style, 0, 0, 0, None, 0, (), f"stopped: {stop}")
    return _result(build_tables(puzzle), style, found)


def _process_budget(
    max_memory: int | None, jobs: int, scheduler: str | None
) -> MemoryBudget | None:
    """The memory budget of each process searching parts: on this machine, an even share of
    the run's (`MemoryBudget.of(max_memory)`); on a cluster, the one set, if any (None: each
    worker's default, from its own memory)."""
    if scheduler is None:
        return MemoryBudget.of(max_memory).shared(jobs)
    chosen = max_memory if max_memory is not None else chosen_limit()
    return None if chosen is None else MemoryBudget.of(chosen)


@dataclass(frozen=True)
class _Branch:
    key: tuple[int, ...]
    parts: range


@dataclass(frozen=True)
class HardestJob:
    """The hardest-start search as a split job (`slidelab.parallel.run.SplitJob`): the root
    holds every part, and each part is a subproblem."""

    puzzle: Puzzle
    style: MoveStyle
    max_states: int | None
    """Most placements of a part (None: as many as a search can index)."""
    memory: MemoryBudget | None
    """What each process may hold (None: the default of the process searching)."""
    max_parts: int

    def root(self) -> _Branch:
        return _Branch((), range(_parts_of(self.puzzle, self.max_parts).count))

    def children(self, branch: _Branch) -> list[_Branch]:
        if branch.key:
            return []
        return [_Branch((index,), range(index, index + 1)) for index in branch.parts]

    def explore(
        self, branch: _Branch, budget: int | None, growth: float | None = None
    ) -> Generator[Progress, None, TaskResult | None]:
        """Search the branch's parts; the root gives up past `budget` placements (it is then
        split into its parts, each searched whole).  A part past a limit raises
        `SearchLimitError`, which ends the run."""
        parts = _parts_of(self.puzzle, self.max_parts)
        limits = Limits(self.max_states, self.memory or MemoryBudget.of(None))
        found = yield from _search_parts(parts, self.style, branch.parts, limits, budget)
        if found is None:
            return None
        return TaskResult(branch.key, found.hardest_count, found.placements, found.payload())

    def check(self, result: TaskResult) -> None:
        """A payload as `_Findings.payload` writes it: counts that fit one another, the
        record's count its hardest and its nodes its placements, and the smallest hardest
        codes, in increasing order, each one of a placement of the pieces."""
        payload = result.payload
        fields(payload, tuple(_Findings().payload()))
        placements = whole(payload["placements"], "placements")
        expect(placements == result.nodes, f"placements must be the record's nodes, {result.nodes}")
        whole(payload["components"], "components", high=placements)
        can_reach = whole(payload["can_reach"], "can_reach", high=placements)
        farthest = whole(payload["farthest"], "farthest", low=-1)
        hardest = whole(payload["hardest_count"], "hardest_count", high=can_reach)
        expect(hardest == result.count, f"hardest_count must be the record's count, {result.count}")
        expect((farthest >= 0) == (hardest > 0), "farthest and hardest_count disagree")
        tables = _parts_of(self.puzzle, self.max_parts).tables
        codes = items(payload["hardest"], "hardest", min(hardest, HARDEST_SHOWN))
        for n, code in enumerate(codes):
            wholes(code, f"hardest[{n}]", tables.words, high=(1 << 64) - 1)
            expect(_codes_a_placement(tables, code), f"hardest[{n}] codes no placement")
        expect(all(a < b for a, b in itertools.pairwise(codes)), "hardest must be in order")

    def fingerprint(self) -> str:
        """Names the puzzle, the style and the parts, for journals (not the limits: a part
        past one is never recorded, and a finished part's findings do not depend on them)."""
        text = (
            f"hardest start of {format_puzzle(self.puzzle)!r} in style {self.style.number}, "
            f"parts <= {self.max_parts}; {SPLIT_RULES}"
        )
        return hashlib.sha256(text.encode()).hexdigest()


def _codes_a_placement(tables: Tables, code: list[int]) -> bool:
    """Whether the words `code` are the code of a placement of the pieces, none on another or
    on an obstacle.  Read here before the kernels decode it: they trust a code, and would
    read past their arrays for a wrong one."""
    board = tables.board
    value = sum(word << (64 * n) for n, word in enumerate(code))
    used = 0
    anchors: list[int] = []
    for k, base in enumerate(board.mask_base.tolist()):
        positions = int(np.count_nonzero(board.pos_of[k] >= 0))
        first, last = int(board.kind_first[k]), int(board.kind_first[k + 1])
        if base < 0:  # a field of `field_bits` for each piece
            field = (1 << int(board.field_bits[k])) - 1
            at = board.field_at[first:last].tolist()
            found = [value >> a & field for a in at]
            used |= sum(field << a for a in at)
        else:  # one bit for each position
            found = [pos for pos in range(positions) if value >> (base + pos) & 1]
            used |= ((1 << positions) - 1) << base
        if len(found) != last - first or any(pos >= positions for pos in found):
            return False
        anchors += board.cell_at[k, found].tolist()
    covered = [
        int(board.pad_of[anchor]) + offset
        for piece, anchor in enumerate(anchors)
        for offset in board.cover_off[board.cover_piece == piece].tolist()
    ]
    if value & ~used or len(set(covered)) < len(covered) or board.base_occ[covered].any():
        return False
    key = np.array(code, np.uint64)
    return bool(np.array_equal(tables.encode(tables.decode(key).placements), key))


def _search_parts(
    parts: _Parts, style: MoveStyle, indices: range, limits: Limits, budget: int | None = None
) -> Generator[Progress, None, _Findings | None]:
    """Code and search the parts `indices`, several small ones to a batch; None once more
    than `budget` placements were coded with parts still to go.  A part of more than
    `limits.states` placements, or one whose search would pass `limits.memory`, raises
    `SearchLimitError`: earlier parts of its batch are searched first, so that a part stops
    the run only by itself."""
    tables = parts.tables
    began = time.perf_counter()
    found = _Findings()
    batch = _Rows(np.dtype(np.uint64), tables.words)
    starts = [0]
    """Where each part of the batch begins, the one being coded last."""
    shared = min(BATCH, limits.states)
    """Most placements of a batch of several parts."""

    def progress(done: int, phase: str = "") -> Progress:
        return Progress(
            phase=f"hardest start, style {style.number}{phase}",
            explored=found.placements + batch.size,
            elapsed=time.perf_counter() - began,
            fraction=done / len(indices) if len(indices) else 1.0,
        )

    def search(upto: int, done: int) -> Generator[Progress, None, None]:
        """Search the parts of the batch before `upto` (where a part begins), and keep only
        the others in it."""
        nonlocal found, batch, starts
        cuts = [at for at in starts if at <= upto]
        moves = partial(progress, done, ": moves")
        found = found.add(
            (yield from _search_whole_parts(tables, style, batch, cuts, limits, moves))
        )
        rest = _Rows(np.dtype(np.uint64), tables.words)
        rest.append(batch.rows()[upto:])
        batch = rest
        starts = [at - upto for at in starts if at >= upto]

    for done, index in enumerate(indices, 1):
        plan = parts.plan(index)
        walk = _walk(plan)
        while walk.level[0] != graph_kernels.WALK_DONE:
            count = min(CODE_CHUNK, limits.states + 1 - (batch.size - starts[-1]))
            needed = _coding_bytes(batch, count, tables.words)
            if needed > limits.memory.limit:
                if starts[-1] == 0:
                    raise _memory_stop(needed, limits.memory)
                yield from search(starts[-1], done - 1)
                continue
            batch.grew(graph_kernels.placement_keys(tables.board, plan, walk, batch.room(count)))
            if batch.size - starts[-1] > limits.states:
                raise _states_stop(limits)
            if starts[-1] > 0 and batch.size > shared:
                yield from search(starts[-1], done - 1)
            if walk.level[0] != graph_kernels.WALK_DONE:
                yield progress(done - 1)
        starts.append(batch.size)
        if budget is not None and found.placements + batch.size > budget and done < len(indices):
            return None
        if batch.size >= BATCH or done == len(indices):
            yield from search(batch.size, done)
        yield progress(done)
    return found


def _search_whole_parts(
    tables: Tables,
    style: MoveStyle,
    codes: _Rows,
    cuts: list[int],
    limits: Limits,
    progress: Callable[[], Progress],
) -> Generator[Progress, None, _Findings]:
    """Search the parts of `codes` between `cuts` in one batch, or one by one if together
    they would pass the memory budget."""
    keys = codes.rows()
    try:
        whole = _search_batch(
            tables, style, keys[: cuts[-1]], codes.nbytes, limits.memory, progress
        )
        return (yield from whole)
    except MemoryBudgetError:
        if len(cuts) <= 2:
            raise
    found = _Findings()
    for lo, hi in itertools.pairwise(cuts):
        part = yield from _search_batch(
            tables, style, keys[lo:hi], codes.nbytes, limits.memory, progress
        )
        found = found.add(part)
    return found


class _Rows:
    """Rows appended to one array that grows by half when full: no list of pieces to join at
    the end (joining a big batch is one long pause), and at most a third of it is spare."""

    def __init__(self, dtype: np.dtype[Any], width: int | None = None) -> None:
        self._shape: tuple[int, ...] = () if width is None else (width,)
        self._array = np.empty((1024, *self._shape), dtype)
        self._row_bytes = int(self._array[0].nbytes)
        self.size = 0

    @property
    def nbytes(self) -> int:
        """Bytes of the array, spare rows included."""
        return self._array.nbytes

    def grown(self, count: int) -> int:
        """Bytes of the array once `room(count)` made room: grown by half, or to fit."""
        rows = int(self._array.shape[0])
        if self.size + count > rows:
            rows = max(self.size + count, 3 * rows // 2)
        return rows * self._row_bytes

    def growth_peak(self, count: int) -> int:
        """Bytes held at the peak of `room(count)`: the old array and the new side by side."""
        grown = self.grown(count)
        return self.nbytes + grown if grown > self.nbytes else grown

    def room(self, count: int) -> np.ndarray:
        """Space for `count` more rows at the end (they count once `grew` says so)."""
        if self.size + count > self._array.shape[0]:
            self.reserve(self.grown(count) // self._row_bytes)
        return self._array[self.size : self.size + count]

    def reserve(self, rows: int) -> None:
        """Make room for `rows` rows in all, so that growing up to there copies nothing."""
        if rows > self._array.shape[0]:
            bigger = np.empty((rows, *self._shape), self._array.dtype)
            bigger[: self.size] = self._array[: self.size]
            self._array = bigger

    def grew(self, count: int) -> None:
        self.size += count

    def append(self, rows: np.ndarray) -> None:
        self.room(rows.shape[0])[:] = rows
        self.grew(rows.shape[0])

    def rows(self) -> np.ndarray:
        return self._array[: self.size]


def _walk(plan: graph_kernels.Plan) -> graph_kernels.Walk:
    """A walk over the placements `plan` allows, before its first (`placement_keys`)."""
    slots, cell_words = plan.anchors.shape
    return graph_kernels.Walk(
        np.zeros((slots, cell_words), np.uint64),
        np.zeros((slots + 1, cell_words), np.uint64),
        np.zeros(slots, np.int64),
        np.array([graph_kernels.WALK_START], np.int64),
    )


def _table_slots(n: int) -> int:
    """Slots of the index table of `n` placements: a power of two, more than twice `n`."""
    return 1 << max(1, (2 * n).bit_length())


def _successor_bytes(rows: int, words: int, moves: int) -> int:
    """Bytes `search.successors` holds at its peak for `rows` placements with `moves` moves:
    its buffers (room for 8 moves a placement at least), then the moves joined."""
    return max(64, 8 * rows, moves) * (8 * words + 16) + moves * (8 * words + 8)


def _coding_bytes(codes: _Rows, count: int, words: int) -> int:
    """Bytes held at the peak of coding `count` more placements into `codes` and searching
    them all: the array of codes growing (old and new side by side), or grown, with the
    least its search holds besides (the index table, the compressed rows' offsets and one
    chunk's successors, as if there were no moves)."""
    n = codes.size + count
    search = 4 * _table_slots(n) + 8 * (n + 1) + _successor_bytes(min(n, SUCCESSOR_CHUNK), words, 0)
    return max(codes.growth_peak(count), codes.grown(count) + search)


def _states_stop(limits: Limits) -> SearchLimitError:
    """The stop at a part of more than `limits.states` placements."""
    what = (
        "the limit set by --max-states for each part"
        if limits.max_states is not None
        else "the most a part can hold"
    )
    return SearchLimitError(
        f"a part of the placements that moves cannot leave holds more than {limits.states:,}, "
        f"{what}"
    )


def _memory_stop(needed: int, budget: MemoryBudget) -> MemoryBudgetError:
    """The stop at a part whose search needs `needed` bytes or more, more than `budget`."""
    return MemoryBudgetError(
        f"a part of the placements that moves cannot leave needs at least {mebibytes(needed)} "
        f"to search, more than {budget.source}"
    )


def _kind_anchors(tables: Tables) -> list[tuple[int, ...]]:
    """For each kind (in the tables' order), the cells where one of its pieces can stand."""
    pos_of = tables.board.pos_of
    return [tuple(int(c) for c in np.flatnonzero(pos_of[k] >= 0)) for k in range(pos_of.shape[0])]


def _parts(
    tables: Tables, kinds: list[tuple[int, ...]], max_parts: int
) -> list[list[tuple[_Slot, ...]]]:
    """For each kind, the ways to spread its pieces over lines: every multiset of rows (or
    columns) for a kind kept to an axis, as long as there are at most `max_parts` parts in
    all, else one way (all anchors), as for a kind that moves freely."""
    puzzle = tables.puzzle
    counts = np.diff(tables.board.kind_first)
    cols = puzzle.cols
    choices: list[list[tuple[_Slot, ...]]] = []
    parts = 1
    for k, cells in enumerate(kinds):
        axis = puzzle.kind(tables.kind_names[k]).axis
        count = int(counts[k])
        lines: dict[int, tuple[int, ...]] = {}
        for cell in cells:
            line = cell // cols if axis is Axis.HORIZONTAL else cell % cols
            lines[line] = (*lines.get(line, ()), cell)
        spreads = comb(len(lines) + count - 1, count)  # multisets of `count` lines
        if axis is Axis.ANY or parts * spreads > max_parts:
            choices.append([(_Slot(k, count, cells),)])
            continue
        choices.append(
            [
                tuple(_Slot(k, chosen.count(line), lines[line]) for line in sorted(set(chosen)))
                for chosen in itertools.combinations_with_replacement(sorted(lines), count)
            ]
        )
        parts *= len(choices[-1])
    return choices


def _shapes(tables: Tables) -> tuple[np.ndarray, np.ndarray]:
    """For each kind, the board-cell offsets of its cells from its anchor, as compressed rows
    (`graph_kernels.Plan.shape_lo`, `shape_off`)."""
    puzzle = tables.puzzle
    offsets = [
        [dr * puzzle.cols + dc for dr, dc in puzzle.kind(name).cells] for name in tables.kind_names
    ]
    lo = np.zeros(len(offsets) + 1, np.int64)
    np.cumsum([len(cells) for cells in offsets], out=lo[1:])
    return lo, np.array([o for cells in offsets for o in cells], np.int64)


def _plan(
    tables: Tables, slots: Iterable[_Slot], shapes: tuple[np.ndarray, np.ndarray]
) -> graph_kernels.Plan:
    """One slot per piece, each with the anchors of its `_Slot` as a bitset.  Kinds with
    fewer pieces, then bigger ones, are placed first: most dead ends are then met near
    the root, where they cut off most, and the many interchangeable small pieces come last."""
    words = -(-tables.puzzle.cell_count // 64)
    first = tables.board.kind_first
    by_kind: dict[int, list[_Slot]] = {}
    for slot in slots:
        by_kind.setdefault(slot.kind, []).append(slot)
    sizes = shapes[0][1:] - shapes[0][:-1]
    order = sorted(by_kind, key=lambda k: (first[k + 1] - first[k], -sizes[k], k))
    pieces: list[int] = []
    kinds: list[int] = []
    anchors: list[int] = []
    same: list[bool] = []
    for k in order:
        piece = int(first[k])
        for slot in by_kind[k]:
            bits = sum(1 << cell for cell in slot.cells)
            for n in range(slot.count):
                pieces.append(piece)
                kinds.append(k)
                anchors.append(bits)
                same.append(n > 0)
                piece += 1
    table = np.array(
        [[(bits >> (64 * w)) & (2**64 - 1) for w in range(words)] for bits in anchors], np.uint64
    ).reshape(-1, words)
    return graph_kernels.Plan(
        np.array(pieces, np.int64),
        np.array(kinds, np.int64),
        table,
        np.array(same, np.bool_),
        shapes[0],
        shapes[1],
    )


def _result(tables: Tables, style: MoveStyle, found: _Findings) -> HardestStarts:
    shown = tuple(tables.decode(np.array(code, np.uint64)) for code in found.hardest)
    return HardestStarts(
        style,
        found.placements,
        found.components,
        found.can_reach,
        found.farthest if found.farthest >= 0 else None,
        found.hardest_count,
        shown,
    )


def _search_batch(
    tables: Tables,
    style: MoveStyle,
    keys: np.ndarray,
    held: int,
    budget: MemoryBudget,
    progress: Callable[[], Progress],
) -> Generator[Progress, None, _Findings]:
    """Join the placements of whole parts by their moves, and measure each one's distance
    to the goal.  A table indexes the placements; their moves, looked up there in the
    order of the placements they start from, are the graph's compressed rows as they
    come.  Indices within a batch fit in 32 bits.  `held`: bytes of the array of codes;
    with what the search holds, they may not pass `budget` (`MemoryBudgetError`)."""
    n = keys.shape[0]
    table = np.zeros(_table_slots(n), np.int32)
    sources = []
    for lo in range(0, n, NODE_CHUNK):
        graph_kernels.index_table(keys, table, lo, min(n, lo + NODE_CHUNK))
        sources.append(lo + goal_indices(tables, keys[lo : lo + NODE_CHUNK]))
        yield progress()
    goals = np.concatenate(sources) if sources else np.zeros(0, np.int64)
    del sources
    index = _Rows(np.dtype(np.int32))
    indptr = np.zeros(n + 1, np.int64)
    for lo in range(0, n, SUCCESSOR_CHUNK):
        rows = keys[lo : lo + SUCCESSOR_CHUNK]
        moved = successors(tables.board, style, rows)
        count = moved.keys.shape[0]
        fixed = held + table.nbytes + goals.nbytes + indptr.nbytes
        fixed += _successor_bytes(rows.shape[0], tables.words, count)
        needed = fixed + index.growth_peak(count)
        if needed > budget.limit:
            raise _memory_stop(needed, budget)
        at = index.room(count)
        if graph_kernels.look_up(keys, table, moved.keys, at) >= 0:
            raise SlidelabError("a move left the placements of its part (internal error)")
        index.grew(count)
        if lo == 0:  # room for the edges at the first chunk's rate, and some, as budget allows
            fit = (budget.limit - fixed - index.nbytes) // 4
            index.reserve(min(int(1.25 * n * count / rows.shape[0]), fit))
        degrees = np.bincount(moved.parents, minlength=rows.shape[0])
        np.cumsum(degrees, out=indptr[lo + 1 : lo + 1 + rows.shape[0]])
        indptr[lo + 1 : lo + 1 + rows.shape[0]] += indptr[lo]
        yield progress()
    del table
    needed = held + index.nbytes + indptr.nbytes + goals.nbytes + 8 * n  # distances and queue
    if needed > budget.limit:
        raise _memory_stop(needed, budget)
    edges = index.rows()
    parent = np.arange(n, dtype=np.int32)
    for lo in range(0, n, NODE_CHUNK):
        graph_kernels.unite(indptr, edges, parent, lo, min(n, lo + NODE_CHUNK))
        yield progress()
    components = int(graph_kernels.count_roots(parent))
    del parent
    distance = np.full(n, -1, np.int32)
    queue = np.empty(n, np.int32)
    distance[goals] = 0
    queue[: goals.size] = goals
    ends = np.array([0, goals.size], np.int64)
    while ends[0] < ends[1]:
        graph_kernels.spread(indptr, edges, distance, queue, ends, NODE_CHUNK)
        yield progress()
    farthest = int(distance.max(initial=-1))
    hardest = np.flatnonzero(distance == farthest) if farthest >= 0 else np.zeros(0, np.int64)
    codes = sorted(tuple(int(w) for w in keys[i]) for i in _smallest(keys, hardest))
    return _Findings(
        n, components, int(np.count_nonzero(distance >= 0)), farthest, hardest.size, tuple(codes)
    )


def _smallest(keys: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The (at most `HARDEST_SHOWN`) rows among `rows` whose codes come first, word by word."""
    order = np.lexsort(keys[rows].T[::-1])
    return rows[order[:HARDEST_SHOWN]]


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels `--hardest` and `--to-goal` call."""
    for style in MoveStyle.ALL:
        for run in (hardest_starts(_TINY_PUZZLE, style), to_goal(_TINY_PUZZLE, style)):
            for _ in run:
                pass


_TINY_PUZZLE = Puzzle(
    rows=1,
    cols=3,
    kinds=(PieceKind("1", ((0, 0),), Axis.HORIZONTAL), PieceKind("2", ((0, 0),))),
    obstacles=frozenset(),
    start=Configuration.of([Placement("1", 0, 0), Placement("2", 0, 1)]),
    goal=Goal((Placement("1", 0, 1),), frozenset()),
)
"""Two pieces (one kept to its row) on a 1 x 3 board: every kernel runs on it in a moment."""

"""The hardest start for a set of pieces (`--hardest`): every placement of the start's pieces
on the board, and the ones farthest from the goal among those that can reach it.

Every move can be undone, so one breadth-first search from all the placements that
meet the goal gives each placement its distance to the goal; the others cannot reach
it.  A piece kept to one axis never leaves its row (or column), so the placements
split into parts by the lines such pieces occupy, and no move joins two parts: they
are enumerated and searched part by part, several small parts to a batch, so memory
holds one batch at a time.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Generator
from dataclasses import dataclass
from math import comb, prod

import numpy as np

from slidelab.errors import SlidelabError
from slidelab.runs import Progress
from slidelab.sliding import graph_kernels, kernels
from slidelab.sliding.distance import as_keys, goal_indices, to_goal
from slidelab.sliding.encoding import Tables, build_tables
from slidelab.sliding.model import Axis, Configuration, Goal, PieceKind, Placement, Puzzle
from slidelab.sliding.search import STATE_CAPACITY, check_style, successors
from slidelab.sliding.styles import MoveStyle

BATCH = 1 << 18
"""Placements gathered (whole parts at a time) before a batch is searched."""

SUCCESSOR_CHUNK = 1 << 14
"""Placements whose moves are generated per kernel call, between progress events."""

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


@dataclass(frozen=True)
class _Slot:
    """Pieces of one kind placed together: `count` of them, at anchors chosen among `cells`
    (all the kind's anchors, or those on one line for a kind kept to an axis)."""

    kind: int
    count: int
    cells: tuple[int, ...]


def hardest_starts(
    puzzle: Puzzle, style: MoveStyle, *, max_states: int | None = None
) -> Generator[Progress, None, HardestStarts]:
    """Search every placement of `puzzle`'s pieces for the ones farthest from its goal."""
    check_style(puzzle, style)
    tables = build_tables(puzzle)
    limit = STATE_CAPACITY if max_states is None else max_states
    kinds = _kind_anchors(tables)
    parts = _parts(tables, kinds)
    masks = _cover_masks(tables)
    total_parts = prod(len(choices) for choices in parts)
    found = _Tally()
    began = time.perf_counter()
    rows: list[np.ndarray] = []
    held = 0
    for done, part in enumerate(itertools.product(*parts), 1):
        block = _placements(tables, masks, [slot for slots in part for slot in slots])
        rows.append(block)
        held += block.shape[0]
        if held > limit:
            return found.result(style, _limit_message(limit, held))
        if held >= BATCH or done == total_parts:
            yield from _search_batch(tables, style, np.concatenate(rows), found, began)
            rows, held = [], 0
        yield Progress(
            phase=f"hardest start, style {style.number}",
            explored=found.placements + held,
            elapsed=time.perf_counter() - began,
            fraction=done / total_parts,
        )
    return found.result(style, None)


def _limit_message(limit: int, held: int) -> str:
    return (
        f"stopped: a part of the placements that moves cannot leave holds {held:,}, more "
        f"than the limit set by --max-states ({limit:,})"
    )


def _kind_anchors(tables: Tables) -> list[tuple[int, ...]]:
    """For each kind (in the tables' order), the cells where one of its pieces can stand."""
    pos_of = tables.board.pos_of
    return [tuple(int(c) for c in np.flatnonzero(pos_of[k] >= 0)) for k in range(pos_of.shape[0])]


def _parts(tables: Tables, kinds: list[tuple[int, ...]]) -> list[list[tuple[_Slot, ...]]]:
    """For each kind, the ways to spread its pieces over lines: every multiset of rows (or
    columns) for a kind kept to an axis, as long as there are at most `MAX_PARTS` parts in
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
        if axis is Axis.ANY or parts * spreads > MAX_PARTS:
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


def _placements(tables: Tables, masks: list[dict[int, int]], slots: list[_Slot]) -> np.ndarray:
    """The codes of every placement that fills `slots` without two pieces overlapping
    (`masks` as `_cover_masks` gives them)."""
    words = -(-tables.puzzle.cell_count // 64)
    opt_lo: list[int] = [0]
    opt_cell: list[int] = []
    opt_mask: list[int] = []
    same: list[bool] = []
    for slot in slots:
        for piece in range(slot.count):
            same.append(piece > 0)
            opt_cell += slot.cells
            opt_mask += [masks[slot.kind][cell] for cell in slot.cells]
            opt_lo.append(len(opt_cell))
    bits = np.array(
        [[(mask >> (64 * w)) & (2**64 - 1) for w in range(words)] for mask in opt_mask],
        np.uint64,
    ).reshape(-1, words)
    arrays = (np.array(opt_lo, np.int64), bits, np.array(opt_cell, np.int64), np.array(same))
    anchors = np.empty((0, tables.n_pieces), np.int64)
    count = graph_kernels.placements(*arrays, anchors, True)
    anchors = np.empty((count, tables.n_pieces), np.int64)
    graph_kernels.placements(*arrays, anchors, False)
    first = tables.board.kind_first
    for k in range(first.size - 1):
        anchors[:, first[k] : first[k + 1]].sort(axis=1)
    keys = np.empty((count, tables.words), np.uint64)
    kernels.pack_rows(tables.board, anchors, keys)
    return keys


def _cover_masks(tables: Tables) -> list[dict[int, int]]:
    """For each kind, the cells (as bits) one of its pieces covers from each anchor."""
    puzzle = tables.puzzle
    cols = puzzle.cols
    masks = []
    for name in tables.kind_names:
        kind = puzzle.kind(name)
        by_anchor = {}
        for cell in range(puzzle.cell_count):
            covered = kind.cells_at(divmod(cell, cols))
            by_anchor[cell] = sum(1 << (r * cols + c) for r, c in covered)
        masks.append(by_anchor)
    return masks


class _Tally:
    """What the batches found so far."""

    def __init__(self) -> None:
        self.placements = 0
        self.components = 0
        self.can_reach = 0
        self.farthest = -1
        self.hardest_count = 0
        self.hardest: list[np.ndarray] = []
        self.tables: Tables | None = None

    def add(self, tables: Tables, keys: np.ndarray, components: int, distance: np.ndarray) -> None:
        self.tables = tables
        self.placements += keys.shape[0]
        self.components += components
        self.can_reach += int(np.count_nonzero(distance >= 0))
        farthest = int(distance.max(initial=-1))
        if farthest < 0 or farthest < self.farthest:
            return
        if farthest > self.farthest:
            self.farthest, self.hardest_count, self.hardest = farthest, 0, []
        at = np.flatnonzero(distance == farthest)
        self.hardest_count += at.size
        room = HARDEST_SHOWN - sum(rows.shape[0] for rows in self.hardest)
        self.hardest.append(keys[at[:room]])

    def result(self, style: MoveStyle, limit_message: str | None) -> HardestStarts:
        tables = self.tables
        shown = (
            tuple(tables.decode(row) for rows in self.hardest for row in rows)
            if tables is not None
            else ()
        )
        return HardestStarts(
            style,
            self.placements,
            self.components,
            self.can_reach,
            self.farthest if self.farthest >= 0 else None,
            self.hardest_count,
            shown,
            limit_message,
        )


def _search_batch(
    tables: Tables, style: MoveStyle, keys: np.ndarray, found: _Tally, began: float
) -> Generator[Progress, None, None]:
    """Join the placements of whole parts by their moves, and measure each one's distance
    to the goal.  Moves come in the order of the placements they start from, so the edges
    are the graph's compressed rows as they stand; indices within a batch fit in 32 bits."""
    order = np.argsort(as_keys(keys))
    keys = np.ascontiguousarray(keys[order])
    index = as_keys(keys)
    parents, children = [], []
    for lo in range(0, keys.shape[0], SUCCESSOR_CHUNK):
        moved = successors(tables.board, style, keys[lo : lo + SUCCESSOR_CHUNK])
        at = np.searchsorted(index, as_keys(moved.keys))
        if not np.array_equal(index[np.minimum(at, index.size - 1)], as_keys(moved.keys)):
            raise SlidelabError("a move left the placements of its part (internal error)")
        parents.append((moved.parents + lo).astype(np.int32))
        children.append(at.astype(np.int32))
        yield Progress(
            phase=f"hardest start, style {style.number}: moves",
            explored=found.placements + lo,
            elapsed=time.perf_counter() - began,
        )
    parent = np.concatenate(parents) if parents else np.zeros(0, np.int32)
    child = np.concatenate(children) if children else np.zeros(0, np.int32)
    label = np.empty(keys.shape[0], np.int32)
    count = int(graph_kernels.components(parent, child, label))
    indptr = np.searchsorted(parent, np.arange(keys.shape[0] + 1))
    distance = np.empty(keys.shape[0], np.int32)
    graph_kernels.distances_from(indptr, child, goal_indices(tables, keys), distance)
    found.add(tables, keys, count, distance)


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

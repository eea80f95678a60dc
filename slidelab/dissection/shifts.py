"""The legal shifts of the source over the target, and the flat tables the kernel reads.

A placement puts one stance of the source (see `motions`) at a shift (rows down,
columns right) where it overlaps the target in at least one cell; for the square
these are exactly the legal shifts of Knuth's program, in his order (row shift,
then column shift, increasing).  A piece's map is a placement and one of its
stance's orientations; the piece's cells are then the source cells that the map
sends onto the target cells the placement covers (its *footprint*).

Cells are numbered in reading order: source cell x is `source.cells[x]` and
target cell y is `target.cells[y]`.  Cell sets are bitsets in rows of uint64
words, cell k in bit k % 64 of word k // 64.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from slidelab.dissection.motions import Stance, oriented, stances
from slidelab.dissection.shape import Cell, Shape
from slidelab.memory import MemoryBudget
from slidelab.runs import Pacer, Progress, drive

PROGRESS_SECONDS = 0.05
"""Longest time between two progress events while the tables are built."""
LISTED_CELL_BYTES = 40
"""Bytes a footprint cell holds in the lists the tables are built from (a Python int and its
slot), for the memory budget."""


@dataclass(frozen=True)
class Placement:
    """A stance of the source shifted over the target."""

    stance: int
    """Index in `Tables.stances`."""
    shift: Cell
    """(rows down, columns right) added to the stance's cells."""
    footprint: tuple[int, ...]
    """The target cells it covers, increasing."""


def legal_placements(
    stance_list: tuple[Stance, ...], target: Shape, pacer: Pacer
) -> Generator[Progress, None, tuple[Placement, ...]]:
    """Every stance at every shift where it meets `target`, stance by stance; `pacer`'s
    progress between rows of shifts."""
    index = {cell: y for y, cell in enumerate(target.cells)}
    top = min(r for r, _ in target.cells)
    left = min(c for _, c in target.cells)
    found = []
    for p, stance in enumerate(stance_list):
        height = 1 + max(r for r, _ in stance.cells)
        width = 1 + max(c for _, c in stance.cells)
        for a in range(top - height + 1, target.rows):
            for b in range(left - width + 1, target.columns):
                covered = sorted(
                    y for r, c in stance.cells if (y := index.get((r + a, c + b))) is not None
                )
                if covered:
                    found.append(Placement(p, (a, b), tuple(covered)))
            if event := pacer.due(len(found)):
                yield event
    return tuple(found)


def bitset(members: Iterable[int], words: int) -> np.ndarray:
    """The members as a row of uint64 words."""
    row = np.zeros(words, np.uint64)
    for k in members:
        row[k // 64] |= np.uint64(1) << np.uint64(k % 64)
    return row


class Arrays(NamedTuple):
    """The tables as numpy arrays, as the search kernel reads them (never written)."""

    footprint_start: np.ndarray
    """Placement q covers the entries footprint_start[q] to footprint_start[q + 1] - 1."""
    footprint_target: np.ndarray
    """Target cell of each footprint entry (int32)."""
    footprint_source: np.ndarray
    """[i, entry]: the source cell the stance's i-th orientation sends there (int32)."""
    target_mask: np.ndarray
    """[q]: the footprint of placement q as a target bitset."""
    source_mask: np.ndarray
    """[q, i]: the source cells placement q with its stance's i-th orientation can move
    (its second dimension is the number of orientations, the group)."""
    source_union: np.ndarray
    """[q]: the union of source_mask[q, i] over i."""
    target_reach: np.ndarray
    """[q]: the union of target_mask[q'] for q' >= q."""
    largest_after: np.ndarray
    """[q]: the largest footprint of a placement q' >= q."""
    full_source: np.ndarray
    full_target: np.ndarray
    neighbours: np.ndarray
    """[x]: the source cells next to source cell x (up to 4, then -1)."""
    orientation_of: np.ndarray
    """[q, i]: the number of the i-th orientation of placement q's stance (for the output)."""
    image_bit: np.ndarray
    """[q, i, x]: the target cell placement q in its i-th orientation sends source cell x to,
    as a one-bit uint64 (0: x is not moved).  Empty (no cells) above 64 cells."""
    source_bit: np.ndarray
    """[q, i, y]: the source cell sent onto target cell y, as a one-bit uint64, the same way."""


@dataclass(frozen=True, eq=False)
class Tables:
    """What the kernel needs to know about a source, a target and the allowed orientations."""

    source: Shape
    target: Shape
    stances: tuple[Stance, ...]
    placements: tuple[Placement, ...]
    arrays: Arrays

    @classmethod
    def build(cls, source: Shape, target: Shape, flips: bool = False) -> Tables:
        """The tables for cutting `source` into pieces that rebuild `target`."""
        return drive(cls.steps(source, target, flips))

    @classmethod
    def steps(
        cls, source: Shape, target: Shape, flips: bool = False, budget: MemoryBudget | None = None
    ) -> Generator[Progress, None, Tables]:
        """`build` as a solver's first phase: `Progress` about every 50 ms (closing it stops
        the build), refused (`MemoryBudgetError`) before its lists would pass `budget`
        (default: `MemoryBudget.of(None)`)."""
        stance_list = stances(source, flips)
        pacer = Pacer("building tables", time.perf_counter(), PROGRESS_SECONDS)
        placements = yield from legal_placements(stance_list, target, pacer)
        words = max(-(-len(source) // 64), 1)
        group = len(stance_list[0].orientations)
        cells = sum(len(p.footprint) for p in placements)
        needed = cells * (group + 1) * LISTED_CELL_BYTES + len(placements) * (group + 1) * words * 8
        (MemoryBudget.of(None) if budget is None else budget).check(needed, "building the tables")
        frames = [
            [{cell: x for x, cell in enumerate(oriented(source.cells, t))} for t in s.orientations]
            for s in stance_list
        ]
        starts = np.zeros(len(placements) + 1, np.int64)
        targets: list[int] = []
        sources: list[list[int]] = [[] for _ in range(group)]
        target_mask = np.zeros((len(placements), words), np.uint64)
        source_mask = np.zeros((len(placements), group, words), np.uint64)
        for q, placement in enumerate(placements):
            a, b = placement.shift
            targets += placement.footprint
            for i, frame in enumerate(frames[placement.stance]):
                moved = [
                    frame[(r - a, c - b)] for r, c in (target.cells[y] for y in placement.footprint)
                ]
                sources[i] += moved
                source_mask[q, i] = bitset(moved, words)
            target_mask[q] = bitset(placement.footprint, words)
            starts[q + 1] = len(targets)
            if event := pacer.due(q + 1, q / len(placements)):
                yield event
        sizes = np.diff(starts)
        reach = np.bitwise_or.accumulate(target_mask[::-1], axis=0)[::-1]
        largest = np.maximum.accumulate(sizes[::-1])[::-1]
        arrays = Arrays(
            footprint_start=starts,
            footprint_target=np.array(targets, np.int32),
            footprint_source=np.array(sources, np.int32).reshape(group, len(targets)),
            target_mask=target_mask,
            source_mask=source_mask,
            source_union=np.bitwise_or.reduce(source_mask, axis=1),
            target_reach=np.ascontiguousarray(reach),
            largest_after=np.ascontiguousarray(largest),
            full_source=bitset(range(len(source)), words),
            full_target=bitset(range(len(target)), words),
            neighbours=_neighbours(source),
            orientation_of=np.array(
                [stance_list[p.stance].orientations for p in placements], np.int32
            ),
            **_cell_bits(starts, targets, sources, len(source)),
        )
        return cls(source, target, stance_list, placements, arrays)

    @property
    def group(self) -> int:
        """Orientations per stance: the order of the source's symmetry group."""
        return len(self.stances[0].orientations)


def _cell_bits(
    starts: np.ndarray, targets: list[int], sources: list[list[int]], cells: int
) -> dict[str, np.ndarray]:
    """`Arrays.image_bit` and `Arrays.source_bit`: each footprint entry as one bit of a word,
    indexed by its source cell and by its target cell (for counting on one-word bitsets)."""
    placements, group = starts.size - 1, len(sources)
    width = cells if cells <= 64 else 0
    image = np.zeros((placements, group, width), np.uint64)
    onto = np.zeros((placements, group, width), np.uint64)
    if width:
        q = np.repeat(np.arange(placements), np.diff(starts))
        y = np.array(targets, np.int64)
        for i, row in enumerate(sources):
            x = np.array(row, np.int64)
            image[q, i, x] = np.left_shift(np.uint64(1), y.astype(np.uint64))
            onto[q, i, y] = np.left_shift(np.uint64(1), x.astype(np.uint64))
    return {"image_bit": image, "source_bit": onto}


def _neighbours(shape: Shape) -> np.ndarray:
    index = {cell: x for x, cell in enumerate(shape.cells)}
    table = np.full((len(shape), 4), -1, np.int32)
    for x, (r, c) in enumerate(shape.cells):
        near = [index[n] for n in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)) if n in index]
        table[x, : len(near)] = near
    return table

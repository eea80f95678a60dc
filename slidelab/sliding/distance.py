"""How far every configuration of the start's component is from the goal (`--to-goal`).

Every move of every style can be undone, so a breadth-first search started from
all the configurations that meet the goal at once labels each configuration with
its distance to the nearest of them.  The search runs in three passes: forward
from the start (the component, and which of its configurations meet the goal),
backward from those (the distances), and down the shortest paths from the start,
to count them exactly.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Generator
from dataclasses import dataclass, field

import numpy as np

from slidelab.runs import Progress
from slidelab.sliding import kernels
from slidelab.sliding.encoding import Tables, build_tables
from slidelab.sliding.model import Configuration, Puzzle
from slidelab.sliding.search import Explored, check_style, explore, successors
from slidelab.sliding.styles import MoveStyle

PATH_CHUNK = 1 << 14
"""Configurations of one layer of shortest paths expanded per step of the count."""


class DistanceTable:
    """Every configuration of a component with its distance to the goal, sorted by code so
    that any configuration is looked up at once (play mode asks after every move)."""

    def __init__(self, tables: Tables, style: MoveStyle, backward: Explored) -> None:
        self.tables = tables
        self.style = style
        starts = backward.layer_starts
        keys = as_keys(backward.states)
        order = np.argsort(keys)
        self.keys = keys[order]
        sizes = [b - a for a, b in itertools.pairwise(starts)]
        self.distances = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)[order]

    @property
    def size(self) -> int:
        return int(self.keys.size)

    def lookup(self, rows: np.ndarray) -> np.ndarray:
        """For each row of codes, its index in the table, or -1 when it is not there."""
        keys = as_keys(rows)
        at = np.searchsorted(self.keys, keys)
        inside = at < self.keys.size
        found = np.zeros(keys.size, bool)
        found[inside] = self.keys[at[inside]] == keys[inside]
        index: np.ndarray = np.where(found, at, -1)
        return index

    def rows(self, indices: np.ndarray) -> np.ndarray:
        """The codes of the configurations at `indices`, one row each."""
        chosen: np.ndarray = self.keys[indices]
        return chosen.view(np.uint64).reshape(len(indices), -1)

    def distance(self, config: Configuration) -> int | None:
        """Fewest moves from `config` to the goal; None outside the component."""
        index = int(self.lookup(self.tables.encode(config.placements).reshape(1, -1))[0])
        return None if index < 0 else int(self.distances[index])

    def toward_goal(self, config: Configuration) -> tuple[Configuration, ...]:
        """The configurations one move from `config` and one move nearer the goal, in the
        order the search meets them (the first is the hint)."""
        here = self.distance(config)
        if not here:
            return ()
        key = self.tables.encode(config.placements).reshape(1, -1)
        at = self.lookup(successors(self.tables.board, self.style, key).keys)
        nearer = [i for i in dict.fromkeys(at.tolist()) if self.distances[i] == here - 1]
        return tuple(self.tables.decode(row) for row in self.rows(np.array(nearer, np.int64)))


@dataclass(frozen=True)
class GoalDistances:
    """Distances to the goal over the component of the start."""

    style: MoveStyle
    component: int
    """Configurations reachable from the start."""
    start_distance: int | None
    """Fewest moves from the start to the goal; None when it cannot be reached."""
    optimal_solutions: int
    """Distinct shortest solutions from the start (sequences of configurations)."""
    to_goal_layers: tuple[int, ...]
    """Configurations of the component at each distance from the goal, 0 (the goal) first."""
    cannot_reach: int
    """Configurations of the component from which the goal cannot be reached."""
    limit_message: str | None = None
    memory_bytes: int = 0
    table: DistanceTable | None = field(default=None, repr=False, compare=False)
    """Each configuration's distance (None when the goal cannot be reached or a limit hit)."""


def to_goal(
    puzzle: Puzzle,
    style: MoveStyle,
    *,
    max_states: int | None = None,
    max_memory: int | None = None,
    jobs: int | None = None,
) -> Generator[Progress, None, GoalDistances]:
    """Label the start's component of `puzzle` with distances to its goal, in `style`."""
    check_style(puzzle, style)
    tables = build_tables(puzzle)
    limits = {"max_states": max_states, "max_memory": max_memory, "jobs": jobs}
    start = tables.encode(puzzle.start.placements).reshape(1, -1)
    forward = yield from explore(tables, start, style, **limits)
    component = forward.layer_starts[-1]
    if forward.limit_message:
        return _limited(style, component, forward)
    goals = forward.states[goal_indices(tables, forward.states)]
    del forward
    if goals.shape[0] == 0:
        return GoalDistances(style, component, None, 0, (), component)
    backward = yield from explore(tables, goals, style, **limits)
    if backward.limit_message:
        return _limited(style, component, backward)
    table = DistanceTable(tables, style, backward)
    distance = int(table.distances[table.lookup(start)[0]])
    solutions = yield from _count_shortest_paths(table, start, distance)
    starts = backward.layer_starts
    return GoalDistances(
        style,
        component,
        distance,
        solutions,
        tuple(b - a for a, b in itertools.pairwise(starts)),
        component - starts[-1],
        None,
        backward.memory_bytes,
        table,
    )


def _limited(style: MoveStyle, component: int, run: Explored) -> GoalDistances:
    return GoalDistances(style, component, None, 0, (), 0, run.limit_message, run.memory_bytes)


def goal_indices(tables: Tables, states: np.ndarray) -> np.ndarray:
    """The indices of the rows of `states` that meet the goal, in order."""
    marks = np.empty(states.shape[0], np.bool_)
    kernels.goal_marks(tables.board, states, tables.goal_test(), marks)
    return np.flatnonzero(marks)


def as_keys(rows: np.ndarray) -> np.ndarray:
    """Each row of codes as one value that sorts and compares whole: the word itself when
    there is one (numbers sort fastest), else the row's bytes."""
    rows = np.ascontiguousarray(rows)
    if rows.shape[1] == 1:
        return rows.ravel()
    return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()


def _count_shortest_paths(
    table: DistanceTable, start: np.ndarray, distance: int
) -> Generator[Progress, None, int]:
    """How many sequences of configurations lead from `start` to the goal in `distance`
    moves.  Going down, layer k holds the configurations k moves from the start on some
    shortest path (each is `distance` - k from the goal); going back up, each one's count
    is the sum of its successors' in the next layer, the goal's being 1."""
    began = time.perf_counter()
    rows = start
    links: list[tuple[int, np.ndarray, np.ndarray]] = []
    for step in range(distance):
        parents, children = [], []
        for lo in range(0, rows.shape[0], PATH_CHUNK):
            found = successors(table.tables.board, table.style, rows[lo : lo + PATH_CHUNK])
            at = table.lookup(found.keys)
            keep = at >= 0
            keep[keep] = table.distances[at[keep]] == distance - step - 1
            parents.append(found.parents[keep] + lo)
            children.append(at[keep])
            yield Progress(
                phase=f"counting shortest solutions, move {step + 1} of {distance}",
                explored=step,
                elapsed=time.perf_counter() - began,
                depth=step,
            )
        pairs = np.unique(np.stack([np.concatenate(parents), np.concatenate(children)]), axis=1)
        used, child = np.unique(pairs[1], return_inverse=True)
        links.append((rows.shape[0], pairs[0], child))
        rows = table.rows(used)
    counts = np.ones(rows.shape[0], object)
    for size, parent, child in reversed(links):
        above = np.zeros(size, object)
        np.add.at(above, parent, counts[child])
        counts = above
    return int(counts[0])

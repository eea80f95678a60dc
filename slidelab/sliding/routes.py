"""The way one move really goes: which pieces it carries and the cells they pass through.

A solution is a list of configurations; a move between two of them shifts one
piece (or one rigid group of pieces, a superpiece) by one displacement.  In the
"path" styles that displacement may bend around other pieces, so a picture that
glides the piece in a straight line would show it passing through them.  This
module recovers a shortest route of the moving group through the cells that were
empty before the move, preferring routes with few turns, so that pictures and
move names follow a legal path one cell step at a time.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from itertools import pairwise

from slidelab.errors import SlidelabError
from slidelab.sliding.model import Cell, Configuration, Placement, Puzzle

STEPS: dict[Cell, str] = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
"""The four unit steps and their names."""


class NoRouteError(SlidelabError, ValueError):
    """Two configurations that no single move of one rigid group connects."""


@dataclass(frozen=True)
class Route:
    """One move: the pieces it carries and the offsets they pass through."""

    pairs: tuple[tuple[Placement, Placement], ...]
    """Each moving piece as (where it was, where it went), sorted."""
    offsets: tuple[Cell, ...]
    """The group's displacement after each cell step, from (0, 0) to the whole move."""

    @property
    def steps(self) -> int:
        """How many unit steps the route takes."""
        return len(self.offsets) - 1

    def legs(self) -> tuple[tuple[str, int], ...]:
        """The route as straight runs: (direction name, cells), in order."""
        runs: list[tuple[str, int]] = []
        for (r0, c0), (r1, c1) in pairwise(self.offsets):
            name = STEPS[(r1 - r0, c1 - c0)]
            if runs and runs[-1][0] == name:
                runs[-1] = (name, runs[-1][1] + 1)
            else:
                runs.append((name, 1))
        return tuple(runs)

    def offset_at(self, t: float) -> tuple[float, float]:
        """Where the group is a fraction `t` (0 to 1) of the way through, cell by cell."""
        if self.steps == 0:
            return (0.0, 0.0)
        position = min(max(t, 0.0), 1.0) * self.steps
        index = min(math.floor(position), self.steps - 1)
        fraction = position - index
        (r0, c0), (r1, c1) = self.offsets[index], self.offsets[index + 1]
        return (r0 + fraction * (r1 - r0), c0 + fraction * (c1 - c0))


def move_route(puzzle: Puzzle, before: Configuration, after: Configuration) -> Route:
    """The pieces moved from `before` to `after` and a shortest route they took.

    Raises NoRouteError when the two are not one move of one rigid group apart.
    """
    pairs = tuple(moved_pieces(before, after))
    if not pairs:
        return Route((), ((0, 0),))
    shifts = {(b.row - a.row, b.col - a.col) for a, b in pairs}
    if len(shifts) != 1:
        raise NoRouteError("the two configurations are not one move apart")
    moving = {a for a, _ in pairs}
    moving_cells: set[Cell] = set()
    blocked: set[Cell] = set(puzzle.obstacles)
    for placement in before.placements:
        cells = puzzle.kind(placement.kind).cells_at(placement.anchor)
        (moving_cells if placement in moving else blocked).update(cells)
    offsets = shortest_route(
        puzzle.rows, puzzle.cols, frozenset(moving_cells), frozenset(blocked), shifts.pop()
    )
    return Route(pairs, offsets)


def shortest_route(
    rows: int, cols: int, moving: frozenset[Cell], blocked: frozenset[Cell], target: Cell
) -> tuple[Cell, ...]:
    """A shortest sequence of unit shifts taking the cells `moving` by `target`, every shifted
    position on the `rows` x `cols` board and clear of `blocked`; among shortest ones, one
    with the fewest turns.  Raises NoRouteError when there is none."""

    def free(offset: Cell) -> bool:
        dr, dc = offset
        return all(
            0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in blocked
            for r, c in moving
        )

    start: tuple[Cell, Cell | None] = ((0, 0), None)
    cost: dict[tuple[Cell, Cell | None], tuple[int, int]] = {start: (0, 0)}
    came: dict[tuple[Cell, Cell | None], tuple[Cell, Cell | None]] = {}
    queue: list[tuple[int, int, Cell, Cell | None]] = [(0, 0, (0, 0), None)]
    while queue:
        steps, turns, offset, heading = heapq.heappop(queue)
        state = (offset, heading)
        if cost[state] < (steps, turns):
            continue
        if offset == target:
            route = [offset]
            while state in came:
                state = came[state]
                route.append(state[0])
            return tuple(reversed(route))
        for step in STEPS:
            moved = (offset[0] + step[0], offset[1] + step[1])
            if not free(moved):
                continue
            following = (moved, step)
            reached = (steps + 1, turns + (heading is not None and heading != step))
            if reached < cost.get(following, (math.inf, math.inf)):
                cost[following] = reached
                came[following] = state
                heapq.heappush(queue, (*reached, moved, step))
    raise NoRouteError(f"no free route shifts the moving pieces by {target}")


def moved_pieces(before: Configuration, after: Configuration) -> list[tuple[Placement, Placement]]:
    """The pieces one move carries, as (where it was, where it went), sorted.

    Pieces of one kind are indistinguishable, so the set difference of the two
    configurations can pair them wrongly: when a group of two '3's moves right by
    one cell, only the left one seems to have left and a new one to have appeared
    two cells away.  A move (of any style, superpiece or not) shifts all its pieces
    by one common displacement, so this looks for the shortest displacement `d` and
    the set `S` of pieces with `after = (before - S) + (S + d)`, and pairs each piece
    of `S` with itself moved by `d`.  If no single displacement explains the change
    (the two configurations are not one move apart), the pieces that left are paired
    with those that arrived kind by kind, in sorted order.
    """
    old, new = set(before.placements), set(after.placements)
    left, arrived = sorted(old - new), sorted(new - old)
    if not left:
        return []
    for dr, dc in _candidate_displacements(left[0], arrived):
        group = _group_moving_by(left, old, new, dr, dc)
        if group is not None:
            return [(p, Placement(p.kind, p.row + dr, p.col + dc)) for p in sorted(group)]
    pairs = []
    for kind in sorted({p.kind for p in left}):
        sources = [p for p in left if p.kind == kind]
        targets = [p for p in arrived if p.kind == kind]
        pairs += list(zip(sources, targets, strict=False))
    return pairs


def _candidate_displacements(first: Placement, arrived: list[Placement]) -> list[Cell]:
    """Displacements that could carry `first` onto an arrived piece, perhaps through a
    chain of same-kind pieces that each take the place of the next: shortest first."""
    found: set[Cell] = set()
    for target in arrived:
        if target.kind != first.kind:
            continue
        dr, dc = target.row - first.row, target.col - first.col
        steps = math.gcd(dr, dc)
        for k in range(1, steps + 1):
            if steps % k == 0:
                found.add((dr // k, dc // k))
    return sorted(found, key=lambda d: (abs(d[0]) + abs(d[1]), d))


def _group_moving_by(
    left: list[Placement], old: set[Placement], new: set[Placement], dr: int, dc: int
) -> set[Placement] | None:
    group: set[Placement] = set()
    todo = list(left)
    while todo:
        piece = todo.pop()
        if piece in group:
            continue
        group.add(piece)
        moved = Placement(piece.kind, piece.row + dr, piece.col + dc)
        if moved not in new:
            return None
        if moved in old:  # it takes the place of a same-kind piece, which must move on too
            todo.append(moved)
    shifted = {Placement(p.kind, p.row + dr, p.col + dc) for p in group}
    return group if (old - group) | shifted == new else None

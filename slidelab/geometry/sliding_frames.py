"""What a sliding-block board view draws: still pictures and pictures mid-move.

A `Frame` is a plain value (board size, pieces with their cells and a fractional
offset, obstacles and goal marks), so the GUI only paints it and tests can check
animations without Qt.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from slidelab.sliding.draft import Draft
from slidelab.sliding.model import Cell, Configuration, PieceKind, Placement, Problem, Puzzle


@dataclass(frozen=True)
class DrawnPiece:
    """One piece as drawn."""

    kind: str
    cells: tuple[Cell, ...]
    """The board cells it covers at rest, anchor first."""
    offset: tuple[float, float]
    """(drow, dcol) added to every cell while it is moving."""
    highlighted: bool = False
    """True for the pieces of the current move."""

    def positions(self) -> tuple[tuple[float, float], ...]:
        """Where its cells are drawn: `cells` plus `offset`."""
        dr, dc = self.offset
        return tuple((r + dr, c + dc) for r, c in self.cells)


@dataclass(frozen=True)
class Frame:
    """Everything a board view paints."""

    rows: int
    cols: int
    pieces: tuple[DrawnPiece, ...]
    obstacles: frozenset[Cell]
    any_cells: frozenset[Cell] = frozenset()
    """Cells of a partial goal that accept any occupant (hatched lightly)."""
    empty_required: frozenset[Cell] = frozenset()
    """Cells a partial goal requires empty (a faint dot)."""
    problem_cells: frozenset[Cell] = frozenset()
    """Cells to mark in red."""


def still_frame(
    source: Draft | Puzzle,
    placements: Iterable[Placement],
    *,
    goal: bool = False,
    problems: Iterable[Problem] = (),
) -> Frame:
    """`placements` at rest on the board of `source` (a draft or a puzzle).

    With `goal`, a partial goal's "any" cells and required-empty cells are marked
    (a full goal needs no marks: every uncovered cell must be empty).  The cells
    of `problems` that lie on the board are marked too.  Pieces of unknown kinds
    are left out.
    """
    kinds = {kind.name: kind for kind in source.kinds}
    pieces = tuple(
        DrawnPiece(p.kind, tuple(kinds[p.kind].cells_at(p.anchor)), (0.0, 0.0))
        for p in placements
        if p.kind in kinds
    )
    any_cells: frozenset[Cell] = frozenset()
    empty_required: frozenset[Cell] = frozenset()
    if goal:
        any_cells, empty_required = _goal_marks(source)

    def on_board(cell: Cell) -> bool:
        return 0 <= cell[0] < source.rows and 0 <= cell[1] < source.cols

    problem_cells = frozenset(cell for p in problems for cell in p.cells if on_board(cell))
    return Frame(
        source.rows,
        source.cols,
        pieces,
        frozenset(source.obstacles),
        any_cells,
        empty_required,
        problem_cells,
    )


def _goal_marks(source: Draft | Puzzle) -> tuple[frozenset[Cell], frozenset[Cell]]:
    if isinstance(source, Draft):
        if not source.partial:
            return frozenset(), frozenset()
        return source.any_cells, source.goal_empty
    if not source.goal.partial:
        return frozenset(), frozenset()
    return source.goal.any_cells - source.obstacles, source.goal.empty


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


def frame_between(puzzle: Puzzle, before: Configuration, after: Configuration, t: float) -> Frame:
    """The board a fraction `t` (0 to 1) of the way through the move from `before` to `after`.

    The pieces that move (see `moved_pieces`) are highlighted and drawn at their
    `before` cells plus `t` times their displacement, in a straight glide even when
    a style-2 or style-5 move follows a bent path; the other pieces are at rest.
    At `t` = 1 the moved pieces rest on their new cells (offset 0), still highlighted,
    so apart from the highlight the frames at 0 and 1 are `still_frame`s of `before`
    and `after`.
    """
    t = min(max(float(t), 0.0), 1.0)
    pairs = moved_pieces(before, after)
    kinds: dict[str, PieceKind] = {kind.name: kind for kind in puzzle.kinds}

    def cells(placement: Placement) -> tuple[Cell, ...]:
        return tuple(kinds[placement.kind].cells_at(placement.anchor))

    pieces = []
    if t == 1.0:
        arrived = {target for _, target in pairs}
        for placement in after.placements:
            lit = placement in arrived
            pieces.append(DrawnPiece(placement.kind, cells(placement), (0.0, 0.0), lit))
    else:
        target = dict(pairs)
        for placement in before.placements:
            offset, lit = (0.0, 0.0), placement in target
            if lit:
                to = target[placement]
                offset = (t * (to.row - placement.row), t * (to.col - placement.col))
            pieces.append(DrawnPiece(placement.kind, cells(placement), offset, lit))
    return Frame(puzzle.rows, puzzle.cols, tuple(pieces), frozenset(puzzle.obstacles))

"""What a sliding-block board view draws: still pictures and pictures mid-move.

A `Frame` is a plain value (board size, pieces with their cells and a fractional
offset, obstacles and goal marks), so the GUI only paints it and tests can check
animations without Qt.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from slidelab.sliding.draft import Draft
from slidelab.sliding.model import (
    Axis,
    Cell,
    Configuration,
    PieceKind,
    Placement,
    Problem,
    Puzzle,
)
from slidelab.sliding.routes import move_route


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
    axis: Axis = Axis.ANY
    """The axis its kind keeps to (drawn as a double-headed arrow along it)."""

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
    goal: tuple[DrawnPiece, ...] = ()
    """The goal's pieces where they must end, drawn as outlines (on the Solution view)."""


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
        DrawnPiece(
            p.kind, tuple(kinds[p.kind].cells_at(p.anchor)), (0.0, 0.0), axis=kinds[p.kind].axis
        )
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


def frame_between(puzzle: Puzzle, before: Configuration, after: Configuration, t: float) -> Frame:
    """The board a fraction `t` (0 to 1) of the way through the move from `before` to `after`.

    The pieces that move (see `move_route`) are highlighted and drawn along a shortest
    route of their group through the cells empty before the move, one cell step after
    another with every step taking the same time, so a bent style-2 or style-5 move is
    drawn as it really goes and never across another piece; the other pieces are at
    rest.  At `t` = 1 the moved pieces rest on their new cells (offset 0), still
    highlighted, so apart from the highlight the frames at 0 and 1 are `still_frame`s of
    `before` and `after`.  Raises NoRouteError when the two are not one move apart.
    """
    t = min(max(float(t), 0.0), 1.0)
    route = move_route(puzzle, before, after)
    kinds: dict[str, PieceKind] = {kind.name: kind for kind in puzzle.kinds}

    def cells(placement: Placement) -> tuple[Cell, ...]:
        return tuple(kinds[placement.kind].cells_at(placement.anchor))

    def axis(placement: Placement) -> Axis:
        return kinds[placement.kind].axis

    pieces = []
    if t == 1.0:
        arrived = {target for _, target in route.pairs}
        for placement in after.placements:
            lit = placement in arrived
            pieces.append(
                DrawnPiece(placement.kind, cells(placement), (0.0, 0.0), lit, axis(placement))
            )
    else:
        moving = {source for source, _ in route.pairs}
        offset = route.offset_at(t)
        for placement in before.placements:
            lit = placement in moving
            shift = offset if lit else (0.0, 0.0)
            pieces.append(DrawnPiece(placement.kind, cells(placement), shift, lit, axis(placement)))
    return Frame(puzzle.rows, puzzle.cols, tuple(pieces), frozenset(puzzle.obstacles))


def solution_frame(puzzle: Puzzle, path: Sequence[Configuration], position: float) -> Frame:
    """The picture `position` moves into the solution `path`, with the goal outlined.

    At a whole move the pieces that just moved stay highlighted; between moves the
    moving pieces are drawn part of the way along their route (`frame_between`).  The
    app's player and the GIF export both draw these frames.
    """
    moves = len(path) - 1
    position = min(max(position, 0.0), float(moves))
    index = math.floor(position)
    fraction = position - index
    if fraction > 0:
        frame = frame_between(puzzle, path[index], path[index + 1], fraction)
    elif index == 0:
        frame = still_frame(puzzle, path[0].placements)
    else:
        frame = frame_between(puzzle, path[index - 1], path[index], 1.0)
    return dataclasses.replace(frame, goal=goal_outline(puzzle))


def solution_frames(
    puzzle: Puzzle, path: Sequence[Configuration], steps_per_move: int
) -> Iterator[Frame]:
    """The frames of an animation of the solution `path`: `steps_per_move` per move, each
    move drawn cell by cell along its route (`solution_frame`), then the goal reached.
    The GIF and PNG-frame exports render these."""
    moves = len(path) - 1
    for step in range(moves * steps_per_move + 1):
        yield solution_frame(puzzle, path, step / steps_per_move)


def goal_outline(puzzle: Puzzle) -> tuple[DrawnPiece, ...]:
    """The pieces the goal places, at rest where they must end, for outlining."""
    kinds = {kind.name: kind for kind in puzzle.kinds}
    return tuple(
        DrawnPiece(p.kind, tuple(kinds[p.kind].cells_at(p.anchor)), (0.0, 0.0))
        for p in puzzle.goal.placements
        if p.kind in kinds
    )


def current_move(position: float) -> int:
    """The number of the move shown `position` moves into a solution: the move under way
    between whole moves, else the move just made (0 at the start).  The player's counter and
    the move list's highlight both show this number."""
    return math.ceil(position)

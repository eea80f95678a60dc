"""Rush Hour positions written as one line of letters, turned into sliding-block puzzles.

The Rush Hour community writes a 6 x 6 position as 36 characters, row by row:
`.` or `o` an empty cell, `x` a wall, and each other letter one car or truck (two
or three cells in a line).  The red car must leave by the right edge of its row,
so the goal is the red car against that edge; every other vehicle may end
anywhere.  Cars of one length and direction are one piece kind (interchangeable),
the red car a kind of its own, and every kind keeps to its axis.
"""

from __future__ import annotations

from dataclasses import dataclass

from slidelab.errors import ParseError
from slidelab.sliding.model import Axis, Cell, Configuration, Goal, PieceKind, Placement, Puzzle

SIDE = 6
EMPTY = ".o"
WALL = "x"


@dataclass(frozen=True)
class _Vehicle:
    letter: str
    cells: tuple[Cell, ...]

    @property
    def axis(self) -> Axis:
        return Axis.HORIZONTAL if self.cells[0][0] == self.cells[-1][0] else Axis.VERTICAL


def parse_rush_hour(text: str, red: str = "A", title: str = "", source: str = "<string>") -> Puzzle:
    """The puzzle of the position `text` whose red car is the letter `red`.

    Errors name the column of `text` (line 1) where the position goes wrong.
    """
    if len(text) != SIDE * SIDE:
        raise ParseError(
            source, 1, 1, f"a Rush Hour position has {SIDE * SIDE} cells, not {len(text)}"
        )
    letters: dict[str, list[Cell]] = {}
    walls: set[Cell] = set()
    for index, char in enumerate(text):
        cell = divmod(index, SIDE)
        if char == WALL:
            walls.add(cell)
        elif char not in EMPTY:
            letters.setdefault(char, []).append(cell)
    vehicles = [_vehicle(letter, cells, text, source) for letter, cells in letters.items()]
    if red not in letters:
        raise ParseError(source, 1, 1, f"no red car '{red}' in the position")
    red_car = next(v for v in vehicles if v.letter == red)
    if red_car.axis is not Axis.HORIZONTAL:
        column = red_car.cells[0][0] * SIDE + red_car.cells[0][1] + 1
        raise ParseError(source, 1, column, f"the red car '{red}' must lie along its row")
    kinds = _kinds(vehicles, red)
    placements = tuple(Placement(kinds[_shape(v, red)].name, *v.cells[0]) for v in vehicles)
    row = red_car.cells[0][0]
    exit_anchor = (row, SIDE - len(red_car.cells))
    red_name = kinds[_shape(red_car, red)].name
    red_cells = set(kinds[_shape(red_car, red)].cells_at(exit_anchor))
    board = {divmod(index, SIDE) for index in range(SIDE * SIDE)}
    goal = Goal(
        placements=(Placement(red_name, *exit_anchor),),
        empty=frozenset(),
        partial=True,
        any_cells=frozenset(board - red_cells - walls),
    )
    return Puzzle(
        rows=SIDE,
        cols=SIDE,
        kinds=tuple(sorted(kinds.values(), key=lambda kind: kind.name)),
        obstacles=frozenset(walls),
        start=Configuration.of(sorted(placements, key=lambda p: (p.row, p.col))),
        goal=goal,
        title=title,
    )


def _vehicle(letter: str, cells: list[Cell], text: str, source: str) -> _Vehicle:
    """Check that `letter`'s cells form a straight car or truck."""
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    top, left = cells[0]
    straight = (len(rows) == 1 and cols == set(range(left, left + len(cells)))) or (
        len(cols) == 1 and rows == set(range(top, top + len(cells)))
    )
    if not straight or not 2 <= len(cells) <= 3:
        column = text.index(letter) + 1
        raise ParseError(
            source, 1, column, f"'{letter}' is not a car or truck (2 or 3 cells in a line)"
        )
    return _Vehicle(letter, tuple(cells))


def _shape(vehicle: _Vehicle, red: str) -> tuple[bool, Axis, int]:
    return (vehicle.letter != red, vehicle.axis, len(vehicle.cells))


def _kinds(vehicles: list[_Vehicle], red: str) -> dict[tuple[bool, Axis, int], PieceKind]:
    """One kind per (red or not, axis, length), named 1, 2, ... in that order: red first."""
    shapes = sorted({_shape(v, red) for v in vehicles}, key=lambda s: (s[0], s[1].value, s[2]))
    kinds = {}
    for number, shape in enumerate(shapes, start=1):
        _, axis, length = shape
        cells = {(0, i) if axis is Axis.HORIZONTAL else (i, 0) for i in range(length)}
        kinds[shape] = PieceKind.from_cells(str(number), cells, axis)
    return kinds

"""Knuth's polycube specs (POLYCUBE-DLX input), parsed and formatted.

    | comment lines start with '|'
    [0-2][0-2][0-2]          the box: cells xyz, one radix-62 digit per coordinate
    V 000 100 010            a piece: its name, then its typical cells
    2*L 000 100 200 010      '2*' gives the piece a multiplicity (one radix-62 digit)
    L 000 001 002 010        another line for L: its placements are added to the others

Digits are 0-9, a-z, A-Z (0 to 61).  A coordinate is one digit or a bracketed
set of digits and ranges, so '[01]a[9b]' is four cells and '[1-3][1-4][1-5]' a
3 x 4 x 5 cuboid.  Cells are separated by blanks.  Piece names are 1-8
characters without '|', ':' or '*', and a three-character name must not be a
cell of the box.  As in the seed, a piece line without cells is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from slidelab.errors import ParseError

Cell = tuple[int, int, int]

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The radix-62 digits, in value order."""

MAX_NAME = 8
"""Longest piece name, as in the seed and in DLX files."""

_VALUE = {digit: value for value, digit in enumerate(DIGITS)}


@dataclass(frozen=True)
class PieceSpec:
    """One piece kind: its name, how many copies, and the typical cells of each of its lines."""

    name: str
    """1-8 characters, the piece's item in the exact-cover problem."""
    multiplicity: int
    """How many copies of the piece must be placed (1 to 61)."""
    shapes: tuple[tuple[Cell, ...], ...]
    """The sorted cells of every line that names the piece, in input order."""
    line: int = field(default=0, compare=False)
    """The input line that first names the piece (0 when it was not read from text), for
    messages about the piece."""


@dataclass(frozen=True)
class Spec:
    """A box to fill and the pieces to fill it with."""

    box: tuple[Cell, ...]
    """The box's cells, sorted, each once."""
    pieces: tuple[PieceSpec, ...]
    """The piece kinds, in order of first appearance."""


def encode(value: int) -> str:
    """The radix-62 digit of `value` (0 <= value < 62)."""
    return DIGITS[value]


def cell_name(cell: Cell) -> str:
    """The three-digit name 'xyz' of a cell, also its item name in DLX files."""
    return "".join(DIGITS[c] for c in cell)


def parse_spec(text: str, source: str = "<input>") -> Spec:
    """The spec in `text`; errors are `ParseError`s naming `source`, line and column."""
    box: tuple[Cell, ...] | None = None
    names: dict[str, int] = {}
    shapes: dict[str, list[tuple[Cell, ...]]] = {}
    first_lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("|") or not line.strip():
            continue
        if box is None:
            box = tuple(sorted(set(_cells(source, number, line, 0))))
            if not box:
                raise ParseError(source, number, 1, "the box has no cells")
            continue
        piece = _piece_line(source, number, line, set(box), names)
        if piece is not None:
            name, cells = piece
            shapes.setdefault(name, []).append(cells)
            first_lines.setdefault(name, number)
    if box is None:
        raise ParseError(source, 1, 1, "the input ended before the box specification")
    pieces = tuple(
        PieceSpec(name, names[name], tuple(lines), first_lines[name])
        for name, lines in shapes.items()
    )
    return Spec(box, pieces)


def format_spec(spec: Spec) -> str:
    """`spec` in the seed's format: the box line, then one line per piece line."""
    lines = [" ".join(cell_name(c) for c in spec.box)]
    for piece in spec.pieces:
        prefix = "" if piece.multiplicity == 1 else f"{encode(piece.multiplicity)}*"
        for shape in piece.shapes:
            lines.append(" ".join([prefix + piece.name, *(cell_name(c) for c in shape)]))
    return "\n".join(lines) + "\n"


def _piece_line(
    source: str, number: int, line: str, box: set[Cell], names: dict[str, int]
) -> tuple[str, tuple[Cell, ...]] | None:
    """(name, sorted cells) of a piece line, or None for a piece without cells."""
    multiplicity, start = 1, 0
    if len(line) > 1 and line[1] == "*":
        value = _VALUE.get(line[0])
        if value is None:
            raise ParseError(source, number, 1, f"unknown multiplicity '{line[0]}'")
        if value == 0:
            raise ParseError(source, number, 1, "the multiplicity must be at least 1")
        multiplicity, start = value, 2
    end = line.find(" ", start)
    name = line[start:] if end < 0 else line[start:end]
    for offset, char in enumerate(name):
        if char in "|:*":
            raise ParseError(
                source, number, start + offset + 1, f"illegal character {char!r} in piece name"
            )
    if not name or len(name) > MAX_NAME:
        raise ParseError(
            source, number, start + 1, f"piece name is missing or longer than {MAX_NAME} characters"
        )
    if len(name) == 3 and all(c in _VALUE for c in name) and _parse_name(name) in box:
        raise ParseError(source, number, start + 1, f"piece name '{name}' is a cell of the box")
    cells = () if end < 0 else tuple(sorted(set(_cells(source, number, line, end))))
    if not cells:
        return None  # the seed ignores an empty piece too
    known = names.setdefault(name, multiplicity)
    if known != multiplicity:
        raise ParseError(
            source,
            number,
            1,
            f"inconsistent multiplicities for piece {name}, {known} vs {multiplicity}",
        )
    return name, cells


def _parse_name(name: str) -> Cell:
    return (_VALUE[name[0]], _VALUE[name[1]], _VALUE[name[2]])


def _cells(source: str, number: int, line: str, position: int) -> list[Cell]:
    """Every cell named from `line[position:]`: blank-separated triples of digit sets."""
    cells: list[Cell] = []
    while position < len(line):
        if line[position] == " ":
            position += 1
            continue
        coordinates: list[list[int]] = []
        for _ in range(3):
            if position >= len(line):
                raise ParseError(
                    source, number, position + 1, "incomplete cell: a cell has three coordinates"
                )
            values, position = _digit_set(source, number, line, position)
            coordinates.append(values)
        if position < len(line) and line[position] != " ":
            raise ParseError(source, number, position + 1, "missing space after a cell")
        cells += [(x, y, z) for x in coordinates[0] for y in coordinates[1] for z in coordinates[2]]
    return cells


def _digit_set(source: str, number: int, line: str, position: int) -> tuple[list[int], int]:
    """The sorted values named at `line[position]` (a digit or a bracket) and what follows."""
    if line[position] != "[":
        value = _VALUE.get(line[position])
        if value is None:
            raise ParseError(source, number, position + 1, f"illegal digit {line[position]!r}")
        return [value], position + 1
    values: set[int] = set()
    low = last = -1  # low: start of a pending range; last: the digit just read, if any
    position += 1
    while True:
        if position >= len(line):
            raise ParseError(source, number, position + 1, "no closing bracket")
        char = line[position]
        if char == "]":
            return sorted(values), position + 1
        if char == "-":
            if last < 0 or position + 1 >= len(line) or line[position + 1] == "]":
                raise ParseError(source, number, position + 1, "illegal range")
            low, last = last, -1
        else:
            value = _VALUE.get(char)
            if value is None:
                raise ParseError(source, number, position + 1, f"illegal bracketed digit {char!r}")
            if low < 0:
                values.add(value)
                last = value
            else:
                if value < low:
                    raise ParseError(source, number, position + 1, "decreasing range")
                values.update(range(low, value + 1))
                low = last = -1
        position += 1

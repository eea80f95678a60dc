"""Knuth's sliding-block text format, read and written.

    5 x 5 (a silly example)          size line: ROWS x COLUMNS, then any comment
    1 = 111/01                       piece kinds: name = rows of 0/1 joined by '/'
    2 = 101/111
    3 = 1 h                          (slidelab: h or v limits a kind to one axis)
    1xx200000000033                  start line
    000xx00033001002                 stop line

A configuration line names, for each topmost-leftmost cell not yet covered, the
piece kind whose anchor sits there, `0` for an empty cell or `x` for an obstacle;
trailing zeros may be left out.  slidelab adds partial goals: in the stop line
`*` means "any occupant", and when the stop line has a `*`, the cells it leaves
out at the end mean "any" too.  Lines starting with `#` are comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from slidelab.errors import ParseError
from slidelab.fileio import read_text
from slidelab.integers import DIGITS, whole_number
from slidelab.sliding.model import (
    KIND_NAMES,
    Axis,
    Cell,
    Configuration,
    Goal,
    PieceKind,
    Placement,
    Puzzle,
    goal_problems,
)

MAX_CELLS = 4096
"""Largest board (in cells) slidelab accepts: 64 x 64."""

_SIZE_LINE = re.compile(rf"\s*({DIGITS})\s*x\s*({DIGITS})(.*)")
_PIECE_LINE = re.compile(r"(\s*)(.*?)\s*=\s*(.*)")


@dataclass(frozen=True)
class _Line:
    number: int
    text: str


@dataclass
class _Scan:
    """What one configuration line says, with the column each cell came from."""

    placements: list[Placement]
    obstacles: dict[Cell, int]
    empty: set[Cell]
    any_cells: set[Cell]
    column_of: dict[Cell, int]
    end_column: int


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.lines = [
            _Line(i + 1, t.rstrip("\r\n").rstrip()) for i, t in enumerate(text.split("\n"))
        ]
        self.notes: list[str] = []

    def error(self, line: int, column: int, message: str) -> ParseError:
        return ParseError(self.source, line, column, message)

    def content(self) -> list[_Line]:
        """Non-blank, non-comment lines; comment lines are kept as notes."""
        kept = []
        for line in self.lines:
            stripped = line.text.strip()
            if stripped.startswith("#"):
                self.notes.append(stripped[1:].strip())
            elif stripped:
                kept.append(line)
        return kept


def parse_puzzle(text: str, source: str = "<string>") -> Puzzle:
    """Read a puzzle; raise `ParseError` naming the line and column of the first problem."""
    reader = _Reader(text, source)
    lines = reader.content()
    if not lines:
        raise reader.error(1, 1, "empty file: expected the board size as 'ROWS x COLUMNS'")
    rows, cols, title = _parse_size(reader, lines[0])
    index = 1
    kinds: dict[str, PieceKind] = {}
    while index < len(lines) and "=" in lines[index].text:
        kind = _parse_kind(reader, lines[index], cols)
        if kind.name in kinds:
            raise reader.error(lines[index].number, 1, f"piece {kind.name} is defined twice")
        kinds[kind.name] = kind
        index += 1
    last = reader.lines[-1].number
    if index >= len(lines):
        raise reader.error(last, 1, "missing the start configuration line")
    start_line = lines[index]
    if index + 1 >= len(lines):
        raise reader.error(last, 1, "missing the stop configuration line")
    stop_line = lines[index + 1]
    if index + 2 < len(lines):
        extra = lines[index + 2]
        raise reader.error(extra.number, 1, "unexpected text after the stop line")

    start = _scan_configuration(reader, start_line, rows, cols, kinds, is_goal=False)
    if not start.placements:
        raise reader.error(start_line.number, 1, "the start configuration has no pieces")
    obstacles = frozenset(start.obstacles)
    stop = _scan_configuration(reader, stop_line, rows, cols, kinds, is_goal=True)
    partial = bool(stop.any_cells)
    _check_obstacles(reader, stop_line.number, stop, obstacles, partial)
    goal = Goal(
        placements=tuple(sorted(stop.placements)),
        empty=frozenset(stop.empty - obstacles),
        partial=partial,
        any_cells=frozenset(stop.any_cells),
    )
    start_config = Configuration.of(start.placements)
    for problem in goal_problems(start_config, goal):
        column = stop.column_of.get(problem.cells[-1], 1) if problem.cells else 1
        raise reader.error(stop_line.number, column, problem.message)
    return Puzzle(
        rows=rows,
        cols=cols,
        kinds=tuple(kinds[name] for name in KIND_NAMES if name in kinds),
        obstacles=obstacles,
        start=start_config,
        goal=goal,
        title=title,
        notes=tuple(reader.notes),
    )


def _parse_size(reader: _Reader, line: _Line) -> tuple[int, int, str]:
    match = _SIZE_LINE.fullmatch(line.text)
    if not match:
        raise reader.error(line.number, 1, "expected the board size as 'ROWS x COLUMNS'")
    rows, cols = whole_number(match.group(1), MAX_CELLS), whole_number(match.group(2), MAX_CELLS)
    if rows == 0 or cols == 0:
        raise reader.error(line.number, 1, "the board needs at least one row and one column")
    if rows is None or cols is None or rows * cols > MAX_CELLS:
        raise reader.error(line.number, 1, f"the board may have at most {MAX_CELLS} cells")
    return rows, cols, match.group(3).strip()


def _parse_kind(reader: _Reader, line: _Line, cols: int) -> PieceKind:
    match = _PIECE_LINE.fullmatch(line.text)
    assert match is not None  # the caller checked for '='
    name_col = len(match.group(1)) + 1
    name = match.group(2)
    if len(name) != 1 or name not in KIND_NAMES:
        raise reader.error(line.number, name_col, f"bad piece name '{name}': use 1-9 or a-f")
    pattern_col = match.start(3) + 1
    pattern, _, suffix = match.group(3).partition(" ")
    cells: set[Cell] = set()
    row = col = 0
    for offset, char in enumerate(pattern):
        if char == "/":
            row, col = row + 1, 0
            continue
        if char not in "01":
            raise reader.error(
                line.number,
                pattern_col + offset,
                f"bad character {char!r} in the pattern of piece {name}",
            )
        if char == "1":
            cells.add((row, col))
        col += 1
    if not cells:
        raise reader.error(line.number, pattern_col, f"piece {name} is empty")
    axis_col = pattern_col + len(pattern) + 1 + len(suffix) - len(suffix.lstrip())
    return PieceKind.from_cells(name, cells, _parse_axis(reader, line, axis_col, name, suffix))


def _parse_axis(reader: _Reader, line: _Line, column: int, name: str, suffix: str) -> Axis:
    """The axis a piece line's suffix names (`h` or `v`); no suffix: any way."""
    word = suffix.strip()
    for axis in Axis:
        if word == axis.value:
            return axis
    raise reader.error(
        line.number,
        column,
        f"bad move limit '{word}' for piece {name}: use h (horizontal only) or v (vertical only)",
    )


def _scan_configuration(
    reader: _Reader,
    line: _Line,
    rows: int,
    cols: int,
    kinds: dict[str, PieceKind],
    *,
    is_goal: bool,
) -> _Scan:
    filled: set[Cell] = set()
    scan = _Scan([], {}, set(), set(), {}, len(line.text) + 1)
    cursor = 0
    where = "stop" if is_goal else "start"
    for offset, char in enumerate(line.text):
        column = offset + 1
        while cursor < rows * cols and divmod(cursor, cols) in filled:
            cursor += 1
        if cursor >= rows * cols:
            raise reader.error(
                line.number,
                column,
                f"the {where} line names more cells than the {rows} x {cols} board has",
            )
        cell = divmod(cursor, cols)
        if char == "0":
            covered = [cell]
            scan.empty.add(cell)
        elif char == "x":
            covered = [cell]
            scan.obstacles[cell] = column
        elif char == "*" and is_goal:
            covered = [cell]
            scan.any_cells.add(cell)
        elif char == "*":
            raise reader.error(
                line.number, column, "'*' (any occupant) is allowed only in the stop line"
            )
        elif char in KIND_NAMES:
            if char not in kinds:
                raise reader.error(line.number, column, f"unknown piece {char!r}")
            covered = kinds[char].cells_at(cell)
            where_text = f"piece {char} at row {cell[0]}, column {cell[1]}"
            if any(not (0 <= r < rows and 0 <= c < cols) for r, c in covered):
                raise reader.error(line.number, column, f"{where_text} does not fit on the board")
            if any(c in filled for c in covered):
                raise reader.error(
                    line.number, column, f"{where_text} overlaps a cell already filled"
                )
            scan.placements.append(Placement(char, *cell))
        else:
            raise reader.error(
                line.number, column, f"unexpected character {char!r} in the {where} line"
            )
        filled.update(covered)
        for c in covered:
            scan.column_of[c] = column
    for index in range(rows * cols):
        cell = divmod(index, cols)
        if cell not in filled:
            (scan.any_cells if is_goal and scan.any_cells else scan.empty).add(cell)
    return scan


def _check_obstacles(
    reader: _Reader, line: int, stop: _Scan, obstacles: frozenset[Cell], partial: bool
) -> None:
    for cell, column in stop.obstacles.items():
        if cell not in obstacles:
            raise reader.error(
                line,
                column,
                f"the stop line has an obstacle at row {cell[0]}, "
                f"column {cell[1]} where the start line has none",
            )
    for cell in sorted(obstacles - set(stop.obstacles)):
        if partial and cell in stop.any_cells:
            continue
        column = stop.column_of.get(cell, stop.end_column)
        raise reader.error(
            line,
            column,
            f"row {cell[0]}, column {cell[1]} is an obstacle in "
            "the start line but not in the stop line",
        )


def format_configuration(
    puzzle: Puzzle, placements: tuple[Placement, ...], any_cells: frozenset[Cell] = frozenset()
) -> str:
    """The shorthand line for `placements`: trailing zeros (or stars) left out."""
    anchored = {p.anchor: p for p in placements}
    filled: set[Cell] = set()
    chars = []
    for index in range(puzzle.cell_count):
        cell = divmod(index, puzzle.cols)
        if cell in filled:
            continue
        if cell in anchored:
            kind = puzzle.kind(anchored[cell].kind)
            chars.append(kind.name)
            filled.update(kind.cells_at(cell))
            continue
        if cell in puzzle.obstacles:
            chars.append("x")
        elif cell in any_cells:
            chars.append("*")
        else:
            chars.append("0")
        filled.add(cell)
    text = "".join(chars)
    if any_cells:
        trimmed = text.rstrip("*")
        return trimmed if "*" in trimmed else trimmed + "*"
    return text.rstrip("0")


def format_puzzle(puzzle: Puzzle) -> str:
    """The whole puzzle in Knuth's format; notes follow the stop line as `#` comments."""
    size = f"{puzzle.rows} x {puzzle.cols}"
    lines = [f"{size} {puzzle.title}" if puzzle.title else size]
    lines += [f"{kind.name} = {kind.pattern()} {kind.axis.value}".rstrip() for kind in puzzle.kinds]
    lines.append(format_configuration(puzzle, puzzle.start.placements))
    goal = puzzle.goal
    lines.append(format_configuration(puzzle, goal.placements, goal.any_cells))
    lines += [f"# {note}" if note else "#" for note in puzzle.notes]
    return "\n".join(lines) + "\n"


def read_puzzle_file(path: str) -> Puzzle:
    """Read a puzzle file; errors name the file, line and column."""
    return parse_puzzle(read_text(path), source=path)

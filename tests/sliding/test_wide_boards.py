"""Boards 64 or more columns wide and puzzles of more than 63 pieces, in every move style.

A single piece's moving set once went into a 64-bit mask of vertices (piece + 1), shifted by
64 or more from piece 63 on.  Compiled code takes such a shift modulo 64, so a piece could
step onto the piece numbered 64 after it: its neighbour below on a board 64 or 65 columns
wide.  The broken codes that followed crashed the search (SIGSEGV, in style 2 mostly) or
made it count configurations no move gives.  A piece may still enter the cells it stands on
(a ring round its hole, below).  The searches here run in a child process, so that a crash
fails the test that sent the puzzle instead of ending pytest.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slidelab
from slidelab.sliding.reference import reference_layers
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle

ROOT = Path(slidelab.__file__).resolve().parents[1]
"""Where the child imports the same `slidelab` as these tests."""

MAX_STATES = 100_000
"""Bound on a child's search: a broken one (which meets codes no move gives) stops there."""

CHILD = f"""
import json
import sys

from slidelab.runs import drive
from slidelab.sliding.search import analyze
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle

for line in sys.stdin:
    text, style = json.loads(line)
    puzzle = parse_puzzle(text, "p.slide")
    found = drive(analyze(puzzle, MoveStyle.ALL[style], max_states={MAX_STATES}, jobs=1))
    print(json.dumps(found.layers), flush=True)
"""
"""The child: analyzes each (puzzle text, style number) line it reads, printing the layers."""


class Searcher:
    """A child process that gives the layers of the puzzles sent to it (started again after
    it died, so that one crash fails one test)."""

    def __init__(self) -> None:
        self._child: subprocess.Popen[str] | None = None

    def layers(self, text: str, style: int) -> tuple[int, ...]:
        """The sizes of the breadth-first layers of `text` in style number `style`."""
        if self._child is None:
            self._child = subprocess.Popen(
                [sys.executable, "-c", CHILD],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
        child = self._child
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(json.dumps([text, style]) + "\n")
        child.stdin.flush()
        line = child.stdout.readline()
        if not line:
            self._child = None
            status = child.wait()
            raise AssertionError(
                f"the search ended with status {status} in style {style} on\n{text}"
            )
        return tuple(json.loads(line))

    def close(self) -> None:
        """End the child (it stops at the end of its input)."""
        if self._child is not None:
            assert self._child.stdin is not None
            self._child.stdin.close()
            self._child.wait()
            self._child = None


@pytest.fixture(scope="module")
def searcher() -> Iterator[Searcher]:
    found = Searcher()
    yield found
    found.close()


def board_text(
    rows: int, cols: int, start: str, stop: str | None = None, kinds: str = "1 = 1"
) -> str:
    """A .slide file: the board, the kind lines, the start and stop lines (the stop is the
    start unless given)."""
    return f"{rows} x {cols} test\n{kinds}\n{start}\n{start if stop is None else stop}\n"


def full_board(rows: int, cols: int) -> str:
    """Unit pieces everywhere but the last cell; the goal has the hole at the first."""
    pieces = "1" * (rows * cols - 1)
    return board_text(rows, cols, pieces, "0" + pieces)


def hole_walk(rows: int, cols: int, walls: frozenset[int], hole: int) -> tuple[int, ...]:
    """The layers of a board full of unit pieces of one kind but for `hole` and the obstacles
    `walls` (cells in reading order): in styles 0-2 every move takes the piece beside the hole
    into it, so they are the layers of a breadth-first search of the hole over free cells."""
    distance = {hole: 0}
    queue = [hole]
    for cell in queue:
        r, c = divmod(cell, cols)
        for rr, cc in ((r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)):
            near = rr * cols + cc
            if 0 <= rr < rows and 0 <= cc < cols and near not in walls and near not in distance:
                distance[near] = distance[cell] + 1
                queue.append(near)
    counts = Counter(distance.values())
    return tuple(counts[d] for d in range(len(counts)))


def test_the_reported_board_is_solved_by_the_command(tmp_path):
    path = tmp_path / "seg.slide"
    path.write_text(full_board(2, 64))
    done = subprocess.run(
        [sys.executable, "-m", "slidelab", "slide", str(path), "--style", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "style 2: 64 moves (128 configurations explored)" in done.stdout


@pytest.mark.parametrize(
    ("rows", "cols"), [(2, 64), (2, 65), (3, 64), (32, 64), (64, 64), (1, 4096), (4096, 1)]
)
@pytest.mark.parametrize("style", [0, 1, 2])
def test_a_full_board_moves_its_hole_in_single_piece_styles(searcher, rows, cols, style):
    expected = hole_walk(rows, cols, frozenset(), rows * cols - 1)
    assert searcher.layers(full_board(rows, cols), style) == expected


DOMINO_BESIDE_THE_HOLE = board_text(
    2, 65, "10" + "2" * 127, "1" + "2" * 127, kinds="1 = 1/1\n2 = 1"
)
"""A domino (piece 0) with the hole to its right and piece 64, a unit, below the hole: the
old mask took the cell of piece 64 for the domino's own and let it step right."""


@pytest.mark.parametrize(
    ("text", "style"),
    [
        pytest.param(full_board(2, 64), 2, id="2x64-style2"),
        pytest.param(full_board(2, 65), 2, id="2x65-style2"),
    ]
    + [pytest.param(DOMINO_BESIDE_THE_HOLE, s, id=f"domino-style{s}") for s in (0, 1, 2)],
)
def test_wide_boards_agree_with_the_reference(searcher, text, style):
    expected = reference_layers(parse_puzzle(text, "p.slide"), MoveStyle.ALL[style])
    assert searcher.layers(text, style) == expected


def ring_round_its_hole(filler: str) -> str:
    """A ring on a board too big for bitboards that reaches one of its places only by a step
    into a cell it stands on (a piece's own cells are free to it).  Obstacles keep its moves
    few; the 33 columns on the right hold `filler`: obstacles ("x"), or 132 unit pieces ("1")
    numbered before the ring, whose vertex is then 133."""
    block = filler * 33
    line = "2x0xx" + block + "00x0x" + block + "000x" + block + "0000x0x" + block
    return board_text(4, 40, line, kinds="1 = 1\n2 = 111/101/111")


@pytest.mark.parametrize(
    ("text", "style"),
    [pytest.param(ring_round_its_hole("x"), s, id=f"alone-style{s}") for s in range(6)]
    + [pytest.param(ring_round_its_hole("1"), s, id=f"after-units-style{s}") for s in range(3)],
)
def test_a_piece_may_enter_its_own_cells_on_a_big_board(searcher, text, style):
    expected = reference_layers(parse_puzzle(text, "p.slide"), MoveStyle.ALL[style])
    assert searcher.layers(text, style) == expected


def test_sixty_three_pieces_on_a_wide_row_in_superpiece_styles(searcher):
    text = board_text(1, 64, "1" * 63, "0" + "1" * 63)
    for style in (3, 4, 5):
        # any run of pieces beside the hole shifts into it at once
        assert searcher.layers(text, style) == (1, 63)


def test_one_piece_on_the_largest_board_in_every_style(searcher):
    text = board_text(64, 64, "1", "0" * 4095 + "1")
    # a lone piece walks as a lone hole does; it moves alone in every style, so styles 3-5
    # reach what styles 0-2 do
    expected = [hole_walk(64, 64, frozenset(), 0), (1, 126, 4096 - 127), (1, 4095)]
    for style in range(6):
        assert searcher.layers(text, style) == expected[style % 3]


@st.composite
def walled_full_boards(draw: st.DrawFn) -> tuple[int, int, frozenset[int], int]:
    """(rows, cols, obstacles, hole) of a board about 64 (or 128) columns wide, full of unit
    pieces but for one hole and a few obstacles (cells in reading order)."""
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(60, 68) | st.integers(126, 130))
    walls = draw(st.frozensets(st.integers(0, rows * cols - 1), max_size=4))
    hole = draw(st.integers(0, rows * cols - 1).filter(lambda cell: cell not in walls))
    return rows, cols, walls, hole


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=walled_full_boards(), style=st.sampled_from([0, 1, 2]))
def test_boards_about_64_columns_wide(searcher, board, style):
    rows, cols, walls, hole = board
    line = "".join("x" if c in walls else "0" if c == hole else "1" for c in range(rows * cols))
    text = board_text(rows, cols, line)
    assert searcher.layers(text, style) == hole_walk(rows, cols, walls, hole)

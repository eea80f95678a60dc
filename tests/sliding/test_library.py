"""The library of classic puzzles in resources/puzzles/sliding.

Every `.slide` file must parse, keep its comments after the stop line (Knuth's own program
ignores what follows the stop line, so the files stay readable by it), and state its shortest
solutions in a machine-readable comment line:

    # optimal: style 2 = 81, style 1 = 90
    # optimal (slow): style 0 = 48
    # layers (style 0, from the start): 1, 2, 3, 5, ...

The `optimal` counts are checked against `solve`; the `optimal (slow)` ones only when the
environment variable SLIDELAB_SLOW is set; a `layers` line is checked against `analyze`.
"""

from __future__ import annotations

import os
import re

import pytest

from slidelab.library import shipped_names, shipped_text
from slidelab.runs import drive
from slidelab.sliding.model import Puzzle
from slidelab.sliding.search import analyze, solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle

MAX_STATES = 5_000_000
"""Far more than any quick library puzzle needs; a regression stops here instead of hanging."""

RUN_SLOW = bool(os.environ.get("SLIDELAB_SLOW"))

_OPTIMAL = re.compile(r"#\s*optimal\s*(\(slow\))?\s*:(.*)")
_STYLE_COUNT = re.compile(r"style\s+(\d)\s*=\s*(\d+)")
_LAYERS = re.compile(r"#\s*layers\s*\(style\s+(\d)[^)]*\)\s*:(.*)")


LIBRARY = [(name, shipped_text("sliding", name)) for name in shipped_names("sliding")]
TEXTS = dict(LIBRARY)


def _claims(text: str) -> list[tuple[int, int, bool]]:
    """(style, moves, slow) for every count the `optimal` comment lines state."""
    claims = []
    for line in text.splitlines():
        match = _OPTIMAL.fullmatch(line.strip())
        if match:
            slow = match.group(1) is not None
            for style, moves in _STYLE_COUNT.findall(match.group(2)):
                claims.append((int(style), int(moves), slow))
    return claims


def _layers(text: str) -> list[tuple[int, tuple[int, ...]]]:
    found = []
    for line in text.splitlines():
        match = _LAYERS.fullmatch(line.strip())
        if match:
            counts = tuple(int(n) for n in re.findall(r"\d+", match.group(2)))
            found.append((int(match.group(1)), counts))
    return found


def _puzzle(name: str) -> Puzzle:
    return parse_puzzle(TEXTS[name], source=name)


def _solve_cases() -> list[pytest.param]:
    cases = []
    for name, text in LIBRARY:
        for style, moves, slow in _claims(text):
            marks = [pytest.mark.skipif(not RUN_SLOW, reason="slow; set SLIDELAB_SLOW=1")]
            cases.append(
                pytest.param(
                    name, style, moves, id=f"{name[:-6]}-style{style}", marks=marks if slow else []
                )
            )
    return cases


def _layer_cases() -> list[pytest.param]:
    return [
        pytest.param(name, style, counts, id=f"{name[:-6]}-style{style}")
        for name, text in LIBRARY
        for style, counts in _layers(text)
    ]


def test_the_library_has_at_least_ten_puzzles() -> None:
    assert len(LIBRARY) >= 10, [name for name, _ in LIBRARY]


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_file_parses_and_says_what_it_is(name: str) -> None:
    puzzle = _puzzle(name)
    assert puzzle.title, f"{name}: the size line should name the puzzle"
    assert any(note.startswith("name:") for note in puzzle.notes), f"{name}: no '# name:' line"
    assert _claims(TEXTS[name]), f"{name}: no '# optimal:' line"
    quick = [claim for claim in _claims(TEXTS[name]) if not claim[2]]
    assert quick, f"{name}: every stated count is marked slow"


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_comments_follow_the_stop_line(name: str) -> None:
    lines = [line.strip() for line in TEXTS[name].splitlines() if line.strip()]
    first_comment = next(i for i, line in enumerate(lines) if line.startswith("#"))
    content = [line for line in lines if not line.startswith("#")]
    assert lines[:first_comment] == content, f"{name}: a comment comes before the stop line"


@pytest.mark.parametrize(("name", "style", "moves"), _solve_cases())
def test_the_stated_optimal_move_count_is_what_solve_finds(
    name: str, style: int, moves: int
) -> None:
    result = drive(solve(_puzzle(name), MoveStyle.from_number(style), max_states=MAX_STATES))
    assert result.limit_message is None, result.limit_message
    assert result.moves == moves
    assert len(result.path) == moves + 1


@pytest.mark.parametrize(("name", "style", "counts"), _layer_cases())
def test_the_stated_layers_are_what_analyze_finds(
    name: str, style: int, counts: tuple[int, ...]
) -> None:
    analysis = drive(analyze(_puzzle(name), MoveStyle.from_number(style), max_states=MAX_STATES))
    assert analysis.limit_message is None, analysis.limit_message
    assert analysis.layers == counts
    assert analysis.reachable == sum(counts)

"""The fast search agrees with the slow reference oracle on small random puzzles.

`slidelab.sliding.reference` recomputes successors, layers and shortest
solutions by brute force (every subset of pieces for superpiece styles, a flood
fill of displacements for path styles).  These tests compare it with the packed
numba search in all six move styles, check the solutions the search returns,
the orderings between styles that must hold, Knuth's golden figures, and a
hand-made puzzle on which a known shortcut in Knuth's program goes wrong.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import chain, combinations, pairwise
from math import comb, inf, prod
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from slidelab.runs import drive
from slidelab.sliding import search
from slidelab.sliding.encoding import Tables, build_tables
from slidelab.sliding.model import (
    KIND_NAMES,
    Axis,
    Cell,
    Configuration,
    Goal,
    PieceKind,
    Placement,
    Puzzle,
    placement_problems,
)
from slidelab.sliding.reference import (
    UNIT_STEPS,
    breadth_first_layers,
    reference_layers,
    reference_moves,
    successors,
)
from slidelab.sliding.search import FARTHEST_EXAMPLES, analyze, solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_puzzle, parse_puzzle
from tests.sliding.figures import SILLY, SILLY_LAYERS, SILLY_MOVES

STYLES = MoveStyle.ALL

BOARDS = [(rows, cols) for rows in range(1, 5) for cols in range(1, 5)]
PIECE_COUNTS = (1, 2, 3, 4, 5)

MAX_WORK = 20_000
"""Bound on (configurations, overlaps ignored) x 2**pieces of a random puzzle, to keep it fast."""

EXAMPLES = 120
"""Random puzzles per style and per property."""

AXES = st.sampled_from([Axis.ANY, Axis.ANY, Axis.HORIZONTAL, Axis.VERTICAL])
"""Most kinds move any way; some keep to one axis, as Rush Hour's cars do."""

RANDOM_PUZZLES = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


# Random small puzzles ------------------------------------------------------------------------


def _anchors(rows: int, cols: int, kind: PieceKind, taken: set[Cell]) -> list[Cell]:
    """Anchor cells where `kind` lies on the board without covering a `taken` cell."""
    return [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if all(
            0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in taken
            for rr, cc in kind.cells_at((r, c))
        )
    ]


def _arrange(
    draw: st.DrawFn, rows: int, cols: int, kinds: list[PieceKind], taken: set[Cell]
) -> list[Placement]:
    """Put pieces of `kinds` one by one at drawn free anchors, skipping any that no longer fit."""
    taken = set(taken)
    placements = []
    for kind in kinds:
        options = _anchors(rows, cols, kind, taken)
        if options:
            anchor = draw(st.sampled_from(options))
            placements.append(Placement(kind.name, *anchor))
            taken.update(kind.cells_at(anchor))
    return placements


def _space_bound(
    rows: int, cols: int, kinds: list[PieceKind], obstacles: set[Cell], pieces: list[Placement]
) -> int:
    """Product over kinds of C(anchors that fit, pieces of that kind): at least the space size."""
    counts = Counter(p.kind for p in pieces)
    return prod(
        comb(len(_anchors(rows, cols, kind, obstacles)), counts[kind.name]) for kind in kinds
    )


def _free_cells(
    rows: int, cols: int, kinds: list[PieceKind], pieces: list[Placement]
) -> list[Cell]:
    covered = {cell for p in pieces for cell in _cover(kinds, p)}
    return [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in covered]


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    """Boards up to 4 x 4, 1-3 kinds of 1-3 cells (maybe disconnected, maybe kept to one axis),
    1-5 pieces, few obstacles.

    At least one cell is left free when there are several pieces, and pieces are
    dropped until the space is small enough for the reference.
    """
    count = draw(st.sampled_from(PIECE_COUNTS))  # drawn first: Hypothesis favours early draws
    rows, cols = draw(st.sampled_from(BOARDS))
    box = [(r, c) for r in range(min(rows, 2)) for c in range(min(cols, 3))]
    kinds = [
        PieceKind.from_cells(
            name,
            draw(st.sets(st.sampled_from(box), min_size=1, max_size=3)),
            draw(AXES),
        )
        for name in KIND_NAMES[: draw(st.integers(1, 3))]
    ]
    wanted = [draw(st.sampled_from(kinds)) for _ in range(count)]
    pieces = _arrange(draw, rows, cols, wanted, set())
    while len(pieces) > 1 and not _free_cells(rows, cols, kinds, pieces):
        pieces.pop()
    free = _free_cells(rows, cols, kinds, pieces)
    obstacles: set[Cell] = set()
    if len(free) > 1:
        obstacles = set(
            draw(st.lists(st.sampled_from(free), max_size=min(3, len(free) - 1), unique=True))
        )
    while (
        len(pieces) > 1
        and _space_bound(rows, cols, kinds, obstacles, pieces) << len(pieces) > MAX_WORK
    ):
        pieces.pop()
    puzzle = Puzzle(
        rows,
        cols,
        tuple(kinds),
        frozenset(obstacles),
        Configuration.of(pieces),
        Goal((), frozenset(), partial=True),
    )
    return replace(puzzle, goal=draw(goals(puzzle)))


def _cover(kinds: list[PieceKind] | tuple[PieceKind, ...], placement: Placement) -> list[Cell]:
    kind = next(k for k in kinds if k.name == placement.kind)
    return kind.cells_at(placement.anchor)


@st.composite
def goals(draw: st.DrawFn, puzzle: Puzzle) -> Goal:
    """A full goal (a random arrangement or a short walk from the start), or a partial one."""
    how = draw(st.sampled_from(["walk", "arrangement", "partial"]))
    if how == "walk":
        config = puzzle.start
        for _ in range(draw(st.integers(0, 4))):
            options = sorted(successors(puzzle, config, MoveStyle.STEP), key=lambda c: c.placements)
            if options:
                config = draw(st.sampled_from(options))
        return _full_goal(puzzle, config.placements)
    kinds = [puzzle.kind(p.kind) for p in puzzle.start.placements]
    arranged = _arrange(draw, puzzle.rows, puzzle.cols, kinds, set(puzzle.obstacles))
    base = arranged if len(arranged) == len(kinds) else list(puzzle.start.placements)
    if how == "arrangement":
        return _full_goal(puzzle, tuple(base))
    kept = [p for p in base if draw(st.booleans())]
    covered = {cell for p in base for cell in _cover(puzzle.kinds, p)}
    rest = sorted(_open_cells(puzzle) - covered)
    empty = frozenset(cell for cell in rest if draw(st.booleans()))
    any_cells = _open_cells(puzzle) - empty - {c for p in kept for c in _cover(puzzle.kinds, p)}
    return Goal(tuple(sorted(kept)), empty, partial=True, any_cells=frozenset(any_cells))


def _open_cells(puzzle: Puzzle) -> set[Cell]:
    return {(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)} - puzzle.obstacles


def _full_goal(puzzle: Puzzle, placements: tuple[Placement, ...]) -> Goal:
    covered = {cell for p in placements for cell in _cover(puzzle.kinds, p)}
    return Goal(tuple(sorted(placements)), frozenset(_open_cells(puzzle) - covered))


# Running both sides ---------------------------------------------------------------------------


def _show(puzzle: Puzzle) -> None:
    """Put the puzzle text in Hypothesis's report of a failing example."""
    note(format_puzzle(puzzle))


def _assert_valid_solution(
    puzzle: Puzzle, style: MoveStyle, path: tuple[Configuration, ...], moves: int
) -> None:
    """`path` starts at the start, ends at the goal, and each step is one legal move of `style`."""
    assert len(path) == moves + 1
    assert path[0] == puzzle.start
    assert puzzle.meets_goal(path[-1])
    for before, after in pairwise(path):
        assert after in successors(puzzle, before, style), (before, after)


@pytest.mark.parametrize("style", STYLES)
@RANDOM_PUZZLES
@given(puzzle=puzzles())
def test_search_agrees_with_reference(style: MoveStyle, puzzle: Puzzle) -> None:
    _show(puzzle)
    layers = reference_layers(puzzle, style)
    moves = reference_moves(puzzle, style)

    analysis = drive(analyze(puzzle, style))
    assert analysis.layers == layers
    assert analysis.reachable == sum(layers)

    result = drive(solve(puzzle, style))
    assert result.moves == moves
    if moves is None:
        assert result.path == ()
    else:
        _assert_valid_solution(puzzle, style, result.path, moves)
        assert result.layers[:moves] == layers[:moves]
        assert 1 <= result.layers[moves] <= layers[moves]
        assert result.states == sum(result.layers)


@pytest.mark.parametrize("style", (MoveStyle.STEP, MoveStyle.SUPER_STEP))
@RANDOM_PUZZLES
@given(puzzle=puzzles())
def test_goal_count_and_farthest_examples_agree_with_reference(
    style: MoveStyle, puzzle: Puzzle
) -> None:
    _show(puzzle)
    by_distance = list(breadth_first_layers(puzzle, style))
    analysis = drive(analyze(puzzle, style))
    assert analysis.goal_count == sum(puzzle.meets_goal(c) for c in chain(*by_distance))
    assert analysis.farthest_distance == len(by_distance) - 1
    assert analysis.farthest_count == len(by_distance[-1])
    assert set(analysis.farthest_examples) <= set(by_distance[-1])
    assert len(analysis.farthest_examples) == min(FARTHEST_EXAMPLES, len(by_distance[-1]))


def _without_bitboards(puzzle: Puzzle) -> Tables:
    """The tables of `puzzle` with moves and who blocks whom worked out cell by cell, as on
    boards too big for one bitboard."""
    tables = build_tables(puzzle)
    return replace(tables, board=tables.board._replace(bitboards=False))


@pytest.mark.parametrize("style", STYLES)
@RANDOM_PUZZLES
@given(puzzle=puzzles())
def test_bitboards_and_cell_by_cell_checks_meet_the_same_configurations_in_order(
    style: MoveStyle, puzzle: Puzzle
) -> None:
    _show(puzzle)
    assert build_tables(puzzle).board.bitboards
    on_bits = drive(analyze(puzzle, style)), drive(solve(puzzle, style))
    with patch.object(search, "build_tables", _without_bitboards):
        by_cells = drive(analyze(puzzle, style)), drive(solve(puzzle, style))
    assert by_cells == on_bits


@RANDOM_PUZZLES
@given(puzzle=puzzles())
def test_more_powerful_styles_never_need_more_moves(puzzle: Puzzle) -> None:
    _show(puzzle)
    moves = [drive(solve(puzzle, style)).moves for style in STYLES]
    s0, s1, s2, s3, s4, s5 = (inf if m is None else m for m in moves)
    assert s2 <= s1 <= s0
    assert s5 <= s4 <= s3
    assert s3 <= s0
    assert s4 <= s1
    assert s5 <= s2
    reachable = [drive(analyze(puzzle, style)).reachable for style in STYLES]
    assert reachable[0] == reachable[1] == reachable[2]
    assert reachable[3] == reachable[4] == reachable[5] >= reachable[0]


# Knuth's shortcut and a puzzle that defeats it ------------------------------------------------

TWO_IDENTICAL_PIECES = """2 x 4 (two identical pieces; the left one can go around the right one)
3 = 1
3300000x
0033000x
"""
"""From the start alpha, the pair of 3s shifted right by one and the left 3 alone, walking
round below the other, both reach beta = `0330000x`.  Past beta the single 3 goes on to
`0303000x` and the pair to `0033000x` (the obstacle leaves no way round beta), and no other
single move from alpha leads there.  A search that stops at beta, having met it from alpha
already, misses one of them at distance 1."""


def _layers_with_knuths_shortcut(puzzle: Puzzle, *, reverse: bool) -> tuple[int, ...]:
    """Style-5 layers as Knuth's program counts them with its style-2 shortcut.

    Moving a set of pieces depth-first from alpha (never straight back, as in
    Knuth's `supermove`), the program stops at a known configuration beta whose
    recorded predecessor is alpha, assuming the move that recorded beta already
    looked past it.  That holds for single pieces, but another superpiece may
    have recorded beta.  `reverse` flips the order in which sets are tried.
    """
    distance = {puzzle.start: 0}
    parent: dict[Configuration, Configuration] = {}
    layers = [[puzzle.start]]

    def walk(alpha: Configuration, chosen: tuple[int, ...], shift: Cell, came: Cell) -> None:
        for step in UNIT_STEPS:
            if step == (-came[0], -came[1]):
                continue
            moved = (shift[0] + step[0], shift[1] + step[1])
            beta = _shift(puzzle, alpha, chosen, moved)
            if beta is None:
                continue
            if beta not in distance:
                distance[beta], parent[beta] = len(layers) - 1, alpha
                layers[-1].append(beta)
            elif distance[beta] == len(layers) - 1 and parent[beta] != alpha:
                parent[beta] = alpha  # Knuth's renaming, so beta is not explored again
            else:
                continue  # the shortcut: assume whoever recorded beta looked past it
            walk(alpha, chosen, moved, step)

    while layers[-1]:
        layers.append([])
        for alpha in layers[-2]:
            n = len(alpha.placements)
            chosen_sets = [s for k in range(1, n + 1) for s in combinations(range(n), k)]
            for chosen in reversed(chosen_sets) if reverse else chosen_sets:
                walk(alpha, chosen, (0, 0), (0, 0))
    return tuple(len(layer) for layer in layers[:-1])


def _shift(
    puzzle: Puzzle, config: Configuration, chosen: tuple[int, ...], shift: Cell
) -> Configuration | None:
    """`config` with the chosen pieces shifted, or None if that is not a legal arrangement."""
    placements = tuple(
        Placement(p.kind, p.row + shift[0], p.col + shift[1]) if i in chosen else p
        for i, p in enumerate(config.placements)
    )
    kinds = {kind.name: kind for kind in puzzle.kinds}
    if placement_problems(puzzle.rows, puzzle.cols, kinds, puzzle.obstacles, placements):
        return None
    return Configuration.of(placements)


def test_superpiece_paths_look_past_configurations_another_superpiece_met_first() -> None:
    puzzle = parse_puzzle(TWO_IDENTICAL_PIECES)
    layers = reference_layers(puzzle, MoveStyle.SUPER_PATH)
    for reverse in (False, True):
        assert _layers_with_knuths_shortcut(puzzle, reverse=reverse) != layers
    assert drive(analyze(puzzle, MoveStyle.SUPER_PATH)).layers == layers
    for style in STYLES:
        assert drive(analyze(puzzle, style)).layers == reference_layers(puzzle, style)
    s2 = drive(solve(puzzle, MoveStyle.PATH)).moves
    s5 = drive(solve(puzzle, MoveStyle.SUPER_PATH)).moves
    assert (
        (s5, s2)
        == (reference_moves(puzzle, MoveStyle.SUPER_PATH), reference_moves(puzzle, MoveStyle.PATH))
        == (1, 2)
    )


# Knuth's golden figures -----------------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_reference_reproduces_the_silly_example_figures(style: MoveStyle) -> None:
    puzzle = parse_puzzle(SILLY)
    assert reference_layers(puzzle, style) == SILLY_LAYERS[style.number]
    assert reference_moves(puzzle, style) == SILLY_MOVES[style.number]

"""Breadth-first search: golden figures from Knuth's program and OEIS, limits, progress."""

from __future__ import annotations

import pytest

from slidelab import memory
from slidelab.errors import SlidelabError
from slidelab.library import load_shipped
from slidelab.runs import Progress, drive
from slidelab.sliding.model import Configuration
from slidelab.sliding.search import analyze, solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle
from tests.sliding.figures import SILLY, SILLY_LAYERS, SILLY_MOVES


def single_blank(rows: int, cols: int) -> str:
    """The puzzle with rows*cols-1 distinct unit pieces, solved in order with the blank last."""
    count = rows * cols - 1
    kinds = "".join(f"{n:x} = 1\n" for n in range(1, count + 1))
    order = "".join(f"{n:x}" for n in range(1, count + 1))
    return f"{rows} x {cols}\n{kinds}{order}\n{order}\n"


@pytest.mark.parametrize("style", MoveStyle.ALL)
def test_silly_example_matches_knuth(style):
    puzzle = parse_puzzle(SILLY)
    assert drive(solve(puzzle, style)).moves == SILLY_MOVES[style.number]
    assert drive(analyze(puzzle, style)).layers == SILLY_LAYERS[style.number]


def test_eight_puzzle_space_matches_oeis_a089473():
    result = drive(analyze(parse_puzzle(single_blank(3, 3)), MoveStyle.STEP))
    assert result.layers == (
        1,
        2,
        4,
        8,
        16,
        20,
        39,
        62,
        116,
        152,
        286,
        396,
        748,
        1024,
        1893,
        2512,
        4485,
        5638,
        9529,
        10878,
        16993,
        17110,
        23952,
        20224,
        24047,
        15578,
        14560,
        6274,
        3910,
        760,
        221,
        2,
    )
    assert (result.reachable, result.farthest_distance, result.farthest_count) == (181440, 31, 2)
    assert result.goal_count == 1
    assert len(result.farthest_examples) == 2


@pytest.mark.parametrize("style", [MoveStyle.STEP, MoveStyle.SLIDE, MoveStyle.PATH])
def test_two_by_three_matches_oeis_a090034_in_every_single_piece_style(style):
    result = drive(analyze(parse_puzzle(single_blank(2, 3)), style))
    assert result.layers == (
        1,
        2,
        3,
        5,
        6,
        7,
        10,
        12,
        12,
        16,
        23,
        25,
        28,
        39,
        44,
        40,
        29,
        21,
        18,
        12,
        6,
        1,
    )


def test_two_by_four_farthest_distance_is_36_as_in_oeis_a090035():
    result = drive(analyze(parse_puzzle(single_blank(2, 4)), MoveStyle.STEP))
    assert (result.reachable, result.farthest_distance) == (20160, 36)


def test_solution_path_starts_at_start_ends_at_goal_and_has_moves_plus_one_entries():
    puzzle = parse_puzzle(SILLY)
    result = drive(solve(puzzle, MoveStyle.STEP))
    assert len(result.path) == result.moves + 1
    assert result.path[0] == puzzle.start
    assert puzzle.meets_goal(result.path[-1])
    assert result.states == sum(result.layers)


def test_a_solved_start_takes_zero_moves():
    result = drive(solve(parse_puzzle("1 x 2\n1 = 1\n1\n1\n"), MoveStyle.PATH))
    assert (result.moves, result.layers, result.path) == (0, (1,), (result.path[0],))


def test_unreachable_goal_reports_no_moves_and_the_whole_space():
    # Two distinct pieces in a 1 x 3 corridor can never pass each other.
    result = drive(solve(parse_puzzle("1 x 3\n1 = 1\n2 = 1\n12\n021\n"), MoveStyle.PATH))
    assert result.moves is None
    assert result.path == ()
    assert result.layers == (1, 1, 1)


def test_partial_goal_needs_only_the_named_piece():
    # Piece 1 must reach the top right corner, where piece 2 stands; 2 may end anywhere.
    puzzle = parse_puzzle("2 x 2\n1 = 1\n2 = 1\n12\n*1\n")
    result = drive(solve(puzzle, MoveStyle.STEP))
    assert result.moves == 2
    assert result.path[-1] != Configuration(puzzle.goal.placements)
    assert puzzle.meets_goal(result.path[-1])
    analysis = drive(analyze(puzzle, MoveStyle.STEP))
    assert (analysis.reachable, analysis.goal_count) == (12, 3)


def test_max_states_stops_cleanly_with_a_message():
    result = drive(
        solve(
            parse_puzzle(single_blank(3, 3).replace("12345678\n12345678", "12345678\n87654321")),
            MoveStyle.STEP,
            max_states=1000,
        )
    )
    assert result.moves is None
    assert result.limit_message.startswith(
        "stopped at distance 11 after 1,000 configurations, the limit set by --max-states (1,000)"
    )


def test_max_memory_stops_before_a_growth_would_pass_it():
    puzzle = parse_puzzle(single_blank(3, 3))
    analysis = drive(analyze(puzzle, MoveStyle.STEP, max_memory=1 << 20, jobs=1))
    assert analysis.limit_message == (
        "stopped at distance 20 after 46,600 configurations, growing its tables to 1.1 MiB "
        "would pass the limit set by --max-memory (1.0 MiB); the search held 0.6 MiB"
    )
    assert analysis.memory_bytes <= 1 << 20


def test_the_default_memory_budget_is_named_when_it_stops_a_search(monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: 4 << 20)
    result = drive(analyze(parse_puzzle(single_blank(3, 3)), MoveStyle.STEP, jobs=1))
    assert result.limit_message == (
        "stopped at distance 24 after 116,407 configurations, growing its tables to 3.0 MiB "
        "would pass the default memory budget (60% of the available memory, 2.4 MiB; set it "
        "with --max-memory); the search held 1.9 MiB"
    )


def test_search_yields_progress_and_can_be_abandoned_mid_way():
    search = analyze(parse_puzzle(single_blank(3, 3)), MoveStyle.STEP)
    event = next(search)
    assert isinstance(event, Progress)
    assert event.explored > 0
    search.close()


def test_superpiece_styles_refuse_more_than_63_pieces():
    text = "8 x 9\n1 = 1\n" + "1" * 64 + "\n" + "1" * 64 + "\n"
    with pytest.raises(
        SlidelabError, match="styles 3-5 handle at most 63 pieces; this puzzle has 64"
    ):
        drive(solve(parse_puzzle(text), MoveStyle.SUPER_STEP))
    assert drive(solve(parse_puzzle(text), MoveStyle.STEP)).moves == 0


def test_big_board_with_many_identical_pieces():
    puzzle = parse_puzzle("32 x 32\n1 = 11/11\n2 = 1\n" + "2" * 40 + "1\n" + "2" * 40 + "0001\n")
    assert drive(solve(puzzle, MoveStyle.SLIDE)).moves == 1


@pytest.mark.parametrize("style", [MoveStyle.STEP, MoveStyle.PATH, MoveStyle.SUPER_PATH])
def test_the_last_progress_event_shows_the_figures_of_the_result(style):
    """One number for each thing: the status line's last depth and explored count are the
    result's moves and configurations explored (the farthest distance for an analysis)."""
    puzzle = load_shipped("sliding", "klotski.slide", parse_puzzle)
    for search, moves, explored in (
        (solve, lambda r: r.moves, lambda r: r.states),
        (analyze, lambda r: r.farthest_distance, lambda r: r.reachable),
    ):
        events: list[Progress] = []
        result = drive(search(puzzle, style), on_progress=events.append)
        assert (events[-1].depth, events[-1].explored) == (moves(result), explored(result))

"""Play mode's model: a drop is accepted exactly when the reference calls it one move, every
refusal is explained, undo/redo/reset walk the history, distances and hints agree with the
forward search."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from slidelab.library import load_shipped
from slidelab.runs import drive
from slidelab.sliding.distance import to_goal
from slidelab.sliding.model import Configuration, Placement, Puzzle
from slidelab.sliding.play import PlaySession
from slidelab.sliding.reference import successors
from slidelab.sliding.refusals import shifted
from slidelab.sliding.routes import moved_pieces
from slidelab.sliding.search import solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_puzzle, parse_puzzle
from tests.sliding.test_reference_agreement import puzzles

UNEXPLAINED = "that is not one move of style"
"""The words of a refusal that names no rule: none may ever be given."""


def library(name: str) -> Puzzle:
    return load_shipped("sliding", name, parse_puzzle)


def with_distances(puzzle: Puzzle, style: MoveStyle) -> PlaySession:
    session = PlaySession(puzzle, style)
    result = drive(to_goal(puzzle, style))
    assert result.table is not None
    session.use_distances(result.table)
    return session


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=puzzles(), style=st.sampled_from(MoveStyle.ALL), data=st.data())
def test_a_drop_is_a_move_exactly_when_the_reference_says_so(
    puzzle: Puzzle, style: MoveStyle, data: st.DataObject
) -> None:
    note(format_puzzle(puzzle))
    session = PlaySession(puzzle, style)
    for _ in range(6):
        config = session.config
        pieces = list(config.placements)
        size = data.draw(st.integers(1, len(pieces) if style.superpieces else 1))
        moving = data.draw(
            st.lists(st.sampled_from(pieces), min_size=size, max_size=size, unique=True)
        )
        shift = (data.draw(st.integers(-3, 3)), data.draw(st.integers(-3, 3)))
        if shift == (0, 0):
            continue
        legal = successors(puzzle, config, style)
        target = shifted(config, moving, shift)
        drop = session.drop(moving, shift)
        assert drop.accepted == (target in legal), (moving, shift, drop.message)
        if drop.accepted:
            assert session.config == target and drop.message == ""
        else:
            assert session.config == config
            assert drop.message and UNEXPLAINED not in drop.message, (moving, shift)
    # a drop with several pieces in a one-piece style is refused with its reason, unless
    # the pieces are alike and the drop leaves what one piece's move would (as when two
    # unit squares side by side shift along their row, in style 2)
    if not style.superpieces and len(session.config.placements) > 1:
        config, moving = session.config, list(session.config.placements[:2])
        one_move = shifted(config, moving, (0, 1)) in successors(puzzle, config, style)
        drop = session.drop(moving, (0, 1))
        assert drop.accepted == one_move
        assert one_move or "one piece at a time" in drop.message


def test_undo_redo_and_reset_walk_the_history() -> None:
    session = PlaySession(library("klotski.slide"), MoveStyle.PATH)
    start = session.config
    assert not session.can_undo and not session.can_redo and session.moves == 0
    assert session.drop([Placement("4", 4, 0)], (0, 1)).accepted
    first = session.config
    assert session.drop([Placement("4", 4, 3)], (0, -1)).accepted
    second = session.config
    assert session.moves == 2 and session.can_undo
    session.undo()
    assert session.config == first and session.moves == 1 and session.can_redo
    session.redo()
    assert session.config == second and not session.can_redo
    session.reset()
    assert session.config == start and session.moves == 0 and session.can_redo
    session.redo()
    assert session.config == first
    # a new move replaces the moves ahead
    assert session.drop([Placement("4", 4, 1)], (0, 1)).accepted
    assert not session.can_redo and session.moves == 2 and session.config != second


def test_refusals_name_the_rule_broken() -> None:
    session = PlaySession(library("klotski.slide"), MoveStyle.STEP)
    cases = [
        ([Placement("4", 4, 0)], (0, 2), "style 0 moves one cell at a time"),
        ([Placement("4", 4, 0)], (1, 0), "piece 4 would leave the board"),
        ([Placement("1", 0, 1)], (1, 0), "piece 1 would land on piece 3 at row 2, column 1"),
        ([Placement("4", 4, 0), Placement("4", 4, 3)], (0, 1), "one piece at a time"),
    ]
    for moving, shift, words in cases:
        drop = session.drop(moving, shift)
        assert not drop.accepted and words in drop.message, drop.message
    line = PlaySession(library("klotski.slide"), MoveStyle.SLIDE)
    drop = line.drop([Placement("4", 3, 1)], (1, 1))
    assert "straight line" in drop.message
    path = PlaySession(library("klotski.slide"), MoveStyle.PATH)
    drop = path.drop([Placement("3", 2, 1)], (2, 0))
    assert "no free path" in drop.message
    assert session.moves == line.moves == path.moves == 0


def test_a_rush_hour_car_keeps_to_its_axis() -> None:
    session = PlaySession(library("rush-hour-card-01.slide"), MoveStyle.PATH)
    red = Placement("1", 2, 1)
    assert red in session.config.placements
    drop = session.drop([red], (1, 0))  # down into a free cell: across its axis
    assert not drop.accepted
    assert drop.message == "piece 1 keeps to its row (its kind moves only left and right)"
    truck = Placement("5", 1, 0)
    drop = session.drop([truck], (0, 1))
    assert drop.message == "piece 5 keeps to its column (its kind moves only up and down)"
    blocked = session.drop([red], (0, 3))  # along its row, but a truck stands in the way
    assert blocked.message.startswith("piece 1 would land on") or "blocked" in blocked.message
    assert session.drop([Placement("2", 0, 0)], (0, 1)).accepted


@pytest.mark.parametrize("style", [MoveStyle.PATH, MoveStyle.SUPER_PATH])
def test_following_hints_reaches_the_goal_in_the_distance_shown(style: MoveStyle) -> None:
    puzzle = library("klotski.slide")
    session = with_distances(puzzle, style)
    solved = drive(solve(puzzle, style))
    assert session.distance() == solved.moves
    for left in range(solved.moves or 0, 0, -1):
        assert session.distance() == left
        after = session.hint()
        assert after is not None
        pairs = moved_pieces(session.config, after)
        drop = session.drop([a for a, _ in pairs], _shift(pairs))
        assert drop.accepted and (drop.before, drop.after) == (left, left - 1)
        assert not drop.away_from_goal
    assert session.solved and session.distance() == 0 and session.hint() is None


def test_a_move_away_from_the_goal_is_flagged() -> None:
    session = with_distances(library("klotski.slide"), MoveStyle.PATH)
    drop = session.drop([Placement("4", 4, 0)], (0, 1))  # toward the goal: 81 -> 80
    assert (drop.before, drop.after, drop.away_from_goal) == (81, 80, False)
    drop = session.drop([Placement("4", 4, 1)], (0, -1))  # and back
    assert (drop.before, drop.after, drop.away_from_goal) == (80, 81, True)


def test_distances_of_another_game_are_refused() -> None:
    puzzle = library("klotski.slide")
    table = drive(to_goal(puzzle, MoveStyle.STEP)).table
    assert table is not None
    with pytest.raises(ValueError, match="another puzzle or style"):
        PlaySession(puzzle, MoveStyle.PATH).use_distances(table)


def _shift(pairs: list[tuple[Placement, Placement]]) -> tuple[int, int]:
    before, after = pairs[0]
    return (after.row - before.row, after.col - before.col)


def test_shifted_keeps_the_other_pieces() -> None:
    config = Configuration.of([Placement("1", 0, 0), Placement("1", 0, 1)])
    assert shifted(config, [Placement("1", 0, 1)], (1, 0)) == Configuration.of(
        [Placement("1", 0, 0), Placement("1", 1, 1)]
    )


def test_is_move_answers_for_any_configuration() -> None:
    """Configurations the kernels' codes cannot hold (off the board, on an obstacle, other
    pieces) are simply not moves."""
    session = PlaySession(library("klotski.slide"), MoveStyle.PATH)
    start = session.config.placements
    off = shifted(session.config, [Placement("4", 4, 0)], (1, 0))
    assert not session.is_move(off)
    assert not session.is_move(Configuration.of(start[:-1]))
    assert not session.is_move(Configuration.of([*start[:-1], Placement("1", 3, 1)]))
    assert session.is_move(shifted(session.config, [Placement("4", 4, 0)], (0, 1)))

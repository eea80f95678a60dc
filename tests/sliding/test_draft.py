"""Drafts: editable puzzles, their problems, their editing operations and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.errors import SlidelabError
from slidelab.library import load_shipped, shipped_names
from slidelab.sliding.draft import Draft, DraftError
from slidelab.sliding.model import KIND_NAMES, Axis, PieceKind, Placement
from slidelab.sliding.textformat import format_puzzle, parse_puzzle
from tests.sliding.figures import SILLY

SQUARE = frozenset({(0, 0), (0, 1), (1, 0), (1, 1)})


def shifted(cells, dr, dc):
    return frozenset((r + dr, c + dc) for r, c in cells)


def all_cells(rows, cols):
    return frozenset((r, c) for r in range(rows) for c in range(cols))


@pytest.mark.parametrize("name", shipped_names("sliding"))
def test_every_library_puzzle_survives_the_round_trip(name):
    puzzle = load_shipped("sliding", name, parse_puzzle)
    draft = Draft.from_puzzle(puzzle)
    assert draft.problems() == []
    assert draft.to_puzzle() == puzzle
    assert Draft.from_puzzle(draft.to_puzzle()) == draft


def test_the_library_is_not_empty():
    assert len(shipped_names("sliding")) >= 10


def test_a_blank_draft_has_no_pieces_and_a_full_goal():
    draft = Draft.blank(3, 4)
    assert (draft.rows, draft.cols, draft.kinds, draft.start, draft.goal) == (3, 4, (), (), ())
    assert not draft.partial
    assert draft.goal_empty == all_cells(3, 4)
    assert draft.any_cells == frozenset()
    assert [p.message for p in draft.problems()] == ["the start has no pieces"]
    with pytest.raises(DraftError, match="the start has no pieces") as caught:
        draft.to_puzzle()
    assert isinstance(caught.value, SlidelabError)
    assert caught.value.problems == tuple(draft.problems())


@pytest.mark.parametrize("size", [(0, 3), (3, 0), (65, 65)])
def test_impossible_board_sizes_are_refused(size):
    with pytest.raises(DraftError):
        Draft.blank(*size)
    with pytest.raises(DraftError):
        Draft.blank(2, 2).resized(*size)


def test_drawing_reuses_a_kind_of_the_same_shape_and_names_new_ones_in_order():
    draft = Draft.blank(5, 5).with_piece(SQUARE, goal=False)
    assert draft.kinds == (PieceKind("1", ((0, 0), (0, 1), (1, 0), (1, 1))),)
    assert draft.start == (Placement("1", 0, 0),)
    draft = draft.with_piece(shifted(SQUARE, 2, 3), goal=False)
    assert len(draft.kinds) == 1
    assert draft.start == (Placement("1", 0, 0), Placement("1", 2, 3))
    draft = draft.with_piece({(4, 0), (4, 1)}, goal=False)
    assert [k.name for k in draft.kinds] == ["1", "2"]
    assert draft.kind_map()["2"].pattern() == "11"
    draft = draft.with_piece({(3, 0)}, goal=True)
    assert [k.name for k in draft.kinds] == ["1", "2", "3"]
    assert draft.goal == (Placement("3", 3, 0),)


def test_drawing_an_awkward_shape_anchors_it_at_its_topmost_leftmost_cell():
    draft = Draft.blank(4, 4).with_piece({(1, 2), (2, 1), (2, 2)}, goal=False)
    assert draft.start == (Placement("1", 1, 2),)
    assert draft.kinds[0].cells == ((0, 0), (1, -1), (1, 0))
    assert draft.kinds[0].pattern() == "01/11"


def test_drawing_a_chosen_kind_needs_its_shape():
    draft = Draft.blank(5, 5).with_piece(SQUARE, goal=False)
    again = draft.with_piece(shifted(SQUARE, 3, 3), goal=True, kind="1")
    assert again.goal == (Placement("1", 3, 3),)
    with pytest.raises(DraftError, match="do not have the shape of kind 1"):
        draft.with_piece({(3, 3), (3, 4)}, goal=False, kind="1")
    named = draft.with_piece({(3, 3)}, goal=False, kind="7")
    assert [k.name for k in named.kinds] == ["1", "7"]
    with pytest.raises(DraftError, match="bad piece kind"):
        draft.with_piece({(3, 3)}, goal=False, kind="z")
    with pytest.raises(DraftError, match="no cells"):
        draft.with_piece(set(), goal=False)


def test_sixteen_shapes_do_not_fit_in_fifteen_kinds():
    draft = Draft.blank(20, 20)
    for length in range(1, 16):
        draft = draft.with_piece({(length - 1, c) for c in range(length)}, goal=False)
    assert [k.name for k in draft.kinds] == list(KIND_NAMES)
    with pytest.raises(DraftError, match="all 15 piece kinds are in use"):
        draft.with_piece({(16, 0), (17, 0)}, goal=False)
    assert Placement("1", 16, 0) in draft.with_piece({(16, 0)}, goal=False).start


def test_erasing_the_last_piece_of_a_kind_drops_the_kind():
    draft = Draft.blank(4, 4).with_piece({(0, 0)}, False).with_piece({(2, 2)}, False)
    draft = draft.with_piece({(3, 0), (3, 1)}, False).with_piece({(0, 3)}, True)
    one = draft.without_piece(Placement("1", 0, 0), goal=False)
    assert [k.name for k in one.kinds] == ["1", "2"]
    assert one.start == (Placement("1", 2, 2), Placement("2", 3, 0))
    no_goal_one = one.without_piece(Placement("1", 0, 3), goal=True)
    assert [k.name for k in no_goal_one.kinds] == ["1", "2"]  # the start still has one
    no_twos = draft.without_piece(Placement("2", 3, 0), goal=False)
    assert [k.name for k in no_twos.kinds] == ["1"]
    with pytest.raises(DraftError, match="no piece 2"):
        no_twos.without_piece(Placement("2", 3, 0), goal=False)


def test_moving_a_piece_changes_its_anchor_only():
    draft = Draft.from_puzzle(parse_puzzle(SILLY))
    moved = draft.moved_piece(Placement("3", 4, 0), (3, 3), goal=False)
    assert set(moved.start) ^ set(draft.start) == {Placement("3", 4, 0), Placement("3", 3, 3)}
    assert moved.goal == draft.goal
    assert moved.problems() == []
    with pytest.raises(DraftError):
        draft.moved_piece(Placement("3", 0, 0), (3, 3), goal=False)


def test_obstacles_are_shared_and_keep_a_full_goal_consistent():
    draft = Draft.blank(2, 2).with_piece({(0, 0)}, False).goal_from_start()
    assert draft.goal_empty == {(0, 1), (1, 0), (1, 1)}
    walled = draft.toggled_obstacle((1, 1))
    assert walled.obstacles == {(1, 1)}
    assert walled.goal_empty == {(0, 1), (1, 0)}
    assert walled.to_puzzle().obstacles == {(1, 1)}
    assert walled.toggled_obstacle((1, 1)) == draft
    with pytest.raises(DraftError, match="not on the board"):
        draft.toggled_obstacle((2, 0))


def test_resizing_drops_what_no_longer_fits():
    draft = Draft.from_puzzle(parse_puzzle(SILLY))
    small = draft.resized(4, 5)
    assert Placement("3", 4, 0) not in small.start
    assert Placement("2", 3, 2) not in small.goal
    assert small.obstacles == draft.obstacles
    narrow = draft.resized(5, 3)
    assert narrow.obstacles == frozenset()
    assert Placement("3", 1, 3) not in narrow.goal
    tiny = draft.resized(1, 1)
    assert tiny.start == () and tiny.goal == () and tiny.kinds == ()
    bigger = draft.resized(6, 6)
    assert (bigger.start, bigger.goal) == (draft.start, draft.goal)
    assert bigger.goal_empty == draft.goal_empty | (all_cells(6, 6) - all_cells(5, 5))
    assert bigger.problems() == []


def test_goal_cells_any_and_empty():
    draft = Draft.blank(3, 3).with_piece({(0, 0)}, False).goal_from_start()
    partial = draft.with_goal_cell((2, 2), "any")
    assert partial.partial
    assert partial.any_cells == {(2, 2)}
    assert partial.goal_empty == all_cells(3, 3) - {(0, 0), (2, 2)}
    puzzle = partial.to_puzzle()
    assert puzzle.goal.partial and puzzle.goal.any_cells == {(2, 2)}
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle
    wider = partial.with_goal_cell((1, 1), "any")
    assert wider.any_cells == {(1, 1), (2, 2)}
    narrower = wider.with_goal_cell((2, 2), "empty")
    assert narrower.any_cells == {(1, 1)} and narrower.partial
    full_again = narrower.with_goal_cell((1, 1), "empty")
    assert not full_again.partial
    assert full_again == draft
    assert draft.with_goal_cell((1, 1), "empty") == draft  # a full goal already wants it empty


def test_goal_cells_refuse_obstacles_goal_pieces_and_bad_states():
    draft = Draft.blank(3, 3).with_piece({(0, 0)}, False).goal_from_start()
    draft = draft.toggled_obstacle((2, 2))
    with pytest.raises(DraftError, match="obstacle"):
        draft.with_goal_cell((2, 2), "any")
    with pytest.raises(DraftError, match="holds goal piece 1"):
        draft.with_goal_cell((0, 0), "any")
    with pytest.raises(DraftError, match="'empty' or 'any'"):
        draft.with_goal_cell((1, 1), "full")
    with pytest.raises(DraftError, match="not on the board"):
        draft.with_goal_cell((3, 1), "any")


def test_a_partial_goal_may_name_fewer_pieces_and_covers_its_cells_from_empty():
    draft = Draft.blank(3, 3).with_piece({(0, 0)}, False).with_piece({(0, 1)}, False)
    partial = draft.with_goal_cell((1, 1), "any").with_goal_cell((1, 2), "any")
    assert partial.problems() == []
    assert partial.to_puzzle().goal.placements == ()
    named = partial.with_piece({(2, 2)}, goal=True)
    assert (2, 2) not in named.goal_empty
    assert named.problems() == []
    too_many = named.with_piece({(2, 1)}, True).with_piece({(2, 0)}, True)
    assert [p.message for p in too_many.problems()] == [
        "the start has 2 pieces of kind 1 but the goal has 3"
    ]


def test_a_partial_goal_without_any_cell_is_a_problem():
    draft = Draft.blank(1, 2).with_piece({(0, 0)}, False).goal_from_start()
    partial = draft.with_goal_cell((0, 1), "any")
    assert partial.problems() == []
    covered = partial.with_piece({(0, 1)}, goal=True)
    messages = [p.message for p in covered.problems()]
    assert "a partial goal needs at least one cell marked 'any'" in messages


def test_a_partial_goal_that_cannot_hold_the_pieces_is_not_ready():
    # Two unit pieces and a domino, the goal names none of them.
    draft = Draft.blank(3, 3).with_piece({(0, 0)}, False).with_piece({(0, 1)}, False)
    draft = draft.with_piece({(2, 0), (2, 1)}, False)
    one_cell = draft.with_goal_cell((1, 1), "any")
    [problem] = one_cell.problems()
    assert problem.message == (
        "the goal cannot hold the pieces: those it does not place cover 4 cells but only 1 "
        "are 'any'; mark more cells 'any'"
    )
    assert problem.cells == ((1, 1),)
    with pytest.raises(DraftError, match="cannot hold"):
        one_cell.to_puzzle()
    # Four cells, but no two side by side for the domino.
    scattered = draft.with_goal_cells([(0, 0), (0, 2), (1, 1), (2, 0)], "any")
    assert [p.message for p in scattered.problems()] == [
        "the goal cannot hold piece 2: no place among the 'any' cells has its shape; "
        "mark more cells 'any'"
    ]
    assert draft.with_goal_cells([(0, 0), (0, 1), (1, 1), (1, 2)], "any").problems() == []


def test_a_stroke_marks_every_markable_cell_and_every_other_cell_can_become_any():
    draft = Draft.blank(3, 3).with_piece({(0, 0)}, False).goal_from_start()
    draft = draft.toggled_obstacle((2, 2))
    stroke = draft.with_goal_cells([(0, 0), (1, 0), (1, 1), (2, 2)], "any")
    assert stroke.any_cells == {(1, 0), (1, 1)}
    assert stroke.with_goal_cells([(1, 0), (0, 0)], "empty").any_cells == {(1, 1)}
    with pytest.raises(DraftError, match="holds goal piece 1"):
        draft.with_goal_cells([(0, 0), (2, 2)], "any")
    every = draft.with_other_goal_cells_any()
    assert every.partial and every.goal_empty == frozenset()
    assert every.any_cells == all_cells(3, 3) - {(0, 0), (2, 2)}
    assert every.to_puzzle().goal.placements == (Placement("1", 0, 0),)


def test_problems_name_their_cells_for_start_and_goal_separately():
    silly = Draft.from_puzzle(parse_puzzle(SILLY))
    off = silly.moved_piece(Placement("1", 0, 0), (3, 3), goal=False)
    [problem] = off.problems()
    assert "does not fit on the board in the start" in problem.message
    assert set(problem.cells) == {(3, 3), (3, 4), (4, 4)}
    assert off.problems_in(goal=True) == []

    clash = silly.moved_piece(Placement("3", 1, 3), (0, 3), goal=True)
    [problem] = clash.problems()
    assert problem.message == "piece 3 overlaps another piece or an obstacle in the goal"
    assert problem.cells == ((0, 3),)
    assert clash.problems_in(goal=False) == []

    overlap = silly.with_piece({(1, 0)}, goal=False, kind="3")
    assert any(p.cells == ((1, 0),) and "in the start" in p.message for p in overlap.problems())


def test_goal_count_problems_mark_the_goal_pieces_of_that_kind():
    silly = Draft.from_puzzle(parse_puzzle(SILLY))
    fewer = silly.without_piece(Placement("3", 1, 4), goal=True)
    [problem] = fewer.problems()
    assert problem.message == "the start has 2 pieces of kind 3 but the goal has 1"
    assert problem.cells == ((1, 3),)
    assert fewer.problems_in(goal=True) == [problem]
    assert fewer.problems_in(goal=False) == []
    bigger = silly.without_piece(Placement("1", 2, 2), goal=True)
    bigger = bigger.with_piece({(2, 2), (2, 3), (2, 4), (3, 3)}, goal=True, kind="1")
    assert bigger.problems() == []


def test_piece_at_finds_the_covering_piece():
    silly = Draft.from_puzzle(parse_puzzle(SILLY))
    assert silly.piece_at((1, 1), goal=False) == Placement("1", 0, 0)
    assert silly.piece_at((2, 1), goal=False) == Placement("2", 1, 0)
    assert silly.piece_at((1, 1), goal=True) is None
    assert silly.piece_at((4, 4), goal=True) == Placement("2", 3, 2)


def test_title_and_notes_travel_with_the_draft():
    puzzle = load_shipped("sliding", "klotski.slide", parse_puzzle)
    draft = (
        Draft.from_puzzle(puzzle)
        .with_piece({(0, 0)}, True)
        .without_piece(Placement("4", 0, 0), True)
    )
    assert draft.title == puzzle.title and draft.notes == puzzle.notes
    assert draft.to_puzzle() == puzzle


# Hypothesis: random drafts -------------------------------------------------------------

SHAPES = st.sets(st.tuples(st.integers(0, 1), st.integers(0, 2)), min_size=1, max_size=4)


def _greedy(draft: Draft, wanted: list[Placement]) -> tuple[Placement, ...]:
    """Those of `wanted` that fit on the board beside the earlier ones."""
    taken = set(draft.obstacles)
    kept = []
    for placement in wanted:
        cells = draft.cells_of(placement)
        if all(draft.on_board(c) and c not in taken for c in cells):
            kept.append(placement)
            taken.update(cells)
    return tuple(kept)


@st.composite
def drafts(draw, tidy: bool | None = None):
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    names = KIND_NAMES[: draw(st.integers(1, 4))]
    kinds = tuple(PieceKind.from_cells(name, draw(SHAPES)) for name in names)
    cells = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    obstacles = frozenset(draw(st.sets(cells, max_size=3)))
    placements = st.lists(
        st.builds(Placement, st.sampled_from(names), st.integers(-1, rows), st.integers(-2, cols)),
        max_size=6,
    )
    draft = Draft(rows, cols, "", kinds, obstacles, (), (), frozenset(), False)
    if tidy if tidy is not None else draw(st.booleans()):
        # pieces that fit, and the same pieces elsewhere (or where they started) as the goal
        anchors = st.lists(st.tuples(st.sampled_from(names), cells), min_size=1, max_size=8)
        start = list(_greedy(draft, [Placement(k, *cell) for k, cell in draw(anchors)]))
        moved = list(_greedy(draft, [Placement(p.kind, *draw(cells)) for p in start]))
        goal = moved if len(moved) == len(start) else start
        goal = goal[: draw(st.integers(0, len(goal)))] if draw(st.booleans()) else goal
    else:
        start, goal = draw(placements), draw(placements)
    partial = draw(st.booleans())
    goal_empty = frozenset(draw(st.sets(cells, max_size=rows * cols)))
    title = draw(st.sampled_from(["", "a title", "(puzzle 3)"]))
    return Draft(rows, cols, title, kinds, obstacles, start, goal, goal_empty, partial)


@settings(max_examples=400, deadline=None)
@given(drafts())
def test_a_draft_without_problems_is_a_puzzle_that_round_trips(draft):
    problems = draft.problems()
    if problems:
        with pytest.raises(DraftError) as caught:
            draft.to_puzzle()
        assert caught.value.problems == tuple(problems)
        return
    puzzle = draft.to_puzzle()
    assert Draft.from_puzzle(puzzle) == draft
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle


@settings(max_examples=200, deadline=None)
@given(drafts(tidy=True), st.data())
def test_editing_operations_keep_drafts_normalised(draft, data):
    """Whatever the edit, goal_empty holds only open cells (all of them for a full goal)."""
    cells = st.tuples(st.integers(-1, draft.rows), st.integers(-1, draft.cols))
    for _ in range(6):
        goal = data.draw(st.booleans())
        operation = data.draw(st.sampled_from(["piece", "erase", "move", "wall", "mark", "size"]))
        try:
            if operation == "piece":
                draft = draft.with_piece(data.draw(SHAPES), goal)
            elif operation == "erase" and draft.placements(goal):
                piece = data.draw(st.sampled_from(draft.placements(goal)))
                draft = draft.without_piece(piece, goal)
            elif operation == "move" and draft.placements(goal):
                piece = data.draw(st.sampled_from(draft.placements(goal)))
                draft = draft.moved_piece(piece, data.draw(cells), goal)
            elif operation == "wall":
                draft = draft.toggled_obstacle(data.draw(cells))
            elif operation == "mark":
                state = data.draw(st.sampled_from(["any", "empty"]))
                draft = draft.with_goal_cell(data.draw(cells), state)
            elif operation == "size":
                draft = draft.resized(data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6)))
        except DraftError:
            pass
        board = all_cells(draft.rows, draft.cols)
        covered = {c for p in draft.goal for c in draft.cells_of(p)}
        open_cells = board - covered - draft.obstacles
        assert draft.goal_empty <= open_cells
        if not draft.partial:
            assert draft.goal_empty == open_cells
        used = {p.kind for p in draft.start + draft.goal}
        assert used <= set(draft.kind_map())
        if not draft.problems():
            assert Draft.from_puzzle(draft.to_puzzle()) == draft


def test_a_kind_kept_to_an_axis_is_written_with_its_suffix_and_read_back():
    draft = Draft.from_puzzle(parse_puzzle(SILLY))
    name = draft.kinds[0].name
    kept = draft.with_kind_axis(name, Axis.VERTICAL)
    assert kept.kind_map()[name].axis is Axis.VERTICAL
    assert kept.kind_map()[name].cells == draft.kind_map()[name].cells
    assert [k.axis for k in kept.kinds[1:]] == [k.axis for k in draft.kinds[1:]]
    text = format_puzzle(kept.to_puzzle())
    assert f"{name} = {draft.kind_map()[name].pattern()} v" in text.splitlines()
    assert Draft.from_puzzle(parse_puzzle(text)) == kept
    assert kept.with_kind_axis(name, Axis.ANY) == draft
    with pytest.raises(DraftError, match="no piece kind f"):
        draft.with_kind_axis("f", Axis.HORIZONTAL)

"""The board view paints frames; the board editor edits drafts with the real mouse, with undo."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QPoint, QSize
from PySide6.QtGui import QColor, QUndoStack

from slidelab.geometry.palettes import EMPTY_COLOUR, KIND_COLOURS
from slidelab.geometry.sliding_frames import DrawnPiece, Frame, still_frame
from slidelab.gui.sliding.board_view import BoardView
from slidelab.gui.sliding.editor import BoardEditor
from slidelab.library import load_shipped
from slidelab.sliding.draft import Draft
from slidelab.sliding.model import Placement
from slidelab.sliding.textformat import parse_puzzle
from tests.gui.mouse import LEFT, centre, click, drag


def rgb(colour: QColor) -> tuple[int, int, int]:
    return (colour.red(), colour.green(), colour.blue())


@pytest.fixture
def editor(qtbot):
    stack = QUndoStack()
    widget = BoardEditor(stack)
    widget.set_draft(Draft.blank(5, 5))
    widget.resize(400, 400)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    widget._test_stack = stack  # keep the stack alive as long as the widget
    return widget


def test_geometry_maps_cells_to_squares_and_back(editor):
    rect = editor.cell_rect((2, 3))
    assert rect.width() == rect.height() > 60
    assert editor.cell_at(rect.center()) == (2, 3)
    assert editor.cell_at(editor.cell_rect((0, 0)).topLeft()) == (0, 0)
    assert editor.cell_at(editor.cell_rect((4, 4)).bottomRight() + QPoint(5, 5)) is None
    assert editor.sizeHint() == QSize(400, 400)
    assert editor.minimumSize() == QSize(160, 160)


def test_every_edit_by_mouse_and_its_undo_and_redo(qtbot, editor):
    stack: QUndoStack = editor.undo_stack()
    changes = []
    editor.draftChanged.connect(changes.append)
    history = [editor.draft()]

    def step(expected_text: str) -> Draft:
        draft = editor.draft()
        assert draft != history[-1]
        history.append(draft)
        assert stack.count() == len(history) - 1
        assert stack.text(stack.count() - 1) == expected_text
        assert changes[-1] is draft
        return draft

    # a 2 x 2 piece, drawn by dragging round a square
    drag(qtbot, editor, [(0, 0), (0, 1), (1, 1), (1, 0)])
    draft = step("Draw piece 1")
    assert draft.start == (Placement("1", 0, 0),)
    assert draft.kind_map()["1"].pattern() == "11/11"

    # a second one: the same kind is reused
    drag(qtbot, editor, [(0, 2), (1, 2), (1, 3), (0, 3)])
    draft = step("Draw piece 1")
    assert draft.start == (Placement("1", 0, 0), Placement("1", 0, 2))
    assert len(draft.kinds) == 1

    # two unit squares by clicking: a new kind, then reused
    drag(qtbot, editor, [(3, 0)])
    draft = step("Draw piece 2")
    drag(qtbot, editor, [(4, 0)])
    draft = step("Draw piece 2")
    assert [k.name for k in draft.kinds] == ["1", "2"]

    # an obstacle
    editor.set_tool("obstacle")
    click(qtbot, editor, (4, 4))
    draft = step("Toggle obstacle")
    assert draft.obstacles == {(4, 4)}
    assert (4, 4) in editor.frame().obstacles

    # move the second square, grabbed by its bottom-right cell, two rows down
    editor.set_tool("move")
    drag(qtbot, editor, [(1, 3), (2, 3), (3, 3)])
    draft = step("Move piece 1")
    assert draft.start == (Placement("1", 0, 0), Placement("1", 2, 2), *draft.start[2:])
    assert Placement("1", 0, 2) not in draft.start

    # erase one unit square
    editor.set_tool("erase")
    click(qtbot, editor, (4, 0))
    draft = step("Erase piece 2")
    assert draft.start == (Placement("1", 0, 0), Placement("1", 2, 2), Placement("2", 3, 0))
    assert editor.problems() == draft.problems()
    assert editor.frame().problem_cells == frozenset()  # the start itself is fine

    # the goal: one 2 x 2 piece is the wrong count, and the problem is marked on it
    editor.set_mode(goal=True)
    editor.set_tool("piece")
    assert editor.frame().pieces == ()
    drag(qtbot, editor, [(3, 0), (3, 1), (4, 1), (4, 0)])
    draft = step("Draw piece 1")
    assert draft.goal == (Placement("1", 3, 0),)
    counts = [p for p in editor.problems() if "kind 1" in p.message]
    assert counts and counts[0].message == "the start has 2 pieces of kind 1 but the goal has 1"
    assert editor.frame().problem_cells == {(3, 0), (3, 1), (4, 0), (4, 1)}

    # a second goal square fixes that count, and its mark goes
    drag(qtbot, editor, [(0, 3), (0, 4), (1, 4), (1, 3)])
    draft = step("Draw piece 1")
    assert draft.goal == (Placement("1", 0, 3), Placement("1", 3, 0))
    assert editor.frame().problem_cells == frozenset()
    assert [p.message for p in editor.problems()] == [
        "the start has 1 piece of kind 2 but the goal has 0"
    ]

    # 'any' cells make the goal partial, which needs no piece 2; 'empty' takes one back
    editor.set_tool("goal_any")
    click(qtbot, editor, (2, 4))
    draft = step("Mark goal cell any")
    assert draft.partial and draft.any_cells == {(2, 4)}
    assert editor.problems() == []
    click(qtbot, editor, (2, 3))
    draft = step("Mark goal cell any")
    assert editor.frame().any_cells == {(2, 3), (2, 4)}
    editor.set_tool("goal_empty")
    click(qtbot, editor, (2, 4))
    draft = step("Mark goal cell empty")
    assert draft.any_cells == {(2, 3)}
    assert (2, 4) in editor.frame().empty_required
    puzzle = draft.to_puzzle()
    assert puzzle.goal.partial and puzzle.goal.any_cells == {(2, 3)}

    # undo everything, one step at a time, back to the blank board; then redo it all
    for expected in reversed(history[:-1]):
        stack.undo()
        assert editor.draft() == expected
        assert changes[-1] == expected
    assert editor.draft() == Draft.blank(5, 5)
    assert editor.frame().pieces == ()
    for expected in history[1:]:
        stack.redo()
        assert editor.draft() == expected
    assert editor.problems() == []


def test_drawing_a_chosen_kind_and_refused_edits(qtbot, editor):
    drag(qtbot, editor, [(0, 0), (0, 1)])
    editor.set_piece_kind("1")
    drag(qtbot, editor, [(2, 0), (2, 1)])
    assert editor.draft().start == (Placement("1", 0, 0), Placement("1", 2, 0))
    assert editor.last_error is None
    failures = []
    editor.editFailed.connect(failures.append)
    drag(qtbot, editor, [(4, 0), (4, 1), (4, 2)])  # three cells are not a domino
    assert "do not have the shape of kind 1" in editor.last_error
    assert failures == [editor.last_error]
    assert len(editor.draft().start) == 2
    editor.set_piece_kind(None)
    drag(qtbot, editor, [(4, 0), (4, 1), (4, 2)])
    assert editor.last_error is None
    assert [k.name for k in editor.draft().kinds] == ["1", "2"]

    # the goal tools need goal mode; moving off the board is refused
    editor.set_tool("goal_any")
    click(qtbot, editor, (3, 3))
    assert "switch to the goal" in editor.last_error
    editor.set_tool("move")
    drag(qtbot, editor, [(4, 0), (4, 1), (4, 2), (4, 3), (4, 4)])
    assert "would not fit" in editor.last_error
    assert editor.undo_stack().count() == 3
    with pytest.raises(ValueError):
        editor.set_tool("paint")


def test_a_fast_drag_still_collects_every_cell_it_crosses(qtbot, editor):
    qtbot.mousePress(editor, LEFT, pos=centre(editor, (0, 0)))
    qtbot.mouseMove(editor, centre(editor, (0, 3)))  # one jump over (0, 1) and (0, 2)
    assert editor._stroke == [(0, 0), (0, 1), (0, 2), (0, 3)]
    image = editor.render_image(400, 400)  # the preview is drawn over the empty cells
    assert rgb(image.pixelColor(centre(editor, (0, 2)))) != EMPTY_COLOUR
    qtbot.mouseRelease(editor, LEFT, pos=centre(editor, (0, 3)))
    assert editor.draft().kind_map()["1"].pattern() == "1111"


def test_set_draft_shows_a_puzzle_without_an_undo_step(qtbot, editor):
    silly = Draft.from_puzzle(load_shipped("sliding", "knuth-silly.slide", parse_puzzle))
    with qtbot.waitSignal(editor.draftChanged):
        editor.set_draft(silly)
    assert editor.undo_stack().count() == 0
    assert editor.problems() == []
    assert len(editor.frame().pieces) == 4
    editor.set_mode(goal=True)
    assert editor.frame() == still_frame(silly, silly.goal, goal=True)


def test_pixels_of_a_rendered_frame(qtbot):
    view = BoardView()
    qtbot.addWidget(view)
    frame = Frame(
        rows=3,
        cols=3,
        pieces=(
            DrawnPiece("1", ((0, 0), (0, 1)), (0.0, 0.0)),
            DrawnPiece("5", ((1, 0),), (0.0, 0.0)),
        ),
        obstacles=frozenset({(2, 2)}),
    )
    view.set_frame(frame)
    assert view.frame() == frame
    image = view.render_image(200, 200)
    assert (image.width(), image.height()) == (200, 200)
    size = QSize(200, 200)

    def pixel(cell):
        return rgb(image.pixelColor(view.cell_rect(cell, size).center().toPoint()))

    assert pixel((0, 1)) == KIND_COLOURS["1"]
    assert pixel((1, 0)) == KIND_COLOURS["5"]
    assert pixel((1, 1)) == EMPTY_COLOUR
    assert sum(pixel((2, 2))) < 3 * 110  # obstacles are dark
    # the two cells of piece 1 merge: no gap on their shared edge
    left, right = view.cell_rect((0, 0), size), view.cell_rect((0, 1), size)
    seam = QPoint(round(left.right()), round(left.center().y()))
    assert rgb(image.pixelColor(seam)) == KIND_COLOURS["1"]
    assert right.left() == left.right()
    # between piece 1 and piece 5 (different pieces) the board shows through
    between = QPoint(round(left.center().x()), round(left.bottom()))
    assert rgb(image.pixelColor(between)) != KIND_COLOURS["1"]


def test_painting_does_not_leak_references_to_none(qtbot):
    """PySide6 6.12.0 on Python 3.11 drops a reference to None on every call of a method
    returning nothing (None is immortal only from Python 3.12).  One paint of the
    fifteen puzzle makes hundreds of such calls, so a few dozen paints (a second of
    animation, one GIF export) abort the interpreter with "none_dealloc: deallocating
    None".  PySide6 6.11.3 does not do this; neither does any Python >= 3.12."""
    puzzle = load_shipped("sliding", "fifteen-puzzle.slide", parse_puzzle)
    view = BoardView()
    qtbot.addWidget(view)
    view.set_frame(still_frame(puzzle, puzzle.start.placements))
    view.render_image(100, 100)
    before = sys.getrefcount(None)
    view.render_image(300, 300)
    lost = before - sys.getrefcount(None)
    assert lost <= 10, (
        f"one paint lost {lost} references to None (of {before}); this PySide6 build "
        "will crash the app within seconds: use PySide6 != 6.12.0 or Python >= 3.12"
    )

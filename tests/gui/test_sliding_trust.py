"""The sliding tab, driven by mouse and keyboard: moves drawn along their real route, one
figure for each thing, readable move names, refused edits shown, partial goals checked."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QToolButton

from slidelab.gui.sliding import workbench as sliding_workbench
from slidelab.library import load_shipped
from slidelab.sliding.model import Placement
from slidelab.sliding.textformat import parse_puzzle
from tests.geometry.test_sliding_frames import overlapping
from tests.gui.mouse import LEFT, click, drag
from tests.gui.test_main_window import shown_configuration, solve_in
from tests.sliding.figures import SILLY

STUCK = "1 x 3\n1 = 1\n2 = 1\n12\n021\n"
"""Two unit pieces on a 1 x 3 board that must swap: no style can do it."""


def silly_solved(window, qtbot, style: int):
    """The sliding tab with Knuth's 'silly' puzzle solved in `style`."""
    window.by_family["sliding"].load_puzzle(parse_puzzle(SILLY))
    return solve_in(window, qtbot, style)


def test_path_moves_play_cell_by_cell_and_no_frame_overlaps(window, qtbot):
    bench = silly_solved(window, qtbot, 2)
    slider = bench.player.slider
    for value in range(slider.maximum() + 1):
        slider.setValue(value)
        assert overlapping(bench.solution_view.frame()) == [], value
    # Move 1 goes down 1, right 2, down 1: halfway it is two cells right of one cell down.
    slider.setValue(slider.maximum() // bench.player.moves // 2)
    [moving] = [p for p in bench.solution_view.frame().pieces if p.highlighted]
    assert moving.offset == (1.0, 1.0)
    assert moving.kind == "2"


def test_the_exports_draw_the_same_route_frames(window, qtbot, tmp_path, monkeypatch):
    bench = silly_solved(window, qtbot, 5)
    drawn = []
    real = sliding_workbench.solution_frames

    def recorded(*args):
        for frame in real(*args):
            drawn.append(frame)
            yield frame

    monkeypatch.setattr(sliding_workbench, "solution_frames", recorded)
    bench.export_gif(str(tmp_path / "solution.gif"))
    assert len(drawn) == 2 * sliding_workbench.GIF_STEPS_PER_MOVE + 1
    assert all(overlapping(frame) == [] for frame in drawn)
    assert all(frame.goal for frame in drawn)


def test_the_goal_is_outlined_on_the_solution_view(window, qtbot):
    puzzle = parse_puzzle(SILLY)
    bench = window.by_family["sliding"]
    bench.load_puzzle(puzzle)
    solve_in(window, qtbot, 2)
    outlined = {(p.kind, p.cells) for p in bench.solution_view.frame().goal}
    assert outlined == {
        (p.kind, tuple(puzzle.kind(p.kind).cells_at(p.anchor))) for p in puzzle.goal.placements
    }
    image = bench.solution_view.grab().toImage()
    assert not image.isNull()


def test_the_move_list_highlight_follows_the_counter(window, qtbot):
    bench = silly_solved(window, qtbot, 2)
    slider = bench.player.slider
    for value in range(slider.maximum() + 1):
        slider.setValue(value)
        number = int(bench.player.counter.text().split(" / ")[0])
        assert bench.move_list.currentRow() == number, value
    qtbot.keyClick(bench.solution_view, Qt.Key.Key_Home)
    for expected in (1, 2, 3):
        qtbot.keyClick(bench.solution_view, Qt.Key.Key_Right)
        assert bench.player.counter.text() == f"{expected} / 4"
        assert bench.move_list.currentItem().text().startswith(f"{expected}. ")
    bench.player.speed.setValue(3.0)
    qtbot.keyClick(bench.solution_view, Qt.Key.Key_Home)
    qtbot.mouseClick(bench.player.play_button, LEFT)
    seen = set()
    while bench.player.playing:
        qtbot.wait(7)
        number = int(bench.player.counter.text().split(" / ")[0])
        assert bench.move_list.currentRow() == number
        seen.add(number)
    assert seen >= {1, 2, 3, 4}


def test_moves_figures_agree_in_header_list_and_status(window, qtbot):
    bench = window.by_family["sliding"]
    window.open_library(bench, "klotski.slide")
    solve_in(window, qtbot, 0)
    result = bench._solution
    assert result is not None and result.moves
    explored = f"{result.states:,}"
    assert f"{result.moves} moves ({explored} configurations explored)" in (
        bench.solution_summary.text()
    )
    assert bench.move_list.count() == result.moves + 1
    assert bench.move_list.item(result.moves).text().startswith(f"{result.moves}. ")
    status = window.status_panel
    assert (
        status.phase.text()
        == f"solved in {result.moves} moves · {explored} configurations explored"
    )
    assert f"depth {result.moves} · {explored} explored" in status.details.text()


def test_the_move_list_names_piece_direction_and_distance(window, qtbot):
    bench = silly_solved(window, qtbot, 2)
    names = [bench.move_list.item(k).text() for k in range(bench.move_list.count())]
    assert names == [
        "Start",
        "1. 2 down 1, then right 2, then down 1",
        "2. 1 down 1, then right 2, then down 1",
        "3. 3 up 3, then right 4",
        "4. 3 up 3, then right 2",
    ]
    solve_in(window, qtbot, 5)
    assert bench.move_list.item(1).text() == "1. 3+3 right 3, then up 3"


def tool(bench, name: str) -> QToolButton:
    button = bench.findChild(QToolButton, f"tool_{name}")
    assert button is not None
    return button


def test_refused_edits_say_what_to_do_instead(window, qtbot):
    bench = window.by_family["sliding"]
    editor = bench.editor
    drag(qtbot, editor, [(0, 0), (0, 1)])
    bench.kind_choice.setCurrentIndex(bench.kind_choice.findData("1"))
    drag(qtbot, editor, [(2, 0), (2, 1), (2, 2)])  # not a domino
    shown = bench.edit_message.text()
    assert "do not have the shape of kind 1" in shown and "choose 'new kind'" in shown
    assert window.status_panel.phase.text() == shown
    qtbot.mouseClick(tool(bench, "goal_any"), LEFT)
    click(qtbot, editor, (3, 3))
    assert "switch to the goal" in bench.edit_message.text()
    assert window.status_panel.phase.text() == bench.edit_message.text()
    qtbot.mouseClick(tool(bench, "erase"), LEFT)
    click(qtbot, editor, (3, 3))
    assert "no piece to erase at row 3, column 3: click on a piece" in bench.edit_message.text()
    qtbot.mouseClick(tool(bench, "piece"), LEFT)
    bench.kind_choice.setCurrentIndex(0)
    drag(qtbot, editor, [(3, 0)])  # a fine edit clears the message
    assert bench.edit_message.text() == ""
    assert window.status_panel.phase.text() == "ready"


def test_any_is_dragged_and_every_other_cell_can_be_any(window, qtbot):
    bench = window.by_family["sliding"]
    editor = bench.editor
    drag(qtbot, editor, [(0, 0)])
    qtbot.mouseClick(bench.goal_mode, LEFT)
    drag(qtbot, editor, [(3, 3)])  # the goal's piece 1
    qtbot.mouseClick(tool(bench, "goal_any"), LEFT)
    steps = bench.undo_stack.count()
    drag(qtbot, editor, [(0, 0), (0, 1), (0, 2), (1, 2)])
    assert editor.draft().any_cells == {(0, 0), (0, 1), (0, 2), (1, 2)}
    assert bench.undo_stack.count() == steps + 1
    assert bench.undo_stack.undoText() == "Mark goal cells any"
    qtbot.mouseClick(bench.start_mode, LEFT)
    qtbot.mouseClick(bench.others_any_button, LEFT)
    assert bench.goal_mode.isChecked()
    draft = editor.draft()
    assert draft.any_cells == {(r, c) for r in range(4) for c in range(4)} - {(3, 3)}
    assert bench.solve_button.isEnabled()


def test_a_goal_that_cannot_hold_the_pieces_is_not_ready(window, qtbot):
    bench = window.by_family["sliding"]
    editor = bench.editor
    drag(qtbot, editor, [(0, 0), (0, 1)])  # a domino
    drag(qtbot, editor, [(2, 2)])  # a unit square
    qtbot.mouseClick(bench.goal_mode, LEFT)
    drag(qtbot, editor, [(3, 3)])
    qtbot.mouseClick(tool(bench, "goal_any"), LEFT)
    drag(qtbot, editor, [(0, 0), (1, 1)])  # two cells, not side by side
    problems = [bench.problems.item(k).text() for k in range(bench.problems.count())]
    assert any("cannot hold" in text for text in problems)
    assert not bench.solve_button.isEnabled()
    drag(qtbot, editor, [(0, 1)])
    assert not editor.draft().problems()
    assert bench.solve_button.isEnabled()


def test_after_no_solution_the_board_is_the_puzzle_solved(window, qtbot):
    bench = silly_solved(window, qtbot, 2)
    stuck = parse_puzzle(STUCK)
    bench.load_puzzle(stuck)
    solve_in(window, qtbot, 2)
    assert bench.solution_summary.text().startswith("No solution in style 2")
    assert window.minimumSizeHint().width() <= 1024  # the message wraps, the window narrows
    frame = bench.solution_view.frame()
    assert (frame.rows, frame.cols) == (1, 3)
    assert shown_configuration(bench.solution_view) == stuck.start
    assert [p.kind for p in frame.goal] == ["1", "2"]
    assert bench.move_list.count() == 0
    assert not bench.player.play_button.isEnabled()


def test_lowering_rows_asks_before_deleting_pieces(window, qtbot, monkeypatch):
    bench = window.by_family["sliding"]
    bench.load_puzzle(load_shipped("sliding", "knuth-silly.slide", parse_puzzle))
    before = bench.editor.draft()
    answers = [QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Yes]
    asked = []

    def question(*args):
        asked.append(args[2])
        bench.rows.editingFinished.emit()  # the dialog takes the focus: no second question
        return answers.pop(0)

    monkeypatch.setattr(QMessageBox, "question", question)

    def lower_rows_to(rows: int) -> None:
        bench.rows.setFocus()
        bench.rows.selectAll()
        qtbot.keyClicks(bench.rows, str(rows))
        qtbot.keyClick(bench.rows, Qt.Key.Key_Return)

    lower_rows_to(3)
    assert asked == [
        "A 3 x 5 board leaves out 4 pieces (start and goal). Delete them? "
        "(Edit > Undo brings them back.)"
    ]
    assert bench.editor.draft() == before
    assert bench.rows.value() == 5
    lower_rows_to(3)
    assert len(asked) == 2
    assert bench.editor.draft().rows == 3
    assert Placement("3", 4, 0) not in bench.editor.draft().start
    bench.undo_stack.undo()
    assert bench.editor.draft() == before
    lower_rows_to(5)  # no change, no question
    bench.rows.setValue(6)
    bench.rows.editingFinished.emit()  # growing deletes nothing: no question
    assert len(asked) == 2 and bench.editor.draft().rows == 6

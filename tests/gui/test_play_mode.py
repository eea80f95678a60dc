"""Play mode, driven with the real mouse and keys: Klotski played to the goal by following the
hints, refusals explained, undo/redo/reset, the move-away warning, groups in superpiece
styles, Rush Hour's cars kept to their axis, Solve from here agreeing with the distance
shown, the distance run cancelled on leaving, and the axis marks and setting of the editor."""

from __future__ import annotations

import threading
import time
from collections.abc import Generator

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPoint, QSize, Qt

from slidelab.geometry.palettes import KIND_COLOURS
from slidelab.gui.sliding import play_control
from slidelab.gui.sliding import workbench as sliding_workbench
from slidelab.gui.sliding.play_view import PlayView
from slidelab.runs import Progress, drive
from slidelab.sliding.distance import GoalDistances
from slidelab.sliding.model import Axis, Placement
from slidelab.sliding.play import PlaySession
from slidelab.sliding.reference import successors
from slidelab.sliding.refusals import shifted
from slidelab.sliding.routes import moved_pieces
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_puzzle, parse_puzzle
from tests.gui.heartbeat import Heartbeat
from tests.gui.mouse import LEFT, centre, drag
from tests.gui.test_board_editor import rgb
from tests.gui.test_main_window import shown_configuration
from tests.sliding.test_reference_agreement import puzzles

SHIFT = Qt.KeyboardModifier.ShiftModifier


def play(window, qtbot, name: str, style: int):
    """The sliding tab on the library puzzle `name`, its Play page open (by a click on its tab)
    in `style`, the distances computed."""
    bench = window.by_family["sliding"]
    window.open_library(bench, name)
    bench.style_choice.setCurrentIndex(style)
    bar = bench.pages.tabBar()
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(sliding_workbench.PLAY_PAGE).center())
    page = bench.play_page
    qtbot.waitUntil(
        lambda: page.session is not None and page.session.table is not None, timeout=60_000
    )
    qtbot.waitUntil(lambda: not window.runner.busy)
    page.view.hint_seconds = 0.05
    return bench, page


def move(qtbot, view, before: Placement, after: Placement) -> None:
    """Drag a piece by its anchor cell to where its anchor goes."""
    drag(qtbot, view, [before.anchor, after.anchor])


def test_klotski_is_played_to_the_goal_by_following_the_hints(window, qtbot):
    bench, page = play(window, qtbot, "klotski.slide", 2)
    view = page.view
    assert page.distance.text() == "81 moves from the goal"
    assert page.counter.text() == "Moves made: 0"
    assert "the start is 81 moves from the goal" in window.status_panel.phase.text()
    for made in range(1, 82):
        qtbot.mouseClick(page.hint_button, LEFT)
        assert page.message.text().startswith("Hint: ")
        qtbot.waitUntil(lambda: not view.animating, timeout=5_000)
        assert view.hint is not None
        [(before, after)] = moved_pieces(page.session.config, view.hint)
        move(qtbot, view, before, after)
        assert page.counter.text() == f"Moves made: {made}"
        left = 81 - made
        assert page.distance.text().startswith(f"{left} move")
        assert page.warning.text() == ""
    assert page.distance.text() == "0 moves from the goal: solved!"
    assert page.session.solved
    qtbot.mouseClick(page.hint_button, LEFT)
    assert page.message.text() == "No hint: the goal is reached."
    qtbot.mouseClick(page.undo_button, LEFT)
    view.hint_seconds = 30.0
    qtbot.mouseClick(page.hint_button, LEFT)  # a slow glide, cut short by a press on the board
    assert view.animating and not page.hint_button.isEnabled()
    qtbot.mousePress(view, LEFT, pos=centre(view, (0, 0)))
    assert not view.animating and view.hint is not None and page.hint_button.isEnabled()
    qtbot.mouseRelease(view, LEFT, pos=centre(view, (0, 0)))
    assert bench.undo_stack.count() == 0  # moves are not edits of the puzzle


def test_refused_drags_are_explained_and_change_nothing(window, qtbot):
    _bench, page = play(window, qtbot, "klotski.slide", 0)
    view = page.view
    before = page.session.config
    drag(qtbot, view, [(4, 0), (4, 1), (4, 2)])  # two cells in style 0
    text = "Not a move: style 0 moves one cell at a time: drop it on a neighbouring cell."
    assert page.message.text() == text
    assert window.status_panel.phase.text() == text
    drag(qtbot, view, [(0, 1), (1, 1)])  # the big block onto the horizontal domino
    assert page.message.text() == "Not a move: piece 1 would land on piece 3 at row 2, column 1."
    bottom = view.cell_rect((4, 0)).center().toPoint() + QPoint(
        0, round(view.cell_rect((0, 0)).height())
    )
    qtbot.mousePress(view, LEFT, pos=centre(view, (4, 0)))
    qtbot.mouseMove(view, bottom)
    qtbot.mouseRelease(view, LEFT, pos=bottom)  # below the board
    assert page.message.text() == "Not a move: piece 4 would leave the board."
    assert page.session.config == before and page.counter.text() == "Moves made: 0"
    assert page.distance.text() == "116 moves from the goal"
    drag(qtbot, view, [(4, 0), (4, 1)])  # a move clears the refusal
    assert page.message.text() == "" and page.counter.text() == "Moves made: 1"


def test_undo_redo_and_reset_by_buttons_and_keys(window, qtbot):
    bench, page = play(window, qtbot, "klotski.slide", 2)
    view = page.view
    edits = bench.undo_stack.count()
    drag(qtbot, view, [(4, 0), (4, 1)])
    drag(qtbot, view, [(4, 3), (4, 2)])
    assert page.counter.text() == "Moves made: 2"
    second = page.session.config
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert page.counter.text() == "Moves made: 1"
    assert page.distance.text() == "80 moves from the goal"
    qtbot.mouseClick(page.redo_button, LEFT)
    assert page.session.config == second and not page.redo_button.isEnabled()
    qtbot.mouseClick(page.reset_button, LEFT)
    assert page.counter.text() == "Moves made: 0"
    assert page.distance.text() == "81 moves from the goal"
    assert page.session.config == page.session.puzzle.start
    assert not page.undo_button.isEnabled() and page.redo_button.isEnabled()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | SHIFT)
    assert page.counter.text() == "Moves made: 1"
    qtbot.mouseClick(page.undo_button, LEFT)
    assert page.counter.text() == "Moves made: 0"
    assert bench.undo_stack.count() == edits  # the puzzle's edit history is untouched


def test_a_move_away_from_the_goal_warns(window, qtbot):
    _bench, page = play(window, qtbot, "klotski.slide", 2)
    view = page.view
    drag(qtbot, view, [(4, 0), (4, 1)])
    assert page.warning.text() == ""
    drag(qtbot, view, [(4, 1), (4, 0)])
    assert page.warning.text() == "That move went away from the goal: 80 → 81 moves."
    assert page.distance.text() == "81 moves from the goal"
    drag(qtbot, view, [(4, 0), (4, 1)])
    assert page.warning.text() == ""


def test_groups_are_selected_and_moved_together_in_superpiece_styles(window, qtbot):
    _bench, page = play(window, qtbot, "klotski.slide", 3)
    view = page.view
    # a rubber band from an empty cell over the two unit squares above it, then a drag of either
    band = centre(view, (4, 2))
    end = (view.cell_rect((3, 1)).topLeft() + QPoint(4, 4)).toPoint()
    qtbot.mousePress(view, LEFT, pos=band)
    qtbot.mouseMove(view, end)
    qtbot.mouseRelease(view, LEFT, pos=end)
    assert sorted(view.selection) == [Placement("4", 3, 1), Placement("4", 3, 2)]
    drag(qtbot, view, [(3, 2), (4, 2)])
    placements = page.session.config.placements
    assert Placement("4", 4, 1) in placements and Placement("4", 4, 2) in placements
    assert page.counter.text() == "Moves made: 1"
    assert sorted(view.selection) == [Placement("4", 4, 1), Placement("4", 4, 2)]
    # shift-click adds the domino above, and the three go up together
    qtbot.mouseClick(view, LEFT, SHIFT, centre(view, (2, 1)))
    assert Placement("3", 2, 1) in view.selection and len(view.selection) == 3
    qtbot.mouseClick(view, LEFT, SHIFT, centre(view, (2, 1)))  # and out again
    assert len(view.selection) == 2
    qtbot.mouseClick(view, LEFT, SHIFT, centre(view, (2, 1)))
    drag(qtbot, view, [(4, 1), (3, 1)])  # piece 1 stands above the domino
    assert page.message.text() == (
        "Not a move: the pieces 3+4+4 would land on piece 1 at row 1, column 1."
    )
    assert page.counter.text() == "Moves made: 1"
    assert len(view.selection) == 3


def test_a_rush_hour_car_cannot_be_dragged_across_its_axis(window, qtbot):
    _bench, page = play(window, qtbot, "rush-hour-card-01.slide", 2)
    view = page.view
    assert page.distance.text() == "8 moves from the goal"
    drag(qtbot, view, [(2, 1), (3, 1)])  # the red car, down into a free cell
    assert page.message.text() == (
        "Not a move: piece 1 keeps to its row (its kind moves only left and right)."
    )
    assert Placement("1", 2, 1) in page.session.config.placements
    drag(qtbot, view, [(1, 0), (1, 1)])  # a vertical truck, sideways into a free cell
    assert "piece 5 keeps to its column" in page.message.text()
    drag(qtbot, view, [(0, 0), (0, 1), (0, 2)])  # a horizontal car along its row
    assert page.counter.text() == "Moves made: 1"
    assert Placement("2", 0, 2) in page.session.config.placements
    assert any(p.axis is Axis.HORIZONTAL for p in view.frame().pieces)


def test_solve_from_here_agrees_with_the_distance_shown(window, qtbot):
    bench, page = play(window, qtbot, "klotski.slide", 2)
    view = page.view
    drag(qtbot, view, [(4, 0), (4, 1)])
    drag(qtbot, view, [(4, 1), (4, 0)])  # away: 81 again
    drag(qtbot, view, [(3, 1), (4, 1)])
    shown = int(page.distance.text().split()[0])
    here = page.session.config
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        qtbot.mouseClick(page.solve_button, LEFT)
    assert bench.pages.currentIndex() == 1
    assert bench.player.moves == shown == page.session.distance()
    assert bench.player.path[0] == here
    assert bench.solution_summary.text().startswith(f"Style 2: {shown} moves")
    assert window.status_panel.phase.text().startswith(f"solved in {shown} moves")


def endless(_puzzle, _style) -> Generator[Progress, None, None]:
    """A distance run that goes on until it is cancelled."""
    began = time.perf_counter()
    while True:
        time.sleep(0.01)
        yield Progress("computing distances", 0, time.perf_counter() - began)


def play_klotski_while_distances_run_on(window, qtbot, monkeypatch):
    """The Play page of Klotski in style 2, its distance run going on until cancelled."""
    bench = window.by_family["sliding"]
    window.open_library(bench, "klotski.slide")
    bench.style_choice.setCurrentIndex(2)
    monkeypatch.setattr(play_control, "to_goal", endless)
    bench.pages.setCurrentIndex(sliding_workbench.PLAY_PAGE)
    page = bench.play_page
    qtbot.waitUntil(lambda: window.runner.busy)
    return bench, page


def test_leaving_play_cancels_the_distance_run_and_coming_back_restarts_it(
    window, qtbot, monkeypatch
):
    bench, page = play_klotski_while_distances_run_on(window, qtbot, monkeypatch)
    assert page.distance.text() == "computing distances…"
    drag(qtbot, page.view, [(4, 0), (4, 1)])  # play goes on meanwhile
    assert page.counter.text() == "Moves made: 1"
    with qtbot.waitSignal(window.runner.stopped, timeout=5_000):
        bench.pages.setCurrentIndex(0)
    assert "not computed (stopped)" in page.distance.text()
    monkeypatch.undo()
    bench.pages.setCurrentIndex(sliding_workbench.PLAY_PAGE)
    qtbot.waitUntil(lambda: page.session.table is not None, timeout=60_000)
    assert page.counter.text() == "Moves made: 1"  # the game went on where it was
    assert page.distance.text() == "80 moves from the goal"


def test_a_new_style_during_the_distance_run_computes_the_new_games_distances(
    window, qtbot, monkeypatch
):
    bench, page = play_klotski_while_distances_run_on(window, qtbot, monkeypatch)
    monkeypatch.undo()
    bench.style_choice.setCurrentIndex(5)  # the endless run is cancelled, style 5's starts
    qtbot.waitUntil(lambda: page.session.table is not None, timeout=60_000)
    assert page.session.style.number == 5
    assert page.distance.text() == "55 moves from the goal"
    assert page.heading.text().startswith("Style 5: ")


def test_distances_that_arrive_after_the_style_changed_are_not_used(window, qtbot, monkeypatch):
    """A run that cannot be stopped (no progress events) finishes for the old style after the
    style changed: its table is not used, and the new style's distances follow."""
    real = play_control.to_goal
    began = threading.Event()

    def unstoppable(puzzle, style) -> Generator[Progress, None, GoalDistances]:
        yield from ()
        began.set()
        time.sleep(0.5)
        return drive(real(puzzle, style))

    bench = window.by_family["sliding"]
    window.open_library(bench, "klotski.slide")
    bench.style_choice.setCurrentIndex(2)
    monkeypatch.setattr(play_control, "to_goal", unstoppable)
    bench.pages.setCurrentIndex(sliding_workbench.PLAY_PAGE)
    page = bench.play_page
    qtbot.waitUntil(began.is_set)
    monkeypatch.undo()
    bench.style_choice.setCurrentIndex(5)
    qtbot.waitUntil(lambda: page.session.table is not None, timeout=60_000)
    assert page.session.table.style.number == 5
    assert page.distance.text() == "55 moves from the goal"


def test_the_window_keeps_beating_while_distances_are_computed(window, qtbot):
    """The longest stall of the event loop while the distance tables of Klotski and
    century are computed (style 2), printed for the record and held to the suite's bound."""
    bench = window.by_family["sliding"]
    for name in ("klotski.slide", "century.slide"):
        window.open_library(bench, name)
        bench.style_choice.setCurrentIndex(2)
        with Heartbeat() as beat:
            bench.pages.setCurrentIndex(sliding_workbench.PLAY_PAGE)
            qtbot.waitUntil(lambda: bench.play_page.session.table is not None, timeout=60_000)
        print(f"{name}: {beat.summary()}")
        assert beat.longest_busy < 0.1, beat.summary()
        assert beat.longest < 1.0, beat.summary()


def test_the_axis_is_set_in_the_editor_marked_undone_and_saved(window, qtbot, tmp_path):
    bench = window.by_family["sliding"]
    editor = bench.editor
    drag(qtbot, editor, [(0, 0), (0, 1)])  # a domino, kind 1
    drag(qtbot, editor, [(2, 2)])
    bench.kind_choice.setCurrentIndex(bench.kind_choice.findData("1"))
    assert bench.axis_choice.isEnabled() and bench.axis_choice.currentData() is Axis.ANY
    left = editor.cell_rect((0, 0), QSize(400, 400))
    seam = QPoint(round(left.right()), round(left.center().y()))  # the middle of the domino

    def seam_colour():
        return rgb(editor.render_image(400, 400).pixelColor(seam))

    assert seam_colour() == KIND_COLOURS["1"]
    bench.axis_choice.setCurrentIndex(bench.axis_choice.findData(Axis.HORIZONTAL))
    assert bench.undo_stack.undoText() == "Kind 1 moves left-right only"
    assert editor.draft().kind_map()["1"].axis is Axis.HORIZONTAL
    assert [p.axis for p in editor.frame().pieces if p.kind == "1"] == [Axis.HORIZONTAL]
    assert seam_colour() != KIND_COLOURS["1"]  # the arrow runs through the middle
    bench.undo_stack.undo()
    assert editor.draft().kind_map()["1"].axis is Axis.ANY
    assert bench.axis_choice.currentData() is Axis.ANY and seam_colour() == KIND_COLOURS["1"]
    bench.undo_stack.redo()
    qtbot.mouseClick(bench.others_any_button, LEFT)  # a partial goal: the puzzle is complete
    path = tmp_path / "kept.slide"
    bench.save_file(str(path))
    assert "1 = 11 h" in path.read_text().splitlines()
    assert parse_puzzle(path.read_text()).kind("1").axis is Axis.HORIZONTAL
    bench.new_document()
    bench.open_file(str(path))
    assert bench.editor.draft().kind_map()["1"].axis is Axis.HORIZONTAL
    bench.kind_choice.setCurrentIndex(bench.kind_choice.findData("1"))
    assert bench.axis_choice.currentData() is Axis.HORIZONTAL
    assert not bench.is_modified()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(puzzle=puzzles(), style=st.sampled_from(MoveStyle.ALL), data=st.data())
def test_random_mouse_drags_move_exactly_when_the_reference_allows(
    qtbot, puzzle, style, data
) -> None:
    """Drags with the real mouse from a cell of a piece to any cell on or just off the board:
    the board changes exactly when the reference lists the result as one move."""
    note(format_puzzle(puzzle))
    view = PlayView()
    qtbot.addWidget(view)
    view.resize(300, 300)
    view.show()
    qtbot.waitExposed(view)
    session = PlaySession(puzzle, style)
    view.set_session(session)
    played = []
    view.played.connect(played.append)
    for _ in range(4):
        config = session.config
        piece = data.draw(st.sampled_from(config.placements))
        grabbed = data.draw(st.sampled_from(puzzle.kind(piece.kind).cells_at(piece.anchor)))
        over = (
            data.draw(st.integers(-1, puzzle.rows)),
            data.draw(st.integers(-1, puzzle.cols)),
        )
        geometry = view.board_geometry()
        target = geometry.rect(over).center().toPoint()
        qtbot.mousePress(view, LEFT, pos=centre(view, grabbed))
        qtbot.mouseMove(view, target)
        qtbot.mouseRelease(view, LEFT, pos=target)
        shift = (over[0] - grabbed[0], over[1] - grabbed[1])
        if shift == (0, 0):
            assert session.config == config
            continue
        drop = played.pop()
        after = shifted(config, [piece], shift)
        legal = after in successors(puzzle, config, style)
        assert drop.accepted == legal, (piece, shift, drop.message)
        assert session.config == (after if legal else config)
        assert shown_configuration(view) == session.config

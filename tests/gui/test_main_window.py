"""The main window and the sliding workbench, driven as a person would."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDropEvent, QImageReader
from PySide6.QtWidgets import QMessageBox

from slidelab.gui.main_window import MainWindow
from slidelab.library import load_shipped
from slidelab.sliding.model import Configuration
from slidelab.sliding.textformat import format_puzzle, parse_puzzle
from tests.gui.mouse import LEFT, click, click_solve, drag
from tests.gui.test_worker import BIG as TWELVE
from tests.sliding.figures import SILLY, SILLY_MOVES


def shown_configuration(view) -> Configuration:
    """The configuration a board view shows at rest, read back from its frame."""
    from slidelab.sliding.model import Placement

    return Configuration.of(
        [Placement(piece.kind, *min(piece.cells)) for piece in view.frame().pieces]
    )


def solve_in(window, qtbot, style: int):
    bench = window.by_family["sliding"]
    bench.style_choice.setCurrentIndex(style)
    click_solve(window, qtbot, bench)
    return bench


def test_solves_the_puzzle_and_plays_the_solution_to_the_goal(window, qtbot):
    puzzle = parse_puzzle(SILLY)
    window.by_family["sliding"].load_puzzle(puzzle)
    bench = solve_in(window, qtbot, 2)
    assert bench.pages.currentIndex() == 1
    assert bench.solution_summary.text().startswith("Style 2: 4 moves")
    assert bench.move_list.count() == 5
    bench.player.speed.setValue(20.0)
    qtbot.mouseClick(bench.player.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not bench.player.playing, timeout=5_000)
    assert bench.player.position == 4
    assert puzzle.meets_goal(shown_configuration(bench.solution_view))
    qtbot.keyClick(bench.solution_view, Qt.Key.Key_Home)
    assert shown_configuration(bench.solution_view) == puzzle.start
    qtbot.keyClick(bench.solution_view, Qt.Key.Key_Right)
    assert bench.player.position == 1
    bench.move_list.setCurrentRow(3)
    assert bench.player.position == 3


def test_a_puzzle_drawn_by_mouse_is_solved_and_played_to_its_goal(window, qtbot):
    bench = window.by_family["sliding"]
    window.new_document()
    bench.rows.setValue(2)
    bench.rows.editingFinished.emit()
    bench.cols.setValue(3)
    bench.cols.editingFinished.emit()
    editor = bench.editor
    drag(qtbot, editor, [(0, 0), (0, 1)])  # a domino, kind 1
    click(qtbot, editor, (1, 2))  # a unit square, kind 2
    qtbot.mouseClick(bench.goal_mode, LEFT)
    drag(qtbot, editor, [(1, 0), (1, 1)])
    assert not bench.solve_button.isEnabled()  # the goal still lacks the unit square
    assert bench.problems.item(0).text() == "the start has 1 piece of kind 2 but the goal has 0"
    click(qtbot, editor, (0, 2))
    assert bench.problems.item(0).text() == "No problems: ready to solve."
    puzzle = editor.draft().to_puzzle()
    assert [kind.pattern() for kind in puzzle.kinds] == ["11", "1"]
    bench.style_choice.setCurrentIndex(0)
    click_solve(window, qtbot, bench)
    assert bench.player.moves == 2  # the domino steps down, the square steps up
    qtbot.mouseClick(bench.player.end_button, LEFT)
    assert puzzle.meets_goal(shown_configuration(bench.solution_view))
    qtbot.keyClick(bench.solution_view, Qt.Key.Key_Home)
    bench.player.speed.setValue(20.0)
    qtbot.keyClick(bench.solution_view, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not bench.player.playing, timeout=5_000)
    assert puzzle.meets_goal(shown_configuration(bench.solution_view))


def test_the_cancel_button_stops_a_long_run(window, qtbot):
    window.by_family["sliding"].load_puzzle(parse_puzzle(TWELVE))
    bench = window.by_family["sliding"]
    bench.style_choice.setCurrentIndex(5)
    with qtbot.waitSignal(window.runner.progress, timeout=10_000):
        qtbot.mouseClick(bench.analyze_button, LEFT)
    qtbot.wait(300)
    with qtbot.waitSignal(window.runner.stopped, timeout=2_000):
        qtbot.mouseClick(window.status_panel.cancel_button, LEFT)
    assert window.status_panel.phase.text() == "stopped"
    assert bench.analyze_button.isEnabled()


def test_compare_styles_fills_the_table(window, qtbot):
    window.by_family["sliding"].load_puzzle(parse_puzzle(SILLY))
    bench = window.by_family["sliding"]
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        qtbot.mouseClick(bench.compare_button, Qt.MouseButton.LeftButton)
    moves = tuple(int(bench.compare_table.item(row, 1).text()) for row in range(6))
    assert moves == SILLY_MOVES


def test_analysis_shows_the_histogram_and_farthest_configurations(window, qtbot):
    window.by_family["sliding"].load_puzzle(parse_puzzle(SILLY))
    bench = window.by_family["sliding"]
    bench.style_choice.setCurrentIndex(5)
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        qtbot.mouseClick(bench.analyze_button, Qt.MouseButton.LeftButton)
    view = bench.analysis_view
    assert list(view.bars.opts["height"]) == [1, 41, 361, 1032, 794, 205, 23]
    assert view.farthest.count() == 5
    assert "2,457 reachable" in view.summary.text()


def test_opening_a_malformed_file_reports_it_and_keeps_the_puzzle(window, tmp_path, monkeypatch):
    errors = []
    monkeypatch.setattr(window, "show_error", errors.append)
    before = window.by_family["sliding"].editor.draft()
    bad = tmp_path / "bad.slide"
    bad.write_text("2 x 2\n1 = 1\n1q\n01\n")
    assert not window.open_path(str(bad))
    assert errors == [f"{bad}:3:2: unexpected character 'q' in the start line"]
    assert window.by_family["sliding"].editor.draft() == before


def test_any_extension_is_recognised_by_content(window, tmp_path):
    path = tmp_path / "silly.txt"
    path.write_text(SILLY)
    assert window.open_path(str(path))
    assert window.by_family["sliding"].editor.draft().to_puzzle() == parse_puzzle(SILLY)
    assert window.windowTitle() == "silly.txt[*] — slidelab"


def test_save_round_trips_atomically_and_remembers_the_file(window, tmp_path):
    window.by_family["sliding"].load_puzzle(load_shipped("sliding", "pennant.slide", parse_puzzle))
    target = tmp_path / "pennant.slide"
    target.write_text("old contents")
    assert window.save_to(str(target))
    assert target.read_text() == format_puzzle(
        load_shipped("sliding", "pennant.slide", parse_puzzle)
    )
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert window.recent_files()[0] == str(target.resolve())


def test_unsaved_changes_are_asked_about_before_they_are_lost(window, qtbot, monkeypatch):
    bench = window.by_family["sliding"]
    bench.load_puzzle(parse_puzzle(SILLY))
    edited = bench.editor.draft().toggled_obstacle((4, 4))
    bench.editor.apply_edit(edited, "Toggle obstacle")
    assert bench.is_modified()
    answers = [QMessageBox.StandardButton.Cancel]
    monkeypatch.setattr(QMessageBox, "question", lambda *args: answers.pop(0))
    window.new_document()
    assert bench.editor.draft() == edited
    answers.append(QMessageBox.StandardButton.Discard)
    window.new_document()
    assert bench.editor.draft().start == ()
    assert not bench.is_modified()


def test_dropping_a_file_opens_it(window, tmp_path):
    path = tmp_path / "dropped.slide"
    path.write_text(SILLY)
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    assert window.path == str(path)


def test_export_gif_writes_every_frame(window, qtbot, tmp_path):
    window.by_family["sliding"].load_puzzle(parse_puzzle(SILLY))
    bench = solve_in(window, qtbot, 5)
    target = tmp_path / "solution.gif"
    bench.export_gif(str(target))
    reader = QImageReader(str(target))
    assert reader.imageCount() == 2 * 8 + 1
    frames = tmp_path / "frames"
    frames.mkdir()
    assert bench.export_frames(str(frames)) == 17
    assert sorted(p.name for p in frames.iterdir())[0] == "frame_0001.png"


def test_geometry_and_recent_files_persist_in_the_settings(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.show()
    qtbot.waitUntil(lambda: not first.warm_runner.busy, timeout=120_000)
    first.resize(760, 540)
    size = (first.width(), first.height())
    path = tmp_path / "silly.slide"
    path.write_text(SILLY)
    assert first.open_path(str(path))
    first.close()
    second = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(second)
    assert (second.width(), second.height()) == size != (1100, 720)
    assert second.recent_files() == [str(path.resolve())]
    qtbot.waitUntil(lambda: not second.warm_runner.busy, timeout=120_000)


def test_exports_show_the_solved_puzzle_after_an_edited_one_is_analysed(window, qtbot, tmp_path):
    window.by_family["sliding"].load_puzzle(parse_puzzle(SILLY))
    bench = solve_in(window, qtbot, 5)
    before, after = tmp_path / "before", tmp_path / "after"
    before.mkdir()
    after.mkdir()
    bench.export_frames(str(before))
    draft = bench.editor.draft()
    bench.editor.apply_edit(draft.resized(draft.rows + 1, draft.cols), "Resize board")
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        qtbot.mouseClick(bench.analyze_button, Qt.MouseButton.LeftButton)
    bench.export_frames(str(after))
    names = sorted(p.name for p in before.iterdir())
    assert names == sorted(p.name for p in after.iterdir())
    assert all((before / n).read_bytes() == (after / n).read_bytes() for n in names)

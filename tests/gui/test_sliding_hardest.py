"""'Find hardest start' in the sliding tab: the figures the engine gives, the hardest starts
listed and shown, and the one chosen opened as a new puzzle, the way the window opens files."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from slidelab import memory
from slidelab.runs import drive
from slidelab.sliding.hardest import hardest_starts
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_configuration, parse_puzzle
from tests.gui.mouse import LEFT, click_solve
from tests.gui.test_main_window import shown_configuration
from tests.sliding.figures import SILLY

OBSTACLE = (3, 1)
"""A cell of SILLY empty at the start and in the goal: an obstacle there is an unsaved edit."""


def find_hardest(window, qtbot, style: int, edited: bool = False):
    """SILLY in the sliding tab (with an obstacle added as an unsaved edit when `edited`), its
    hardest starts found by clicking "Find hardest start" in `style`."""
    bench = window.by_family["sliding"]
    bench.load_puzzle(parse_puzzle(SILLY))
    if edited:
        bench.editor.apply_edit(bench.editor.draft().toggled_obstacle(OBSTACLE), "obstacle")
    bench.style_choice.setCurrentIndex(style)
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        qtbot.mouseClick(bench.hardest_button, LEFT)
    return bench


def choose_and_open(bench, qtbot, row: int):
    """Click row `row` of the hardest starts, then "Open as a new puzzle"; returns the start
    chosen."""
    listed = bench.analysis_view.farthest
    qtbot.mouseClick(listed.viewport(), LEFT, pos=listed.visualItemRect(listed.item(row)).center())
    chosen = bench.analysis_view.chosen()
    assert chosen == listed.item(row).data(256)
    assert bench.open_hardest_button.text() == "Open as a new puzzle"
    qtbot.mouseClick(bench.open_hardest_button, LEFT)
    return chosen


def answering(monkeypatch, *answers):
    """QMessageBox.question answers `answers` in turn; returns the list of questions asked."""
    asked: list[str] = []
    left = list(answers)

    def question(*args):
        asked.append(args[2])
        return left.pop(0)

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def test_the_hardest_starts_are_listed_with_the_engines_figures(window, qtbot):
    bench = find_hardest(window, qtbot, 1)
    puzzle = parse_puzzle(SILLY)
    found = drive(hardest_starts(puzzle, MoveStyle.SLIDE))
    assert bench.pages.currentIndex() == 2
    summary = bench.analysis_view.summary.text()
    assert f"{found.placements:,} placements of the pieces in {found.components:,}" in summary
    assert f"the hardest lie {found.hardest_distance} moves from it" in summary
    listed = [bench.analysis_view.farthest.item(i).text() for i in range(found.hardest_count)]
    assert listed == [format_configuration(puzzle, c.placements) for c in found.hardest]
    assert shown_configuration(bench.analysis_board) == found.hardest[0]
    assert f"hardest start: {found.hardest_distance} moves" in bench.status.phase.text()


def test_a_hardest_start_opens_as_a_new_unsaved_puzzle_solved_in_its_distance(
    window, qtbot, monkeypatch
):
    bench = find_hardest(window, qtbot, 1)
    found = drive(hardest_starts(parse_puzzle(SILLY), MoveStyle.SLIDE))
    assert found.hardest_count > 1
    chosen = choose_and_open(bench, qtbot, 1)
    assert chosen == found.hardest[1]
    assert bench.pages.currentIndex() == 0
    title = f"hardest start ({found.hardest_distance} moves, style 1) of (a silly example)"
    opened = bench.editor.draft().to_puzzle()
    assert opened == replace(parse_puzzle(SILLY), start=chosen, title=title)
    assert window.windowTitle() == f"{title}[*] — slidelab"
    assert window.path is None and bench.is_modified() and window.isWindowModified()
    click_solve(window, qtbot, bench)
    assert bench.solution_summary.text().startswith(f"Style 1: {found.hardest_distance} moves")
    asked = answering(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.close()
    assert window.isVisible()
    assert asked == ["The sliding blocks puzzle has unsaved changes. Save them?"]


def test_undo_after_opening_a_hardest_start_does_not_go_back_to_the_old_puzzle(window, qtbot):
    bench = find_hardest(window, qtbot, 1)
    chosen = choose_and_open(bench, qtbot, 0)
    assert not window.undo_group.canUndo()
    qtbot.keyClick(bench.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert bench.editor.draft().to_puzzle().start == chosen


def test_the_old_puzzles_unsaved_edits_are_offered_for_saving_and_cancel_keeps_them(
    window, qtbot, monkeypatch
):
    bench = find_hardest(window, qtbot, 1, edited=True)
    draft = bench.editor.draft()
    asked = answering(
        monkeypatch, QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Discard
    )
    choose_and_open(bench, qtbot, 0)
    assert asked == ["The sliding blocks puzzle has unsaved changes. Save them?"]
    assert bench.editor.draft() == draft and bench.undo_stack.canUndo()
    assert window.windowTitle() == "untitled[*] — slidelab"
    assert bench.pages.currentIndex() == 2
    chosen = choose_and_open(bench, qtbot, 0)
    assert len(asked) == 2
    opened = bench.editor.draft().to_puzzle()
    assert opened == replace(draft.to_puzzle(), start=chosen, title=opened.title)
    assert OBSTACLE in opened.obstacles
    assert not window.undo_group.canUndo()


def test_an_edited_puzzle_is_not_given_an_old_hardest_start(window, qtbot):
    bench = find_hardest(window, qtbot, 1)
    bench.editor.apply_edit(bench.editor.draft().resized(5, 6), "widen")
    qtbot.mouseClick(bench.open_hardest_button, LEFT)
    assert bench.editor.draft().cols == 6
    assert "changed since its hardest starts were found" in bench.edit_message.text()


def test_the_histogram_of_an_analysis_is_hidden_for_hardest_starts_and_back_after(window, qtbot):
    bench = find_hardest(window, qtbot, 1)
    assert not bench.analysis_view.plot.isVisible()
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        qtbot.mouseClick(bench.analyze_button, LEFT)
    assert bench.analysis_view.plot.isVisible()
    assert not bench.open_hardest_button.isEnabled()  # the list holds no hardest starts now
    assert bench.analysis_view.list_title.text().startswith("Farthest configurations")


def test_a_run_stopped_at_a_limit_says_why_and_counts_nothing(window, qtbot, monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: 1 << 20)
    bench = find_hardest(window, qtbot, 1)
    stopped = (
        "stopped: a part of the placements that moves cannot leave needs at least 5.0 MiB to "
        "search, more than the default memory budget (60% of the available memory, 0.6 MiB; "
        "set it with --max-memory)"
    )
    assert bench.analysis_view.summary.text() == f"Style 1: {stopped}"
    assert bench.analysis_view.farthest.count() == 0
    assert bench.status.phase.text() == stopped

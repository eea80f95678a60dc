"""'Find hardest start' in the sliding tab: the figures the engine gives, the hardest starts
listed and shown, and one of them made the puzzle's start as an undoable edit."""

from __future__ import annotations

from slidelab.runs import drive
from slidelab.sliding.hardest import hardest_starts
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import format_configuration, parse_puzzle
from tests.gui.mouse import LEFT
from tests.gui.test_main_window import shown_configuration
from tests.sliding.figures import SILLY


def find_hardest(window, qtbot, style: int):
    bench = window.by_family["sliding"]
    bench.load_puzzle(parse_puzzle(SILLY))
    bench.style_choice.setCurrentIndex(style)
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        qtbot.mouseClick(bench.hardest_button, LEFT)
    return bench


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


def test_use_as_the_start_is_an_edit_that_undo_takes_back(window, qtbot):
    bench = find_hardest(window, qtbot, 1)
    chosen = bench.analysis_view.chosen()
    assert bench.use_start_button.isEnabled()
    qtbot.mouseClick(bench.use_start_button, LEFT)
    assert bench.pages.currentIndex() == 0
    puzzle = bench.editor.draft().to_puzzle()
    assert puzzle.start == chosen
    assert puzzle.title.endswith("hardest start")
    bench.undo_stack.undo()
    assert bench.editor.draft().to_puzzle().start == parse_puzzle(SILLY).start


def test_an_edited_puzzle_is_not_given_an_old_hardest_start(window, qtbot):
    bench = find_hardest(window, qtbot, 1)
    bench.editor.apply_edit(bench.editor.draft().resized(5, 6), "widen")
    qtbot.mouseClick(bench.use_start_button, LEFT)
    assert bench.editor.draft().cols == 6
    assert "changed since its hardest starts were found" in bench.edit_message.text()


def test_the_histogram_of_an_analysis_is_hidden_for_hardest_starts_and_back_after(window, qtbot):
    bench = find_hardest(window, qtbot, 1)
    assert not bench.analysis_view.plot.isVisible()
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        qtbot.mouseClick(bench.analyze_button, LEFT)
    assert bench.analysis_view.plot.isVisible()
    assert bench.analysis_view.list_title.text().startswith("Farthest configurations")

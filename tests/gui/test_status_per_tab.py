"""Each tab's status line shows that tab's runs only, with found so far and the time left."""

from __future__ import annotations

from slidelab.gui.status import StatusPanel
from slidelab.runs import Progress
from slidelab.sliding.textformat import parse_puzzle
from tests.gui.mouse import LEFT, click_solve
from tests.gui.test_dissection_workbench import TOY, click_cell
from tests.gui.test_worker import BIG as TWELVE


def click_tab(qtbot, window, workbench) -> None:
    bar = window.tabs.tabBar()
    index = window.tabs.indexOf(workbench)
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(index).center())
    assert window.workbench is workbench


def test_switching_tabs_shows_each_tabs_own_last_run(window, qtbot):
    dissection = window.by_family["dissection"]
    sliding = window.by_family["sliding"]
    click_tab(qtbot, window, dissection)
    for row, column in sorted(TOY):
        click_cell(qtbot, dissection.target_grid, row, column)
    dissection.pieces.setValue(2)
    click_solve(window, qtbot, dissection, timeout=30_000)
    finished = window.status_panel.phase.text()
    figures = window.status_panel.details.text()
    assert "3" in finished and figures
    click_tab(qtbot, window, sliding)
    assert window.status_panel.phase.text() == "ready"
    assert window.status_panel.details.text() == ""
    assert window.status_stack.currentWidget().isVisible()
    assert not dissection.status.isVisible()
    click_tab(qtbot, window, dissection)
    assert window.status_panel.phase.text() == finished
    assert window.status_panel.details.text() == figures


def test_a_runs_progress_reaches_only_the_tab_that_started_it(window, qtbot):
    sliding = window.by_family["sliding"]
    antislide = window.by_family["antislide"]
    sliding.load_puzzle(parse_puzzle(TWELVE))
    sliding.style_choice.setCurrentIndex(5)
    with qtbot.waitSignal(window.runner.progress, timeout=10_000):
        qtbot.mouseClick(sliding.analyze_button, LEFT)
    qtbot.wait(300)
    assert "explored" in sliding.status.details.text()
    click_tab(qtbot, window, antislide)
    assert antislide.status.phase.text() == "ready"
    assert antislide.status.details.text() == ""
    assert not antislide.status.cancel_button.isEnabled()
    click_tab(qtbot, window, sliding)
    with qtbot.waitSignal(window.runner.stopped, timeout=2_000):
        qtbot.mouseClick(window.status_panel.cancel_button, LEFT)
    assert antislide.status.phase.text() == "ready"


def test_a_run_with_a_fraction_done_shows_found_so_far_and_the_time_left(qtbot):
    panel = StatusPanel()
    qtbot.addWidget(panel)
    panel.running("exact cover")
    panel.show_progress(Progress("exact cover", 5_000, 30.0, depth=4, found=12, fraction=0.2))
    text = panel.details.text()
    assert "12 found" in text
    assert "about 2 min left" in text
    assert panel.bar.value() == 200
    panel.show_progress(Progress("breadth-first search", 5_000, 30.0, depth=4))
    assert "left" not in panel.details.text()
    panel.show_progress(Progress("exact cover", 6_000, 31.0, depth=4, found=14, fraction=0.3))
    panel.ready("20 solutions")
    assert "left" not in panel.details.text()
    assert "found" not in panel.details.text()  # the message has the final count


def test_a_polycube_run_reports_what_it_found_in_its_own_tab(window, qtbot):
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    seen: list[str] = []
    window.runner.progress.connect(lambda _event: seen.append(bench.status.details.text()))
    click_solve(window, qtbot, bench)
    assert any("found" in text for text in seen)
    assert "found" not in window.by_family["sliding"].status.details.text()


def test_a_run_without_depth_shows_none(qtbot):
    panel = StatusPanel()
    qtbot.addWidget(panel)
    panel.running("hardest start")
    panel.show_progress(Progress("hardest start", 65_880, 0.5, fraction=1.0))
    assert panel.details.text().startswith("65,880 explored · ")
    panel.show_progress(Progress("breadth-first search", 10, 0.5, depth=3))
    assert panel.details.text().startswith("depth 3 · 10 explored · ")

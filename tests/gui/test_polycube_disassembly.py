"""The polycube tab takes its listed assemblies apart: a level column to sort and filter by,
and a Disassemble page that plays the chosen one in 3D and exports it as PNG and GIF."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImageReader
from PySide6.QtWidgets import QCheckBox
from pytestqt.qtbot import QtBot

from slidelab.export.gif_options import GifOptions
from slidelab.gui.images import save_png
from slidelab.gui.main_window import MainWindow
from slidelab.gui.polycube.workbench import DISASSEMBLE_PAGE, SOLVE_PAGE, PolycubeWorkbench
from slidelab.runs import Progress
from tests.burrtools.conftest import EXAMPLES
from tests.gui.mouse import LEFT, click_solve

SHOTS = Path("/tmp/disasm-shots")


@pytest.fixture
def examples() -> Path:
    """BurrTools' examples folder (tests/burrtools/conftest.py finds it)."""
    if not EXAMPLES.is_dir():
        pytest.skip(f"BurrTools examples not found at {EXAMPLES}")
    return EXAMPLES


def levels(bench: PolycubeWorkbench) -> list[str]:
    """The level column as shown, top to bottom."""
    model = bench.solution_list.rows
    return [model.data(model.index(row, 1)) for row in range(model.rowCount())]


def take_apart(window: MainWindow, qtbot: QtBot, bench: PolycubeWorkbench) -> None:
    assert bench.take_apart_button.isEnabled() and not bench.solutions_only.isEnabled()
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        qtbot.mouseClick(bench.take_apart_button, LEFT)
    assert bench.solutions_only.isEnabled()


def tick(qtbot: QtBot, box: QCheckBox) -> None:
    """Click a check box on its box (its middle may lie beyond its text)."""
    qtbot.mouseClick(box, LEFT, pos=QPoint(8, box.height() // 2))


def shoot(bench: PolycubeWorkbench, name: str) -> None:
    """Save the tab and the 3D view as a person would see them."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    bench.grab().save(str(SHOTS / f"{name}-tab.png"))
    save_png(bench.view.grab_image(), SHOTS / f"{name}-view.png")


def test_cube_in_cage_comes_apart_at_level_4_9_3_and_plays_to_the_end(
    window: MainWindow, qtbot: QtBot, examples: Path, tmp_path: Path
) -> None:
    assert window.open_path(str(examples / "CubeInCage.xmpuzzle"))
    bench = window.by_family["polycube"]
    assert isinstance(bench, PolycubeWorkbench)
    window.resize(1280, 860)
    bench.distinct.setChecked(True)
    click_solve(window, qtbot, bench)
    assert bench.solution_list.count() == 96 and set(levels(bench)) == {""}
    take_apart(window, qtbot, bench)
    assert bench.result_text.text() == "1 of 96 come apart; highest level 4.9.3."
    assert bench.status.phase.text() == "1 of 96 assemblies come apart"
    shown = levels(bench)
    assert shown.count("4.9.3") == 1 and shown.count("stuck") == 95
    # sorting by level (a click on its header) brings the one that comes apart to the top
    header = bench.solution_list.horizontalHeader()
    qtbot.mouseClick(header.viewport(), LEFT, pos=QPoint(header.sectionViewportPosition(1) + 5, 5))
    assert levels(bench)[0] == "4.9.3"
    shoot(bench, "0-levels-sorted")
    assert bench.solution_list.current_solution() == 0  # the chosen row followed its row
    tick(qtbot, bench.solutions_only)
    assert bench.solution_list.count() == 1 and levels(bench) == ["4.9.3"]
    bench.solution_list.setCurrentRow(0)
    chosen = bench.solution_list.current_solution()

    bench.pages.setCurrentIndex(DISASSEMBLE_PAGE)
    page = bench.disassembly_page
    player = page.player
    assert page.about.text() == (
        f"Assembly {chosen + 1} comes apart in 16 moves, level 4.9.3 (3 separations)."
    )
    assert player.counter.text() == "move 0 of 16" and player.play_button.isEnabled()
    assert bench.view.hidden_keys() == frozenset()
    for _ in range(3):
        qtbot.mouseClick(player.forward_button, LEFT)
    assert player.counter.text() == "move 3 of 16 (separation 1)"
    player.seek(3.1)  # the first piece on its way out
    assert player.counter.text() == "move 4 of 16 (separation 1)"
    leaving = player.keys[player.play_data.moves[3].move.pieces[0]]
    assert bench.view.highlighted_keys() == {leaving}
    shoot(bench, "1-first-piece-leaving")
    player.seek(3.9)
    assert max(abs(c) for c in bench.view.offset_of(leaving)) > 10
    player.seek(9.5)
    assert player.counter.text() == "move 10 of 16 (separation 2)"
    assert leaving in bench.view.hidden_keys()
    shoot(bench, "2-second-separation")

    player.speed.setValue(20.0)
    qtbot.mouseClick(player.play_button, LEFT)
    assert player.playing
    qtbot.waitUntil(lambda: not player.playing, timeout=10_000)
    assert player.position == 16 and player.counter.text() == "move 16 of 16 (separation 3)"
    shoot(bench, "3-end")
    assembly = bench._taken.assemblies[chosen]
    caged = {player.keys[k] for k, piece in enumerate(assembly.pieces) if piece.groups}
    assert len(caged) == 3
    assert bench.view.hidden_keys() == set(player.keys) - caged
    qtbot.mouseClick(player.home_button, LEFT)
    assert player.counter.text() == "move 0 of 16" and bench.view.hidden_keys() == frozenset()

    # the current frame as a PNG, the whole play as a GIF
    player.seek(2.5)
    png = tmp_path / "frame.png"
    page.export_png(str(png))
    reader = QImageReader(str(png))
    assert reader.size() == bench.view.grab_image().size()
    gif = tmp_path / "disassembly.gif"
    export = page.export_gif(str(gif), GifOptions(120, 0.2, 2))
    qtbot.waitUntil(lambda: export.message is not None, timeout=60_000)
    assert "33 frames" in export.message.text() and str(gif) in export.message.text()
    reader = QImageReader(str(gif))
    assert reader.imageCount() == 16 * 2 + 1
    assert reader.size().width() == 120 or reader.size().height() == 120
    export.message.close()
    shutil.copy(gif, SHOTS / "4-play.gif")
    assert player.position == 2.5 and player.counter.text() == "move 3 of 16 (separation 1)"

    # an assembly that does not come apart says so instead of playing
    tick(qtbot, bench.solutions_only)
    assert bench.solution_list.count() == 96
    bench.solution_list.setCurrentRow(95)
    stuck = bench.solution_list.current_solution()
    assert page.about.text() == (f"Assembly {stuck + 1} does not come apart: 6 pieces stay stuck.")
    assert not player.play_button.isEnabled() and player.counter.text() == ""
    assert not page.gif_button.isEnabled()


def test_a_specs_solutions_are_taken_apart_too(window: MainWindow, qtbot: QtBot) -> None:
    bench = window.by_family["polycube"]
    assert isinstance(bench, PolycubeWorkbench)
    window.open_library(bench, "soma.pcube")
    bench.distinct.setChecked(True)
    click_solve(window, qtbot, bench)
    assert bench.solution_list.count() == 240
    bench.pages.setCurrentIndex(DISASSEMBLE_PAGE)
    assert bench.disassembly_page.about.text() == (
        "Solution 1: not taken apart yet (Take apart, on the Solve page)."
    )
    assert not bench.disassembly_page.player.play_button.isEnabled()
    bench.pages.setCurrentIndex(SOLVE_PAGE)
    take_apart(window, qtbot, bench)
    found = re.fullmatch(
        r"(\d+) of 240 come apart; highest level ([\d.]+)\.",
        bench.result_text.text(),
    )
    assert found, bench.result_text.text()
    apart = int(found[1])
    assert sum(level not in ("", "stuck") for level in levels(bench)) == apart > 0
    tick(qtbot, bench.solutions_only)
    assert bench.solution_list.count() == apart
    bench.pages.setCurrentIndex(DISASSEMBLE_PAGE)
    page = bench.disassembly_page
    player = page.player
    assert player.moves > 0
    page.setFocus()
    qtbot.keyClick(page, Qt.Key.Key_End)
    assert player.counter.text().startswith(f"move {player.moves} of {player.moves}")
    assert len(bench.view.hidden_keys()) == 6  # every piece but one came free
    bench.pages.setCurrentIndex(0)  # other pages show the pieces unmoved
    assert bench.view.hidden_keys() == frozenset()


def test_taking_apart_stops_when_cancelled(window: MainWindow, qtbot: QtBot) -> None:
    bench = window.by_family["polycube"]
    assert isinstance(bench, PolycubeWorkbench)
    window.open_library(bench, "soma.pcube")
    bench.first.setValue(0)
    click_solve(window, qtbot, bench)
    assert bench.solution_list.count() == 11520
    progress: list[Progress] = []
    window.runner.progress.connect(progress.append)
    qtbot.mouseClick(bench.take_apart_button, LEFT)
    qtbot.waitUntil(lambda: any(event.explored for event in progress), timeout=60_000)
    with qtbot.waitSignal(window.runner.stopped, timeout=10_000):
        qtbot.mouseClick(bench.status.cancel_button, LEFT)
    assert 0 < progress[-1].explored < 11520
    assert progress[-1].phase == "taking assemblies apart"
    assert bench.result_text.text() == "Taking apart stopped: no levels."
    assert set(levels(bench)) == {""} and not bench.solutions_only.isEnabled()
    assert bench.take_apart_button.isEnabled()


def test_the_polycube_menu_takes_the_list_apart_too(
    window: MainWindow, qtbot: QtBot, examples: Path
) -> None:
    assert window.open_path(str(examples / "CubeInCage.xmpuzzle"))
    bench = window.by_family["polycube"]
    assert isinstance(bench, PolycubeWorkbench)
    assert not bench.take_apart_action.isEnabled()  # nothing listed yet
    bench.distinct.setChecked(True)
    click_solve(window, qtbot, bench)
    assert bench.take_apart_action.isEnabled()
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        bench.take_apart_action.trigger()
    assert levels(bench).count("4.9.3") == 1 and levels(bench).count("stuck") == 95

"""The polycube workbench: build a piece by clicks, solve a small box, browse and assemble."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from slidelab.burrtools.packing import packing_steps as burr_packing_steps
from slidelab.geometry.palettes import piece_colour
from slidelab.gui.images import image_to_rgb
from slidelab.gui.main_window import MainWindow
from slidelab.gui.polycube import workbench
from slidelab.library import shipped_text
from slidelab.polycube.reference import layout_class, layouts
from slidelab.polycube.spec import parse_spec
from tests.burrtools.conftest import EXAMPLES, puzzle
from tests.burrtools.made import DATA
from tests.burrtools.test_packing import CUBE
from tests.gui.mouse import LEFT, click_solve
from tests.gui.streaming import rows_while_busy


def has_colour(image, colour, tolerance=25) -> bool:
    """Whether some pixels have the colour's hue: shading scales a colour, so compare the
    pixel's channels relative to its brightest one."""
    pixels = image_to_rgb(image).reshape(-1, 3).astype(float)
    target = np.array(colour, float)
    bright = pixels.max(axis=1, keepdims=True)
    scaled = pixels / np.maximum(bright, 1) * target.max()
    close = np.abs(scaled - target).max(axis=1) < tolerance
    return int(close.sum()) > 30


def click_cell(qtbot, grid, x, y, z):
    grid.set_layer(z)
    qtbot.mouseClick(grid.canvas, LEFT, pos=grid.cell_centre(x, y))


def test_build_pieces_by_clicks_solve_and_see_every_colour(window, qtbot):
    bench = window.by_family["polycube"]
    window.show_workbench(bench)
    # A 2 x 2 x 1 box, filled by two dominoes drawn by clicking.
    bench.cuboid_spins[0].setValue(2)
    bench.cuboid_spins[1].setValue(2)
    bench.cuboid_spins[2].setValue(1)
    bench._make_cuboid()
    bench.piece_table.selectRow(0)
    click_cell(qtbot, bench.piece_grid, 1, 0, 0)  # A: (0,0,0) + (1,0,0)
    assert bench.draft.pieces[0].cells == {(0, 0, 0), (1, 0, 0)}
    bench._edit(bench.draft.added_piece(), "Add piece")
    bench.piece_table.selectRow(1)
    click_cell(qtbot, bench.piece_grid, 0, 1, 0)  # B: (0,0,0) + (0,1,0)
    assert [len(p.cells) for p in bench.draft.pieces] == [2, 2]
    assert parse_spec(bench.current_text()).pieces[1].shapes == (((0, 0, 0), (0, 1, 0)),)
    bench.pages.setCurrentIndex(2)
    click_solve(window, qtbot, bench, timeout=30_000)
    assert bench.result_text.text() == "4 solutions."
    assert bench.solution_count() == 4
    bench.solution_list.setCurrentRow(1)
    frame = bench.view.grab_image()
    assert has_colour(frame, piece_colour(0)) and has_colour(frame, piece_colour(1))


def test_soma_counts_distinct_and_assembles(window, qtbot):
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    assert len(bench.draft.pieces) == 7 and bench.draft.header.startswith("| The Soma cube")
    bench.distinct.setChecked(True)
    click_solve(window, qtbot, bench)
    assert bench.result_text.text().startswith("11,520 solutions in the fixed box; 240 distinct")
    assert bench.result_text.text().endswith("The list shows one of each class.")
    bench.distinct.setChecked(False)
    bench.first.setValue(3)
    click_solve(window, qtbot, bench)
    assert bench.solution_count() == 3
    assert bench.result_text.text() == "3 solutions (stopped at the limit)."
    bench.solution_list.setCurrentRow(0)
    frame = bench.view.grab_image()
    assert all(has_colour(frame, piece_colour(k)) for k in range(7))
    bench.shown_pieces.item(0).setCheckState(Qt.CheckState.Unchecked)  # hide V
    assert not has_colour(bench.view.grab_image(), piece_colour(0))
    bench.shown_pieces.item(0).setCheckState(Qt.CheckState.Checked)
    bench.assemble()
    assert bench.assembling()
    qtbot.waitUntil(lambda: not bench.assembling(), timeout=10_000)
    assert bench.view.grab_image() == frame


def test_a_pcube_file_opens_in_this_workbench_and_edits_undo(window, qtbot, tmp_path):
    path = tmp_path / "soma.pcube"
    path.write_text(shipped_text("polycube", "soma.pcube"))
    assert window.open_path(str(path))
    bench = window.by_family["polycube"]
    assert window.workbench is bench and window.path == str(path)
    before = bench.draft
    bench.piece_table.selectRow(0)
    click_cell(qtbot, bench.piece_grid, 2, 2, 0)
    assert bench.is_modified() and len(bench.draft.pieces[0].cells) == 4
    window.undo_group.undo()
    assert bench.draft == before and not bench.is_modified()


def test_names_and_copies_are_edited_in_the_piece_table(window, qtbot):
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    bench.piece_table.item(0, 1).setData(Qt.ItemDataRole.EditRole, 2)
    bench.piece_table.item(1, 0).setText("Lx")
    assert bench.draft.pieces[0].multiplicity == 2 and bench.draft.pieces[1].name == "Lx"
    assert "2*V 000 010 100" in bench.current_text()
    bench.undo_stack.undo()
    bench.undo_stack.undo()
    assert bench.draft.pieces[0].multiplicity == 1 and bench.draft.pieces[1].name == "L"
    assert not bench.is_modified()


def open_burrtools(window: MainWindow, path: Path, recorded: str):
    """Open a BurrTools file: the polycube tab shows it for solving only, with the figures
    BurrTools recorded (`recorded`: "A assemblies; S solutions")."""
    assert window.open_path(str(path))
    bench = window.by_family["polycube"]
    assert window.workbench is bench and bench.burr is not None
    assert not bench.pages.isTabEnabled(0) and bench.pages.currentIndex() == 2
    assert bench.recorded.text().startswith(f"BurrTools recorded: {recorded}")
    assert "Take apart tests them here" in bench.recorded.text()
    return bench


def assemblies_listed(window: MainWindow, qtbot: QtBot, bench, classes: str, fixed: str) -> None:
    """Solve for distinct assemblies: `classes` counted as BurrTools counts them, `fixed` in
    the fixed result, one of each class listed."""
    bench.distinct.setChecked(True)
    click_solve(window, qtbot, bench)
    assert bench.result_text.text() == (
        f"{classes} assemblies up to the result's symmetries, as BurrTools counts them; "
        f"{fixed} in the fixed result. The list shows one of each class."
    )
    assert bench.solution_count() == bench.solution_list.count() == int(classes)


def first_two_shown(window: MainWindow, qtbot: QtBot, bench) -> set[str]:
    """List the first two assemblies of the fixed result; the pieces the first one shows."""
    bench.distinct.setChecked(False)
    bench.first.setValue(2)
    click_solve(window, qtbot, bench)
    assert bench.solution_count() == 2
    return {bench.shown_pieces.item(k).text() for k in range(bench.shown_pieces.count())}


def test_a_made_burrtools_file_opens_solves_and_shows_assemblies(
    window: MainWindow, qtbot: QtBot
) -> None:
    bench = open_burrtools(window, DATA / "dominoes.xmpuzzle", "1 assemblies; 1 solutions")
    assert [bench.problem_choice.itemText(k) for k in range(bench.problem_choice.count())] == [
        "square", "rectangle", "ranges"
    ]  # fmt: skip
    assemblies_listed(window, qtbot, bench, "1", "2")
    bench.problem_choice.setCurrentIndex(2)
    assert bench.recorded.text().startswith("BurrTools recorded: 4 assemblies; 4 solutions")
    assemblies_listed(window, qtbot, bench, "4", "8")
    bench.problem_choice.setCurrentIndex(0)
    assert first_two_shown(window, qtbot, bench) == {"Domino", "Domino#2"}


def test_a_burrtools_file_opens_solves_and_shows_assemblies(window, qtbot):
    if not EXAMPLES.is_dir():
        pytest.skip(f"BurrTools examples not found at {EXAMPLES}")
    path = EXAMPLES / "CubeInCage.xmpuzzle"
    bench = open_burrtools(window, path, "96 assemblies; 1 solutions")
    assemblies_listed(window, qtbot, bench, "96", "1,152")
    shapes = first_two_shown(window, qtbot, bench)
    assert len(shapes) == bench.shown_pieces.count() >= 2


def test_a_spec_saved_as_xmpuzzle_reopens_as_a_burrtools_puzzle(window, qtbot, tmp_path):
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    window.show_workbench(bench)
    target = tmp_path / "soma.xmpuzzle"
    assert window.save_to(str(target))
    assert window.open_path(str(target))
    assert bench.burr is not None and bench.problem_choice.count() == 1
    bench.distinct.setChecked(True)
    click_solve(window, qtbot, bench)
    assert bench.result_text.text().startswith("240 assemblies")


def test_a_box_the_pieces_cannot_fill_is_flagged_before_solve(
    window: MainWindow, qtbot: QtBot
) -> None:
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    assert bench.solve_button.isEnabled() and bench.problem_text.text() == ""
    add = next(b for b in bench.findChildren(QPushButton) if b.text() == "Add piece")
    qtbot.mouseClick(add, LEFT)
    assert not bench.solve_button.isEnabled()
    assert bench.problem_text.text() == (
        "The box has 27 cells but the pieces, every copy placed, fill 28: no packing can exist."
    )
    window.undo_group.undo()
    assert bench.solve_button.isEnabled() and bench.problem_text.text() == ""


def test_a_piece_that_fits_nowhere_is_named_when_solve_is_pressed(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cells add up, but the 1 x 4 piece has no place in the 3 x 3 x 1 box: the run says
    so instead of counting no solution (--distinct crashed on it)."""
    path = tmp_path / "long.pcube"
    path.write_text("[0-2][0-2]0\nI 000 100 200 300\nV 000 100 010\nD 000 100\n")
    assert window.open_path(str(path))
    bench = window.by_family["polycube"]
    warnings: list[str] = []
    monkeypatch.setattr(
        workbench.QMessageBox, "warning", lambda _parent, _title, text: warnings.append(text)
    )
    bench.distinct.setChecked(True)
    bench.pages.setCurrentIndex(2)
    with qtbot.waitSignal(window.runner.failed, timeout=30_000):
        qtbot.mouseClick(bench.solve_button, LEFT)
    assert warnings == ["piece I fits nowhere in the box"]
    assert not bench.running and bench.solve_button.isEnabled()


def test_a_new_piece_is_selected_and_scrolled_to(window: MainWindow, qtbot: QtBot) -> None:
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    window.show_workbench(bench)
    bench.pages.setCurrentIndex(0)
    add = next(b for b in bench.findChildren(QPushButton) if b.text() == "Add piece")
    table = bench.piece_table
    for added in range(1, 13):
        qtbot.mouseClick(add, LEFT)
        last = len(bench.draft.pieces) - 1
        assert last == 6 + added and table.currentRow() == last
        assert bench.piece_grid.colours == {(0, 0, 0): piece_colour(last)}
        shown = table.viewport().rect()
        assert shown.contains(table.visualItemRect(table.item(last, 0)))


def test_distinct_soma_lists_one_solution_of_each_class_as_found(
    window: MainWindow, qtbot: QtBot
) -> None:
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    bench.distinct.setChecked(True)
    while_busy = rows_while_busy(window, bench.solution_list.count)
    click_solve(window, qtbot, bench)
    assert while_busy and 0 < while_busy[0] < 240  # rows shown while the run goes on
    assert not bench.first.isEnabled()  # every class is listed: no limit applies
    assert bench.solution_count() == bench.solution_list.count() == 240
    packing = bench._packing
    assert packing is not None
    every = set(layouts(packing))
    shown = [frozenset((p.piece, p.cells) for p in packing.decode(s)) for s in bench._solutions]
    assert all(layout in every for layout in shown)
    assert len({layout_class(packing, layout) for layout in shown}) == 240
    bench.solution_list.setCurrentRow(239)
    assert all(has_colour(bench.view.grab_image(), piece_colour(k)) for k in range(7))


def test_listed_solutions_appear_while_the_run_goes_on(window: MainWindow, qtbot: QtBot) -> None:
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    bench.first.setValue(0)
    while_busy = rows_while_busy(window, bench.solution_list.count)
    click_solve(window, qtbot, bench)
    assert while_busy and while_busy[0] > 0 and while_busy == sorted(while_busy)
    assert bench.solution_list.count() == 11520


def test_a_burrtools_packing_is_built_inside_the_run(
    window: MainWindow, qtbot: QtBot, monkeypatch
) -> None:
    """Choosing a problem only checks it (a refusal shows at once); solving builds its
    placements on the worker thread, and the found assemblies come with them."""
    built_on_main_thread = []

    def recorded(*args, **options):
        built_on_main_thread.append(threading.current_thread() is threading.main_thread())
        return (yield from burr_packing_steps(*args, **options))

    monkeypatch.setattr(workbench, "burr_packing_steps", recorded)
    bench = window.by_family["polycube"]
    assert window.open_path(str(DATA / "dominoes.xmpuzzle"))
    bench.problem_choice.setCurrentIndex(2)
    assert built_on_main_thread == [] and bench.solve_button.isEnabled()
    click_solve(window, qtbot, bench)
    assert built_on_main_thread == [False]
    assert bench.solution_count() == 8 and bench._burr_packing is not None
    assert bench._burr_packing.label == "ranges"
    assert bench.shown_pieces.count() >= 2
    empty = puzzle(CUBE, '<problem name="bare"><shapes/><result id="0"/></problem>')
    bench.show_burrtools(empty, "t.xmpuzzle")
    assert bench.problem_text.text() == "t.xmpuzzle: problem 'bare': it has no pieces"
    assert not bench.solve_button.isEnabled() and built_on_main_thread == [False]

"""The dissection workbench: click a shape, solve, and see each piece in one colour in both."""

from __future__ import annotations

import threading
import xml.etree.ElementTree as ElementTree

import numpy as np
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QCheckBox
from pytestqt.qtbot import QtBot

from slidelab.dissection import search
from slidelab.dissection.keys import piece_sizes, turned_pieces
from slidelab.dissection.search import find_solutions
from slidelab.dissection.shifts import Tables
from slidelab.geometry.palettes import piece_colour
from slidelab.gui.images import image_to_rgb
from slidelab.gui.main_window import MainWindow
from tests.dissection.test_distinct import grid_symmetries, same
from tests.gui.mouse import LEFT, click_solve
from tests.gui.streaming import rows_while_busy

TOY = {(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 3), (2, 1), (2, 2), (2, 3)}
"""Knuth's toy shape: ****/*..*/.***."""


def click_cell(qtbot, grid, row, column):
    qtbot.mouseClick(grid.canvas, LEFT, pos=grid.cell_centre(column, row))


def tick(qtbot: QtBot, box: QCheckBox) -> None:
    """Click a check box on its indicator."""
    qtbot.mouseClick(box, LEFT, pos=QPoint(8, box.height() // 2))


def pixel(view, row, column, origin):
    """The colour painted at the centre of a cell of one panel (origin: its x offset)."""
    image = image_to_rgb(view.grab().toImage())
    point = view.point(origin + column + 0.5, row + 0.5)
    return tuple(int(v) for v in image[int(point.y()), int(point.x())])


def test_click_the_toy_shape_solve_and_match_colours(window, qtbot, tmp_path):
    bench = window.by_family["dissection"]
    window.show_workbench(bench)
    for row, column in sorted(TOY):
        click_cell(qtbot, bench.target_grid, row, column)
    assert bench.target == TOY
    assert bench.target_info.text() == "9 cells = 3 x 3, a square's worth."
    bench.pieces.setValue(2)
    click_solve(window, qtbot, bench, timeout=30_000)
    assert bench.result_text.text() == "3 solutions with 2 pieces; 29 legal shifts."
    assert bench.solution_count() == 3
    view = bench.view
    for row in range(3):
        bench.solution_list.setCurrentRow(row)
        solution = view.solution
        target_origin = 3 + 2  # the square's 3 columns, then the gap of 2
        for (r, c), colour in zip(view.panels.source.cells, solution.source_colours, strict=True):
            assert pixel(view, r, c, 0) == piece_colour(colour - 1)
        for (r, c), colour in zip(view.panels.target.cells, solution.target_colours, strict=True):
            assert pixel(view, r, c, target_origin) == piece_colour(colour - 1)
    # hovering a piece names it and outlines it in both shapes
    qtbot.mouseMove(view, view.point(0.5, 0.5).toPoint())
    qtbot.waitUntil(lambda: view.hovered != 0, timeout=2_000)
    assert bench.hover_text.text().endswith(f"piece {view.hovered}")
    image = image_to_rgb(view.grab().toImage())
    for shape, colours, origin in (
        (view.panels.source, view.solution.source_colours, 0),
        (view.panels.target, view.solution.target_colours, target_origin),
    ):
        r, c = next(cell for cell, k in zip(shape.cells, colours, strict=True) if k == view.hovered)
        edge = view.point(origin + c + 1 / 6, r + 0.5)  # on the highlight's inset outline
        assert tuple(image[int(edge.y()), int(edge.x())]) == (255, 255, 255)
    svg = tmp_path / "cut.svg"
    bench.export_svg(str(svg))
    fills = [e.get("fill") for e in ElementTree.parse(svg).getroot() if e.tag.endswith("rect")][1:]
    assert len(fills) == 18  # nine cells in each shape
    assert sorted(fills[:9]) == sorted(fills[9:])  # every piece as big in both


def test_the_animation_ends_with_the_pieces_in_place(window, qtbot):
    bench = window.by_family["dissection"]
    window.open_library(bench, "knuth-toy.dots")
    assert bench.target == TOY and not bench.is_modified()
    bench.pieces.setValue(2)
    click_solve(window, qtbot, bench, timeout=30_000)
    finished = image_to_rgb(bench.view.grab().toImage())
    bench.view.set_share(0.5)
    halfway = image_to_rgb(bench.view.grab().toImage())
    assert not np.array_equal(finished, halfway)
    qtbot.mouseClick(bench.animate_button, LEFT)
    assert bench.view.animating()
    qtbot.waitUntil(lambda: not bench.view.animating(), timeout=10_000)
    assert np.array_equal(image_to_rgb(bench.view.grab().toImage()), finished)


def test_dots_files_open_here_and_edits_undo(window, qtbot, tmp_path):
    path = tmp_path / "toy.dots"
    path.write_text("****\n*..*\n.***\n")
    assert window.open_path(str(path))
    bench = window.by_family["dissection"]
    assert window.workbench is bench and bench.target == TOY
    click_cell(qtbot, bench.target_grid, 1, 1)
    assert bench.is_modified() and len(bench.target) == 10
    assert bench.target_info.text() == "10 cells not a perfect square."
    assert not bench.solve_button.isEnabled()
    window.undo_group.undo()
    assert bench.target == TOY and not bench.is_modified()


def test_distinct_lists_one_dissection_of_each_class(window: MainWindow, qtbot: QtBot) -> None:
    bench = window.by_family["dissection"]
    window.show_workbench(bench)
    for row in range(3):
        for column in range(3):
            click_cell(qtbot, bench.target_grid, row, column)
    bench.pieces.setValue(2)
    tick(qtbot, bench.connected)
    tick(qtbot, bench.distinct)
    assert bench.connected.isChecked() and bench.distinct.isChecked()
    click_solve(window, qtbot, bench, timeout=30_000)
    dissection = bench.dissection()
    every = find_solutions(dissection)
    assert bench.result_text.text() == (
        f"{len(every)} solutions with 2 pieces; 54 distinct up to the target's 4 symmetries, "
        "one of each listed; 25 legal shifts."
    )
    listed = [bench._shown(row) for row in range(bench.solution_list.count())]
    assert len(listed) == 54 and all(s in every for s in listed)
    moves = grid_symmetries(dissection.target, False)
    assert not any(
        same(a, b, dissection.target, m)
        for i, a in enumerate(listed)
        for b in listed[:i]
        for m in moves
    )


def test_the_list_sorts_by_piece_sizes_and_turned_pieces(window: MainWindow, qtbot: QtBot) -> None:
    bench = window.by_family["dissection"]
    window.open_library(bench, "knuth-toy.dots")
    bench.pieces.setValue(3)
    tick(qtbot, bench.connected)
    click_solve(window, qtbot, bench, timeout=30_000)
    count = bench.solution_list.count()
    assert count == 568
    bench.solution_list.setCurrentRow(5)
    chosen = bench.view.solution
    tables = bench.view.panels
    assert isinstance(tables, Tables)
    for index, key in enumerate(
        (
            lambda s: piece_sizes(s),
            lambda s: (len(piece_sizes(s)),),
            lambda s: (turned_pieces(tables, s),),
        ),
        start=1,
    ):
        bench.sort_choice.setFocus()
        qtbot.keyClick(bench.sort_choice, Qt.Key.Key_Down)
        assert bench.sort_choice.currentIndex() == index
        rows = [bench._shown(row) for row in range(count)]
        keys = [key(s) for s in rows]
        assert keys == sorted(keys) and len(set(map(id, rows))) == count
        assert bench.view.solution == chosen  # the shown dissection stays shown
        label = bench.solution_list.currentItem().text()
        assert label.startswith("Solution 6: ") and label.endswith(
            f"{turned_pieces(tables, chosen)} turned"
        )
    assert bench._shown(0) is not None and piece_sizes(bench._shown(0)) != ()
    firsts = [bench._shown(row) for row in range(count)]
    assert turned_pieces(tables, firsts[0]) == 0 and turned_pieces(tables, firsts[-1]) > 0


def test_rows_appear_while_the_run_goes_on(window: MainWindow, qtbot: QtBot) -> None:
    bench = window.by_family["dissection"]
    window.open_library(bench, "knuth-toy.dots")
    bench.pieces.setValue(4)
    while_busy = rows_while_busy(window, bench.solution_list.count)
    click_solve(window, qtbot, bench)
    assert while_busy and while_busy[0] > 0
    assert bench.solution_list.count() == 5000
    assert bench.result_text.text().startswith("149,798 solutions with 4 pieces")


def test_the_tables_are_built_inside_the_run(window: MainWindow, qtbot: QtBot, monkeypatch) -> None:
    """Solving builds the shapes' tables on the worker thread, once; the view shows the shapes
    meanwhile and the solutions' colours once they come."""
    monkeypatch.setattr(search, "_kept_tables", {})
    built_on_main_thread = []
    steps = Tables.steps.__func__

    def recorded(cls, *args, **options):
        built_on_main_thread.append(threading.current_thread() is threading.main_thread())
        return (yield from steps(cls, *args, **options))

    monkeypatch.setattr(Tables, "steps", classmethod(recorded))
    bench = window.by_family["dissection"]
    window.open_library(bench, "knuth-toy.dots")
    bench.pieces.setValue(2)
    assert built_on_main_thread == [] and bench.view.panels is not None
    assert bench.view.panels.target.cells == tuple(sorted(TOY))
    click_solve(window, qtbot, bench, timeout=30_000)
    assert built_on_main_thread == [False]
    assert isinstance(bench.view.panels, Tables) and bench.view.solution is not None
    assert bench.solution_list.item(0).text().endswith("turned")


def test_cancel_while_the_tables_are_built(window: MainWindow, qtbot: QtBot, monkeypatch) -> None:
    """A big square's tables take a while: their progress shows, and Cancel stops the run
    before any solution."""
    monkeypatch.setattr(search, "_kept_tables", {})
    bench = window.by_family["dissection"]
    window.show_workbench(bench)
    bench.show_target(frozenset((r, c) for r in range(20) for c in range(20)))
    tick(qtbot, bench.flips)
    phases: list[str] = []
    window.runner.progress.connect(lambda event: phases.append(event.phase))
    found = []
    window.runner.found.connect(found.append)
    qtbot.mouseClick(bench.solve_button, LEFT)
    qtbot.waitUntil(lambda: "building tables" in phases, timeout=30_000)
    with qtbot.waitSignal(window.runner.stopped, timeout=5_000):
        qtbot.mouseClick(bench.cancel_button, LEFT)
    assert found == [] and bench.result_text.text() == "Stopped after 0 solutions."

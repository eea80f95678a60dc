"""The antislide workbench: run a box, pick a packing, edit it by clicks, watch the verdict."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from slidelab.antislide.document import parse_document
from slidelab.antislide.editing import why_not_placed
from slidelab.antislide.model import Placement, orientations, sliding_faces
from slidelab.geometry.palettes import PROBLEM_COLOUR
from slidelab.gui.images import image_to_rgb
from slidelab.library import shipped_text
from tests.gui.mouse import LEFT


def run_box(window, qtbot, dims):
    bench = window.by_family["antislide"]
    window.show_workbench(bench)
    for spin, value in zip(bench.box_spins, dims, strict=True):
        spin.setValue(value)
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        qtbot.mouseClick(bench.run_button, LEFT)
    return bench


def cell(bench, row, column) -> str:
    """The text the packing list shows at a view row and column."""
    return bench.packings.index(row, column).data()


def colour_share(image, colour, tolerance=40) -> float:
    pixels = image_to_rgb(image).reshape(-1, 3).astype(int)
    return float((np.abs(pixels - np.array(colour)).max(axis=1) < tolerance).mean())


def test_3x3x3_lists_the_two_classes_and_shows_the_six_block_one(window, qtbot):
    bench = run_box(window, qtbot, (3, 3, 3))
    assert bench.packings.rowCount() == 2
    assert bench.summary.text().startswith("2 classes up to the box's 48 symmetries")
    blocks = sorted(int(cell(bench, r, 1)) for r in range(2))
    assert blocks == [0, 6]
    six = next(r for r in range(2) if cell(bench, r, 1) == "6")
    bench.table.selectRow(six)
    assert len(bench.document.bricks) == 6
    assert bench.brick_list.count() == 6
    assert bench.verdict.text() == "Antisliding: none of the 6 bricks can slide."


def test_sorting_by_blocks_keeps_rows_tied_to_their_packings(window, qtbot):
    bench = run_box(window, qtbot, (3, 3, 4))
    bench.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    top = int(cell(bench, 0, 1))
    bench.table.selectRow(0)
    assert len(bench.document.bricks) == top == 8


def test_adding_a_brick_that_can_slide_marks_it(window, qtbot):
    bench = window.by_family["antislide"]
    window.show_workbench(bench)
    bench.load_text(shipped_text("antislide", "4x4x4-twelve-blocks.antislide"), "seed")
    box, bricks = bench.document.box, list(bench.document.bricks)
    new = next(
        Placement(corner, size)
        for size in orientations((2, 2, 1))
        for corner in np.ndindex(*box.dims)
        if why_not_placed(box, bricks, Placement(corner, size)) is None
        and any(n == 12 for n, _ in sliding_faces(box, [*bricks, Placement(corner, size)]))
    )
    bench.edit_box.setChecked(True)
    bench.orientation.setCurrentIndex(orientations((2, 2, 1)).index(new.size))
    bench.grid.set_layer(new.corner[2])
    before = bench.view.grab_image()
    qtbot.mouseClick(bench.grid.canvas, LEFT, pos=bench.grid.cell_centre(*new.corner[:2]))
    assert len(bench.document.bricks) == 13
    assert bench.verdict.text().startswith("<b>Not antisliding</b>")
    assert "(D " in bench.verdict.text()  # the 13th brick's label
    assert bench.view.marked_keys() == {"12"}
    for n in range(12):  # untick the others, which hide the new brick inside the cube
        bench.brick_list.item(n).setCheckState(Qt.CheckState.Unchecked)
    after = bench.view.grab_image()
    assert colour_share(before, PROBLEM_COLOUR) == 0
    assert colour_share(after, PROBLEM_COLOUR) > 0.001
    bench.undo_stack.undo()
    assert len(bench.document.bricks) == 12 and bench.view.marked_keys() == set()


def test_show_locks_names_the_neighbours_of_a_clicked_brick(window, qtbot):
    bench = window.by_family["antislide"]
    window.show_workbench(bench)
    bench.load_text(shipped_text("antislide", "3x3x3-six-blocks.antislide"), "seed")
    bench.show_locks.setChecked(True)
    first = parse_document(shipped_text("antislide", "3x3x3-six-blocks.antislide")).bricks[0]
    assert first.corner == (0, 0, 0) and first.size == (1, 2, 2)
    bench.view.set_standard_view("front")  # looking along +y: the brick's y = 0 face shows
    point = bench.view.screen_point((0.5, 0.0, 1.0)).toPoint()
    with qtbot.waitSignal(bench.view.pieceClicked, timeout=2_000) as clicked:
        qtbot.mouseClick(bench.view.gl_widget(), LEFT, pos=point)
    assert clicked.args == ["0"]
    text = bench.locks_text.text()
    assert text.startswith("Brick 1 is stopped by")
    assert "-x: the wall" in text and "+y: brick 3" in text and "+z: brick 2" in text

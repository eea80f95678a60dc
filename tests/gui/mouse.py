"""Mouse gestures on board views, as a person makes them."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from slidelab.gui.sliding.board_view import BoardView

LEFT = Qt.MouseButton.LeftButton


def centre(view: BoardView, cell) -> QPoint:
    return view.cell_rect(cell).center().toPoint()


def drag(qtbot, view: BoardView, cells) -> None:
    """Press on the first cell, pass over the others, release on the last."""
    qtbot.mousePress(view, LEFT, pos=centre(view, cells[0]))
    for cell in cells[1:]:
        qtbot.mouseMove(view, centre(view, cell))
    qtbot.mouseRelease(view, LEFT, pos=centre(view, cells[-1]))


def click(qtbot, view: BoardView, cell) -> None:
    qtbot.mouseClick(view, LEFT, pos=centre(view, cell))


def click_solve(window, qtbot, bench, timeout: int = 60_000) -> None:
    """Click a tab's Solve button and wait until the run it starts has finished."""
    with qtbot.waitSignal(window.runner.finished, timeout=timeout):
        qtbot.mouseClick(bench.solve_button, LEFT)

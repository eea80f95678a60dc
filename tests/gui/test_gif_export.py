"""GIF export: options chosen in a dialog, progress while drawing, a message with the path."""

from __future__ import annotations

from PySide6.QtGui import QImageReader
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QPushButton, QToolBar

from slidelab.export.gif_options import GifOptions
from slidelab.gui import gif_export
from slidelab.gui.gif_export import GifOptionsDialog
from slidelab.sliding.textformat import parse_puzzle
from tests.gui.mouse import LEFT
from tests.gui.test_main_window import solve_in
from tests.sliding.figures import SILLY


def test_the_options_dialog_gives_the_choices_typed_in(qtbot):
    dialog = GifOptionsDialog(None, "move", GifOptions(360, 0.48, 8))
    qtbot.addWidget(dialog)
    for spin, text in (
        (dialog.size_spin, "200"),
        (dialog.seconds_spin, "1.00"),
        (dialog.frames_spin, "4"),
    ):
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin.lineEdit(), text)
    qtbot.mouseClick(
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok), LEFT
    )
    assert dialog.result() == dialog.DialogCode.Accepted
    assert dialog.options() == GifOptions(200, 1.0, 4)
    assert "move" in dialog.frames_spin.toolTip()


def export_from_menu(window, qtbot, monkeypatch, path, options):
    monkeypatch.setattr(gif_export, "ask_options", lambda *_args: options)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_args: (str(path), ""))
    bench = window.by_family["sliding"]
    bench.export_gif_action.trigger()
    return bench.gif_export


def test_the_solution_gif_has_the_chosen_size_and_frames_and_says_where_it_is(
    window, qtbot, monkeypatch, tmp_path
):
    window.by_family["sliding"].load_puzzle(parse_puzzle(SILLY))
    solve_in(window, qtbot, 5)  # 2 moves
    target = tmp_path / "solution.gif"
    export = export_from_menu(window, qtbot, monkeypatch, target, GifOptions(120, 1.0, 5))
    qtbot.waitUntil(lambda: export.message is not None, timeout=30_000)
    assert export.message.isVisible() and not export.message.isModal()
    assert str(target) in export.message.text()
    assert "11 frames" in export.message.text()
    reader = QImageReader(str(target))
    assert reader.imageCount() == 2 * 5 + 1
    assert reader.size().width() == 120
    reader.read()
    assert reader.nextImageDelay() == 200
    assert export.progress is None
    export.message.close()


def test_cancelling_while_frames_are_drawn_saves_nothing(window, qtbot, monkeypatch, tmp_path):
    bench = window.by_family["sliding"]
    bench.load_puzzle(parse_puzzle(SILLY))
    solve_in(window, qtbot, 5)
    drawn = bench._solution_frames

    def draw_then_cancel(steps, size):
        for index, image in enumerate(drawn(steps, size)):
            if index == 3:
                progress = bench.gif_export.progress
                assert progress is not None and progress.isVisible()
                qtbot.mouseClick(progress.findChild(QPushButton), LEFT)
            yield image

    monkeypatch.setattr(bench, "_solution_frames", draw_then_cancel)
    target = tmp_path / "cancelled.gif"
    export = export_from_menu(window, qtbot, monkeypatch, target, GifOptions(120, 1.0, 5))
    assert export.writer is None and export.progress is None
    assert not target.exists()


def test_the_turntable_gif_goes_through_the_same_dialog(window, qtbot, monkeypatch, tmp_path):
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    window.show_workbench(bench)
    target = tmp_path / "turn.gif"
    monkeypatch.setattr(gif_export, "ask_options", lambda *_args: GifOptions(100, 1.2, 6))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_args: (str(target), ""))
    bar = next(b for b in bench.view.findChildren(QToolBar) if b.isVisible())
    action = next(a for a in bar.actions() if a.text() == "GIF…")
    qtbot.mouseClick(bar.widgetForAction(action), LEFT)
    export = bench.view.gif_export
    qtbot.waitUntil(lambda: export.message is not None, timeout=30_000)
    reader = QImageReader(str(target))
    assert reader.imageCount() == 6
    assert max(reader.size().width(), reader.size().height()) == 100
    reader.read()
    assert reader.nextImageDelay() == 200
    export.message.close()

#!/usr/bin/env python3
"""Screenshots of the desktop app for people to look at: every workbench at work.

Starts its own Xvfb when there is no display; opens a classic sliding puzzle,
solves and analyses it; enumerates antislide 4x4x4 and shows a packing exploded,
with locks and in edit mode; lists the 4x5x5 box's classes as they stream in, then
sorted and filtered; solves the Soma cube and shows a solution; saves
cuts Knuth's toy shape into three connected pieces and shows the pieces moving; saves
PNGs into a folder (default out/screenshots).

    .venv/bin/python scripts/screenshots.py [FOLDER] [--puzzle klotski.slide] [--style 2]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path


def start_xvfb() -> subprocess.Popen | None:
    """A private X server when none is available (Qt's xcb platform needs one)."""
    if os.environ.get("DISPLAY"):
        return None
    if not shutil.which("Xvfb"):
        raise SystemExit("screenshots: no DISPLAY and no Xvfb (run scripts/test once as root)")
    display = ":97"
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", "1400x900x24", "-nolisten", "tcp"])
    os.environ["DISPLAY"] = display
    time.sleep(1.0)
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="out/screenshots")
    parser.add_argument("--puzzle", default="klotski.slide")
    parser.add_argument("--style", type=int, default=2)
    args = parser.parse_args()
    server = start_xvfb()
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    try:
        shoot(Path(args.folder), args.puzzle, args.style)
    finally:
        if server is not None:
            server.terminate()


def shoot(folder: Path, puzzle_name: str, style: int) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from slidelab.gui.app import create_application
    from slidelab.gui.main_window import MainWindow

    app = create_application()
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    window.resize(1280, 800)
    window.show()

    def settle(condition=lambda: True, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            app.processEvents()
            if condition():
                break
            time.sleep(0.02)
        for _ in range(10):
            app.processEvents()
            time.sleep(0.02)

    settle(lambda: not window.runner.busy)
    bench = window.by_family["sliding"]
    window.open_library(window.by_family["sliding"], puzzle_name)
    bench.style_choice.setCurrentIndex(style)
    folder.mkdir(parents=True, exist_ok=True)
    settle()
    saved = [folder / "sliding-editor.png"]
    window.grab().save(str(saved[-1]))

    bench.goal_mode.setChecked(True)
    settle()
    saved.append(folder / "sliding-goal.png")
    window.grab().save(str(saved[-1]))
    bench.start_mode.setChecked(True)

    bench.solve()
    settle(lambda: not window.runner.busy)
    bench.player.seek(min(6.5, bench.player.moves - 0.5))
    settle()
    saved.append(folder / "sliding-playback-mid-move.png")
    window.grab().save(str(saved[-1]))

    bench.analyze()
    settle(lambda: not window.runner.busy)
    saved.append(folder / "sliding-analysis.png")
    window.grab().save(str(saved[-1]))

    bench.compare_styles()
    settle(lambda: not window.runner.busy)
    bench.pages.setCurrentIndex(1)
    settle()
    saved.append(folder / "sliding-compare.png")
    window.grab().save(str(saved[-1]))

    saved += shoot_antislide(window, folder, settle)
    saved += shoot_antislide_list(window, folder, settle)
    saved += shoot_polycube(window, folder, settle)
    saved += shoot_dissection(window, folder, settle)

    for workbench in window.workbenches:
        workbench.undo_stack.setClean()
    window.close()
    QApplication.processEvents()
    for path in saved:
        print(path)


def shoot_antislide(window, folder: Path, settle) -> list[Path]:
    """4x4x4 enumerated; a 12-block packing exploded; show locks; edit mode with a sliding brick."""
    from PySide6.QtCore import Qt

    bench = window.by_family["antislide"]
    window.show_workbench(bench)
    for spin, value in zip(bench.box_spins, (4, 4, 4), strict=True):
        spin.setValue(value)
    bench.run()
    settle(lambda: not window.runner.busy)
    bench.table.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    model = bench.packings
    row = next(r for r in range(model.rowCount()) if model.index(r, 1).data() == "12")
    bench.table.selectRow(row)
    bench.view.set_explode(0.6)
    settle()
    saved = [folder / "antislide-4x4x4-exploded.png"]
    window.grab().save(str(saved[-1]))
    bench.view.set_explode(0.0)
    bench.show_locks.setChecked(True)
    bench._piece_clicked("0")
    settle()
    saved.append(folder / "antislide-locks.png")
    window.grab().save(str(saved[-1]))
    bench.show_locks.setChecked(False)
    bench.edit_box.setChecked(True)
    bench._piece_clicked("3")  # edit mode: the click removes a brick and its neighbours slide
    settle()
    saved.append(folder / "antislide-edit-sliding.png")
    window.grab().save(str(saved[-1]))
    return saved


def shoot_antislide_list(window, folder: Path, settle) -> list[Path]:
    """4x5x5 while its 717,676 classes stream in; then sorted by blocks, kept to 24 blocks."""
    from PySide6.QtCore import Qt

    bench = window.by_family["antislide"]
    for spin, value in zip(bench.box_spins, (4, 5, 5), strict=True):
        spin.setValue(value)
    bench.run()
    settle(lambda: bench.packing_count() > 100_000)
    saved = [folder / "antislide-4x5x5-streaming.png"]
    window.grab().save(str(saved[-1]))
    settle(lambda: not window.runner.busy, timeout=600.0)
    bench.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    bench.show_low.setValue(24)
    bench.show_high.setValue(24)
    bench.table.selectRow(3)
    settle()
    saved.append(folder / "antislide-4x5x5-sorted-filtered.png")
    window.grab().save(str(saved[-1]))
    return saved


def shoot_polycube(window, folder: Path, settle) -> list[Path]:
    """The Soma cube: a piece in the editor, then the first solution exploded."""
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    bench.piece_table.selectRow(4)
    settle()
    saved = [folder / "polycube-piece-editor.png"]
    window.grab().save(str(saved[-1]))
    bench.first.setValue(20)
    bench.solve()
    settle(lambda: not window.runner.busy)
    bench.solution_list.setCurrentRow(0)
    bench.view.set_explode(0.5)
    settle()
    saved.append(folder / "polycube-soma-solution.png")
    window.grab().save(str(saved[-1]))
    return saved


def shoot_dissection(window, folder: Path, settle) -> list[Path]:
    """Knuth's toy shape cut into 3 pieces; a solution, hovered, and half way into place."""
    bench = window.by_family["dissection"]
    window.open_library(bench, "knuth-toy.dots")
    bench.pieces.setValue(3)
    bench.connected.setChecked(True)
    bench.solve()
    settle(lambda: not window.runner.busy)
    bench.solution_list.setCurrentRow(min(4, bench.solution_count() - 1))
    view = bench.view
    view.hovered = 2
    bench._piece_hovered(2)
    view.update()
    settle()
    saved = [folder / "dissection-solution.png"]
    window.grab().save(str(saved[-1]))
    view.hovered = 0
    view.set_share(0.55)
    settle()
    saved.append(folder / "dissection-moving.png")
    window.grab().save(str(saved[-1]))
    return saved


if __name__ == "__main__":
    main()

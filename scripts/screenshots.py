#!/usr/bin/env python3
"""Screenshots of the desktop app for people to look at: every workbench at work.

Starts its own Xvfb when there is no display; shows the kernels' warm-up at launch and a
Solve pressed meanwhile; opens a classic sliding puzzle, solves and analyses it, finds its
hardest start and opens it as a new puzzle; enumerates antislide 4x4x4 and shows a
packing exploded, with locks and in edit mode; lists the 4x5x5 box's classes as they stream in, then
sorted and filtered; solves the Soma cube and shows a solution;
takes BurrTools' CubeInCage apart (its assemblies sorted by level, one played half way through
a move); cuts Knuth's toy shape into three connected pieces and shows the pieces moving; shows a
long run's status line, the Help windows, the GIF export dialog and every tab at 1024x700;
saves PNGs into a folder (default out/screenshots).  With --guide it also writes the user
guide's small pictures into resources/guide.

    .venv/bin/python scripts/screenshots.py [FOLDER] [--puzzle klotski.slide] [--style 2] [--guide]
        [--examples DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "burrtools"
"""BurrTools' examples (CubeInCage is taken apart from there; not shipped with slidelab)."""
CAGE = "CubeInCage.xmpuzzle"


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


def snap(widget: Any, path: Path, saved: list[Path]) -> None:
    """Save a picture of the Qt widget `widget` at `path`, and list it among those made."""
    saved.append(path)
    widget.grab().save(str(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="out/screenshots")
    parser.add_argument("--puzzle", default="klotski.slide")
    parser.add_argument("--style", type=int, default=2)
    parser.add_argument("--guide", action="store_true", help="also write the guide's pictures")
    parser.add_argument(
        "--examples", type=Path, default=EXAMPLES, help=f"BurrTools' examples, with {CAGE}"
    )
    args = parser.parse_args()
    if not (args.examples / CAGE).is_file():
        raise SystemExit(f"screenshots: no {CAGE} in {args.examples} (give --examples DIR)")
    server = start_xvfb()
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    try:
        shoot(Path(args.folder), args.puzzle, args.style, args.examples, args.guide)
    finally:
        if server is not None:
            server.terminate()


GUIDE_PICTURES = {
    "sliding-playback-mid-move.png": "sliding.png",
    "antislide-4x4x4-exploded.png": "antislide.png",
    "polycube-soma-solution.png": "polycube.png",
    "polycube-cage-levels-sorted.png": "take-apart.png",
    "polycube-cage-disassembly.png": "disassembly.png",
    "dissection-solution.png": "dissection.png",
}
"""Screenshots the user guide shows, by the name it ships them under."""
GUIDE_WIDTH = 520


def write_guide_pictures(folder: Path) -> list[Path]:
    """Small copies of the guide's screenshots in resources/guide (24-bit colour at PNG's
    strongest compression keeps each to about 50 KB, without dithering's noise)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    guide = Path(__file__).resolve().parent.parent / "resources" / "guide"
    written = []
    for shot, name in GUIDE_PICTURES.items():
        image = QImage(str(folder / shot)).scaledToWidth(
            GUIDE_WIDTH, Qt.TransformationMode.SmoothTransformation
        )
        written.append(guide / name)
        image.convertToFormat(QImage.Format.Format_RGB888).save(str(written[-1]), None, 0)
    return written


def shoot(folder: Path, puzzle_name: str, style: int, examples: Path, guide: bool = False) -> None:
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

    folder.mkdir(parents=True, exist_ok=True)
    saved = shoot_warm_up(window, folder, settle, puzzle_name)
    bench = window.by_family["sliding"]
    window.open_library(window.by_family["sliding"], puzzle_name)
    bench.style_choice.setCurrentIndex(style)
    settle()
    snap(window, folder / "sliding-editor.png", saved)

    bench.goal_mode.setChecked(True)
    settle()
    snap(window, folder / "sliding-goal.png", saved)
    bench.start_mode.setChecked(True)

    bench.solve()
    settle(lambda: not window.runner.busy)
    bench.player.seek(min(6.5, bench.player.moves - 0.5))
    settle()
    snap(window, folder / "sliding-playback-mid-move.png", saved)

    bench.analyze()
    settle(lambda: not window.runner.busy)
    snap(window, folder / "sliding-analysis.png", saved)

    bench.compare_styles()
    settle(lambda: not window.runner.busy)
    bench.pages.setCurrentIndex(1)
    settle()
    snap(window, folder / "sliding-compare.png", saved)

    bench.find_hardest()
    settle(lambda: not window.runner.busy)
    snap(window, folder / "sliding-hardest.png", saved)
    bench.open_hardest_button.click()
    settle()
    snap(window, folder / "sliding-hardest-opened.png", saved)
    bench.undo_stack.setClean()  # opened unsaved: the next shot opens another puzzle here

    saved += shoot_sliding_trust(window, folder, settle)
    saved += shoot_antislide(window, folder, settle)
    saved += shoot_antislide_list(window, folder, settle)
    saved += shoot_polycube(window, folder, settle)
    saved += shoot_disassembly(window, folder, settle, examples / CAGE)
    saved += shoot_dissection(window, folder, settle)
    saved += shoot_long_run(window, folder, settle)
    saved += shoot_help(window, folder, settle)
    saved += shoot_narrow(window, folder, settle)
    if guide:
        saved += write_guide_pictures(folder)

    for workbench in window.workbenches:
        workbench.undo_stack.setClean()
    window.close()
    QApplication.processEvents()
    for path in saved:
        print(path)


def shoot_sliding_trust(window, folder: Path, settle) -> list[Path]:
    """A style-2 move halfway along its bent route, the goal outlined and the move list named;
    a refused edit; a partial goal too small for its pieces; the board after "no solution"."""
    from slidelab.sliding.textformat import parse_puzzle

    bench = window.by_family["sliding"]
    saved: list[Path] = []
    window.open_library(bench, "knuth-silly.slide")
    bench.style_choice.setCurrentIndex(2)
    bench.solve()
    settle(lambda: not window.runner.busy)
    bench.player.seek(1.5)
    settle()
    snap(window, folder / "sliding-route-mid-move.png", saved)

    window.open_library(bench, "knuth-silly.slide")
    bench.kind_choice.setCurrentIndex(bench.kind_choice.findData("1"))
    bench.editor.set_piece_kind("1")
    bench.editor._draw_piece(frozenset({(3, 2), (3, 3), (3, 4)}))
    settle()
    snap(window, folder / "sliding-refused-edit.png", saved)

    window.open_library(bench, "knuth-silly.slide")
    bench.goal_mode.setChecked(True)
    draft = bench.editor.draft()
    for piece in [p for p in draft.goal if p.kind == "3"]:
        draft = draft.without_piece(piece, goal=True)
    bench.editor.apply_edit(draft.with_goal_cells([(0, 0)], "any"), "Mark any")
    settle()
    snap(window, folder / "sliding-goal-cannot-hold.png", saved)

    bench.load_puzzle(parse_puzzle("1 x 3\n1 = 1\n2 = 1\n12\n021\n"))
    bench.solve()
    settle(lambda: not window.runner.busy)
    snap(window, folder / "sliding-no-solution.png", saved)
    return saved


def shoot_warm_up(window, folder: Path, settle, puzzle_name: str) -> list[Path]:
    """The kernels' warm-up at launch (compiling them when numba's cache is empty: run with an
    empty NUMBA_CACHE_DIR to see it), then a Solve pressed while it goes on."""
    saved: list[Path] = []
    settle(lambda: window.status_panel.compiling.isVisible() or not window.warm_runner.busy)
    snap(window, folder / "startup-warm-up.png", saved)
    bench = window.by_family["sliding"]
    window.open_library(bench, puzzle_name)
    bench.solve()
    settle()
    snap(window, folder / "startup-solve-while-compiling.png", saved)
    settle(lambda: not window.runner.busy and not window.warm_runner.busy, timeout=600.0)
    return saved


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
    saved: list[Path] = []
    snap(window, folder / "antislide-4x4x4-exploded.png", saved)
    bench.view.set_explode(0.0)
    bench.show_locks.setChecked(True)
    bench._piece_clicked("0")
    settle()
    snap(window, folder / "antislide-locks.png", saved)
    bench.show_locks.setChecked(False)
    bench.edit_box.setChecked(True)
    bench._piece_clicked("3")  # edit mode: the click removes a brick and its neighbours slide
    settle()
    snap(window, folder / "antislide-edit-sliding.png", saved)
    return saved


def shoot_antislide_list(window, folder: Path, settle) -> list[Path]:
    """4x5x5 while its 717,676 classes stream in; then sorted by blocks, kept to 24 blocks."""
    from PySide6.QtCore import Qt

    bench = window.by_family["antislide"]
    for spin, value in zip(bench.box_spins, (4, 5, 5), strict=True):
        spin.setValue(value)
    bench.run()
    settle(lambda: bench.packing_count() > 100_000)
    saved: list[Path] = []
    snap(window, folder / "antislide-4x5x5-streaming.png", saved)
    settle(lambda: not window.runner.busy, timeout=600.0)
    bench.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    bench.show_low.setValue(24)
    bench.show_high.setValue(24)
    bench.table.selectRow(3)
    settle()
    snap(window, folder / "antislide-4x5x5-sorted-filtered.png", saved)
    return saved


def shoot_polycube(window, folder: Path, settle) -> list[Path]:
    """The Soma cube: a piece in the editor, the first solution exploded, the 240 distinct
    solutions listed, then pieces added: the newest selected, the box flagged as unfillable."""
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    bench.piece_table.selectRow(4)
    settle()
    saved: list[Path] = []
    snap(window, folder / "polycube-piece-editor.png", saved)
    bench.first.setValue(20)
    bench.solve()
    settle(lambda: not window.runner.busy)
    bench.solution_list.setCurrentRow(0)
    bench.view.set_explode(0.5)
    settle()
    snap(window, folder / "polycube-soma-solution.png", saved)
    bench.distinct.setChecked(True)
    bench.solve()
    settle(lambda: not window.runner.busy)
    bench.solution_list.setCurrentRow(239)
    bench.view.set_explode(0.5)
    settle()
    snap(window, folder / "polycube-soma-distinct.png", saved)
    bench.distinct.setChecked(False)
    bench.view.set_explode(0.0)
    bench.pages.setCurrentIndex(0)
    for _ in range(12):
        bench._add_piece()
    settle()
    snap(window, folder / "polycube-new-piece.png", saved)
    bench.pages.setCurrentIndex(2)
    settle()
    snap(window, folder / "polycube-box-mismatch.png", saved)
    bench.undo_stack.setClean()  # the next shot opens another spec here without asking
    return saved


def shoot_disassembly(window, folder: Path, settle, cage: Path) -> list[Path]:
    """CubeInCage's 96 assemblies taken apart and sorted by level: the one that comes apart
    (4.9.3) on top, chosen; then the Disassemble page with the piece that leaves at its second
    separation a tenth of the way out (a slide passes free cells only, so no pieces overlap).
    The window is 900 x 720 here, so that the guide's 520-pixel copies stay legible."""
    from PySide6.QtCore import Qt

    from slidelab.gui.polycube.workbench import DISASSEMBLE_PAGE

    bench = window.by_family["polycube"]
    window.resize(900, 720)
    window.open_path(str(cage))
    bench.distinct.setChecked(True)
    bench.solve()
    settle(lambda: not window.runner.busy)
    bench.take_apart()
    settle(lambda: not window.runner.busy)
    bench.solution_list.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    bench.solution_list.setCurrentRow(0)
    settle()
    saved: list[Path] = []
    snap(window, folder / "polycube-cage-levels-sorted.png", saved)
    bench.pages.setCurrentIndex(DISASSEMBLE_PAGE)
    player = bench.disassembly_page.player
    moves = player.play_data.moves
    leaving = max(n for n, played in enumerate(moves) if played.separation == 2)
    player.seek(leaving + 0.1)
    settle()
    snap(window, folder / "polycube-cage-disassembly.png", saved)
    bench.distinct.setChecked(False)
    window.resize(1280, 800)
    return saved


def shoot_dissection(window, folder: Path, settle) -> list[Path]:
    """Knuth's toy shape cut into 3 pieces; a solution, hovered, and half way into place; the
    3 x 3 square's distinct 2-piece cuts sorted by turned pieces."""
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
    saved: list[Path] = []
    snap(window, folder / "dissection-solution.png", saved)
    view.hovered = 0
    view.set_share(0.55)
    settle()
    snap(window, folder / "dissection-moving.png", saved)
    view.set_share(1.0)
    bench._piece_hovered(0)
    bench.load_text("***\n***\n***\n", "square")
    bench.pieces.setValue(2)
    bench.distinct.setChecked(True)
    bench.solve()
    settle(lambda: not window.runner.busy)
    bench.sort_choice.setCurrentIndex(3)
    bench.solution_list.setCurrentRow(40)
    settle()
    snap(window, folder / "dissection-distinct-sorted.png", saved)
    return saved


def shoot_long_run(window, folder: Path, settle) -> list[Path]:
    """Pentominoes 6x10 solving: found so far and time left in the polycube tab's status line;
    then the sliding tab, whose status line shows its own last run."""
    bench = window.by_family["polycube"]
    window.open_library(bench, "pentominoes-6x10x1.pcube")
    bench.first.setValue(0)
    bench.solve()
    settle(lambda: "left" in bench.status.details.text(), timeout=60.0)
    saved: list[Path] = []
    snap(window, folder / "status-long-run.png", saved)
    window.show_workbench(window.by_family["sliding"])
    settle()
    snap(window, folder / "status-other-tab.png", saved)
    window.show_workbench(bench)
    bench.status.cancel_button.click()
    settle(lambda: not window.runner.busy)
    return saved


def shoot_help(window, folder: Path, settle) -> list[Path]:
    """The user guide, the keyboard shortcuts, About and the GIF export options."""
    from PySide6.QtWidgets import QApplication

    from slidelab.export.gif_options import GifOptions
    from slidelab.gui.gif_export import GifOptionsDialog

    saved = []
    window.show_guide()
    settle()
    snap(window.guide, folder / "help-guide.png", saved)
    window.guide.close()
    for show, name in (
        (window.show_shortcuts, "help-shortcuts"),
        (window.show_about, "help-about"),
    ):
        before = set(QApplication.topLevelWidgets())
        show()
        settle()
        dialog = next(w for w in QApplication.topLevelWidgets() if w not in before)
        snap(dialog, folder / f"{name}.png", saved)
        dialog.close()
    dialog = GifOptionsDialog(window, "move", GifOptions(360, 0.48, 8))
    dialog.show()
    settle()
    snap(dialog, folder / "gif-options.png", saved)
    dialog.close()
    return saved


def shoot_narrow(window, folder: Path, settle) -> list[Path]:
    """Every tab at 1024x700: no toolbar may hide buttons behind an overflow arrow."""
    window.resize(1024, 700)
    saved = []
    for workbench in window.workbenches:
        window.show_workbench(workbench)
        settle()
        snap(window, folder / f"narrow-{workbench.family}.png", saved)
    window.resize(1280, 800)
    return saved


if __name__ == "__main__":
    main()

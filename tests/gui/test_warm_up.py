"""A first launch compiles the kernels on its own thread: the fraction shows, the tabs stay
usable, and a Solve pressed meanwhile runs, its family's kernels compiled first."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QSettings

from slidelab.gui.main_window import MainWindow
from slidelab.kernels_warmup import COLD_PHASE, WarmUpQueue, WarmUpStep
from slidelab.sliding.textformat import parse_puzzle
from tests.gui.mouse import click, click_solve
from tests.sliding.figures import SILLY


def test_solve_runs_while_kernels_compile_and_its_family_compiles_first(qtbot, tmp_path):
    gate = threading.Event()
    ran: list[str] = []

    def step(family: str, blocked: bool = False) -> WarmUpStep:
        def run() -> None:
            if blocked:
                assert gate.wait(60)
            ran.append(family)

        return WarmUpStep(family, run)

    queue = WarmUpQueue(
        [step("antislide", blocked=True), step("dissection"), step("exactcover"), step("sliding")]
    )
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, queue)
    qtbot.addWidget(
        window, before_close_func=lambda w: [b.undo_stack.setClean() for b in w.workbenches]
    )
    shown: list[str] = []
    window.warm_runner.progress.connect(lambda event: shown.append(event.phase))
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    status = window.status_panel
    qtbot.waitUntil(lambda: status.compiling.text() == f"{COLD_PHASE}: 0/4")
    assert status.compiling.isVisible()

    bench = window.by_family["sliding"]
    window.new_document()
    click(qtbot, bench.editor, (0, 0))  # editing does not wait for the kernels
    assert len(bench.editor.draft().start) == 1
    assert bench.undo_stack.count() == 1

    bench.load_puzzle(parse_puzzle(SILLY))
    assert bench.solve_button.isEnabled()
    at_start: list[tuple[str, list[str]]] = []
    window.runner.started.connect(lambda: at_start.append((status.phase.text(), queue.order())))
    click_solve(window, qtbot, bench)
    assert at_start == [
        ("compiling the solvers for this tab first…", ["sliding", "dissection", "exactcover"])
    ]
    assert bench.solution_summary.text().startswith("Style")
    assert ran == []  # the warm-up still waits in its first step

    gate.set()
    qtbot.waitUntil(lambda: not window.warm_runner.busy, timeout=10_000)
    assert ran == ["antislide", "sliding", "dissection", "exactcover"]
    assert shown == [f"{COLD_PHASE}: {done}/4" for done in range(5)]
    assert not status.compiling.isVisible()


def test_what_the_warm_up_leaves_alive_is_set_aside_when_it_ends(qtbot, tmp_path):
    """Loading the kernels leaves objects that live as long as the app: once the warm-up
    ends they are left out of collections (`set_aside`), or the first collection of a run
    walks them all while the window waits (50-115 ms in CI)."""
    kept: list[list[int]] = []
    queue = WarmUpQueue([WarmUpStep("sliding", lambda: kept.extend([k] for k in range(50_000)))])
    before = gc.get_freeze_count()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, queue)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: not window.warm_runner.busy and queue.finished, timeout=60_000)
    qtbot.wait(50)  # the finished signal's slot runs on the main thread
    assert len(kept) == 50_000
    assert gc.get_freeze_count() >= before + 50_000

"""The solver runner: results arrive in the main thread, cancel is prompt, the UI stays live."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer

from slidelab.gui.worker import SolverRunner
from slidelab.sliding.search import analyze, solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle
from tests.sliding.figures import SILLY

BIG = "3 x 4\n1 = 1\n2 = 1\n3 = 1\n4 = 1\n111222334400\n004433222111\n"
"""1,663,200 configurations: several seconds of search in the superpiece styles."""


def test_a_run_reports_progress_and_its_result(qtbot):
    runner = SolverRunner()
    events = []
    runner.progress.connect(events.append)
    with qtbot.waitSignal(runner.finished, timeout=60_000) as finished:
        runner.start(lambda: solve(parse_puzzle(SILLY), MoveStyle.PATH))
    assert finished.args[0].moves == 4
    assert not runner.busy
    runner.shutdown()


def test_cancel_stops_a_long_run_within_half_a_second_and_the_ui_stays_responsive(qtbot):
    runner = SolverRunner()
    with qtbot.waitSignal(runner.finished, timeout=60_000):  # compile the kernels first
        runner.start(lambda: solve(parse_puzzle(SILLY), MoveStyle.SUPER_PATH))
    gaps: list[float] = []
    last = [time.perf_counter()]

    def beat() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    heart = QTimer()
    heart.setInterval(10)
    heart.timeout.connect(beat)
    heart.start()
    with qtbot.waitSignal(runner.progress, timeout=10_000):
        runner.start(lambda: analyze(parse_puzzle(BIG), MoveStyle.SUPER_PATH))
    qtbot.wait(1000)
    assert runner.busy
    asked = time.perf_counter()
    with qtbot.waitSignal(runner.cancelled, timeout=5_000):
        runner.cancel()
    stopped_after = time.perf_counter() - asked
    heart.stop()
    assert stopped_after < 0.5
    assert len(gaps) > 50
    assert max(gaps) < 0.25, f"the event loop stalled for {max(gaps):.3f} s"
    runner.shutdown()


def test_bad_requests_fail_with_a_message(qtbot):
    runner = SolverRunner()
    with qtbot.waitSignal(runner.failed, timeout=60_000) as failed:
        runner.start(lambda: solve(parse_puzzle(SILLY), MoveStyle.from_number(9)))
    assert failed.args[0] == "the style must be between 0 and 5, not 9"
    runner.shutdown()

"""The leak check fails a test that leaves a thread, a timer or a solver run going, and says
which and where it was started; what was stopped or deleted is no leak."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QObject, QThread, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from slidelab.gui.worker import SolverRunner
from slidelab.sliding.search import analyze
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle
from tests.gui.leaks import ROOT, LeakWatch
from tests.gui.test_worker import BIG

HERE = "tests/gui/test_leaks.py"


class Spinning(QThread):
    """A thread that runs until asked to stop."""

    def run(self) -> None:
        while not self.isInterruptionRequested():
            self.msleep(5)


def line_before() -> int:
    """The number of the line above the caller's current line."""
    frame = inspect.currentframe()
    assert frame is not None and frame.f_back is not None
    return frame.f_back.f_lineno - 1


def failure(watch: LeakWatch) -> str:
    """The message `watch.check()` fails with."""
    with pytest.raises(pytest.fail.Exception) as failed:
        watch.check()
    return str(failed.value)


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch, qapp: QApplication) -> LeakWatch:
    """A watch of its own, beside the one every GUI test has."""
    made = LeakWatch()
    made.install(monkeypatch)
    return made


def test_a_thread_left_running_fails_and_is_stopped(watch: LeakWatch) -> None:
    thread = Spinning()
    thread.setObjectName("spinner")
    thread.start()
    line = line_before()
    assert failure(watch) == (
        "the test left running (close or stop them):\n  QThread (Spinning) 'spinner' is still "
        f"running; started at {HERE}:{line} in test_a_thread_left_running_fails_and_is_stopped"
    )
    assert thread.isFinished()
    watch.check()


def test_an_active_timer_fails_and_is_stopped(watch: LeakWatch) -> None:
    timer = QTimer()
    timer.setObjectName("ticker")
    timer.start(1000)
    line = line_before()
    stopped = QTimer()
    stopped.start(1000)
    stopped.stop()
    assert failure(watch) == (
        "the test left running (close or stop them):\n  QTimer 'ticker' is still active; "
        f"started at {HERE}:{line} in test_an_active_timer_fails_and_is_stopped"
    )
    assert not timer.isActive()
    watch.check()


def test_timers_and_threads_deleted_with_their_owners_are_no_leaks(watch: LeakWatch) -> None:
    owner = QObject()
    QTimer(owner).start(1000)
    alone = QTimer()
    alone.start(1000)
    assert [leak.kind for leak in watch.leaks()] == ["QTimer", "QTimer"]
    shiboken6.delete(owner)
    del alone
    assert watch.leaks() == []


def test_a_busy_runner_fails_with_its_thread_and_is_shut_down(
    watch: LeakWatch, qtbot: QtBot
) -> None:
    runner = SolverRunner()
    made = line_before()
    with qtbot.waitSignal(runner.progress, timeout=60_000):
        runner.start(lambda: analyze(parse_puzzle(BIG), MoveStyle.SUPER_PATH))
    started = line_before()
    lines = failure(watch).splitlines()
    name = "test_a_busy_runner_fails_with_its_thread_and_is_shut_down"
    assert lines[0] == "the test left running (close or stop them):"
    assert re.fullmatch(
        rf"  QThread 'slidelab-solver' is still running; started at slidelab/gui/worker\.py:\d+"
        rf" in \w+, from {HERE}:{made} in {name}",
        lines[1],
    )
    assert lines[2] == f"  SolverRunner is still busy; started at {HERE}:{started} in {name}"
    assert len(lines) == 3
    qtbot.waitUntil(lambda: not runner.busy, timeout=5_000)
    assert watch.leaks() == []


LEAKING = """
from PySide6.QtCore import QTimer

kept = []


def test_leaves_a_timer_active(qtbot):
    timer = QTimer()
    timer.start(1000)
    kept.append(timer)


def test_stops_its_timer(qtbot):
    timer = QTimer()
    timer.start(1000)
    timer.stop()
"""


def test_the_gui_conftest_fails_a_leaking_test(tmp_path: Path) -> None:
    """End to end: a pytest run with tests/gui/conftest.py's fixtures errors at teardown."""
    (tmp_path / "conftest.py").write_text(
        "from tests.gui.conftest import _nothing_left_running, _x_display  # noqa: F401\n"
    )
    (tmp_path / "test_leaking.py").write_text(LEAKING)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert "2 passed, 1 error" in run.stdout, run.stdout + run.stderr
    assert "ERROR at teardown of test_leaves_a_timer_active" in run.stdout
    where = f"{tmp_path / 'test_leaking.py'}:9 in test_leaves_a_timer_active"
    assert f"\n  QTimer is still active; started at {where}\n" in run.stdout

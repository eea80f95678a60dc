"""The solver runner: results arrive in the main thread, cancel is prompt, the UI stays live."""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass

import pytest
from PySide6.QtCore import QTimer

from slidelab.exactcover.search import SolutionsFound
from slidelab.exactcover.search import solve as solve_exact_cover
from slidelab.gui.worker import SolverRunner
from slidelab.runs import Found, Progress
from slidelab.sliding.search import analyze, solve
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle
from tests.exactcover.problems import QUEENS, queens
from tests.sliding.figures import SILLY

BIG = "3 x 4\n1 = 1\n2 = 1\n3 = 1\n4 = 1\n111222334400\n004433222111\n"
"""1,663,200 configurations: several seconds of search in the superpiece styles."""


@pytest.fixture
def runner() -> Iterator[SolverRunner]:
    """A runner whose thread is ended after the test, whether it passed or not."""
    runner = SolverRunner()
    yield runner
    runner.shutdown()


def test_a_run_reports_progress_and_its_result(qtbot, runner):
    events = []
    runner.progress.connect(events.append)
    with qtbot.waitSignal(runner.finished, timeout=60_000) as finished:
        runner.start(lambda: solve(parse_puzzle(SILLY), MoveStyle.PATH))
    assert finished.args[0].moves == 4
    assert not runner.busy


def test_results_found_on_the_way_arrive_as_typed_batches_apart_from_progress(qtbot, runner):
    progress: list[object] = []
    batches: list[object] = []
    runner.progress.connect(progress.append)
    runner.found.connect(batches.append)
    with qtbot.waitSignal(runner.finished, timeout=60_000) as finished:
        runner.start(lambda: solve_exact_cover(queens(8), max_chunk_nodes=50))
    assert finished.args[0].count == QUEENS[8]
    assert progress and all(isinstance(event, Progress) for event in progress)
    assert batches and all(isinstance(batch, SolutionsFound) for batch in batches)
    assert sum(len(batch) for batch in batches) == QUEENS[8]


def test_cancel_stops_a_long_run_within_half_a_second_and_the_ui_stays_responsive(qtbot, runner):
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
    with qtbot.waitSignal(runner.stopped, timeout=5_000):
        runner.cancel()
    stopped_after = time.perf_counter() - asked
    heart.stop()
    assert stopped_after < 0.5
    assert len(gaps) > 50
    assert max(gaps) < 0.25, f"the event loop stalled for {max(gaps):.3f} s"


def test_bad_requests_fail_with_a_message(qtbot, runner):
    with qtbot.waitSignal(runner.failed, timeout=60_000) as failed:
        runner.start(lambda: solve(parse_puzzle(SILLY), MoveStyle.from_number(9)))
    assert failed.args[0] == "the style must be between 0 and 5, not 9"


@dataclass(frozen=True)
class Numbered(Found):
    """A batch that says which one it is."""

    number: int

    def __len__(self) -> int:
        return 1


def test_batches_never_pile_up_in_the_main_thread(qtbot, runner):
    """A solver handing out batches faster than the window takes them waits for each to be
    taken, so at most one more is on its way while the main thread handles one."""
    handed_out = [0]

    def flood() -> Generator[Progress | Numbered, None, int]:
        for number in range(1, 201):
            handed_out[0] = number
            yield Numbered(number)
        return 200

    ahead: list[int] = []
    received: list[int] = []

    def slow_take(batch: Numbered) -> None:
        received.append(batch.number)
        ahead.append(handed_out[0] - batch.number)
        time.sleep(0.002)

    runner.found.connect(slow_take)
    with qtbot.waitSignal(runner.finished, timeout=60_000):
        runner.start(flood)
    assert received == list(range(1, 201))
    assert max(ahead) <= 1

"""Big runs never freeze the window, Cancel stops a run at once in every tab, a long list
sorts, filters and stays small.

The 4x5x5 antislide box has 717,676 classes and takes a minute or more on a loaded
machine, so its stream is replayed: a solver that hands out 717,676 packings of the
4x5x5 box in the engine's batches (at most `BUFFER` rows each), through the real
runner and Run button.  A 4x4x5 run is watched for real.  The gaps between the event
loop's turns are measured while rows stream in (`Heartbeat`): the goal, 100 ms, is
asserted on the main thread's own work in a gap (its CPU time), and the wall-clock
gap gets a looser bound, since on a shared machine the thread also waits for a core
(the figures on a quiet one are in the issue's closing note).
"""

from __future__ import annotations

import gc
import time
import tracemalloc
from collections.abc import Generator

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

import slidelab.gui.antislide.workbench as antislide_workbench
from slidelab.antislide.model import Box, Tables
from slidelab.antislide.search import BUFFER, AntislideResult, PackingsFound
from slidelab.parallel.options import default_jobs
from slidelab.runs import Progress
from slidelab.sliding import search
from tests.antislide.figures import CLASSES_4x4x5
from tests.gui.heartbeat import Heartbeat
from tests.gui.mouse import LEFT

CLASSES_4x5x5 = 717_676
STALL = 0.1
"""The goal: no gap between the event loop's turns longer than this (seconds)."""
WALL_STALL = 1.0
"""The bound on wall-clock gaps, which on a loaded, shared machine include waits for a core."""
CANCEL = 0.5
SORT = 0.5


def replayed_4x5x5(
    total: int = CLASSES_4x5x5, seed: int = 4
) -> Generator[Progress | PackingsFound, None, AntislideResult]:
    """A solver handing out `total` made-up packings of the 4x5x5 box as the search does:
    batches of at most `BUFFER` rows between short pauses (the kernel's chunks)."""
    box = Box((4, 5, 5))
    tables = Tables.build(box)
    rng = np.random.default_rng(seed)
    counts = np.zeros(26, np.int64)
    started = time.perf_counter()
    for start in range(0, total, BUFFER):
        size = min(BUFFER, total - start)
        blocks = rng.integers(19, 25, size)  # as the real classes: 19 to 24 bricks
        moves = np.full((size, 25), -1, np.int16)
        filled = np.arange(25) < blocks[:, None]
        moves[filled] = rng.integers(0, len(tables.placements), int(filled.sum()))
        symmetries = rng.choice(np.array([1, 2, 4, 8], np.uint8), size)
        counts += np.bincount(blocks, minlength=26)
        yield PackingsFound(tables.placements, moves, symmetries)
        found = start + size
        yield Progress("antislide search", found, time.perf_counter() - started, 0, found)
        time.sleep(0.005)
    by_blocks = {b: int(c) for b, c in enumerate(counts) if c}
    return AntislideResult(box, (2, 2, 1), 8, by_blocks, total)


def antislide_tab(window, qtbot, dims):
    bench = window.by_family["antislide"]
    window.show_workbench(bench)
    # The tab's first paint makes the 3D view's GL context (50-100 ms under llvmpipe): let it
    # happen before a run starts, as it does for a user, so the gaps measured are the run's.
    qtbot.waitUntil(bench.view._gl.isValid)
    for spin, value in zip(bench.box_spins, dims, strict=True):
        spin.setValue(value)
    return bench


def replay(window, qtbot, monkeypatch) -> tuple[antislide_workbench.AntislideWorkbench, Heartbeat]:
    """Click Run on the 4x5x5 box with the replayed solver; the gaps meanwhile."""
    monkeypatch.setattr(antislide_workbench, "solve", lambda *args, **kwargs: replayed_4x5x5())
    bench = antislide_tab(window, qtbot, (4, 5, 5))
    with Heartbeat() as heart, qtbot.waitSignal(window.runner.finished, timeout=300_000):
        qtbot.mouseClick(bench.run_button, LEFT)
    return bench, heart


def assert_responsive(heart: Heartbeat) -> None:
    assert heart.longest_busy < STALL, f"the window's own work took {heart.longest_busy:.3f} s"
    assert heart.longest < WALL_STALL, f"the event loop stalled for {heart.longest:.3f} s"


def click_header(qtbot, bench, column: int) -> float:
    """Click a column header of the packing list; the seconds until the click was handled."""
    header = bench.table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    tick = time.perf_counter()
    qtbot.mouseClick(header.viewport(), LEFT, pos=QPoint(x, header.height() // 2))
    return time.perf_counter() - tick


def shown(bench, column: int, rows: int = 5000) -> np.ndarray:
    """The values the list shows in a column, its first rows top to bottom (as drawn)."""
    model = bench.packings
    return np.array([int(model.index(r, column).data()) for r in range(rows)])


def test_717676_streamed_packings_never_stall_the_window_and_sort_and_filter_at_once(
    window, qtbot, monkeypatch
):
    bench, heart = replay(window, qtbot, monkeypatch)
    print(f"717,676 packings streamed in: {heart.summary()}")
    assert bench.packing_count() == bench.packings.rowCount() == CLASSES_4x5x5
    assert_responsive(heart)

    took = click_header(qtbot, bench, 1)  # blocks, ascending
    blocks = shown(bench, 1)
    assert np.all(np.diff(blocks) >= 0) and blocks[0] == 19
    assert np.all(np.diff(shown(bench, 0)[blocks == 19]) > 0)  # ties stay in found order
    took = max(took, click_header(qtbot, bench, 1))  # descending
    assert int(bench.packings.index(0, 1).data()) == 24
    print(f"sorting 717,676 rows by blocks: {took * 1000:.0f} ms")
    assert took < SORT

    bench.table.selectRow(0)
    chosen = bench.packings.source_row(0)
    tick = time.perf_counter()
    for spin in (bench.show_high, bench.show_low):  # only the 24-block packings
        qtbot.keyClick(spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClicks(spin, "24")
        qtbot.keyClick(spin, Qt.Key.Key_Return)
    took = time.perf_counter() - tick
    expected = int(np.count_nonzero(bench.packings.store.column("blocks") == 24))
    assert bench.packings.rowCount() == expected
    assert {int(bench.packings.index(r, 1).data()) for r in range(0, expected, 997)} == {24}
    selected = bench.table.selectionModel().selectedRows()
    assert [bench.packings.source_row(i.row()) for i in selected] == [chosen]
    assert len(bench.document.bricks) == 24  # the selected packing is the one shown
    print(f"filtering 717,676 rows by blocks (two changes): {took * 1000:.0f} ms")
    assert took < 2 * SORT
    bench.packings.clear()  # the next tests need not carry 717,676 rows


def test_a_listed_packing_costs_at_most_200_bytes(window, qtbot, monkeypatch):
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        bench, _ = replay(window, qtbot, monkeypatch)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    rows = bench.packing_count()
    assert rows == CLASSES_4x5x5
    print(
        f"per packing: model arrays {bench.packings.nbytes / rows:.0f} bytes, "
        f"Python heap {held / rows:.0f} bytes"
    )
    assert bench.packings.nbytes / rows <= 200
    assert held / rows <= 200
    bench.packings.clear()


def test_a_real_4x4x5_run_lists_rows_as_found_without_stalling(window, qtbot):
    bench = antislide_tab(window, qtbot, (4, 4, 5))
    seen: list[int] = []
    window.runner.progress.connect(lambda _event: seen.append(bench.packings.rowCount()))
    with Heartbeat() as heart, qtbot.waitSignal(window.runner.finished, timeout=300_000):
        qtbot.mouseClick(bench.run_button, LEFT)
    total = sum(CLASSES_4x4x5.values())
    print(f"4x4x5 run: {heart.summary()}")
    assert bench.packings.rowCount() == total
    assert any(0 < rows < total for rows in seen)  # the list filled while the search ran
    assert_responsive(heart)


def cancel_after_a_second(qtbot, window, button) -> float:
    """Let the run go for a second, click `button`; seconds until the run stopped."""
    qtbot.wait(1000)
    assert window.runner.busy
    with qtbot.waitSignal(window.runner.stopped, timeout=10_000):
        asked = time.perf_counter()
        qtbot.mouseClick(button, LEFT)
    return time.perf_counter() - asked


def test_cancel_stops_the_4x5x5_antislide_run_within_half_a_second(window, qtbot):
    bench = antislide_tab(window, qtbot, (4, 5, 5))
    with qtbot.waitSignal(window.runner.progress, timeout=10_000):
        qtbot.mouseClick(bench.run_button, LEFT)
    took = cancel_after_a_second(qtbot, window, bench.cancel_button)
    print(f"antislide cancel: {took * 1000:.0f} ms")
    assert took < CANCEL
    assert bench.summary.text().startswith("Stopped after")
    assert bench.run_button.isEnabled() and not bench.cancel_button.isEnabled()


def test_cancel_stops_listing_the_solid_pentominoes_3x4x5_within_half_a_second(window, qtbot):
    bench = window.by_family["polycube"]
    window.open_library(bench, "solid-pentominoes-3x4x5.pcube")
    bench.first.setValue(0)  # all of them
    with qtbot.waitSignal(window.runner.progress, timeout=10_000):
        qtbot.mouseClick(bench.solve_button, LEFT)
    took = cancel_after_a_second(qtbot, window, window.status_panel.cancel_button)
    print(f"polycube cancel: {took * 1000:.0f} ms")
    assert took < CANCEL
    assert bench.solve_button.isEnabled()


def test_cancel_stops_the_toy_dissection_with_5_pieces_within_half_a_second(window, qtbot):
    bench = window.by_family["dissection"]
    window.open_library(bench, "knuth-toy.dots")
    bench.pieces.setValue(5)
    with qtbot.waitSignal(window.runner.progress, timeout=10_000):
        qtbot.mouseClick(bench.solve_button, LEFT)
    took = cancel_after_a_second(qtbot, window, bench.cancel_button)
    print(f"dissection cancel: {took * 1000:.0f} ms")
    assert took < CANCEL
    assert bench.solve_button.isEnabled() and not bench.cancel_button.isEnabled()


def soma_listed(window, qtbot):
    """The polycube tab with all 11,520 Soma solutions listed."""
    bench = window.by_family["polycube"]
    window.open_library(bench, "soma.pcube")
    bench.first.setValue(0)  # list all 11,520
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        qtbot.mouseClick(bench.solve_button, LEFT)
    assert bench.solution_list.count() == 11520
    return bench


def test_taking_11520_soma_solutions_apart_never_stalls_and_cancel_stops_it(window, qtbot):
    bench = soma_listed(window, qtbot)
    with Heartbeat() as heart:
        with qtbot.waitSignal(window.runner.progress, timeout=30_000):
            qtbot.mouseClick(bench.take_apart_button, LEFT)
        took = cancel_after_a_second(qtbot, window, window.status_panel.cancel_button)
    print(f"soma take apart: {heart.summary()}; cancel {took * 1000:.0f} ms")
    assert took < CANCEL
    assert_responsive(heart)
    assert bench.take_apart_button.isEnabled()


def test_taking_11520_soma_solutions_apart_to_the_end_never_stalls(window, qtbot):
    """The end of the run too: the window sorts all 11,520 by level (reading each one's
    level took 0.13-0.27 s on the main thread before the solver's thread worked them out)."""
    bench = soma_listed(window, qtbot)
    with Heartbeat() as heart:
        with qtbot.waitSignal(window.runner.finished, timeout=120_000):
            qtbot.mouseClick(bench.take_apart_button, LEFT)
        qtbot.wait(200)  # the list refilled and repainted
    print(f"soma taken apart to the end: {heart.summary()}")
    assert bench.result_text.text() == "11,520 of 11,520 come apart; highest level 1.1.1.1.1.1."
    assert_responsive(heart)


def test_analysing_the_fifteen_puzzle_on_all_threads_never_stalls_and_cancel_stops_it(
    window, qtbot
):
    """The biggest sliding run a user can start: the fifteen puzzle's space (10^13
    configurations) explored until stopped, its big layers split between every core."""
    bench = window.by_family["sliding"]
    window.open_library(bench, "fifteen-puzzle.slide")
    split = search._Expander._split
    splits = [0]

    def counted(self: search._Expander, *args: object) -> tuple[int, int]:
        splits[0] += 1
        return split(self, *args)

    with pytest.MonkeyPatch.context() as patch, Heartbeat() as heart:
        patch.setattr(search._Expander, "_split", counted)
        with qtbot.waitSignal(window.runner.progress, timeout=30_000):
            qtbot.mouseClick(bench.analyze_button, LEFT)
        took = cancel_after_a_second(qtbot, window, window.status_panel.cancel_button)
    print(f"fifteen puzzle analysis: {heart.summary()}; {splits[0]} chunks split; cancel "
          f"{took * 1000:.0f} ms")  # fmt: skip
    assert splits[0] > 0 or default_jobs() == 1
    assert took < CANCEL
    assert_responsive(heart)
    assert bench.analyze_button.isEnabled()

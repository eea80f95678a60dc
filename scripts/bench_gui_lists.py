#!/usr/bin/env python3
"""Long result lists: sort and filter a million rows, and a real 4x5x5 antislide run in the app.

The first part times `slidelab.columns` on 1,000,000 synthetic rows (no Qt): the longest
append of a batch while they stream in and the trim once complete (the window's thread
does both), then sorts and filters.  With
`--app` the second opens the main window (under Xvfb when there is no display),
runs the 4x5x5 antislide box in its tab and measures the longest gap between the
event loop's turns (wall clock, and the main thread's CPU time in it), the bytes
the list holds per packing and the process's resident memory at the end; then it
runs the box again, clicks Cancel after `--cancel-after` seconds and times the stop.

    .venv/bin/python scripts/bench_gui_lists.py [--rows 1000000] [--app] [--cancel-after 12]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections.abc import Callable

import numpy as np

from slidelab.columns import Arrangement, ColumnStore

BATCH = 4096


def batch(rng: np.random.Generator, start: int, size: int) -> dict[str, np.ndarray]:
    """`size` rows like the antislide list's, numbered from `start + 1`."""
    return {
        "number": np.arange(start + 1, start + size + 1, dtype=np.int32),
        "blocks": rng.integers(19, 25, size).astype(np.uint8),
        "moves": rng.integers(-1, 300, (size, 25)).astype(np.int16),
    }


def synthetic(rows: int) -> tuple[ColumnStore, float]:
    """Rows like the antislide list's, appended in the engine's batch size; and the longest
    append (seconds)."""
    rng = np.random.default_rng(1)
    store = ColumnStore()
    longest = 0.0
    for start in range(0, rows, BATCH):
        rows_in = batch(rng, start, min(BATCH, rows - start))
        tick = time.perf_counter()
        store.append(rows_in)
        longest = max(longest, time.perf_counter() - tick)
    return store, longest


def timed(label: str, work: Callable[[], object]) -> None:
    tick = time.perf_counter()
    work()
    print(f"| {label} | {(time.perf_counter() - tick) * 1000:.1f} |")


def bench_columns(rows: int) -> None:
    store, longest = synthetic(rows)
    print(f"{rows:,} rows, {store.nbytes / rows:.0f} bytes each (spare room included)")
    print("| operation | ms |")
    print("|---|---:|")
    print(f"| longest append of a {BATCH}-row batch | {longest * 1000:.1f} |")
    timed("trim the complete list", store.trim)
    timed("sort by blocks", lambda: Arrangement(key="blocks").rows(store))
    timed("sort by blocks, descending", lambda: Arrangement("blocks", True).rows(store))
    timed("filter blocks 24..24", lambda: Arrangement(ranges=(("blocks", 24, 24),)).rows(store))
    both = Arrangement("number", True, (("blocks", 20, 23),))
    timed("filter 20..23 and sort by # descending", lambda: both.rows(store))
    order = Arrangement(key="blocks").rows(store)
    store.append(batch(np.random.default_rng(2), rows, BATCH))
    timed("merge one batch into the sorted list", lambda: Arrangement("blocks").merged(
        order, store, rows))  # fmt: skip


def resident_mb() -> float:
    """This process's resident memory now (Linux)."""
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def bench_app(cancel_after: float) -> None:
    """The 4x5x5 box in the antislide tab: stalls, bytes per packing, memory, cancel."""
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
    import tempfile
    from pathlib import Path

    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from slidelab.gui.app import create_application
    from slidelab.gui.main_window import MainWindow

    app = create_application()
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    window.resize(1280, 800)
    window.show()

    def wait(condition: Callable[[], bool], timeout: float = 600.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.001)

    wait(lambda: not window.runner.busy and not window.warm_runner.busy)
    bench = window.by_family["antislide"]
    window.show_workbench(bench)
    for spin, value in zip(bench.box_spins, (4, 5, 5), strict=True):
        spin.setValue(value)
    gaps: list[tuple[float, float]] = []
    last = [time.perf_counter(), time.thread_time()]

    def beat() -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        gaps.append((now - last[0], cpu - last[1]))
        last[:] = [now, cpu]

    heart = QTimer()
    heart.setInterval(10)
    heart.timeout.connect(beat)
    before = resident_mb()
    heart.start()
    started = time.perf_counter()
    bench.run()
    wait(lambda: not window.runner.busy)
    took = time.perf_counter() - started
    heart.stop()
    wall = np.array([g for g, _ in gaps])
    busy = np.array([b for _, b in gaps])
    rows = bench.packing_count()
    print(f"4x5x5 in the app: {rows:,} packings listed in {took:.1f} s")
    p99 = np.percentile(wall, 99) * 1000
    print(
        f"longest gap {wall.max() * 1000:.0f} ms (99th percentile {p99:.0f} ms), longest "
        f"main-thread CPU in a gap {busy.max() * 1000:.0f} ms, {len(wall)} beats"
    )
    print(f"list: {bench.packings.nbytes / max(rows, 1):.0f} bytes per packing")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"resident memory at the end {resident_mb():.0f} MB (before the run {before:.0f} MB, "
          f"peak {peak:.0f} MB)")  # fmt: skip

    bench.run()
    deadline = time.perf_counter() + cancel_after
    wait(lambda: time.perf_counter() > deadline)
    if not window.runner.busy:
        print(f"the second run ended before {cancel_after:.0f} s: try a smaller --cancel-after")
    asked = time.perf_counter()
    bench.cancel_button.click()
    wait(lambda: not window.runner.busy)
    print(
        f"Cancel clicked after {cancel_after:.0f} s: stopped after "
        f"{(time.perf_counter() - asked) * 1000:.0f} ms, {bench.packing_count():,} listed"
    )
    for workbench in window.workbenches:
        workbench.undo_stack.setClean()
    window.close()
    QApplication.processEvents()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--app", action="store_true", help="also run 4x5x5 in the app")
    parser.add_argument("--cancel-after", type=float, default=12.0)
    args = parser.parse_args()
    bench_columns(args.rows)
    if args.app:
        bench_app(args.cancel_after)


if __name__ == "__main__":
    main()

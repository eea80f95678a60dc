#!/usr/bin/env python3
"""Start-up times of the app and the command line: numba's cache empty (cold), full, and
with the native solvers built from it.

For each run a fresh process starts the app and reports the seconds from launch until its
window is shown and until every solver kernel is compiled or loaded (the tabs are usable
from the first moment); `slidelab antislide 3 3 3` (run by the interpreter) and
`slidelab antislide 4 4 4` (compiled kernels) are timed as whole processes.  Cold runs each
get an empty `NUMBA_CACHE_DIR`; warm runs share one filled beforehand by `python -m
slidelab.kernels_warmup`, which also builds the native solvers: the "numba" column runs
with them switched off (`SLIDELAB_NATIVE=0`), the "native" column with them.  Wall-clock
medians.  Needs a display (run under `xvfb-run -a`).

    .venv/bin/python scripts/bench_startup.py [--runs 3] [--cold-runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAUNCH = "SLIDELAB_BENCH_LAUNCH"
"""The environment variable carrying the parent's clock at the child's launch."""


def app_child() -> None:
    """In the child: open the app, print seconds to window shown and to kernels ready."""
    launched = float(os.environ[LAUNCH])
    from PySide6.QtWidgets import QApplication

    from slidelab.gui.app import create_application
    from slidelab.gui.main_window import MainWindow

    app = create_application()
    window = MainWindow()
    window.show()
    while window.windowHandle() is None or not window.windowHandle().isExposed():
        app.processEvents()
    shown = time.time() - launched
    while window.warm_runner.busy:
        app.processEvents()
        time.sleep(0.01)
    ready = time.time() - launched
    window.close()
    QApplication.processEvents()
    print(json.dumps({"shown": shown, "ready": ready}))


def environment(cache: str, native: bool) -> dict[str, str]:
    """This checkout's slidelab, numba's cache in `cache`, settings in a throw-away place."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    env["SLIDELAB_NATIVE"] = "1" if native else "0"
    env["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="slidelab-bench-config-")
    return env


def time_app(env: dict[str, str]) -> dict[str, float]:
    env = dict(env, **{LAUNCH: repr(time.time())})
    out = subprocess.run(
        [sys.executable, __file__, "--child"], env=env, check=True, capture_output=True, text=True
    ).stdout
    times: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return times


COMMANDS = {"antislide 3 3 3": ["3", "3", "3"], "antislide 4 4 4": ["4", "4", "4"]}
"""The commands timed as whole processes: interpreted kernels, and compiled ones."""


def time_command(env: dict[str, str], box: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "slidelab", "antislide", *box],
        env=env,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def measure(runs: int, environment_for_run: Callable[[], dict[str, str]]) -> dict[str, float]:
    """Median seconds over `runs` of window shown, kernels ready and the commands."""
    app = [time_app(environment_for_run()) for _ in range(runs)]
    times = {
        "window shown": statistics.median(t["shown"] for t in app),
        "kernels ready": statistics.median(t["ready"] for t in app),
    }
    for name, box in COMMANDS.items():
        times[name] = statistics.median(
            time_command(environment_for_run(), box) for _ in range(runs)
        )
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="warm runs (default 3)")
    parser.add_argument("--cold-runs", type=int, default=3, help="cold runs (default 3)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        app_child()
        return
    print(f"load before: {os.getloadavg()[0]:.2f}", flush=True)
    cold = measure(
        args.cold_runs,
        lambda: environment(tempfile.mkdtemp(prefix="slidelab-cold-numba-"), native=False),
    )
    shared = tempfile.mkdtemp(prefix="slidelab-warm-numba-")
    subprocess.run(
        [sys.executable, "-m", "slidelab.kernels_warmup"],
        env=environment(shared, native=True),
        check=True,
    )
    numba = measure(args.runs, lambda: environment(shared, native=False))
    native = measure(args.runs, lambda: environment(shared, native=True))
    print(f"load after: {os.getloadavg()[0]:.2f}")
    print(f"{'seconds (median)':<18}{'cold':>8}{'numba':>8}{'native':>8}")
    for name in cold:
        print(f"{name:<18}{cold[name]:>8.2f}{numba[name]:>8.2f}{native[name]:>8.2f}")


if __name__ == "__main__":
    main()

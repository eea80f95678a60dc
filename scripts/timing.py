"""The benchmarks' one way of timing: the median of several runs, on a clock of one's choice."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def median_seconds(
    work: Callable[[], T], runs: int, clock: Callable[[], float] = time.process_time
) -> tuple[float, T]:
    """Median seconds of `runs` calls of `work` (CPU time unless another clock is given), and
    the value the last call returned."""
    times = []
    for _ in range(runs):
        started = clock()
        value = work()
        times.append(clock() - started)
    return statistics.median(times), value


SIDE_BY_SIDE = (
    Path(__file__).resolve().parents[1].parent / "shared" / "knuth-bench" / "side_by_side.py"
)
"""Knuth's programs against slidelab, interleaved on one input (issue 17); absent outside
the workplace, where the benchmarks measure slidelab alone."""


def side_by_side(items: Sequence[str], runs: int = 3, jobs: str = "1,default") -> None:
    """Run `side_by_side.py` on each item and print its closing line (the ratio Knuth/slidelab),
    or say why not; the `slidelab` timed is the one beside this Python (the project's .venv),
    set up first as `scripts/run` sets it up (byte-compiled, kernels compiled, native solvers
    built)."""
    if not SIDE_BY_SIDE.exists():
        print(f"side by side: {SIDE_BY_SIDE} is not here; skipped")
        return
    env = {
        "NUMBA_CACHE_DIR": str(Path(tempfile.gettempdir()) / "numba-side-by-side"),
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    package = Path(__file__).resolve().parents[1] / "slidelab"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=False, env=env)
    warm_up = subprocess.run(
        [sys.executable, "-m", "slidelab.kernels_warmup"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )  # as scripts/run does after an install: numba's cache filled, the native solvers built
    for line in warm_up.stderr.strip().splitlines():
        print(f"side by side: {line}")
    print(f"side by side with Knuth's programs, load average {os.getloadavg()[0]:.2f}:")
    for item in items:
        done = subprocess.run(
            [sys.executable, str(SIDE_BY_SIDE), item, "--runs", str(runs), "--jobs", jobs],
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
        if done.returncode == 0:
            print(f"  {done.stdout.strip().splitlines()[-1]}")
        else:
            said = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()
            print(f"  {item}: failed: {said[-1]}")


def add_knuth_option(parser: argparse.ArgumentParser, items: Sequence[str]) -> None:
    """Give a benchmark `--knuth ITEM,...`: the side-by-side items it ends with ('none' skips)."""
    parser.add_argument(
        "--knuth",
        default=",".join(items),
        help="side_by_side.py items to run last, comma-separated, or 'none' (default: %(default)s)",
    )


def run_knuth_option(args: argparse.Namespace) -> None:
    """Run the side-by-side items a benchmark was given with `--knuth`."""
    if args.knuth != "none":
        side_by_side(args.knuth.split(","), runs=args.runs)

#!/usr/bin/env python3
"""slidelab's exact-cover engines against the PyPI packages xcover and exact-cover, in one run.

Each solver counts the solutions of the same problems (built by
tests/exactcover/problems.py): the twelve pentominoes in 6 x 10 and 3 x 20
boxes, the Soma cube, and 12 queens (diagonals secondary; exact-cover has no
secondary items, so it gets one extra single-item option per diagonal, which
leaves the count unchanged).  Every solver is warmed up first (numba compiles
or loads its cache) and timed in CPU seconds, median of several runs; its count
is checked.  Prints a Markdown table with the ratios peer / slidelab (above 1
means slidelab is faster).  "slidelab" is the default engine, "links" forces
dancing links and "cells" dancing cells.  Install the peers with `pip install xcover exact-cover`; a
missing one is left out.

    .venv/bin/python scripts/bench_exactcover.py [--runs 3] [--skip-slow]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import add_knuth_option, run_knuth_option

from slidelab.exactcover.problem import Problem
from slidelab.exactcover.search import solve, warm_up
from slidelab.runs import drive
from tests.exactcover.problems import pentominoes, queens, soma

try:
    import xcover
except ImportError:
    xcover = None
try:
    import exact_cover
except ImportError:
    exact_cover = None

PROBLEMS: dict[str, tuple[Callable[[], Problem], int]] = {
    "pentominoes 6x10": (lambda: pentominoes(6, 10), 9356),
    "pentominoes 3x20": (lambda: pentominoes(3, 20), 8),
    "Soma cube": (soma, 11520),
    "12 queens": (lambda: queens(12), 14200),
}

Counter = Callable[[Problem], Callable[[], int]]


def slidelab(engine: str | None) -> Counter:
    def prepare(problem: Problem) -> Callable[[], int]:
        return lambda: drive(solve(problem, count_only=True, engine=engine)).count

    return prepare


def with_xcover(problem: Problem) -> Callable[[], int]:
    options = [[item for item, _ in option] for option in problem.options]
    primary, secondary = list(problem.primary), list(problem.secondary)
    return lambda: sum(1 for _ in xcover.covers(options, primary=primary, secondary=secondary))


def with_exact_cover(problem: Problem) -> Callable[[], int]:
    column = {item: k for k, item in enumerate(problem.items)}
    rows = [[column[item] for item, _ in option] for option in problem.options]
    rows += [[column[item]] for item in problem.secondary]
    matrix = np.zeros((len(rows), len(column)), np.bool_)
    for r, row in enumerate(rows):
        matrix[r, row] = True
    return lambda: int(exact_cover.get_solution_count(matrix))


def median_seconds(count: Callable[[], int], expected: int, runs: int, skip_slow: bool) -> float:
    """Median CPU seconds of `runs` counts (one if `skip_slow` and the first takes over 5 s)."""
    times: list[float] = []
    while len(times) < runs and not (skip_slow and times and times[0] > 5):
        start = time.process_time()
        found = count()
        times.append(time.process_time() - start)
        if found != expected:
            raise SystemExit(f"wrong count {found}, expected {expected}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--skip-slow", action="store_true", help="one run for solvers that take over 5 s"
    )
    add_knuth_option(parser, ("dlx-pento610", "dlx-pento345", "dlx-soma", "dlx-bedlam"))
    args = parser.parse_args()
    engines = ("links", "cells")
    solvers: dict[str, Counter] = {"slidelab": slidelab(None)}
    solvers |= {engine: slidelab(engine) for engine in engines}
    if xcover is not None:
        solvers["xcover"] = with_xcover
    if exact_cover is not None:
        solvers["exact-cover"] = with_exact_cover
    warm_up()
    for prepare in solvers.values():
        prepare(queens(6))()  # compile or load the peers' kernels before timing

    peers = [name for name in solvers if name not in ("slidelab", *engines)]
    head = ["problem", "solutions", *(f"{name} s" for name in solvers)]
    head += [f"{name} / slidelab" for name in (*engines, *peers)]
    print(f"CPU seconds, median of {args.runs} runs")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for title, (build, expected) in PROBLEMS.items():
        problem = build()
        seconds = {}
        for name, prepare in solvers.items():
            seconds[name] = median_seconds(prepare(problem), expected, args.runs, args.skip_slow)
        ratios = [seconds[name] / seconds["slidelab"] for name in (*engines, *peers)]
        cells = [title, f"{expected:,}", *(f"{s:.3f}" for s in seconds.values())]
        cells += [f"{r:.1f}x" for r in ratios]
        print("| " + " | ".join(cells) + " |", flush=True)

    run_knuth_option(args)


if __name__ == "__main__":
    main()

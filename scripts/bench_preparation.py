#!/usr/bin/env python3
"""How promptly a big run's preparation reports and stops: the longest time between two
events of the solver, the time closing it takes (Cancel), and the peak memory.

Each case runs in a fresh process with warm kernels (the exact-cover ones are called once
on a tiny problem first, as the app's warm-up does), is driven for `--seconds`, then
closed.  The polycube case is the hostile one of issue 16: the twelve pentominoes in a
30 x 30 x 30 box (4.6 million placements).

    .venv/bin/python scripts/bench_preparation.py [--seconds 150] [--case polycube]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Generator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from slidelab.runs import Progress, drive  # noqa: E402

Solver = Generator[object, None, object]


def pentominoes_in(side: str) -> Callable[[], Solver]:
    """The twelve pentominoes (mirror images allowed) in a box of `side` digits a side."""
    from slidelab.exactcover.search import solve
    from slidelab.library import shipped_text
    from slidelab.polycube.packing import packing_steps
    from slidelab.polycube.spec import parse_spec

    text = shipped_text("polycube", "pentominoes-6x10x1.pcube")
    spec = parse_spec(text.replace("[0-5][0-9]0", f"[0-{side}][0-{side}][0-{side}]"))

    def run() -> Solver:
        packing = yield from packing_steps(spec, True)
        return (yield from solve(packing.problem))

    return run


def big_square_dissection() -> Callable[[], Solver]:
    """`dissect 16` of a 32 x 32 square into itself."""
    from slidelab.dissection.model import Dissection
    from slidelab.dissection.search import solve
    from slidelab.dissection.shape import Shape

    square = Shape(tuple((r, c) for r in range(32) for c in range(32)))
    return lambda: solve(Dissection(square, square, 16, False, False))


CASES: dict[str, tuple[str, Callable[[], Callable[[], Solver]]]] = {
    "polycube": ("12 pentominoes in a 30x30x30 box", lambda: pentominoes_in("t")),
    "dissection": ("dissect 16 of a 32x32 square", big_square_dissection),
}


def warm_links() -> None:
    """Load the dancing-links kernels (layout, pruning, search) on a one-item problem."""
    from slidelab.exactcover.problem import Problem
    from slidelab.exactcover.search import solve

    drive(solve(Problem.of_sets(["a"], [["a"]]), engine="links"))


def measure(case: str, seconds: float) -> dict[str, object]:
    """Drive `case` for `seconds`, close it, and report the figures."""
    if case == "polycube":
        warm_links()
    make = CASES[case][1]()
    solver = make()
    started = last = time.perf_counter()
    longest, phases = 0.0, {}
    for event in solver:
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
        if isinstance(event, Progress):
            phases[event.phase] = phases.get(event.phase, 0) + 1
        if now - started > seconds:
            break
    closing = time.perf_counter()
    solver.close()
    closed = time.perf_counter() - closing
    return {
        "case": CASES[case][0],
        "longest_gap_s": round(longest, 3),
        "close_ms": round(closed * 1000, 1),
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "phases": phases,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=150.0)
    parser.add_argument("--case", choices=sorted(CASES), action="append")
    parser.add_argument("--child", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.seconds)))
        return
    for case in args.case or sorted(CASES):
        out = subprocess.run(
            [sys.executable, __file__, "--child", case, "--seconds", str(args.seconds)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        figures = json.loads(out.stdout.splitlines()[-1])
        print(
            f"{figures['case']}: longest gap between events {figures['longest_gap_s']} s, "
            f"close {figures['close_ms']} ms, peak RSS {figures['peak_rss_mib']} MiB, "
            f"events {figures['phases']}"
        )


if __name__ == "__main__":
    main()

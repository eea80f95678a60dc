#!/usr/bin/env python3
"""How much two cores can give a sliding search: the bound any two-thread design meets.

For each style it times whole `slidelab slide FILE --style S --analyze --jobs 1` processes
three ways, alternating so all see the same load: one alone, two at once (each on its own
core, sharing the memory system), and `--jobs 2`.  It also times a tiny puzzle, the part of
every process that no thread can share (start-up: Python, numpy, slidelab, the solvers).
From these it prints the ceiling of `--jobs 2` against `--jobs 1` on whole processes:
start-up plus the search's own time over two, stretched by what a second busy core costs
one process (`two at once` over `alone`), and the ratio measured.  FILE is the input of
issue 17's side-by-side items (Knuth's big 4x4 space, 1,796,256 configurations) when it is
here, else scripts/data/bench_twelve.slide.

    .venv/bin/python scripts/bench_two_cores.py [--runs 5] [--styles 0,1,2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIG = HERE.parents[1] / "shared" / "knuth-bench" / "data" / "big4x4_exhaust.txt"
TINY = HERE.parent / "resources" / "puzzles" / "sliding" / "five-puzzle-2x3.slide"


def command(path: Path, style: int, jobs: int) -> list[str]:
    return [sys.executable, "-m", "slidelab", "slide", str(path), "--style", str(style),
            "--analyze", "--json", "--jobs", str(jobs)]  # fmt: skip


def wall(*commands: list[str]) -> float:
    """Wall seconds until every one of `commands`, started together, has ended."""
    started = time.perf_counter()
    running = [subprocess.Popen(c, stdout=subprocess.DEVNULL) for c in commands]
    if any(p.wait() for p in running):
        raise SystemExit(f"failed: {' '.join(commands[0])}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--styles", default="0,1,2")
    args = parser.parse_args()
    path = BIG if BIG.exists() else HERE / "data" / "bench_twelve.slide"
    print(f"{path.name}; load average {os.getloadavg()[0]:.2f} before")
    start_up = statistics.median(wall(command(TINY, 0, 1)) for _ in range(args.runs))
    print(f"start-up (a tiny puzzle): {start_up:.3f} s")
    for style in map(int, args.styles.split(",")):
        alone, pair, two = [], [], []
        for _ in range(args.runs):
            alone.append(wall(command(path, style, 1)))
            pair.append(wall(command(path, style, 1), command(path, style, 1)))
            two.append(wall(command(path, style, 2)))
        one, both, jobs2 = (statistics.median(t) for t in (alone, pair, two))
        search = one - start_up
        ceiling = one / (start_up + search / 2 * both / one)
        print(
            f"style {style}: --jobs 1 {one:.3f} s, two at once {both:.3f} s "
            f"(+{100 * (both / one - 1):.0f}%), --jobs 2 {jobs2:.3f} s: "
            f"ratio {one / jobs2:.2f}, ceiling {ceiling:.2f}",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()

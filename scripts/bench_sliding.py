#!/usr/bin/env python3
"""Speed and memory of the sliding-block search, every style, side by side in one run.

For each move style this explores the whole space of a puzzle with 1,663,200
reachable configurations (scripts/data/bench_twelve.slide) several times and
prints the median rate (configurations per second of wall and CPU time) and the
bytes held per configuration.  In the same run it times the pure-Python
reference search on Knuth's "silly" example, so the ratio between the kernels
and the obviously-correct oracle is measured, not assumed.  The seed program's
rate (about 0.3 million configurations per second in style 0 on one core of
this machine, as measured for the project) is printed for comparison.

    .venv/bin/python scripts/bench_sliding.py [--runs 3] [--styles 0,1,2,3,4,5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from slidelab.runs import run_to_end
from slidelab.sliding import reference
from slidelab.sliding.library import load_library_puzzle
from slidelab.sliding.search import analyze, warm_up
from slidelab.sliding.textformat import read_puzzle_file

HERE = Path(__file__).parent
SEED_RATE_STYLE0 = 0.3e6


def timed(function, runs: int) -> tuple[float, float, object]:
    """Median wall and CPU seconds of `runs` calls, and the last result."""
    walls, cpus = [], []
    result = None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--styles", default="0,1,2,3,4,5")
    args = parser.parse_args()
    puzzle = read_puzzle_file(str(HERE / "data" / "bench_twelve.slide"))
    silly = load_library_puzzle("knuth-silly.slide")
    styles = [int(s) for s in args.styles.split(",")]
    warm_up()

    print(f"puzzle: {puzzle.rows} x {puzzle.cols} {puzzle.title}; median of {args.runs} runs")
    print(
        "| style | configurations | wall s | configs/s (wall) | configs/s (CPU) | "
        "bytes/config | vs seed (0.3 M/s) |"
    )
    print("|---|---|---|---|---|---|---|")
    for style in styles:
        wall, cpu, result = timed(lambda s=style: run_to_end(analyze(puzzle, s)), args.runs)
        rate = result.reachable / wall
        versus = f"{rate / SEED_RATE_STYLE0:.1f}x" if style == 0 else ""
        print(
            f"| {style} | {result.reachable:,} | {wall:.2f} | {rate:,.0f} | "
            f"{result.reachable / cpu:,.0f} | {result.memory_bytes / result.reachable:.1f} | "
            f"{versus} |"
        )

    print("\nKnuth's silly example, whole space: kernels vs the pure-Python reference")
    print("| style | configurations | kernel s | reference s | speed-up |")
    print("|---|---|---|---|---|")
    for style in styles:
        fast, _, result = timed(lambda s=style: run_to_end(analyze(silly, s)), args.runs)
        slow, _, layers = timed(lambda s=style: reference.reference_layers(silly, s), 1)
        assert tuple(layers) == result.layers, "kernel and reference disagree"
        print(f"| {style} | {result.reachable:,} | {fast:.4f} | {slow:.2f} | {slow / fast:,.0f}x |")


if __name__ == "__main__":
    main()

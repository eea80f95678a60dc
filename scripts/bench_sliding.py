#!/usr/bin/env python3
"""Speed and memory of the sliding-block search, every style, side by side in one run.

For each move style this explores the whole space of a puzzle with 1,663,200
reachable configurations (scripts/data/bench_twelve.slide) several times and
prints the median rate on one thread (configurations per second of wall and CPU
time) and the bytes held per configuration.  In the same runs it times the
search on more threads (--jobs, 1 and 2 by default, alternating so both see the
same load) and prints median wall and CPU seconds for each, with the speed-up.
It also times the pure-Python reference search on Knuth's "silly" example, so
the ratio between the kernels and the obviously-correct oracle is measured, not
assumed, and that tiny puzzle on the same thread counts.  The seed program's
rate (about 0.3 million configurations per second in style 0 on one core of
this machine, as measured for the project) is printed for comparison.

    .venv/bin/python scripts/bench_sliding.py [--runs 3] [--styles 0,1,2,3,4,5] [--jobs 1,2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from timing import add_knuth_option, run_knuth_option

from slidelab.library import load_shipped
from slidelab.runs import drive
from slidelab.sliding import reference
from slidelab.sliding.model import Puzzle
from slidelab.sliding.search import Analysis, analyze, warm_up
from slidelab.sliding.styles import MoveStyle
from slidelab.sliding.textformat import parse_puzzle, read_puzzle_file

HERE = Path(__file__).parent
SEED_RATE_STYLE0 = 0.3e6

ResultT = TypeVar("ResultT")


def timed(functions: list[Callable[[], ResultT]], runs: int) -> list[tuple[float, float, ResultT]]:
    """Median wall and CPU seconds (every thread) of `runs` calls of each function, taking
    turns so that all see the same load, and each one's last result."""
    walls: list[list[float]] = [[] for _ in functions]
    cpus: list[list[float]] = [[] for _ in functions]
    results: list[ResultT] = []
    for _ in range(runs):
        results = []
        for index, function in enumerate(functions):
            wall, cpu = time.perf_counter(), time.process_time()
            results.append(function())
            walls[index].append(time.perf_counter() - wall)
            cpus[index].append(time.process_time() - cpu)
    return [
        (statistics.median(w), statistics.median(c), r)
        for w, c, r in zip(walls, cpus, results, strict=True)
    ]


def on_threads(
    puzzle: Puzzle, style: MoveStyle, jobs: list[int], runs: int
) -> list[tuple[float, float, Analysis]]:
    """`analyze` on each number of threads; the results must not depend on it."""
    timings = timed([lambda j=j: drive(analyze(puzzle, style, jobs=j)) for j in jobs], runs)
    assert len({result for _, _, result in timings}) == 1, "thread counts disagree"
    return timings


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--styles", default="0,1,2,3,4,5")
    parser.add_argument("--jobs", default="1,2", help="thread counts to compare, the first 1")
    add_knuth_option(parser, tuple(f"sliding-s{style}" for style in range(6)))
    args = parser.parse_args()
    puzzle = read_puzzle_file(str(HERE / "data" / "bench_twelve.slide"))
    silly = load_shipped("sliding", "knuth-silly.slide", parse_puzzle)
    styles = [MoveStyle.from_number(int(s)) for s in args.styles.split(",")]
    jobs = [int(j) for j in args.jobs.split(",")]
    assert jobs[0] == 1, "--jobs must start with 1, the one-thread baseline"
    warm_up()
    print(f"load average before: {load()}")
    twelve = {style: on_threads(puzzle, style, jobs, args.runs) for style in styles}
    small = {style: on_threads(silly, style, jobs, args.runs) for style in styles}
    print(f"load average after: {load()}\n")

    print(
        f"puzzle: {puzzle.rows} x {puzzle.cols} {puzzle.title}; one thread; median of "
        f"{args.runs} runs"
    )
    print(
        "| style | configurations | wall s | configs/s (wall) | configs/s (CPU) | "
        "bytes/config | vs seed (0.3 M/s) |"
    )
    print("|---|---|---|---|---|---|---|")
    for style in styles:
        wall, cpu, result = twelve[style][0]
        rate = result.reachable / wall
        versus = f"{rate / SEED_RATE_STYLE0:.1f}x" if style == MoveStyle.STEP else ""
        print(
            f"| {style.number} | {result.reachable:,} | {wall:.2f} | {rate:,.0f} | "
            f"{result.reachable / cpu:,.0f} | {result.memory_bytes / result.reachable:.1f} | "
            f"{versus} |"
        )

    if len(jobs) > 1:
        print(
            f"\nThe same searches on {', '.join(map(str, jobs))} threads (--jobs); median of "
            f"{args.runs} runs, wall and CPU seconds (CPU counts every thread)"
        )
        heads = [f"jobs={j} wall s | jobs={j} CPU s" for j in jobs]
        speedups = [f"speed-up jobs={j}" for j in jobs[1:]]
        print(f"| puzzle | style | {' | '.join(heads)} | {' | '.join(speedups)} |")
        print("|---|---|" + "---|" * (3 * len(jobs) - 1))
        for name, timings in (("twelve", twelve), ("silly", small)):
            for style in styles:
                row = timings[style]
                cells = [f"{wall:.3f} | {cpu:.3f}" for wall, cpu, _ in row]
                ups = [f"{row[0][0] / wall:.2f}x" for wall, _, _ in row[1:]]
                print(f"| {name} | {style.number} | {' | '.join(cells)} | {' | '.join(ups)} |")

    print("\nKnuth's silly example, whole space: kernels (one thread) vs the pure-Python reference")
    print("| style | configurations | kernel s | reference s | speed-up |")
    print("|---|---|---|---|---|")
    for style in styles:
        fast, _, result = small[style][0]
        slow, _, layers = timed([lambda s=style: reference.reference_layers(silly, s)], 1)[0]
        assert tuple(layers) == result.layers, "kernel and reference disagree"
        print(
            f"| {style.number} | {result.reachable:,} | {fast:.4f} | {slow:.2f} | "
            f"{slow / fast:,.0f}x |"
        )

    run_knuth_option(args)


if __name__ == "__main__":
    main()

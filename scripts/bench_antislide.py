"""Seconds (CPU time, median of several runs) to count antisliding packings of boxes.

.venv/bin/python scripts/bench_antislide.py [--runs 3] [DIMS ...]   e.g. 4x4x4 4x5x5
"""

from __future__ import annotations

import argparse
import statistics
import time

from timing import add_knuth_option, run_knuth_option

from slidelab.antislide.model import Box
from slidelab.antislide.search import solve
from slidelab.runs import drive

BOXES = ("4x4x4", "4x4x5", "4x5x5")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("boxes", nargs="*", default=list(BOXES))
    parser.add_argument("--runs", type=int, default=3)
    add_knuth_option(parser, ("antislide-455", "antislide-555"))
    args = parser.parse_args()
    drive(solve(Box((4, 4, 4))))  # compile or load the kernel first (smaller boxes interpret it)
    print("| box | classes | nodes | seconds (median) | ns per node |")
    print("|---|---:|---:|---:|---:|")
    for name in args.boxes:
        dims = tuple(int(d) for d in name.split("x"))
        times = []
        for _ in range(args.runs):
            start = time.process_time()
            result = drive(solve(Box(dims)))  # type: ignore[arg-type]
            times.append(time.process_time() - start)
        seconds = statistics.median(times)
        print(
            f"| {name} | {result.solutions:,} | {result.nodes:,} | {seconds:.2f} "
            f"| {seconds / max(result.nodes, 1) * 1e9:.0f} |"
        )

    run_knuth_option(args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""slidelab's polycube packings against xcover, the fastest peer, on the same exact-cover problems.

Each library spec (resources/puzzles/polycube) becomes one exact-cover problem
(`slidelab.polycube.packing`); slidelab's engine and xcover count its solutions
(xcover gets the same options; a piece with multiplicity m becomes m numbered
copies for it, since xcover has no multiplicities, and its count is divided by
the copies' permutations).  CPU seconds, median of several runs, after a
warm-up; counts are checked.  `--distinct` also times slidelab's count up to
symmetry.  Prints a Markdown table; the ratio is xcover / slidelab (above 1 means
slidelab is faster).  Install the peer with `pip install xcover`.

    .venv/bin/python scripts/bench_polycube.py [--runs 3] [--skip SUBSTRING]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_seconds

from slidelab.exactcover.search import count_solutions, warm_up
from slidelab.library import load_shipped, shipped_names
from slidelab.polycube.packing import Packing, build_packing
from slidelab.polycube.spec import parse_spec
from slidelab.polycube.symmetry import count_distinct

try:
    import xcover
except ImportError:
    xcover = None


def xcover_counter(packing: Packing) -> Callable[[], int]:
    """xcover counting the same problem, copies of a repeated piece made distinct."""
    copies = {p.name: p.multiplicity for p in packing.spec.pieces}
    cells = [item for item in packing.problem.primary if item not in copies]
    primary = cells + [f"{n}#{k}" for n, m in copies.items() for k in range(m)]
    options = [
        [f"{p.piece}#{k}", *(item for item, _ in option[1:])]
        for p, option in zip(packing.placements, packing.problem.options, strict=True)
        for k in range(copies[p.piece])
    ]
    orderings = math.prod(math.factorial(m) for m in copies.values())
    return lambda: sum(1 for _ in xcover.covers(options, primary=primary)) // orderings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip", action="append", default=[], metavar="SUBSTRING")
    args = parser.parse_args()
    warm_up()
    print("| spec | options | solutions | slidelab s | xcover s | xcover / slidelab "
          "| distinct | slidelab --distinct s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for name in shipped_names("polycube"):
        if any(s in name for s in args.skip):
            continue
        packing = build_packing(load_shipped("polycube", name, parse_spec))
        ours, count = median_seconds(lambda p=packing: count_solutions(p.problem), args.runs)
        peer = ratio = "-"
        if xcover is not None:
            counter = xcover_counter(packing)
            counter()  # warm-up: numba compiles or loads its cache
            seconds, theirs = median_seconds(counter, args.runs)
            if theirs != count:
                raise SystemExit(f"{name}: xcover counts {theirs}, slidelab {count}")
            peer, ratio = f"{seconds:.3f}", f"{seconds / ours:.1f}x"
        started = time.process_time()
        distinct = count_distinct(packing).distinct
        broken = time.process_time() - started
        print(
            f"| {name} | {len(packing.placements):,} | {count:,} | {ours:.3f} | {peer} | {ratio} "
            f"| {distinct:,} | {broken:.3f} |"
        )


if __name__ == "__main__":
    main()

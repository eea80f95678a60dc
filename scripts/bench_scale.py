#!/usr/bin/env python3
"""Wall time of big counts on 1 and 2 local processes and on a 2-worker Dask LocalCluster.

Antislide 4x5x5, the solid pentominoes (pentacubes) in a 3x4x5 box and the seed's
toy shape cut from the 3x3 square into 5 pieces (dissection), each counted in
subproblems (`slidelab.parallel`) with --jobs 1, --jobs 2 and a LocalCluster of
two single-threaded worker processes, plus the plain one-process search for
reference.  Median wall seconds of several runs; speed-ups against --jobs 1.

    .venv/bin/python scripts/bench_scale.py [--runs 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_seconds

from slidelab.antislide.model import Box
from slidelab.antislide.search import solve as antislide
from slidelab.antislide.split import solve_split
from slidelab.dissection.model import Dissection, square_source
from slidelab.dissection.search import count_solutions
from slidelab.dissection.shape import parse_shape
from slidelab.dissection.split import solve_split as dissect_split
from slidelab.exactcover.search import solve
from slidelab.exactcover.split import search_split
from slidelab.library import load_shipped
from slidelab.polycube.packing import build_packing
from slidelab.polycube.spec import parse_spec
from slidelab.runs import drive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from distributed import LocalCluster

    box = Box((4, 5, 5))
    problem = build_packing(
        load_shipped("polycube", "solid-pentominoes-3x4x5.pcube", parse_spec)
    ).problem
    toy = load_shipped("dissection", "knuth-toy.dots", parse_shape)
    dissection = Dissection(square_source(toy), toy, 5)
    cases = {
        "antislide 4x5x5": (
            lambda: drive(antislide(box)).solutions,
            lambda **where: drive(solve_split(box, **where)).result.solutions,
        ),
        "pentacubes 3x4x5": (
            lambda: drive(solve(problem, count_only=True)).count,
            lambda **where: drive(search_split(problem, **where)).count,
        ),
        "dissection toy d=5": (
            lambda: count_solutions(dissection).count,
            lambda **where: drive(dissect_split(dissection, listing=False, **where)).result.count,
        ),
    }
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        drive(search_split(problem, scheduler=address))  # workers load the kernels
        print("| search | plain | --jobs 1 | --jobs 2 | LocalCluster 2 | speed-up 2 | cluster |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, (plain, split) in cases.items():
            base, count = median_seconds(plain, args.runs, time.perf_counter)
            one, c1 = median_seconds(lambda s=split: s(jobs=1), args.runs, time.perf_counter)
            two, c2 = median_seconds(lambda s=split: s(jobs=2), args.runs, time.perf_counter)
            dask, c3 = median_seconds(
                lambda s=split: s(scheduler=address), args.runs, time.perf_counter
            )
            assert count == c1 == c2 == c3, (count, c1, c2, c3)
            print(
                f"| {name} ({count:,}) | {base:.2f} | {one:.2f} | {two:.2f} | {dask:.2f} | "
                f"{one / two:.2f}x | {one / dask:.2f}x |",
                flush=True,
            )


if __name__ == "__main__":
    main()

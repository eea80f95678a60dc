#!/usr/bin/env python3
"""slidelab's square dissection on the seed's shapes: counting, and listing as the seed prints.

For each shape (resources/puzzles/dissection) and number of pieces d, times two runs:
counting the solutions (`slidelab dissect --count`), and listing them, every solution's
text written to /dev/null as `slidelab dissect D SHAPE > /dev/null` does (Knuth's program
always lists).  CPU seconds, median of several runs, after a warm-up that loads the
compiled kernels.  Prints a Markdown table, then runs Knuth's program side by side with
`slidelab dissect --count` on the issue 17 items (`timing.side_by_side`; --knuth none skips).

`--processes N` instead times one count of the toy shape with d = 5 in each of N fresh
processes, with the native solvers and with numba's kernels, and prints the spread: the same
machine code runs up to 15% faster or slower from one process or one native build to the next,
which one run cannot show.  `--copies N` copies the built extension N times over itself (the
same bytes, in new page-cache pages) and times two processes after each copy: which physical
pages hold the code, not its bytes or their alignment, decides whether a build is fast.

    .venv/bin/python scripts/bench_dissect.py [--runs 3] [--skip-listing] [--knuth ITEMS]
    .venv/bin/python scripts/bench_dissect.py --processes 10
    .venv/bin/python scripts/bench_dissect.py --copies 6
    .venv/bin/python scripts/bench_dissect.py --processes 5 --shape FILE.dots --pieces 4

`--shape` and `--pieces` choose the count that `--processes` and `--copies` time (default: the
shipped toy shape with d = 5).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import add_knuth_option, median_seconds, run_knuth_option

from slidelab import native
from slidelab.dissection.model import Dissection, square_source
from slidelab.dissection.search import SolutionsFound, count_solutions, solve
from slidelab.dissection.shape import parse_shape
from slidelab.dissection.text import Layout, batch_bytes
from slidelab.library import load_shipped
from slidelab.runs import drive

CASES = [
    ("knuth-toy.dots", (2, 3, 4, 5)),
    ("rectangle-2x8.dots", (2, 3, 4)),
    ("pythagoras-3-4-5.dots", (2, 3, 4)),
]
"""The seed's example (9 cells), a 16-cell and a 25-cell shape, and the pieces to try."""


def listed(problem: Dissection) -> int:
    """List every solution in the seed's text to /dev/null; returns how many there were."""
    layout = Layout.of(problem.source, problem.target)
    number = 1
    with open(os.devnull, "wb") as sink:

        def write(batch: SolutionsFound) -> None:
            nonlocal number
            sink.write(batch_bytes(number, batch, layout))
            number += len(batch)

        drive(solve(problem), on_found=write)
    return number - 1


SPREAD_PIECES = 5
"""The toy shape's d for `--processes`: Knuth's slowest count of it (issue 17's dissect-toy5)."""


@dataclass(frozen=True)
class Count:
    """The count that `--processes`, `--copies` and `--count-seconds` time."""

    shape: Path | None
    """A .dots file, or None for the shipped toy shape."""
    pieces: int

    @property
    def label(self) -> str:
        return f"{self.shape.stem if self.shape else 'toy'} d={self.pieces} count"

    def problem(self) -> Dissection:
        if self.shape is None:
            target = load_shipped("dissection", "knuth-toy.dots", parse_shape)
        else:
            target = parse_shape(self.shape.read_text(), str(self.shape))
        return Dissection(square_source(target), target, self.pieces)

    def options(self) -> list[str]:
        """The command-line options that name this count."""
        shape = ["--shape", str(self.shape)] if self.shape else []
        return [*shape, "--pieces", str(self.pieces)]


def count_seconds(count: Count) -> float:
    """CPU seconds of `count` in this process, after a small count that loads the kernels."""
    toy = load_shipped("dissection", "knuth-toy.dots", parse_shape)
    count_solutions(Dissection(square_source(toy), toy, 2))
    problem = count.problem()
    started = time.process_time()
    count_solutions(problem)
    return time.process_time() - started


def child_seconds(switch: str, count: Count) -> float:
    """`count_seconds` in a fresh process, with `SLIDELAB_NATIVE` set to `switch`."""
    return float(
        subprocess.run(
            [sys.executable, __file__, "--count-seconds", *count.options()],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "SLIDELAB_NATIVE": switch},
        ).stdout
    )


def spread(processes: int, count: Count) -> None:
    """Print the least, median and most CPU seconds of `count_seconds` over `processes` fresh
    processes, with the native solvers (`SLIDELAB_NATIVE=1`) and with numba's kernels."""
    for label, switch in (("native solvers", "1"), ("numba", "0")):
        seconds = [child_seconds(switch, count) for _ in range(processes)]
        print(
            f"{count.label}, {label}: min {min(seconds):.3f} s, median "
            f"{statistics.median(seconds):.3f} s, max {max(seconds):.3f} s ({processes} processes)",
            flush=True,
        )


def copies(copies: int, count: Count) -> None:
    """Copy the dissection extension over itself `copies` times (same bytes, new page-cache
    pages) and print the CPU seconds of `count_seconds` in two fresh processes after each."""
    module = "slidelab.dissection.kernels"
    found = [native.extension_path(f, module) for f in native.folders()]
    path = next((p for p in found if p.is_file()), None)
    if path is None:
        raise SystemExit("no native dissection solver: run python -m slidelab.kernels_warmup")
    for number in range(1, copies + 1):
        staged = path.with_name(path.name + ".copy")
        shutil.copy2(path, staged)
        os.replace(staged, path)
        seconds = " ".join(f"{child_seconds('1', count):.3f}" for _ in range(2))
        print(f"copy {number}: {count.label}, native solvers: {seconds} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-listing", action="store_true", help="time counting only")
    parser.add_argument(
        "--processes", type=int, help="time the toy d=5 count in this many fresh processes"
    )
    parser.add_argument(
        "--copies", type=int, help="time the toy d=5 count after this many copies of the solver"
    )
    parser.add_argument("--shape", type=Path, help="a .dots file for --processes and --copies")
    parser.add_argument(
        "--pieces", type=int, default=SPREAD_PIECES, help="d for --processes and --copies"
    )
    parser.add_argument("--count-seconds", action="store_true", help=argparse.SUPPRESS)
    add_knuth_option(parser, ("dissect-toy5", "dissect-oct16-4", "dissect-diamond25-4"))
    args = parser.parse_args()
    count = Count(args.shape, args.pieces)
    if args.count_seconds:
        print(count_seconds(count))
        return
    if args.processes:
        spread(args.processes, count)
        return
    if args.copies:
        copies(args.copies, count)
        return
    toy = load_shipped("dissection", "knuth-toy.dots", parse_shape)
    listed(Dissection(square_source(toy), toy, 2))  # warm-up: load the compiled kernels
    print("| shape | cells | d | legal shifts | solutions | count s | list s |")
    print("|---|---|---|---|---|---|---|")
    for name, pieces in CASES:
        target = load_shipped("dissection", name, parse_shape)
        for d in pieces:
            problem = Dissection(square_source(target), target, d)
            shifts = count_solutions(problem).shifts
            counting, count = median_seconds(lambda p=problem: count_solutions(p).count, args.runs)
            listing = "-"
            if not args.skip_listing:
                seconds, found = median_seconds(lambda p=problem: listed(p), args.runs)
                if found != count:
                    raise SystemExit(f"{name}, d={d}: listing finds {found}, counting {count}")
                listing = f"{seconds:.3f}"
            print(
                f"| {name.removesuffix('.dots')} | {len(target)} | {d} | {shifts} | {count:,} "
                f"| {counting:.3f} | {listing} |",
                flush=True,
            )

    run_knuth_option(args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How much two cores can give a search: the bound any two-thread or two-process design meets.

For each case it times whole `slidelab ... --jobs 1` processes three ways, alternating so all
see the same load: one alone, two at once (each on its own core, sharing the memory system),
and `--jobs 2`.  It also times a tiny run of the same command, the part of every process that
no second core can share (start-up: Python, numpy, slidelab, the solvers).  From these it
prints the ceiling of `--jobs 2` against `--jobs 1` on whole processes: start-up plus the
search's own time over two, stretched by what a second busy core costs one process (`two at
once` over `alone`), and the ratio measured.  A split run (dissection) pays more than this
start-up before its workers begin (its root probe, and forking them), so its ceiling is lower
still than the one printed.

Cases: `s0`..`s5`, the sliding analysis in that style of issue 17's side-by-side input
(Knuth's big 4x4 space, 1,796,256 configurations; scripts/data/bench_twelve.slide when the
shared folder is missing), and `toy4`, `toy5`, the toy dissection into 4 or 5 pieces, counted.

    .venv/bin/python scripts/bench_two_cores.py [--runs 5] [--cases s0,s1,s2,toy5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared" / "knuth-bench" / "data"
PUZZLES = HERE.parent / "resources" / "puzzles"
BIG = SHARED / "big4x4_exhaust.txt"
TOY = PUZZLES / "dissection" / "knuth-toy.dots"


@dataclass(frozen=True)
class Case:
    """A command to time (`--jobs` is added) and a tiny run of the same family."""

    name: str
    arguments: tuple[str, ...]
    tiny: tuple[str, ...]


def cases() -> dict[str, Case]:
    big = BIG if BIG.exists() else HERE / "data" / "bench_twelve.slide"
    tiny_slide = str(PUZZLES / "sliding" / "five-puzzle-2x3.slide")
    found = {
        f"s{style}": Case(
            f"sliding style {style} ({big.name})",
            ("slide", str(big), "--style", str(style), "--analyze", "--json"),
            ("slide", tiny_slide, "--style", str(style), "--analyze", "--json"),
        )
        for style in range(6)
    }
    for pieces in (4, 5):
        found[f"toy{pieces}"] = Case(
            f"toy dissection into {pieces} pieces",
            ("dissect", str(pieces), str(TOY), "--count", "--json"),
            ("dissect", "2", str(TOY), "--count", "--json"),
        )
    return found


def command(arguments: tuple[str, ...], jobs: int) -> list[str]:
    return [sys.executable, "-m", "slidelab", *arguments, "--jobs", str(jobs)]


def wall(*commands: list[str]) -> float:
    """Wall seconds until every one of `commands`, started together, has ended."""
    started = time.perf_counter()
    running = [subprocess.Popen(c, stdout=subprocess.DEVNULL) for c in commands]
    if any(p.wait() for p in running):
        raise SystemExit(f"failed: {' '.join(commands[0])}")
    return time.perf_counter() - started


def measure(case: Case, runs: int) -> str:
    """One line: the medians of `runs` rounds, the ratio and its ceiling."""
    start_up, alone, pair, two = [], [], [], []
    one_job = command(case.arguments, 1)
    for _ in range(runs):
        start_up.append(wall(command(case.tiny, 1)))
        alone.append(wall(one_job))
        pair.append(wall(one_job, one_job))
        two.append(wall(command(case.arguments, 2)))
    tiny, one, both, jobs2 = (statistics.median(t) for t in (start_up, alone, pair, two))
    search = one - tiny
    ceiling = one / (tiny + search / 2 * both / one)
    return (
        f"{case.name}: start-up {tiny:.3f} s, --jobs 1 {one:.3f} s, two at once {both:.3f} s "
        f"(+{100 * (both / one - 1):.0f}%), --jobs 2 {jobs2:.3f} s: "
        f"ratio {one / jobs2:.2f}, ceiling {ceiling:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cases", default="s0,s1,s2")
    args = parser.parse_args()
    known = cases()
    chosen = args.cases.split(",")
    unknown = [name for name in chosen if name not in known]
    if unknown:
        parser.error(f"no case {', '.join(unknown)}; the cases are {', '.join(known)}")
    print(f"load average {os.getloadavg()[0]:.2f} before", flush=True)
    for name in chosen:
        print(measure(known[name], args.runs), flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()

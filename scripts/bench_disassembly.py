#!/usr/bin/env python3
"""Speed of `slidelab polycube FILE --disassemble --distinct` on BurrTools' examples.

For each example: the whole process (median wall seconds and peak memory of `--runs`
runs), and in one process the two phases apart, median CPU seconds on one core: finding
the assemblies (the exact cover and one assembly per class) and taking them apart.
BurrTools itself cannot run here; its own figures for SolidSixPieceBurrs (issue 19, from a
2026 pull request to its repository: about 8.1 s for the assemblies and 0.34 s to take them
apart) are printed beside ours for reference, not measured in this run.

With `--jobs 1,2`, it measures taking apart in chunks instead (`--jobs N`): for
SolidSixPieceBurrs and the Soma cube spec, one assembly per class and every assembly of the
fixed result, the median wall seconds of taking the assemblies apart (found beforehand, in
this process) and of the whole process, on each number of processes, the runs interleaved.

    .venv/bin/python scripts/bench_disassembly.py [--runs 5] [--examples DIR] [--jobs 1,2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from timing import median_seconds

from slidelab.burrtools.assemblies import search_assemblies
from slidelab.burrtools.convert import puzzle_from_spec
from slidelab.burrtools.disassemblies import assembly_of
from slidelab.burrtools.model import Puzzle
from slidelab.burrtools.packing import BurrPacking, build_packing
from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.disassembly.model import Assembly
from slidelab.disassembly.search import disassemble
from slidelab.disassembly.split import disassemble_split
from slidelab.exactcover.search import SolutionsFound, solve
from slidelab.polycube.spec import parse_spec
from slidelab.runs import drive

EXAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "burrtools"
ITEMS = (
    "SolidSixPieceBurrs.xmpuzzle",
    "PelikanBurr.xmpuzzle",
    "DraculasDentalDesaster.xmpuzzle",
    "CubeInCage.xmpuzzle",
)
SOMA = Path(__file__).resolve().parents[1] / "resources" / "puzzles" / "polycube" / "soma.pcube"
BURRTOOLS_SOLID_SIX = (8.1, 0.34)
"""BurrTools' own seconds for SolidSixPieceBurrs: assemblies, taking them apart (issue 19)."""


def whole_process(path: Path, options: tuple[str, ...] = ("--distinct",)) -> tuple[float, int]:
    """Wall seconds and peak resident kilobytes of one `slidelab polycube --disassemble`
    process, measured by /usr/bin/time (a child's own getrusage would count the memory of this
    process, from which it was forked)."""
    command = [sys.executable, "-m", "slidelab", "polycube", str(path)]
    started = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *command, "--disassemble", *options],
        check=True,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    return wall, int(done.stderr.split()[-1])


def phases(path: Path, runs: int) -> tuple[float, float, int, int]:
    """Median CPU seconds of finding the assemblies and of taking them apart, with the
    number of assemblies and of those that come apart."""
    puzzle = read_xmpuzzle(path)
    assemblies_seconds, found = median_seconds(
        lambda: solutions_of(build_packing(puzzle, 0), distinct=True), runs
    )
    packing = build_packing(puzzle, 0)
    pieces = [assembly_of(packing, solution) for solution in found]
    apart_seconds, apart = median_seconds(
        lambda: sum(disassemble(assembly).separable for assembly in pieces), runs
    )
    return assemblies_seconds, apart_seconds, len(found), apart


def solutions_of(packing: BurrPacking, distinct: bool) -> list[tuple[int, ...]]:
    """The assemblies `--disassemble` takes apart, as option numbers: the first of each class,
    or every one."""
    found: list[tuple[int, ...]] = []

    def keep(batch: SolutionsFound) -> None:
        found.extend(batch.solutions)

    drive(
        search_assemblies(packing, listing=True) if distinct else solve(packing.exact_cover),
        on_found=keep,
    )
    return found


def assemblies_of(puzzle: Puzzle, distinct: bool) -> list[Assembly]:
    """The assemblies `--disassemble` takes apart, with their pieces."""
    packing = build_packing(puzzle, 0)
    return [assembly_of(packing, solution) for solution in solutions_of(packing, distinct)]


def split_table(examples: Path, runs: int, jobs: list[int]) -> None:
    """Taking apart on each number of processes: in this process (the assemblies found
    beforehand) and as a whole process, median wall seconds, runs interleaved."""
    items = [
        (examples / "SolidSixPieceBurrs.xmpuzzle", read_xmpuzzle),
        (
            SOMA,
            lambda path: puzzle_from_spec(
                parse_spec(path.read_text(), str(path)), "soma", str(path)
            ),
        ),
    ]
    print("| example | assemblies | jobs | take apart (wall) | chunks | whole process (wall) |")
    print("|---|---:|---:|---:|---:|---:|")
    for path, read in items:
        if not path.exists():
            print(f"{path.name}: not found; skipped")
            continue
        for distinct in (True, False):
            listed = assemblies_of(read(path), distinct)
            drive(disassemble_split(listed[:1]))  # the kernels loaded before the clock runs
            apart: dict[int, list[float]] = {n: [] for n in jobs}
            whole: dict[int, list[float]] = {n: [] for n in jobs}
            chunks: dict[int, int] = {}
            for _ in range(runs):
                for n in jobs:
                    started = time.perf_counter()
                    _, shared = drive(disassemble_split(listed, jobs=n))
                    apart[n].append(time.perf_counter() - started)
                    chunks[n] = shared.subproblems
                    options = ("--distinct",) * distinct + ("--jobs", str(n))
                    whole[n].append(whole_process(path, options)[0])
            kind = "distinct" if distinct else "fixed"
            for n in jobs:
                print(
                    f"| {path.stem} ({kind}) | {len(listed):,} | {n} "
                    f"| {statistics.median(apart[n]):.3f} s | {chunks[n]} "
                    f"| {statistics.median(whole[n]):.2f} s |"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--examples", type=Path, default=EXAMPLES)
    parser.add_argument(
        "--jobs",
        type=lambda text: [int(n) for n in text.split(",")],
        help="measure taking apart in chunks on these numbers of processes (e.g. 1,2)",
    )
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} (1 min), cores: {os.cpu_count()}")
    if args.jobs:
        split_table(args.examples, args.runs, args.jobs)
        print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")
        return
    print(
        "| example | assemblies | come apart | find (CPU) | take apart (CPU) "
        "| whole process (wall) | peak |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in ITEMS:
        path = args.examples / name
        if not path.exists():
            print(f"{name}: not found in {args.examples}; skipped")
            continue
        find, apart, assemblies, separable = phases(path, args.runs)
        runs = [whole_process(path) for _ in range(args.runs)]
        wall = statistics.median(r[0] for r in runs)
        peak = max(r[1] for r in runs)
        print(
            f"| {path.stem} | {assemblies:,} | {separable:,} | {find:.3f} s | {apart:.3f} s "
            f"| {wall:.2f} s | {peak / 1024:.0f} MiB |"
        )
    find_bt, apart_bt = BURRTOOLS_SOLID_SIX
    print(
        f"BurrTools' own figures for SolidSixPieceBurrs (not measured here): {find_bt} s to find "
        f"the assemblies, {apart_bt} s to take them apart"
    )


if __name__ == "__main__":
    main()

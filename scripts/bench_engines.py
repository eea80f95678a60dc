#!/usr/bin/env python3
"""Nodes a CPU second of each exact-cover engine, on problems on both sides of the engine rule.

The rule (`slidelab.exactcover.state.choose_engine`) picks bits, cells or dancing links from
the shape of a problem; this measures what it weighs.  Each engine counts each problem without
preprocessing (`solve(..., engine=E, preprocess=False)`) for at most `--seconds` of CPU time
or `--nodes` nodes, whichever comes first, and the script prints the nodes a CPU second in a
Markdown table, the engine the rule picks in bold.  The engines walk the same tree, so their
rates compare directly.  The bits engine reads narrow rows whole and wide ones through their
summaries (`state.BITS_WHOLE_ROW_WORDS`); the table names which.

    .venv/bin/python scripts/bench_engines.py [--seconds 1.5] [--nodes 2000000] [--only NAME]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from slidelab.exactcover.dlxformat import parse_problem
from slidelab.exactcover.problem import Problem
from slidelab.exactcover.search import SEARCH_PHASE, solve, warm_up
from slidelab.exactcover.state import BITS, CELLS, LINKS, SearchState, choose_engine
from slidelab.runs import Progress, drive
from tests.exactcover.problems import PENTOMINOES, SOMA_PIECES, packing, pentominoes, queens

BEDLAM = Path(__file__).resolve().parents[2] / "shared/knuth-bench/data/dlx/bedlam-Ffixed.dlx"

SOLID_PENTOMINOES = {name: [(r, c, 0) for r, c in cells] for name, cells in PENTOMINOES.items()}
"""The twelve pentominoes as flat solids, turned in 3D."""


def sudoku() -> Problem:
    """The empty 9 x 9 grid: a digit in each cell, each digit once in every row, column, box."""
    options = [
        [f"p{r}{c}", f"r{r}{d}", f"c{c}{d}", f"b{r // 3 * 3 + c // 3}{d}"]
        for r in range(9)
        for c in range(9)
        for d in range(1, 10)
    ]
    items = sorted({item for option in options for item in option})
    return Problem.of_sets(items, options)


def langford(n: int) -> Problem:
    """Langford pairs: the two copies of k in slots s and s + k + 1 of 2n slots."""
    options = [
        [f"v{k}", f"s{s}", f"s{s + k + 1}"] for k in range(1, n + 1) for s in range(2 * n - k - 1)
    ]
    return Problem.of_sets(
        [f"v{k}" for k in range(1, n + 1)] + [f"s{s}" for s in range(2 * n)], options
    )


PROBLEMS: dict[str, Callable[[], Problem]] = {
    "100 queens": lambda: queens(100),
    "70 queens": lambda: queens(70),
    "46 queens": lambda: queens(46),
    "13 queens": lambda: queens(13),
    "Sudoku (empty grid)": sudoku,
    "Langford pairs (n = 15)": lambda: langford(15),
    "Soma cube": lambda: packing(SOMA_PIECES, (3, 3, 3), three_d=True),
    "pentominoes 6x10": lambda: pentominoes(6, 10),
    "solid pentominoes 3x4x5": lambda: packing(SOLID_PENTOMINOES, (3, 4, 5), three_d=True),
    "Bedlam cube (one piece fixed)": lambda: parse_problem(BEDLAM.read_text(), str(BEDLAM)),
}


def nodes_per_second(problem: Problem, engine: str, seconds: float, nodes: int) -> float:
    """Nodes a CPU second of `engine` counting `problem`, from its first search chunk (its
    tables built) over the next `seconds` or `nodes`."""
    search = solve(problem, engine=engine, count_only=True, preprocess=False)
    first: tuple[float, int] | None = None
    now, explored = 0.0, 0
    try:
        for event in search:
            if not isinstance(event, Progress) or event.phase != SEARCH_PHASE:
                continue
            now, explored = time.process_time(), event.explored
            if first is None:
                first = now, explored
            elif explored - first[1] >= nodes or now - first[0] >= seconds:
                break
    finally:
        search.close()
    if first is None or now == first[0]:
        return float("nan")
    return (explored - first[1]) / (now - first[0])


def rows_read(problem: Problem) -> str:
    """How the bits engine reads this problem's rows."""
    state = drive(SearchState.start_steps(problem, engine=BITS))
    words = state.arrays.live.shape[1]
    return f"{'whole' if state.whole_rows else 'summaries'}, {words} words"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--nodes", type=int, default=2_000_000)
    parser.add_argument("--only", help="problem names separated by commas (default: all)")
    args = parser.parse_args()
    warm_up()
    names = args.only.split(",") if args.only else list(PROBLEMS)
    print("| problem | bits rows | links | cells | bits |")
    print("|---|---|---:|---:|---:|")
    for name in names:
        if name.startswith("Bedlam") and not BEDLAM.exists():
            print(f"| {name} | {BEDLAM} is not here | | | |")
            continue
        problem = PROBLEMS[name]()
        chosen = choose_engine(problem)
        cells = []
        for engine in (LINKS, CELLS, BITS):
            rate = f"{nodes_per_second(problem, engine, args.seconds, args.nodes) / 1e6:.2f} M"
            cells.append(f"**{rate}**" if engine == chosen else rate)
        print(f"| {name} | {rows_read(problem)} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()

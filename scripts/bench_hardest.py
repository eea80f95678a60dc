#!/usr/bin/env python3
"""Rate and memory of `slidelab slide --hardest`: placements per second and peak bytes.

Each item runs as a whole process on one core (`python -m slidelab slide FILE --hardest
--jobs 1 --json`), several times, and the script prints the median wall seconds, the placements per
second and the peak resident memory, with the bytes per placement of the largest
batch held at once (Klotski's pieces are one part: every placement at once).

    .venv/bin/python scripts/bench_hardest.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from slidelab.library import shipped_text
from slidelab.sliding.rushhour import parse_rush_hour
from slidelab.sliding.textformat import format_puzzle

RUSH_HOUR_FEW_CARS = "AA...O" + "....BO" + "CC..B." + "......" + "...DDD" + "......"
"""Five vehicles of Rush Hour on its 6 x 6 board: 2,510,856 placements in 4,536 parts."""

ITEMS = (
    ("klotski, style 2", "klotski", 2),
    ("century, style 1", "century", 1),
    ("rush hour, five vehicles, style 1", "rush-few", 1),
)


def puzzle_file(folder: Path, name: str) -> Path:
    path = folder / f"{name}.slide"
    text = (
        format_puzzle(parse_rush_hour(RUSH_HOUR_FEW_CARS, title="five vehicles"))
        if name == "rush-few"
        else shipped_text("sliding", f"{name}.slide")
    )
    path.write_text(text)
    return path


def run_once(path: Path, style: int) -> tuple[float, int, dict[str, object]]:
    """Wall seconds, peak resident kilobytes and the JSON result of one whole process."""
    code = (
        "import json, resource, sys\n"
        "from slidelab.cli import main\n"
        f"status = main(['slide', {str(path)!r}, '--style', '{style}', '--hardest', '--jobs', '1', "
        "'--json'])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    )
    wall = time.perf_counter() - started
    return wall, int(done.stderr.split()[-1]), json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} (1 min), cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as folder:
        for title, name, style in ITEMS:
            path = puzzle_file(Path(folder), name)
            runs = [run_once(path, style) for _ in range(args.runs)]
            wall = statistics.median(r[0] for r in runs)
            peak_kib = statistics.median(r[1] for r in runs)
            result = runs[-1][2]
            placements = int(str(result["placements"]))
            print(
                f"{title}: {placements:,} placements, {result['components']:,} components, "
                f"hardest {result['hardest_distance']} ({result['hardest_count']:,}); "
                f"{wall:.2f} s median wall, {placements / wall:,.0f} placements/s, "
                f"peak {peak_kib / 1024:.0f} MiB"
            )


if __name__ == "__main__":
    main()

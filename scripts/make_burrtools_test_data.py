#!/usr/bin/env python3
"""Write slidelab's own BurrTools test files (tests/burrtools/made.py) to tests/data/burrtools.

The output is deterministic (the writer stores no time stamp), and a test checks
that the files in the repository are what this script writes.

    .venv/bin/python scripts/make_burrtools_test_data.py [FOLDER]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from slidelab.burrtools.writer import write_xmpuzzle
from tests.burrtools.made import DATA, MADE


def main(argv: list[str] | None = None) -> None:
    """Write every made puzzle to FOLDER (tests/data/burrtools), replacing the files there."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DATA)
    folder: Path = parser.parse_args(argv).folder
    folder.mkdir(parents=True, exist_ok=True)
    for name, build in MADE.items():
        write_xmpuzzle(folder / name, build())
        print(folder / name)


if __name__ == "__main__":
    main()

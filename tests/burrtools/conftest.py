"""Shared helpers: BurrTools' example files (read in place, never copied) and small puzzles."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from slidelab.burrtools.model import Puzzle
from slidelab.burrtools.reader import parse_xmpuzzle


def _examples_folder() -> Path:
    """Where BurrTools' examples are: $SLIDELAB_BURRTOOLS_EXAMPLES, else the first
    `shared/burrtools` beside the repository or beside one of the folders above it."""
    given = os.environ.get("SLIDELAB_BURRTOOLS_EXAMPLES")
    if given:
        return Path(given)
    repository = Path(__file__).resolve().parents[2]
    for folder in repository.parents:
        if (folder / "shared" / "burrtools").is_dir():
            return folder / "shared" / "burrtools"
    return repository.parent / "shared" / "burrtools"


EXAMPLES = _examples_folder()
"""The examples distributed with BurrTools (read in place, never copied)."""


@pytest.fixture
def examples() -> Path:
    """The examples folder; tests that need it are skipped when it is absent."""
    if not EXAMPLES.is_dir():
        pytest.skip(f"BurrTools examples not found at {EXAMPLES}")
    return EXAMPLES


def xml(shapes: str, problems: str = "", colours: str = "", grid: int = 0) -> bytes:
    """A small gzip-compressed .xmpuzzle around the given <shapes>, <problems> and <colors>."""
    text = (
        f'<?xml version="1.0"?>\n<puzzle version="2"><gridType type="{grid}"/>'
        f"<colors>{colours}</colors><shapes>{shapes}</shapes><problems>{problems}</problems>"
        "<comment/></puzzle>"
    )
    return gzip.compress(text.encode())


def puzzle(shapes: str, problems: str = "", colours: str = "") -> Puzzle:
    return parse_xmpuzzle(xml(shapes, problems, colours), "t.xmpuzzle")

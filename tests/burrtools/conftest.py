"""Shared helpers: BurrTools' example files (read in place, never copied) and small puzzles."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from slidelab.burrtools.model import Puzzle
from slidelab.burrtools.reader import parse_xmpuzzle

EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "burrtools"
"""The examples distributed with BurrTools, next to the repository (../shared/burrtools)."""


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

"""The library module finds the shipped puzzles through importlib.resources."""

from __future__ import annotations

from slidelab.library import load_shipped, shipped_names
from slidelab.sliding.textformat import parse_puzzle
from tests.sliding.figures import SILLY


def test_library_lists_slide_files_and_loads_them_by_name():
    names = shipped_names("sliding")
    assert "knuth-silly.slide" in names
    assert all(name.endswith(".slide") for name in names)
    silly = load_shipped("sliding", "knuth-silly.slide", parse_puzzle)
    reference = parse_puzzle(SILLY)
    assert (silly.rows, silly.cols, silly.kinds, silly.start, silly.goal) == (
        reference.rows,
        reference.cols,
        reference.kinds,
        reference.start,
        reference.goal,
    )

"""The classic puzzles shipped in resources/puzzles/sliding, read through importlib.resources."""

from __future__ import annotations

from importlib.resources import files

from slidelab.sliding.model import Puzzle
from slidelab.sliding.textformat import parse_puzzle

SUFFIX = ".slide"


def library_names() -> list[str]:
    """File names of the library puzzles, sorted."""
    folder = files("slidelab.resources").joinpath("puzzles", "sliding")
    return sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(SUFFIX))


def library_text(name: str) -> str:
    """The text of one library puzzle, by file name."""
    return files("slidelab.resources").joinpath("puzzles", "sliding", name).read_text("utf-8")


def load_library_puzzle(name: str) -> Puzzle:
    """One library puzzle, parsed; errors name the library file."""
    return parse_puzzle(library_text(name), source=f"library:{name}")

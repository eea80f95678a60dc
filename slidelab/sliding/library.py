"""The classic sliding-block puzzles shipped in resources/puzzles/sliding."""

from __future__ import annotations

from slidelab.library import shipped_names, shipped_text
from slidelab.sliding.model import Puzzle
from slidelab.sliding.textformat import parse_puzzle


def library_names() -> list[str]:
    """File names of the library puzzles, sorted."""
    return shipped_names("sliding", ".slide")


def library_text(name: str) -> str:
    """The text of one library puzzle, by file name."""
    return shipped_text("sliding", name)


def load_library_puzzle(name: str) -> Puzzle:
    """One library puzzle, parsed; errors name the library file."""
    return parse_puzzle(library_text(name), source=f"library:{name}")

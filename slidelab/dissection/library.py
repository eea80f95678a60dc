"""The target shapes shipped in resources/puzzles/dissection."""

from __future__ import annotations

from slidelab.dissection.shape import Shape, parse_shape
from slidelab.library import shipped_names, shipped_text


def library_names() -> list[str]:
    """File names of the library shapes, sorted."""
    return shipped_names("dissection", ".dots")


def library_text(name: str) -> str:
    """The text of one library shape, by file name."""
    return shipped_text("dissection", name)


def load_library_shape(name: str) -> Shape:
    """One library shape, parsed; errors name the library file."""
    return parse_shape(library_text(name), source=f"library:{name}")

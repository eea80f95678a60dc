"""The classic polycube sets shipped in resources/puzzles/polycube."""

from __future__ import annotations

from slidelab.library import shipped_names, shipped_text
from slidelab.polycube.spec import Spec, parse_spec


def library_names() -> list[str]:
    """File names of the library specs, sorted."""
    return shipped_names("polycube", ".pcube")


def library_text(name: str) -> str:
    """The text of one library spec, by file name."""
    return shipped_text("polycube", name)


def load_library_spec(name: str) -> Spec:
    """One library spec, parsed; errors name the library file."""
    return parse_spec(library_text(name), source=f"library:{name}")

"""The classic polycube sets shipped in resources/puzzles/polycube (via importlib.resources)."""

from __future__ import annotations

from importlib.resources import files

from slidelab.polycube.spec import Spec, parse_spec

SUFFIX = ".pcube"


def library_names() -> list[str]:
    """File names of the library specs, sorted."""
    folder = files("slidelab.resources").joinpath("puzzles", "polycube")
    return sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(SUFFIX))


def library_text(name: str) -> str:
    """The text of one library spec, by file name."""
    return files("slidelab.resources").joinpath("puzzles", "polycube", name).read_text("utf-8")


def load_library_spec(name: str) -> Spec:
    """One library spec, parsed; errors name the library file."""
    return parse_spec(library_text(name), source=f"library:{name}")

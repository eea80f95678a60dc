"""The puzzle libraries shipped in resources/puzzles/<family>, read through importlib.resources."""

from __future__ import annotations

from importlib.resources import files


def shipped_names(family: str, suffix: str) -> list[str]:
    """File names ending in `suffix` in the `family` library, sorted."""
    folder = files("slidelab.resources").joinpath("puzzles", family)
    return sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(suffix))


def shipped_text(family: str, name: str) -> str:
    """The text of one library file."""
    return files("slidelab.resources").joinpath("puzzles", family, name).read_text("utf-8")

"""The puzzle libraries shipped in resources/puzzles/<folder>, one loader for every family.

Each family names its folder and file suffix (`Family.library`); the workbenches' Puzzles
menus, the tests and the benchmark scripts read the shipped files through here.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TypeVar

from slidelab import registry
from slidelab.errors import SlidelabError
from slidelab.family import Library

ParsedT = TypeVar("ParsedT")


class NoLibraryError(SlidelabError):
    """A family that ships no puzzles was asked for one."""


def shipped_names(family: str) -> list[str]:
    """File names of the puzzles `family` ships, sorted."""
    library = _library(family)
    return sorted(
        entry.name for entry in _folder(library).iterdir() if entry.name.endswith(library.suffix)
    )


def shipped_text(family: str, name: str) -> str:
    """The text of one shipped puzzle of `family`, by file name."""
    return _folder(_library(family)).joinpath(name).read_text("utf-8")


def load_shipped(family: str, name: str, parse: Callable[[str, str], ParsedT]) -> ParsedT:
    """One shipped puzzle parsed by `parse(text, source)`; errors name the library file."""
    return parse(shipped_text(family, name), f"library:{name}")


def _library(family: str) -> Library:
    library = registry.family_named(family).library
    if library is None:
        raise NoLibraryError(f"the {family} family ships no puzzles")
    return library


def _folder(library: Library) -> Traversable:
    return files("slidelab.resources").joinpath("puzzles", library.folder)

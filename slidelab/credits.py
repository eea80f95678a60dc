"""The libraries slidelab runs on, with the version installed and its licence, for About."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata

LIBRARIES = ("PySide6-Essentials", "numpy", "numba", "llvmlite", "pyqtgraph", "PyOpenGL")
"""The distributions slidelab depends on (pyproject.toml), in the order About lists them."""


@dataclass(frozen=True)
class Credit:
    """One library: its name, the version installed and its licence."""

    name: str
    version: str
    licence: str


def credit(name: str) -> Credit:
    """The installed distribution `name`'s version and licence ("not installed" when absent;
    "see its documentation" when its metadata names no licence)."""
    try:
        info = metadata.metadata(name)
    except metadata.PackageNotFoundError:
        return Credit(name, "not installed", "")
    licence = _first(info, "License-Expression") or _short(_first(info, "License"))
    if not licence:
        classifiers = [c for c in _all(info, "Classifier") if c.startswith("License ::")]
        licence = classifiers[0].rsplit(" :: ", 1)[-1] if classifiers else "see its documentation"
    return Credit(name, info["Version"], licence)


def credits() -> list[Credit]:
    """Every library of `LIBRARIES`."""
    return [credit(name) for name in LIBRARIES]


def _all(info: metadata.PackageMetadata, field: str) -> list[str]:
    return [str(value) for value in info.get_all(field) or []]


def _first(info: metadata.PackageMetadata, field: str) -> str:
    values = _all(info, field)
    return values[0] if values else ""


def _short(licence: str) -> str:
    """A licence field's first line (some packages put the whole licence text there)."""
    first = licence.strip().splitlines()[0] if licence.strip() else ""
    return first if len(first) <= 80 else ""

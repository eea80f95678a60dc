"""What a puzzle family tells the rest of slidelab about itself, as one value.

Each family package defines its `FAMILY` in its own `family.py`, and `slidelab.registry`
lists them: the command line, format detection, the shipped library and the app's kernel
warm-up loop over that list instead of naming families.  A `family.py` imports only light
modules; its callables import the family's command, search and kernel modules when called,
so that starting one subcommand does not load every family's kernels.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any, TypeAlias

SubParsers: TypeAlias = "argparse._SubParsersAction[Any]"
"""The `add_subparsers` result the families register their command lines on."""


def lazily(module: str, function: str) -> Callable[..., Any]:
    """`module.function`, imported at its first call: a family's description names its command
    line, warm-up and detection without loading their modules (and kernels) at start-up."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(import_module(module), function)(*args, **kwargs)

    return call


@dataclass(frozen=True)
class Library:
    """Where a family's shipped puzzles are: `resources/puzzles/<folder>/*<suffix>`."""

    folder: str
    suffix: str


@dataclass(frozen=True)
class TextSignature:
    """How a family recognises its files by their text when the extension says nothing."""

    matches: Callable[[str], bool]
    """Whether a file's text is one of this family's files."""
    rank: int
    """Signatures are tried from the lowest rank up: the most specific formats come first."""
    expected: str
    """What the family's text looks like, for the "not a puzzle file" message."""


@dataclass(frozen=True)
class Family:
    """One puzzle family: its name and everything the shared layers do with it."""

    name: str
    """The key other layers use ("sliding"): workbenches, library folders, detection results."""
    title: str
    """Human name ("Sliding blocks")."""
    subcommand: str | None = None
    """The `slidelab` subcommand whose command line this family takes part in."""
    register_cli: Callable[[SubParsers], None] | None = None
    """Add (or extend) the family's subcommand parser; registered in registry order."""
    extensions: tuple[str, ...] = ()
    """File extensions (lower case, with the dot) that mean this family."""
    recognises_file: Callable[[str], bool] | None = None
    """Whether the file at a path is this family's, decided from the file itself before any
    extension is looked at (binary formats such as gzip data)."""
    signature: TextSignature | None = None
    """Recognition by content, for files whose extension no family claims."""
    library: Library | None = None
    """The family's shipped puzzles, if it has any."""
    warm_up: tuple[Callable[[], None], ...] = ()
    """The steps that compile (or load from numba's cache) the family's kernels on tiny inputs,
    each a few kernels, so that the app can count them (`slidelab.kernels_warmup`)."""
    kernels_from: tuple[str, ...] = ()
    """Other families whose kernels this family's runs call (polycube runs exact cover): a run
    started while kernels compile has them compiled first."""
    kernels: str | None = None
    """The module holding the family's kernels, which `slidelab.native_build` compiles ahead
    of time once the warm-up has compiled them for their argument types."""

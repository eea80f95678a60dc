"""Every puzzle family slidelab knows, one line each, and the lookups over them.

The order is the command line's: `slidelab --help` lists the subcommands in it, and a
family that extends another's subcommand (BurrTools extends `polycube`) comes after it.
Adding a family is a new package with a `family.py` and one line here (and one in
`slidelab.gui.workbenches` when it has a tab).
"""

from __future__ import annotations

from pathlib import Path

from slidelab.antislide.family import FAMILY as ANTISLIDE
from slidelab.burrtools.family import FAMILY as BURRTOOLS
from slidelab.disassembly.family import FAMILY as DISASSEMBLY
from slidelab.dissection.family import FAMILY as DISSECTION
from slidelab.errors import SlidelabError
from slidelab.exactcover.family import FAMILY as EXACT_COVER
from slidelab.family import Family
from slidelab.polycube.family import FAMILY as POLYCUBE
from slidelab.sliding.family import FAMILY as SLIDING

FAMILIES: tuple[Family, ...] = (
    SLIDING,
    EXACT_COVER,
    ANTISLIDE,
    POLYCUBE,
    DISSECTION,
    DISASSEMBLY,
    BURRTOOLS,
)

DESCRIPTION = "Explore sliding-block, antislide, polycube and dissection puzzles."
"""What the `slidelab` command is for, as `--help` says it."""


class UnknownFamilyError(SlidelabError, KeyError):
    """A family name no registered family has."""


def family_named(name: str) -> Family:
    """The registered family called `name`."""
    for family in FAMILIES:
        if family.name == name:
            return family
    raise UnknownFamilyError(f"no puzzle family {name!r}")


def subcommands() -> list[str]:
    """The `slidelab` subcommands, in `--help` order, each once."""
    return list(dict.fromkeys(f.subcommand for f in FAMILIES if f.subcommand is not None))


def family_of_extension(path: str) -> Family | None:
    """The family whose extension `path` has, if any."""
    suffix = Path(path).suffix.lower()
    return next((f for f in FAMILIES if suffix in f.extensions), None)

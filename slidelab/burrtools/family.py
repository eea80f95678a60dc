"""The BurrTools family as the registry sees it: `.xmpuzzle` files, solved by `slidelab polycube`.

A BurrTools file is recognised by its extension or, whatever its name, by the gzip stream
inside; that one decision (`reader.is_xmpuzzle`) routes the file in format detection, on
the command line and in the polycube workbench.
"""

from __future__ import annotations

from slidelab.exactcover.family import EXACT_COVER
from slidelab.family import Family, SubParsers
from slidelab.polycube.family import SUBCOMMAND

BURRTOOLS = "burrtools"


def _register(subcommands: SubParsers) -> None:
    from slidelab.burrtools import command

    command.extend_polycube(subcommands)


def _recognises(path: str) -> bool:
    from slidelab.burrtools.reader import is_xmpuzzle

    return is_xmpuzzle(path)


FAMILY = Family(
    name=BURRTOOLS,
    title="BurrTools",
    subcommand=SUBCOMMAND,
    register_cli=_register,
    extensions=(".xmpuzzle",),
    recognises_file=_recognises,
    kernels_from=(EXACT_COVER,),
)

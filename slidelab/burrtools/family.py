"""The BurrTools family as the registry sees it: `.xmpuzzle` files, solved by `slidelab polycube`.

A BurrTools file is recognised by its extension or, whatever its name, by the gzip stream
inside; that one decision (`reader.is_xmpuzzle`) routes the file in format detection, on
the command line and in the polycube workbench.
"""

from __future__ import annotations

from slidelab.disassembly.family import DISASSEMBLY
from slidelab.exactcover.family import EXACT_COVER
from slidelab.family import Family, lazily
from slidelab.polycube.family import SUBCOMMAND

BURRTOOLS = "burrtools"


FAMILY = Family(
    name=BURRTOOLS,
    title="BurrTools",
    subcommand=SUBCOMMAND,
    register_cli=lazily("slidelab.burrtools.command", "extend_polycube"),
    extensions=(".xmpuzzle",),
    recognises_file=lazily("slidelab.burrtools.reader", "is_xmpuzzle"),
    kernels_from=(EXACT_COVER, DISASSEMBLY),
)

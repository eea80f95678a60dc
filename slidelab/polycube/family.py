"""The polycube family as the registry sees it: `slidelab polycube`, `.pcube` specs."""

from __future__ import annotations

import re

from slidelab.exactcover.family import EXACT_COVER
from slidelab.family import Family, Library, TextSignature, lazily

POLYCUBE = "polycube"
SUBCOMMAND = "polycube"
"""`slidelab polycube`, which BurrTools files go through too."""

_COORDINATE = r"(?:\[[0-9a-zA-Z\-]+\]|[0-9a-zA-Z])"
_BOX_LINE = re.compile(rf"\s*{_COORDINATE}{{3}}(?:\s+{_COORDINATE}{{3}})*\s*$")


def _matches(text: str) -> bool:
    """Knuth's spec: the first line that is neither blank nor a '|' title lists the box's cells."""
    lines = (line for line in text.splitlines() if line.strip())
    first = next((line for line in lines if not line.startswith("|")), "")
    return bool(_BOX_LINE.match(first))


FAMILY = Family(
    name=POLYCUBE,
    title="Polycube",
    subcommand=SUBCOMMAND,
    register_cli=lazily("slidelab.polycube.command", "register"),
    extensions=(".pcube",),
    signature=TextSignature(
        _matches,
        rank=40,
        expected="a polycube spec, whose first line lists the box's cells like '[0-2][0-2][0-2]'",
    ),
    library=Library(POLYCUBE, ".pcube"),
    kernels_from=(EXACT_COVER,),
)

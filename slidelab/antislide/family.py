"""The antislide family as the registry sees it: `slidelab antislide`, `.antislide` packings."""

from __future__ import annotations

import re

from slidelab.family import Family, Library, TextSignature, lazily

ANTISLIDE = "antislide"

_BRICK_LINE = re.compile(r"^\s*#\s*brick\s+\d+\s*x\s*\d+\s*x\s*\d+\s*$", re.MULTILINE)


def _warm_up() -> None:
    """One search of a 4 x 4 x 4 box compiles the search kernel (smaller boxes run it in the
    interpreter) for every box of up to 128 cells with the default brick, 5 x 5 x 5 among
    them: the kernel is given at least as many words and planes as theirs."""
    from slidelab.antislide.model import Box
    from slidelab.antislide.search import solve

    for _ in solve(Box((4, 4, 4)), keep=True):
        pass


def _matches(text: str) -> bool:
    """A packing in layer notation carries a '# brick AxBxC' line."""
    return bool(_BRICK_LINE.search(text))


FAMILY = Family(
    name=ANTISLIDE,
    title="Antislide",
    subcommand="antislide",
    register_cli=lazily("slidelab.antislide.command", "register"),
    extensions=(".antislide",),
    signature=TextSignature(
        _matches, rank=10, expected="an antislide packing with a '# brick AxBxC' line"
    ),
    library=Library(ANTISLIDE, ".antislide"),
    kernels="slidelab.antislide.kernels",
    warm_up=(_warm_up,),
)

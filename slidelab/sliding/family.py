"""The sliding-block family as the registry sees it: `slidelab slide`, `.slide` files."""

from __future__ import annotations

import re
from functools import partial

from slidelab.family import Family, Library, TextSignature, lazily

SLIDING = "sliding"

STYLES = 6
"""Knuth's six move styles, each warmed up in its own step (`MoveStyle.ALL` has them)."""

_SIZE_LINE = re.compile(r"\s*\d+\s*x\s*\d+")


def _warm_up_style(number: int) -> None:
    from slidelab.sliding.search import warm_up_style
    from slidelab.sliding.styles import MoveStyle

    warm_up_style(MoveStyle.from_number(number))


def _matches(text: str) -> bool:
    """Knuth's format: the first line that is neither blank nor a comment is 'ROWS x COLUMNS'."""
    lines = (line for line in text.splitlines() if line.strip())
    first = next((line for line in lines if not line.lstrip().startswith("#")), "")
    return bool(_SIZE_LINE.match(first))


FAMILY = Family(
    name=SLIDING,
    title="Sliding blocks",
    subcommand="slide",
    register_cli=lazily("slidelab.sliding.command", "register"),
    extensions=(".slide",),
    signature=TextSignature(
        _matches, rank=30, expected="a sliding-block puzzle, whose first line is 'ROWS x COLUMNS'"
    ),
    library=Library(SLIDING, ".slide"),
    kernels="slidelab.sliding.kernels",
    warm_up=(
        lazily("slidelab.sliding.search", "warm_up_tables"),
        *(partial(_warm_up_style, n) for n in range(STYLES)),
        lazily("slidelab.sliding.hardest", "warm_up"),
    ),
)

"""Which puzzle family a file belongs to, from its extension or, failing that, its content."""

from __future__ import annotations

import re
from pathlib import Path

from slidelab.errors import SlidelabError

SLIDING = "sliding"

EXTENSIONS = {".slide": SLIDING}
"""File extensions each family claims; later families add theirs."""

_SLIDING_SIZE_LINE = re.compile(r"\s*\d+\s*x\s*\d+")


class UnknownFormatError(SlidelabError):
    """A file no workbench recognises."""


def detect_family(path: str, text: str) -> str:
    """The family of the puzzle in `path`: by extension when it has a known one, else by content."""
    family = EXTENSIONS.get(Path(path).suffix.lower())
    if family:
        return family
    first = next(
        (line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")),
        "",
    )
    if _SLIDING_SIZE_LINE.match(first):
        return SLIDING
    raise UnknownFormatError(
        f"{path}: not a puzzle file slidelab knows (expected a sliding-block puzzle: a first "
        "line 'ROWS x COLUMNS')"
    )

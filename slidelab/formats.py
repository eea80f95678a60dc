"""Which puzzle family a file belongs to, from its extension or, failing that, its content."""

from __future__ import annotations

import re
from pathlib import Path

from slidelab.burrtools.reader import is_xmpuzzle
from slidelab.errors import SlidelabError
from slidelab.fileio import read_text

SLIDING = "sliding"
POLYCUBE = "polycube"
ANTISLIDE = "antislide"
DISSECTION = "dissection"

EXTENSIONS = {
    ".slide": SLIDING,
    ".pcube": POLYCUBE,
    ".xmpuzzle": POLYCUBE,
    ".antislide": ANTISLIDE,
    ".dots": DISSECTION,
}
"""File extensions each family claims; later families add theirs."""

_SLIDING_SIZE_LINE = re.compile(r"\s*\d+\s*x\s*\d+")
_BRICK_LINE = re.compile(r"^\s*#\s*brick\s+\d+\s*x\s*\d+\s*x\s*\d+\s*$", re.MULTILINE)
_COORDINATE = r"(?:\[[0-9a-zA-Z\-]+\]|[0-9a-zA-Z])"
_POLYCUBE_BOX_LINE = re.compile(rf"\s*{_COORDINATE}{{3}}(?:\s+{_COORDINATE}{{3}})*\s*$")


class UnknownFormatError(SlidelabError):
    """A file no workbench recognises."""


def family_of_file(path: str) -> str:
    """The family of the puzzle file at `path` (BurrTools files are gzip data, read as such)."""
    if is_xmpuzzle(path):
        return POLYCUBE
    return detect_family(path, read_text(path))


def detect_family(path: str, text: str) -> str:
    """The family of the puzzle in `path`: by extension when it has a known one, else by content."""
    family = EXTENSIONS.get(Path(path).suffix.lower())
    if family:
        return family
    if _BRICK_LINE.search(text):
        return ANTISLIDE
    lines = [line for line in text.splitlines() if line.strip()]
    if lines and all(set(line.rstrip()) <= set(".*") for line in lines) and "*" in text:
        return DISSECTION
    first = next((line for line in lines if not line.lstrip().startswith("#")), "")
    if _SLIDING_SIZE_LINE.match(first):
        return SLIDING
    first = next((line for line in lines if not line.startswith("|")), "")
    if _POLYCUBE_BOX_LINE.match(first):
        return POLYCUBE
    raise UnknownFormatError(
        f"{path}: not a puzzle file slidelab knows (expected a sliding-block puzzle, whose first "
        "line is 'ROWS x COLUMNS'; a polycube spec, whose first line lists the box's cells "
        "like '[0-2][0-2][0-2]'; an antislide packing with a '# brick AxBxC' line; or a "
        "dissection shape drawn with '.' and '*')"
    )

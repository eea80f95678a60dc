"""A packing as a file: the layer notation with the brick's size in a comment.

    # 3x3x3: Knuth's one antisliding class with 6 blocks
    # brick 2x2x1
    1 1 .  5 4 4  5 4 4
    ...

The first comment, when it is not the brick line, is the title (the Puzzles menu
shows it).  Without a brick line the brick is 2x2x1, as in Knuth's programs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from slidelab.antislide.layers import LABELS, format_packing, parse_packing
from slidelab.antislide.model import DEFAULT_BRICK, Box, Placement
from slidelab.errors import ParseError
from slidelab.integers import DIGITS, INT32_MAX, whole_number

BRICK_LINE = re.compile(rf"\s*#\s*brick\s+({DIGITS})\s*x\s*({DIGITS})\s*x\s*({DIGITS})\s*$")


@dataclass(frozen=True)
class PackingDocument:
    """One packing of one box, as the antislide workbench shows and saves it."""

    box: Box
    brick: tuple[int, int, int]
    bricks: tuple[Placement, ...]
    title: str = ""


def format_document(document: PackingDocument) -> str:
    title = f"# {document.title}\n" if document.title else ""
    brick = "x".join(map(str, document.brick))
    return f"{title}# brick {brick}\n{format_packing(document.box, document.bricks)}\n"


def parse_document(text: str, source: str = "<string>") -> PackingDocument:
    """Read a packing file; errors are `ParseError`s naming the line and column."""
    lines = text.splitlines()
    title = ""
    if lines and lines[0].strip().startswith("#") and not BRICK_LINE.match(lines[0]):
        title = lines[0].strip().lstrip("#").strip()
    brick = declared_brick(text, source) or DEFAULT_BRICK
    box, bricks = parse_packing(text, brick, source)
    ordered = sorted(bricks, key=_label_rank)  # so brick n keeps its label when labels are 1..N
    return PackingDocument(box, brick, tuple(bricks[k] for k in ordered), title)


def declared_brick(text: str, source: str = "<string>") -> tuple[int, int, int] | None:
    """The brick's size on the file's brick line (among the comments it begins with), if any."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip().startswith("#"):
            break
        found = BRICK_LINE.match(line)
        if found:
            return _brick(found, source, number)
    return None


def _brick(found: re.Match[str], source: str, number: int) -> tuple[int, int, int]:
    """The brick's sizes on a brick line, each checked to be positive and to fit the engine."""
    sizes = []
    for group in range(1, 4):
        size = whole_number(found.group(group), INT32_MAX)
        if not size:
            reason = "positive" if size == 0 else f"at most {INT32_MAX}"
            raise ParseError(
                source, number, found.start(group) + 1, f"brick sizes must be {reason}"
            )
        sizes.append(size)
    return sizes[0], sizes[1], sizes[2]


def _label_rank(token: str) -> tuple[int, int, str]:
    """Knuth's label order (1-9, A-Z, a-z, then numbers: `parse_packing` takes no other).

    Numbers (ASCII digits) are ordered by value without converting them: by length, then
    text."""
    if token in LABELS:
        return LABELS.index(token), 0, ""
    number = token.lstrip("0")
    return len(LABELS), len(number), number

"""The six move styles of Knuth's sliding-block program, as values: what moves and how far.

A style is a pair (mover, reach).  Knuth numbers the six pairs 0-5, single pieces
first and step, line, path within each; the number is what files, the command line,
JSON output and the GUI show, while the search and the reference read the two fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from slidelab.errors import SlidelabError

MAX_SUPERPIECE_PIECES = 63
"""Superpiece styles keep a set of pieces in one 64-bit mask (bit 0 is the walls)."""


class UnknownStyleError(SlidelabError, ValueError):
    """A style number outside Knuth's 0-5."""


class Mover(Enum):
    """What one move shifts."""

    PIECE = "piece"
    """A single piece."""
    SUPERPIECE = "superpiece"
    """Any nonempty set of pieces, shifted together as one rigid group."""


class Reach(Enum):
    """Which displacements one move may make."""

    STEP = "step"
    """One cell left, right, up or down."""
    LINE = "line"
    """One or more cells in one straight line, every cell on the way free."""
    PATH = "path"
    """Any displacement reachable by unit steps through free positions."""


@dataclass(frozen=True)
class MoveStyle:
    """What counts as one move: which pieces move together and how far they may go."""

    mover: Mover
    reach: Reach

    ALL: ClassVar[tuple[MoveStyle, ...]]
    """The six styles in Knuth's order, so that `ALL[n]` is style n."""
    STEP: ClassVar[MoveStyle]
    SLIDE: ClassVar[MoveStyle]
    PATH: ClassVar[MoveStyle]
    SUPER_STEP: ClassVar[MoveStyle]
    SUPER_SLIDE: ClassVar[MoveStyle]
    SUPER_PATH: ClassVar[MoveStyle]

    @classmethod
    def from_number(cls, number: int) -> MoveStyle:
        """Knuth's style `number` (0-5); anything else is refused."""
        if number not in range(len(cls.ALL)):
            raise UnknownStyleError(
                f"the style must be between 0 and {len(cls.ALL) - 1}, not {number}"
            )
        return cls.ALL[number]

    @property
    def number(self) -> int:
        """Knuth's number for this style, 0-5."""
        return MoveStyle.ALL.index(self)

    @property
    def superpieces(self) -> bool:
        """True when several pieces may move together as one rigid group."""
        return self.mover is Mover.SUPERPIECE

    @property
    def label(self) -> str:
        """A short heading for the style, as the GUI shows it."""
        return f"Style {self.number}"

    @property
    def explanation(self) -> str:
        """What one move is, in words."""
        return _EXPLANATIONS[self]


MoveStyle.STEP = MoveStyle(Mover.PIECE, Reach.STEP)
MoveStyle.SLIDE = MoveStyle(Mover.PIECE, Reach.LINE)
MoveStyle.PATH = MoveStyle(Mover.PIECE, Reach.PATH)
MoveStyle.SUPER_STEP = MoveStyle(Mover.SUPERPIECE, Reach.STEP)
MoveStyle.SUPER_SLIDE = MoveStyle(Mover.SUPERPIECE, Reach.LINE)
MoveStyle.SUPER_PATH = MoveStyle(Mover.SUPERPIECE, Reach.PATH)
MoveStyle.ALL = (
    MoveStyle.STEP,
    MoveStyle.SLIDE,
    MoveStyle.PATH,
    MoveStyle.SUPER_STEP,
    MoveStyle.SUPER_SLIDE,
    MoveStyle.SUPER_PATH,
)

_EXPLANATIONS = {
    MoveStyle.STEP: "one piece moves one cell left, right, up or down",
    MoveStyle.SLIDE: "one piece slides one or more cells in a straight line",
    MoveStyle.PATH: "one piece moves any number of cells along any path",
    MoveStyle.SUPER_STEP: "a group of pieces moves together one cell left, right, up or down",
    MoveStyle.SUPER_SLIDE: "a group of pieces slides together one or more cells in a straight line",
    MoveStyle.SUPER_PATH: "a group of pieces moves together any number of cells along any path",
}

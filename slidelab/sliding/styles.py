"""The six move styles of Knuth's sliding-block program, with their explanations."""

from __future__ import annotations

from enum import IntEnum

MAX_SUPERPIECE_PIECES = 63
"""Superpiece styles keep a set of pieces in one 64-bit mask (bit 0 is the walls)."""


class MoveStyle(IntEnum):
    """What counts as one move."""

    STEP = 0
    SLIDE = 1
    PATH = 2
    SUPER_STEP = 3
    SUPER_SLIDE = 4
    SUPER_PATH = 5

    @property
    def superpieces(self) -> bool:
        """True when several pieces may move together as one rigid group."""
        return self >= 3

    @property
    def explanation(self) -> str:
        return _EXPLANATIONS[self]


_EXPLANATIONS = {
    MoveStyle.STEP: "one piece moves one cell left, right, up or down",
    MoveStyle.SLIDE: "one piece slides one or more cells in a straight line",
    MoveStyle.PATH: "one piece moves any number of cells along any path",
    MoveStyle.SUPER_STEP: "a group of pieces moves together one cell left, right, up or down",
    MoveStyle.SUPER_SLIDE: "a group of pieces slides together one or more cells in a straight line",
    MoveStyle.SUPER_PATH: "a group of pieces moves together any number of cells along any path",
}

"""Edit-mode checks: the brick under a cell, and why a new brick does not fit."""

from __future__ import annotations

from slidelab.antislide.editing import brick_at, why_not_placed
from slidelab.antislide.model import Box, Placement

BOX = Box((3, 3, 3))
BRICKS = [Placement((0, 0, 0), (1, 2, 2)), Placement((1, 1, 0), (2, 2, 1))]


def test_brick_at_finds_the_covering_brick_or_none():
    assert brick_at(BOX, BRICKS, (0, 1, 1)) == 0
    assert brick_at(BOX, BRICKS, (2, 2, 0)) == 1
    assert brick_at(BOX, BRICKS, (2, 2, 2)) is None


def test_why_not_placed():
    assert why_not_placed(BOX, BRICKS, Placement((1, 0, 1), (2, 2, 1))) is None
    assert (
        why_not_placed(BOX, BRICKS, Placement((2, 0, 0), (2, 2, 1)))
        == "the brick does not fit in the box there"
    )
    assert (
        why_not_placed(BOX, BRICKS, Placement((0, 1, 1), (2, 1, 2)))
        == "the brick would overlap brick 1"
    )

"""Scenes of antislide packings: one piece per brick, coloured by orientation."""

from __future__ import annotations

from slidelab.antislide.model import Placement
from slidelab.geometry.packing_scenes import brick_cells, brick_scene
from slidelab.geometry.palettes import piece_colour


def test_bricks_become_pieces_coloured_by_orientation():
    bricks = [
        Placement((0, 0, 0), (2, 2, 1)),
        Placement((0, 0, 1), (2, 2, 1)),
        Placement((2, 0, 0), (1, 2, 2)),
    ]
    scene = brick_scene((2, 2, 1), bricks)
    assert [p.key for p in scene] == ["0", "1", "2"]
    assert scene[0].colour == scene[1].colour != scene[2].colour
    assert scene[2].colour == piece_colour(0)  # (1, 2, 2) is the first orientation in order
    assert scene[0].label == "brick 1: 2x2x1 at (0, 0, 0)"
    assert set(scene[2].cells) == {(2, 0, 0), (2, 1, 0), (2, 0, 1), (2, 1, 1)}


def test_brick_cells_fill_the_block():
    assert len(brick_cells(Placement((1, 2, 3), (2, 3, 1)))) == 6

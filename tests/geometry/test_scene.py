"""Scene arithmetic for the 3D view: explode offsets, layer slices, ray picking, shading."""

from __future__ import annotations

import numpy as np

from slidelab.geometry.palettes import KIND_COLOURS
from slidelab.geometry.scene import (
    ScenePiece,
    explode_offsets,
    lambert,
    pick,
    piece_colour,
    sliced,
)

LEFT = ScenePiece("L", "left bar", ((0, 0, 0), (0, 1, 0)), (230, 159, 0))
RIGHT = ScenePiece("R", "right bar", ((1, 0, 0), (1, 1, 0)), (86, 180, 233))
TOWER = ScenePiece("T", "tower", ((0, 0, 0), (0, 0, 1), (0, 0, 2)), (0, 158, 115))


def test_exploding_moves_pieces_away_from_the_centre_in_proportion():
    offsets = explode_offsets([LEFT, RIGHT], 1.0)
    # the scene spans x in [0, 2]; the pieces' centres are at x = 0.5 and 1.5
    assert np.allclose(offsets["L"], [-0.5, 0, 0])
    assert np.allclose(offsets["R"], [0.5, 0, 0])
    assert np.allclose(explode_offsets([LEFT, RIGHT], 0.5)["R"], [0.25, 0, 0])
    assert np.allclose(explode_offsets([LEFT, RIGHT], 0.0)["L"], 0)


def test_a_piece_at_the_centre_and_an_empty_piece_stay_put():
    middle = ScenePiece("M", "middle", ((1, 1, 1),), (0, 0, 0))
    empty = ScenePiece("E", "empty", (), (0, 0, 0))
    corner = ScenePiece("C", "corner", ((0, 0, 0),), (0, 0, 0))
    far = ScenePiece("F", "far", ((2, 2, 2),), (0, 0, 0))
    offsets = explode_offsets([middle, empty, corner, far], 1.5)
    assert np.allclose(offsets["M"], 0)
    assert np.allclose(offsets["E"], 0)
    assert np.allclose(offsets["C"], [-1.5, -1.5, -1.5])


def test_slicing_keeps_the_lower_layers_and_drops_emptied_pieces():
    high = ScenePiece("H", "high", ((0, 0, 2),), (0, 0, 0))
    kept = sliced([TOWER, high, LEFT], axis=2, upto=2)
    assert [piece.key for piece in kept] == ["T", "L"]
    assert kept[0].cells == ((0, 0, 0), (0, 0, 1))
    assert kept[0].label == "tower" and kept[0].colour == TOWER.colour
    assert kept[1] == LEFT
    assert sliced([LEFT, RIGHT], axis=0, upto=1) == [LEFT]
    assert sliced([LEFT, RIGHT], axis=1, upto=0) == []


def test_a_ray_picks_the_nearest_piece_it_crosses():
    # looking along +x through both bars: the left one comes first, from the other side the right
    assert pick([RIGHT, LEFT], {}, (-5, 0.5, 0.5), (1, 0, 0)) == "L"
    assert pick([LEFT, RIGHT], {}, (5, 0.5, 0.5), (-1, 0, 0)) == "R"
    # a slanted ray from above that enters the right bar's top face
    assert pick([LEFT, RIGHT], {}, (1.5, 1.5, 5), (0.1, -0.2, -1)) == "R"


def test_a_ray_that_misses_every_piece_picks_nothing():
    assert pick([LEFT, RIGHT], {}, (-5, 0.5, 3), (1, 0, 0)) is None
    assert pick([LEFT, RIGHT], {}, (-5, 0.5, 0.5), (-1, 0, 0)) is None  # pointing away
    assert pick([], {}, (0, 0, 0), (1, 0, 0)) is None


def test_a_ray_starting_inside_a_piece_picks_it():
    assert pick([LEFT, RIGHT], {}, (1.5, 0.5, 0.5), (-1, 0, 0)) == "R"


def test_offsets_move_the_pieces_a_ray_can_hit():
    ray = ((-5, 0.5, 3.5), (1, 0, 0))
    assert pick([LEFT, RIGHT], {}, *ray) is None
    assert pick([LEFT, RIGHT], {"R": np.array([0, 0, 3])}, *ray) == "R"
    # lifting the left bar out of the way uncovers the right one
    assert pick([LEFT, RIGHT], {"L": (0, 0, 2)}, (-5, 0.5, 0.5), (1, 0, 0)) == "R"


def test_faces_towards_the_light_are_brighter_and_none_is_black():
    normals = np.array([(0, 0, 1), (1, 0, 0), (0, 0, -1)], np.float32)
    rgba = lambert(normals, (200, 100, 50), light=(0.2, 0, 1), alpha=0.5)
    assert rgba.shape == (3, 4) and rgba.dtype == np.float32
    assert rgba[0, 0] > rgba[1, 0] > rgba[2, 0] > 0.2 * 200 / 255
    # the hue is kept: channels stay in the colour's proportions
    assert np.allclose(rgba[:, 1] / rgba[:, 0], 0.5)
    assert np.allclose(rgba[:, 3], 0.5)
    # a face turned straight at the light shows the colour itself
    assert np.allclose(
        lambert(normals[:1], (200, 100, 50), light=(0, 0, 3))[0, :3],
        [200 / 255, 100 / 255, 50 / 255],
    )


def test_the_six_sides_of_a_block_get_six_different_shades():
    normals = np.concatenate([np.eye(3), -np.eye(3)])
    shades = lambert(normals, (255, 255, 255))[:, 0]
    assert len(set(np.round(shades, 3))) == 6


def test_piece_colours_cycle_through_the_kind_palette():
    colours = list(KIND_COLOURS.values())
    assert [piece_colour(i) for i in range(len(colours))] == colours
    assert piece_colour(len(colours)) == colours[0]

"""Voxel meshes: only outside faces, outward normals, counter-clockwise triangles, outlines."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.geometry.meshes import voxel_mesh


def test_one_cube_has_twelve_triangles_eight_corners_and_twelve_outline_edges():
    mesh = voxel_mesh([(0, 0, 0)])
    assert mesh.faces.shape == (12, 3)
    assert mesh.vertices.shape == (8, 3)
    assert mesh.outline.shape == (12, 2, 3)
    assert np.allclose(mesh.centre, [0.5, 0.5, 0.5])


def test_a_bar_of_two_cubes_has_no_inner_face_and_no_seam_in_its_outline():
    mesh = voxel_mesh([(0, 0, 0), (1, 0, 0)])
    assert mesh.faces.shape == (20, 3)
    assert mesh.vertices.shape == (12, 3)
    on_shared_plane = np.all(mesh.vertices[mesh.faces][:, :, 0] == 1, axis=1)
    assert not on_shared_plane.any()
    # 8 unit edges round the two ends and 4 long edges of 2 units; none across the middle
    assert mesh.outline.shape == (16, 2, 3)
    assert not np.all(mesh.outline[:, :, 0] == 1, axis=1).any()


def test_an_l_tromino_outline_follows_its_perimeter():
    mesh = voxel_mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    # the L's perimeter is 8 unit edges, on top and at the bottom, plus its 6 vertical edges
    assert mesh.outline.shape == (22, 2, 3)


cells_3d = st.sets(st.tuples(*[st.integers(0, 2)] * 3), min_size=1, max_size=10)


@settings(max_examples=60, deadline=None)
@given(cells_3d)
def test_every_triangle_faces_out_of_the_solid(cells):
    mesh = voxel_mesh(cells)
    corners = mesh.vertices[mesh.faces]
    cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    assert np.allclose(cross / np.linalg.norm(cross, axis=1, keepdims=True), mesh.normals)
    for centroid, normal in zip(corners.mean(axis=1), mesh.normals, strict=True):
        outside = tuple(math.floor(c) for c in centroid + 0.5 * normal)
        inside = tuple(math.floor(c) for c in centroid - 0.5 * normal)
        assert outside not in cells
        assert inside in cells


@settings(max_examples=60, deadline=None)
@given(cells_3d)
def test_the_surface_area_counts_exactly_the_exposed_unit_faces(cells):
    exposed = sum(
        (x + dx, y + dy, z + dz) not in cells
        for x, y, z in cells
        for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
    )
    assert len(voxel_mesh(cells).faces) == 2 * exposed

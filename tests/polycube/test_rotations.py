"""The 48 lattice symmetries, and the seed's breadth-first rotations."""

from __future__ import annotations

from slidelab.polycube.rotations import (
    REFLECTIONS,
    ROTATIONS,
    SYMMETRIES,
    apply,
    compose,
    determinant,
    mirror,
    normalize,
    orientations,
)
from tests.exactcover.problems import SOMA_PIECES


def test_24_rotations_and_24_reflections_form_a_group():
    assert len(set(SYMMETRIES)) == 48
    assert len(ROTATIONS) == len(REFLECTIONS) == 24
    assert {determinant(m) for m in ROTATIONS} == {1}
    assert {determinant(m) for m in REFLECTIONS} == {-1}
    everything = set(SYMMETRIES)
    assert all(compose(a, b) in everything for a in SYMMETRIES for b in SYMMETRIES)
    rotations = set(ROTATIONS)
    assert all(compose(a, b) in rotations for a in ROTATIONS for b in ROTATIONS)
    assert SYMMETRIES[0] == ((1, 0, 0), (0, 1, 0), (0, 0, 1))


def test_breadth_first_orientations_are_the_24_rotations():
    for cells in SOMA_PIECES.values():
        by_matrices = {normalize(apply(m, c) for c in cells) for m in ROTATIONS}
        found = orientations(cells)
        assert len(found) == len(set(found)) and set(found) == by_matrices
        assert found[0] == normalize(cells)


def test_orientation_counts_of_the_soma_pieces():
    counts = {name: len(orientations(cells)) for name, cells in SOMA_PIECES.items()}
    assert counts == {"V": 12, "L": 24, "T": 12, "Z": 12, "A": 8, "B": 12, "P": 12}


def test_mirror_images_of_the_screws_are_each_other():
    b, p = SOMA_PIECES["B"], SOMA_PIECES["P"]
    assert mirror(b) in orientations(p) and mirror(b) not in orientations(b)
    assert {normalize(apply(m, c) for c in b) for m in REFLECTIONS} == set(orientations(p))

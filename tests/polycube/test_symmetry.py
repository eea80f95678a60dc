"""Distinct solutions by symmetry breaking, against listing everything and merging by geometry."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from slidelab.library import load_shipped, shipped_names
from slidelab.polycube.packing import build_packing
from slidelab.polycube.reference import (
    distinct_by_filtering,
    layout_class,
    layouts,
    partners_by_rank,
)
from slidelab.polycube.spec import parse_spec
from slidelab.polycube.symmetry import (
    box_group,
    count_distinct,
    list_distinct,
    mirror_partners,
    search_distinct,
)

GOLDEN = [
    # file, fixed-box solutions, distinct, symmetries of the box, reflections
    ("soma.pcube", 11520, 240, 48, True),
    ("pentominoes-6x10x1.pcube", 9356, 2339, 4, True),
    ("solid-pentominoes-2x3x10.pcube", 96, 12, 8, True),
    ("solid-pentominoes-2x5x6.pcube", 2112, 264, 8, True),
    ("slothouber-graatsma.pcube", 8, 1, 48, True),
    ("tetracubes-2x4x4.pcube", 11120, 695, 16, True),
]


@pytest.mark.parametrize(("name", "solutions", "distinct", "order", "reflections"), GOLDEN)
def test_library_counts(name, solutions, distinct, order, reflections):
    counted = count_distinct(build_packing(load_shipped("polycube", name, parse_spec)))
    assert (counted.solutions, counted.distinct) == (solutions, distinct)
    assert (counted.group_order, counted.reflections) == (order, reflections)


def test_solid_pentominoes_fill_3x4x5_in_3940_ways():
    counted = count_distinct(
        build_packing(load_shipped("polycube", "solid-pentominoes-3x4x5.pcube", parse_spec))
    )
    assert (counted.solutions, counted.distinct, counted.group_order) == (31520, 3940, 8)


def test_soma_screws_are_mirror_partners():
    partners = mirror_partners(build_packing(load_shipped("polycube", "soma.pcube", parse_spec)))
    assert partners is not None and partners["A"] == "B" and partners["B"] == "A"
    assert partners["P"] == "P"


def test_a_chiral_set_gets_rotations_only():
    packing = build_packing(
        parse_spec("[0-1][0-1][0-2]\nA 000 100 010 101\nV 000 100 010\nU 000\n")
    )
    assert mirror_partners(packing) is None
    group = box_group(packing)
    assert not group.reflections and len(group.permutations) == 8  # the square prism's turns
    assert box_group(build_packing(packing.spec, with_mirror=True)).reflections


@pytest.mark.parametrize(
    ("text", "mirror", "solutions", "distinct"),
    [
        # three monocubes in a row: the six orders pair up under reversal
        ("[0-0][0-2][0-0]\nA 000\nB 000\nC 000\n", False, 6, 3),
        ("[0-2][0-2][0-2]\n6*Y 000 010 001 011\nU1 000\nU2 000\nU3 000\n", False, 48, 3),
        ("[0-0][0-2][0-1]\nA 100 000 110\nB 000\nC 000\nD 000\n", True, 48, 12),
    ],
)
def test_pieces_of_one_shape_under_different_names_keep_their_names(
    text, mirror, solutions, distinct
):
    packing = build_packing(parse_spec(text), with_mirror=mirror)
    counted = count_distinct(packing)
    assert (counted.solutions, counted.distinct) == (solutions, distinct)
    assert distinct_by_filtering(packing) == distinct


def test_a_reflection_renames_one_to_one():
    # two left-handed and two right-handed screws: each gets its own partner, and a
    # piece that is its own mirror image keeps its name
    text = "[0-3][0-3][0-1]\nL1 000 100 010 011\nL2 000 100 010 011\n"
    text += "R1 000 100 010 101\nR2 000 100 010 101\nU 000\n"
    partners = mirror_partners(build_packing(parse_spec(text)))
    assert partners is not None and partners["U"] == "U"
    assert sorted(partners[n] for n in ("L1", "L2")) == ["R1", "R2"]
    assert all(partners[partners[n]] == n for n in partners)


SHAPES = {
    "monocube": "000",
    "domino": "000 100",
    "bent tromino": "000 100 010",
    "left screw": "000 100 010 011",
    "right screw": "000 100 010 101",
    "L tetracube": "000 100 200 010",
}


@st.composite
def specs_with_repeated_shapes(draw: st.DrawFn) -> str:
    """A small box and pieces drawn from `SHAPES` under distinct names, shapes often repeated
    (so that mirror partners are ambiguous), filling the box exactly."""
    dims = draw(st.tuples(st.integers(1, 2), st.integers(1, 3), st.integers(1, 3)))
    volume = dims[0] * dims[1] * dims[2]
    assume(volume <= 8)
    lines = [f"[0-{dims[0] - 1}][0-{dims[1] - 1}][0-{dims[2] - 1}]"]
    filled = 0
    while filled < volume:
        name = draw(st.sampled_from(sorted(SHAPES)))
        size = len(SHAPES[name].split())
        if filled + size > volume:
            name, size = "monocube", 1
        lines.append(f"P{len(lines)} {SHAPES[name]}")
        filled += size
    return "\n".join(lines) + "\n"


@settings(max_examples=25, deadline=None)
@given(specs_with_repeated_shapes(), st.booleans())
def test_symmetry_breaking_agrees_with_filtering_on_repeated_shapes(text, mirror):
    packing = build_packing(parse_spec(text), with_mirror=mirror)
    assert (mirror_partners(packing) is None) == (partners_by_rank(packing) is None)
    counted = count_distinct(packing)
    assert counted.distinct == distinct_by_filtering(packing)
    assert counted.solutions == len(layouts(packing))


SMALL = [
    "[0-2][0-2][0-1]\nV 000 100 010\nL 000 100 200 010\nT 000 100 200 110\nS 000 100 110 210\n"
    "U 000\n",
    "[0-3][0-3]0\nL 000 100 200 010\nT 000 100 200 110\nS 000 100 110 210\nI 000 100 200 300\n",
    "[0-2][0-2][0-2]\n6*Y 000 010 001 011\n3*U 000\n",
    "[0-1][0-2][0-2]\nA 000 100 010 101\nB 000 100 010 011\nV 000 100 010\nD 000 100\nU 000\n",
    "[0-1][0-2][0-2]\nA 000 100 010 101\nV 000 100 010\n2*D 000 100\nU 000\n",
    "[0-2][0-2]0 111\nV 000 100 010\n2*D 000 100\nU 000\nX 000\n",
]


@pytest.mark.parametrize("text", SMALL)
@pytest.mark.parametrize("mirror", [False, True])
def test_symmetry_breaking_agrees_with_filtering(text, mirror):
    packing = build_packing(parse_spec(text), with_mirror=mirror)
    counted = count_distinct(packing)
    assert counted.distinct == distinct_by_filtering(packing)
    assert counted.solutions == len(layouts(packing))


def test_nontrivial_stabilisers_are_handled():
    # The 3 x 3 x 1 plate: the centre placement of a plus-shaped piece is fixed by every symmetry.
    packing = build_packing(parse_spec("[0-2][0-2]0\nX 010 100 110 120 210\n4*U 000\n"))
    counted = count_distinct(packing)
    assert counted.piece == "X" and (counted.solutions, counted.distinct) == (1, 1)


def test_every_library_spec_is_counted_here():
    counted = {name for name, *_ in GOLDEN} | {"solid-pentominoes-3x4x5.pcube"}
    assert set(shipped_names("polycube")) == counted


def test_distinct_search_reports_running_totals():
    search = search_distinct(build_packing(load_shipped("polycube", "soma.pcube", parse_spec)))
    events = []
    while True:
        try:
            events.append(next(search))
        except StopIteration as stop:
            counted = stop.value
            break
    assert events and all(e.phase == "counting up to symmetry" for e in events)
    explored = [e.explored for e in events]
    assert explored == sorted(explored) and explored[-1] > 0
    assert counted.distinct == 240


def test_closing_the_distinct_search_cancels_it():
    packing = build_packing(load_shipped("polycube", "solid-pentominoes-3x4x5.pcube", parse_spec))
    search = search_distinct(packing)
    first = next(search)
    search.close()
    assert first.found < 3940
    with pytest.raises(StopIteration):
        next(search)


def test_the_240_soma_classes_are_listed_one_solution_each() -> None:
    packing = build_packing(load_shipped("polycube", "soma.pcube", parse_spec))
    listed, counted = list_distinct(packing)
    assert len(listed) == counted.distinct == 240
    every = set(layouts(packing))
    shown = [frozenset((p.piece, p.cells) for p in packing.decode(s)) for s in listed]
    assert all(layout in every for layout in shown)  # each a solution of the fixed box
    assert len({layout_class(packing, layout) for layout in shown}) == 240  # none an image


@pytest.mark.parametrize("text", SMALL)
@pytest.mark.parametrize("mirror", [False, True])
def test_one_solution_of_every_class_is_listed(text: str, mirror: bool) -> None:
    packing = build_packing(parse_spec(text), with_mirror=mirror)
    listed, counted = list_distinct(packing)
    classes = {layout_class(packing, layout) for layout in layouts(packing)}
    shown = [frozenset((p.piece, p.cells) for p in packing.decode(s)) for s in listed]
    assert len(listed) == counted.distinct == len(classes)
    assert {layout_class(packing, layout) for layout in shown} == classes

"""Assemblies counted as BurrTools counts them: the figures its example files record, and more."""

from __future__ import annotations

import pytest

from slidelab.burrtools.assemblies import count_assemblies, mirror_partners
from slidelab.burrtools.convert import puzzle_from_spec
from slidelab.burrtools.packing import build_packing
from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.library import load_shipped
from slidelab.polycube.packing import build_packing as build_spec_packing
from slidelab.polycube.spec import parse_spec
from slidelab.polycube.symmetry import count_distinct

from .conftest import puzzle
from .made import COUNTS, DATA, Count

RECORDED = [
    # file, problem, assemblies (recorded by BurrTools), fixed, rotations, reflections
    ("AlPackino.xmpuzzle", 0, 1, 8, 8, 8),
    ("CubeInCage.xmpuzzle", 0, 96, 1152, 12, 12),
    ("DraculasDentalDesaster.xmpuzzle", 0, 84, 168, 2, 2),
    ("PelikanBurr.xmpuzzle", 0, 12, 288, 24, 24),
    ("SolidSixPieceBurrs.xmpuzzle", 0, 1063, 12597, 12, 12),
]


@pytest.mark.parametrize(("name", "index"), list(COUNTS), ids=[f"{n}-{k}" for n, k in COUNTS])
def test_made_files_count_as_worked_out_by_hand(name: str, index: int) -> None:
    loaded = read_xmpuzzle(DATA / name)
    counted = count_assemblies(build_packing(loaded, index))
    expected = COUNTS[name, index]
    assert expected == Count(
        counted.assemblies, counted.fixed, counted.rotations, counted.reflections,
        counted.mirrorable,
    )  # fmt: skip
    assert loaded.problems[index].assemblies in (None, expected.assemblies)


@pytest.mark.parametrize(("name", "index", "assemblies", "fixed", "turns", "mirrors"), RECORDED)
def test_recorded_assemblies(examples, name, index, assemblies, fixed, turns, mirrors):
    loaded = read_xmpuzzle(examples / name)
    counted = count_assemblies(build_packing(loaded, index))
    assert counted.assemblies == loaded.problems[index].assemblies == assemblies
    assert (counted.fixed, counted.rotations, counted.reflections) == (fixed, turns, mirrors)


def test_the_mirror_paradox_in_a_made_file() -> None:
    """Either screw alone: two mirror-image assemblies, kept apart; both screws: merged."""
    loaded = read_xmpuzzle(DATA / "screws.xmpuzzle")
    either, both = build_packing(loaded, 0), build_packing(loaded, 1)
    assert mirror_partners(either) == mirror_partners(both) == {0: 1, 1: 0}
    counted = count_assemblies(either)
    assert (counted.assemblies, counted.fixed, counted.reflections, counted.mirrorable) == (
        2, 2, 1, 0
    )  # fmt: skip
    counted = count_assemblies(both)
    assert (counted.assemblies, counted.fixed, counted.reflections, counted.mirrorable) == (
        1, 1, 1, 1
    )  # fmt: skip


def test_the_mirror_paradox(examples):
    """Assemblies that leave pieces of a range unused are not merged with their mirror images."""
    loaded = read_xmpuzzle(examples / "DemoMirrorParadox.xmpuzzle")
    first = build_packing(loaded, 0)
    assert mirror_partners(first) == {0: 1, 1: 0}  # the two pieces mirror each other
    for index, fixed in ((0, 2), (1, 48)):
        counted = count_assemblies(build_packing(loaded, index))
        assert (counted.assemblies, counted.fixed, counted.mirrorable) == (2, fixed, 0)


SOMA = load_shipped("polycube", "soma.pcube", parse_spec)
SCREWS = "[01][01][0-2]\nA 000 100 010 101\nB 000 100 010 011\nL 000 100 200 010\n"  # 16, 1
SCREW_ALONE = "[01][01][01]\nA 000 100 010 101\nV 000 100 010\nU 000\n"  # 24, 1: A alone


@pytest.mark.parametrize(
    "spec",
    [SOMA, load_shipped("polycube", "slothouber-graatsma.pcube", parse_spec), parse_spec(SCREWS),
     parse_spec(SCREW_ALONE)],
    ids=["soma", "slothouber-graatsma", "screws", "screw alone"],
)  # fmt: skip
def test_exported_specs_count_as_polycube_distinct(spec):
    counted = count_assemblies(build_packing(puzzle_from_spec(spec), 0))
    expected = count_distinct(build_spec_packing(spec))
    assert (counted.fixed, counted.assemblies) == (expected.solutions, expected.distinct)
    assert (counted.reflections > 0 and counted.mirrorable > 0) == expected.reflections


def test_colours_decide_the_symmetries():
    """A two-coloured result has fewer symmetries than a neutral one; coloured pieces too."""
    colours = '<color red="255" green="0" blue="0"/><color red="0" green="0" blue="255"/>'
    domino = '<voxel x="2" y="1" z="1" type="0">#1#2</voxel>'
    every = "".join(f'<pair piece="{p}" result="{r}"/>' for p in (0, 1) for r in (0, 1))
    for result, assemblies in (("#1#2", 2), ("##", 1)):
        shapes = domino + f'<voxel x="2" y="1" z="1" type="0">{result}</voxel>'
        problem = f'<problem><shapes><shape id="0"/></shapes><result id="1"/><bitmap>{every}'
        packing = build_packing(puzzle(shapes, problem + "</bitmap></problem>", colours), 0)
        counted = count_assemblies(packing)
        assert (counted.fixed, counted.assemblies) == (2, assemblies)


def test_variable_voxels_and_ranges():
    shapes = '<voxel x="1" y="1" z="1" type="0">#</voxel><voxel x="3" y="1" z="1" type="0">#+#'
    problem = '<problem><shapes><shape id="0" min="2" max="3"/></shapes><result id="1"/>'
    counted = count_assemblies(
        build_packing(puzzle(shapes + "</voxel>", problem + "</problem>"), 0)
    )
    assert (counted.fixed, counted.assemblies, counted.mirrorable) == (2, 2, 1)

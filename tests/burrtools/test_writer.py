"""Writing .xmpuzzle: read, write, read gives the same puzzle; specs become BurrTools puzzles."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from slidelab.burrtools.convert import puzzle_from_spec
from slidelab.burrtools.model import FIXED, Part, Voxel, XmpuzzleError
from slidelab.burrtools.reader import parse_xmpuzzle, read_xmpuzzle
from slidelab.burrtools.writer import format_xmpuzzle, write_xmpuzzle, xmpuzzle_xml
from slidelab.polycube.spec import parse_spec

from .conftest import puzzle
from .made import DATA, MADE
from .test_reader import EXAMPLES


@pytest.mark.parametrize("name", list(MADE))
def test_made_files_round_trip(tmp_path: Path, name: str) -> None:
    check_round_trip(DATA / name, tmp_path / name)
    assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes()


@pytest.mark.parametrize("name", [e[0] for e in EXAMPLES])
def test_examples_round_trip(examples, tmp_path, name):
    check_round_trip(examples / name, tmp_path / name)


def check_round_trip(source: Path, target: Path) -> None:
    """Read, write and read again: the same puzzle, and the bytes the writer makes."""
    original = read_xmpuzzle(source)
    write_xmpuzzle(target, original)
    again = read_xmpuzzle(target)
    assert again.shapes == original.shapes and again.problems == original.problems
    assert again == original
    assert format_xmpuzzle(again) == target.read_bytes()  # no time stamp


def test_the_text_of_made_files() -> None:
    text = xmpuzzle_xml(read_xmpuzzle(DATA / "dominoes.xmpuzzle"))
    assert text.startswith('<?xml version="1.0"?>\n<puzzle version="2">\n  <gridType type="0"/>')
    assert (
        '\n  <colors/>\n  <shapes>\n    <voxel x="2" y="1" z="1" weight="2" name="Domino"' in text
    )
    assert '<voxel x="2" y="2" z="1" name="Open corner" type="0">###+</voxel>' in text
    assert '<problem name="square" state="2" assemblies="1" solutions="1" time="0">' in text
    assert '<shape id="0" count="2" group="1"/>' in text
    assert '<shape id="0" min="1" max="2"/>\n        <shape id="1" min="0" max="2"/>' in text
    assert '<result id="2"/>\n      <bitmap/>\n      <solutions>' in text
    assert '<solution asmNum="2" solNum="2">\n          <assembly>0 0 0 0 x 0 1 0 0 x</' in text
    assert text.endswith("  </problems>\n  <comment/>\n</puzzle>\n")
    text = xmpuzzle_xml(read_xmpuzzle(DATA / "colours.xmpuzzle"))
    assert '<colors>\n    <color red="200" green="30" blue="30"/>\n    <color red="30"' in text
    assert '<voxel x="2" y="2" z="1" name="Striped square" type="0">#1#1#2#2</voxel>' in text
    assert '<problem name="any colours" state="0">' in text
    assert (
        '<bitmap>\n        <pair piece="0" result="0"/>\n        <pair piece="0" result="1"/>'
        in text
    )
    assert '<comment popup="">Coloured dominoes made for slidelab\'s tests.</comment>' in text


def test_the_text_follows_burrtools(examples):
    text = xmpuzzle_xml(read_xmpuzzle(examples / "CubeInCage.xmpuzzle"))
    assert text.startswith('<?xml version="1.0"?>\n<puzzle version="2">\n  <gridType type="0"/>')
    assert '<voxel x="5" y="7" z="1" name="Frame1" type="0">######___##' in text
    assert '<problem name="g" state="2" assemblies="96" solutions="1" time="0">' in text
    assert '<shape id="2" count="2" group="1"/>' in text
    assert '<result id="0"/>\n      <bitmap/>' in text
    original = gzip.decompress((examples / "CubeInCage.xmpuzzle").read_bytes()).decode()
    assert text.split("<comment")[1] == original.split("<comment")[1]


def test_everything_a_reader_keeps_is_written():
    shapes = (
        '<voxel x="2" y="1" z="1" hx="1" hy="-2" weight="3" name="A &amp; B" type="0">#1+2</voxel>'
        '<voxel x="1" y="1" z="1" type="0">#</voxel>'
    )
    problems = (
        '<problem name="half" state="1" assemblies="4" solutions="0" time="7" maxHoles="2">'
        '<shapes><shape id="1" min="0" max="3"><group group="1" count="2"/>'
        '<group group="2" count="1"/></shape></shapes><result id="0"/>'
        '<bitmap><pair piece="1" result="0"/></bitmap><assembler version="1.0">3 4 5</assembler>'
        "</problem>"
    )
    colours = '<color red="1" green="2" blue="3"/><color red="4" green="5" blue="6"/>'
    original = puzzle(shapes, problems, colours)
    assert original.shapes[0].hotspot == (1, -2, 0) and original.shapes[0].name == "A & B"
    assert original.problems[0].allowed_colours == ((2, 1),)
    again = parse_xmpuzzle(format_xmpuzzle(original))
    assert again == original
    assert '<assembler version="1.0">3 4 5</assembler>' in xmpuzzle_xml(again)


def test_a_spec_becomes_a_puzzle():
    spec = parse_spec("[1-2][1-3]1\nL 000 100 200 010\n2*D 000 010\nL 000 010 020 100\n")
    converted = puzzle_from_spec(spec, "tiny")
    assert [s.name for s in converted.shapes] == ["L", "D", "Result"]
    assert converted.shapes[0].size == (3, 2, 1)
    assert converted.shapes[2].voxels[0] == Voxel((0, 0, 0), FIXED)
    assert converted.shapes[2].size == (2, 3, 1)
    problem = converted.problems[0]
    assert (problem.name, problem.parts, problem.result) == (
        "tiny",
        (Part(0, 1, 1), Part(1, 2, 2)),
        2,
    )
    assert parse_xmpuzzle(format_xmpuzzle(converted)) == converted


def test_a_piece_with_two_shapes_cannot_be_written():
    spec = parse_spec("[0-2][0-2]0\nX 000 100\nX 000 100 200\n")
    with pytest.raises(XmpuzzleError) as caught:
        puzzle_from_spec(spec, source="x.pcube")
    assert str(caught.value) == (
        "x.pcube: piece X: its lines have different shapes; a BurrTools piece has one shape "
        "(make each line a piece of its own)"
    )

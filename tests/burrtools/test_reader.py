"""Reading .xmpuzzle files: the project's own and BurrTools' examples, and malformed files
refused with exact messages."""

from __future__ import annotations

import contextlib
import gzip
import random
from pathlib import Path

import pytest

from slidelab.burrtools import reader
from slidelab.burrtools.model import (
    FIXED,
    SOLVED,
    UNSOLVED,
    VARIABLE,
    Group,
    Part,
    Position,
    Voxel,
    XmpuzzleError,
)
from slidelab.burrtools.reader import is_xmpuzzle, parse_xmpuzzle, read_xmpuzzle
from slidelab.fileio import FileAccessError

from .conftest import puzzle, xml
from .made import DATA, SEPARATION

Figures = tuple[str, int, int, int | None, int | None]
"""A problem's name, parts, state, recorded assemblies and recorded solutions."""

MADE = [
    # file, shapes, problems (name, parts, state, recorded assemblies, recorded solutions)
    ("dominoes.xmpuzzle", 5,
     [("square", 1, SOLVED, 1, 1), ("rectangle", 1, SOLVED, 2, 2), ("ranges", 2, SOLVED, 4, 4)]),
    ("colours.xmpuzzle", 3,
     [("same colours", 1, SOLVED, 1, 1), ("any colours", 1, UNSOLVED, None, None),
      ("plain result", 1, UNSOLVED, None, None)]),
    ("screws.xmpuzzle", 4,
     [("either screw", 2, UNSOLVED, None, None), ("both screws", 2, UNSOLVED, None, None)]),
]  # fmt: skip

EXAMPLES = [
    # file, shapes, problems (name, parts, state, recorded assemblies, recorded solutions)
    ("AlPackino.xmpuzzle", 5, [("Problem", 4, SOLVED, 1, None)]),
    ("CubeInCage.xmpuzzle", 6, [("g", 5, SOLVED, 96, 1)]),
    ("DemoMirrorParadox.xmpuzzle", 7,
     [("Example From Text", 2, 0, None, None), ("Another Example", 3, 0, None, None)]),
    ("DemoPieceGenerator.xmpuzzle", 3, [("", 2, 0, None, None)]),
    ("DraculasDentalDesaster.xmpuzzle", 10, [("Problem", 9, SOLVED, 84, 1)]),
    ("PelikanBurr.xmpuzzle", 8, [("Problem", 7, SOLVED, 12, 1)]),
    ("SolidSixPieceBurrs.xmpuzzle", 26, [("", 25, SOLVED, 1063, 314)]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "problems"), MADE)
def test_every_made_file_loads(name: str, shapes: int, problems: list[Figures]) -> None:
    check_loads(DATA / name, shapes, problems)


@pytest.mark.parametrize(("name", "shapes", "problems"), EXAMPLES)
def test_every_example_loads(examples, name, shapes, problems):
    check_loads(examples / name, shapes, problems)


def check_loads(path: Path, shapes: int, problems: list[Figures]) -> None:
    """The file is recognised and has these shapes and problems; stored assemblies fit."""
    assert is_xmpuzzle(path)
    loaded = read_xmpuzzle(path)
    assert len(loaded.shapes) == shapes
    assert [
        (p.name, len(p.parts), p.state, p.assemblies, p.solutions) for p in loaded.problems
    ] == problems
    for problem in loaded.problems:
        assert all(len(s.assembly) == problem.piece_count for s in problem.stored)


def test_made_file_details() -> None:
    coloured = read_xmpuzzle(DATA / "colours.xmpuzzle")
    assert coloured.colours == ((200, 30, 30), (30, 60, 200))
    assert coloured.problems[0].allowed_colours == ((1, 1), (2, 2))
    assert coloured.problems[1].allowed_colours == ((1, 1), (1, 2), (2, 1), (2, 2))
    assert coloured.shapes[0].voxels == (Voxel((0, 0, 0), FIXED, 1), Voxel((1, 0, 0), FIXED, 2))
    assert coloured.shapes[1].voxels[2] == Voxel((0, 1, 0), FIXED, 2)
    assert coloured.comment == "Coloured dominoes made for slidelab's tests."
    assert coloured.comment_popup
    dominoes = read_xmpuzzle(DATA / "dominoes.xmpuzzle")
    assert dominoes.shapes[4].name == "Open corner" and dominoes.shapes[4].size == (2, 2, 1)
    assert dominoes.shapes[4].voxels[3] == Voxel((1, 1, 0), VARIABLE)
    assert dominoes.shapes[0].weight == 2 and dominoes.shapes[1].weight == 1
    square, _, ranges = dominoes.problems
    assert square.parts == (Part(0, 2, 2, (Group(1, 2),)),) and square.result == 2
    assert square.stored[0].assembly == (Position(0, 0, 0, 0), Position(0, 1, 0, 0))
    assert square.stored[0].disassembly == SEPARATION  # kept as written, indentation dropped
    assert ranges.parts == (Part(0, 1, 2), Part(1, 0, 2)) and ranges.piece_count == 4
    assert ranges.stored[0].assembly[1] is None and ranges.stored[0].assembly[3] is None
    assert (ranges.stored[0].assembly_number, ranges.stored[0].solution_number) == (2, 2)
    assert ranges.stored[0].disassembly is None
    screws = read_xmpuzzle(DATA / "screws.xmpuzzle")
    assert screws.shapes[1].cells == ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1))
    assert [v.state for v in screws.shapes[2].voxels] == [FIXED] * 3 + [VARIABLE] * 2
    assert screws.problems[0].parts == (Part(0, 0, 1), Part(1, 0, 1))


def test_example_details(examples):
    dracula = read_xmpuzzle(examples / "DraculasDentalDesaster.xmpuzzle")
    assert dracula.colours == ((245, 19, 64), (118, 114, 124))
    assert dracula.problems[0].allowed_colours == ((1, 1), (2, 2))
    assert dracula.shapes[0].voxels[0] == Voxel((0, 0, 0), FIXED, 1)
    assert dracula.comment.startswith("Name: Draculas Dental Desaster")
    assert dracula.comment_popup
    cage = read_xmpuzzle(examples / "CubeInCage.xmpuzzle")
    assert cage.shapes[1].name == "Frame1" and cage.shapes[0].size == (7, 7, 7)
    assert cage.problems[0].parts[1] == Part(2, 2, 2, (Group(1, 2),))
    assert cage.problems[0].stored[0].assembly[0] == Position(1, 6, 3, 2)
    assert cage.problems[0].stored[0].disassembly.startswith('<separation><pieces count="6">')
    burrs = read_xmpuzzle(examples / "SolidSixPieceBurrs.xmpuzzle")
    assert burrs.problems[0].parts[0] == Part(0, 0, 6)
    assert burrs.problems[0].stored[0].assembly[4] is None
    assert burrs.problems[0].stored[-1].assembly_number == 1051
    assert read_xmpuzzle(examples / "AlPackino.xmpuzzle").shapes[0].weight == 2


def test_plain_xml_is_read_and_files_are_recognised(tmp_path):
    path = tmp_path / "plain.xml"
    path.write_bytes(gzip.decompress(xml('<voxel x="1" y="1" z="1" type="0">#</voxel>')))
    assert not is_xmpuzzle(path)
    assert read_xmpuzzle(path).shapes[0].voxels == (Voxel((0, 0, 0), FIXED),)
    packed = tmp_path / "puzzle.dat"
    packed.write_bytes(xml(""))
    assert is_xmpuzzle(packed) and not is_xmpuzzle(tmp_path / "missing.dat")


def test_missing_file(tmp_path):
    with pytest.raises(FileAccessError, match=r"missing\.xmpuzzle: cannot read"):
        read_xmpuzzle(tmp_path / "missing.xmpuzzle")


def test_defaults_for_a_part():
    loaded = puzzle(
        '<voxel x="1" y="1" z="1" type="0">#</voxel>',
        '<problem><shapes><shape id="0"/></shapes><result id="0"/></problem>',
    )
    assert loaded.problems[0].parts == (Part(0, 1, 1),)
    assert loaded.problems[0].result == 0 and loaded.problems[0].name == ""


V = '<voxel x="2" y="1" z="1" type="0">##</voxel>'
P = '<problem state="2" assemblies="1"><shapes><shape id="0"/></shapes><result id="0"/>'
SOLUTION = P + "<solutions><solution><assembly>{}</assembly></solution></solutions></problem>"

MALFORMED = [
    ("grid type 2", xml(V, grid=2), "puzzle/gridType",
     "grid type 2 (spheres) is not supported: slidelab reads the cube grid (type 0) only"),
    ("grid type 9", xml(V, grid=9), "puzzle/gridType",
     "grid type 9 (unknown to BurrTools) is not supported: slidelab reads the cube grid "
     "(type 0) only"),
    ("bad voxel string", xml('<voxel x="2" y="1" z="1" type="0">#a</voxel>'),
     "puzzle/shapes/voxel[1]", "unrecognised character 'a' at position 2 of the voxel string "
     "(expected '_', '#', '+' or a colour digit)"),
    ("too few voxels", xml(V + '<voxel x="2" y="2" z="1" type="0">##</voxel>'),
     "puzzle/shapes/voxel[2]", "the voxel string has 2 voxels, the 2x2x1 space needs 4"),
    ("undefined colour", xml('<voxel x="1" y="1" z="1" type="0">#1</voxel>'),
     "puzzle/shapes/voxel[1]", "voxel (0, 0, 0) has colour 1, but the puzzle defines 0 colours"),
    ("missing size", xml('<voxel y="1" z="1" type="0">#</voxel>'), "puzzle/shapes/voxel[1]",
     "missing attribute 'x'"),
    ("missing type", xml('<voxel x="1" y="1" z="1">#</voxel>'), "puzzle/shapes/voxel[1]",
     "missing attribute 'type'"),
    ("voxel type", xml('<voxel x="1" y="1" z="1" type="1">#</voxel>'), "puzzle/shapes/voxel[1]",
     "voxel type 1 is unknown (BurrTools writes type 0 only)"),
    ("word for a number", xml('<voxel x="one" y="1" z="1" type="0">#</voxel>'),
     "puzzle/shapes/voxel[1]", "attribute 'x' must be a whole number, not 'one'"),
    ("unknown attribute", xml('<voxel x="1" y="1" z="1" type="0" size="2">#</voxel>'),
     "puzzle/shapes/voxel[1]", "unknown attribute 'size'"),
    ("unknown element", xml(V, "<problem><shapes/><extra/></problem>"),
     "puzzle/problems/problem[1]", "unknown element <extra>"),
    ("part without id", xml(V, '<problem><shapes><shape count="1"/></shapes></problem>'),
     "puzzle/problems/problem[1]/shapes/shape[1]", "missing attribute 'id'"),
    ("unknown shape", xml(V, '<problem><shapes><shape id="3"/></shapes></problem>'),
     "puzzle/problems/problem[1]/shapes/shape[1]",
     "shape id 3 does not exist (the puzzle's shapes: numbered 0 to 0)"),
    ("min without max", xml(V, '<problem><shapes><shape id="0" min="1"/></shapes></problem>'),
     "puzzle/problems/problem[1]/shapes/shape[1]", "missing attribute 'max'"),
    ("min above max", xml(V, '<problem><shapes><shape id="0" min="3" max="1"/></shapes></problem>'),
     "puzzle/problems/problem[1]/shapes/shape[1]", "'min' (3) is above 'max' (1)"),
    ("part twice", xml(V, '<problem><shapes><shape id="0"/><shape id="0"/></shapes></problem>'),
     "puzzle/problems/problem[1]/shapes/shape[2]", "shape 0 is already a part of this problem"),
    ("result without id", xml(V, "<problem><result/></problem>"),
     "puzzle/problems/problem[1]/result", "missing attribute 'id'"),
    ("pair without colours", xml(V, '<problem><bitmap><pair piece="0" result="0"/></bitmap>'
     "</problem>"), "puzzle/problems/problem[1]/bitmap/pair[1]",
     "attribute 'piece' names colour 1, but the puzzle defines 0 colours"),
    ("figures of an unsolved problem", xml(V, '<problem assemblies="3"/>'),
     "puzzle/problems/problem[1]", "attribute 'assemblies' is given but the problem is unsolved"),
    ("short assembly", xml(V, SOLUTION.format("0 0 0")),
     "puzzle/problems/problem[1]/solutions/solution[1]/assembly",
     "piece 1 has 3 numbers; a placed piece has 4"),
    ("assembly with too many pieces", xml(V, SOLUTION.format("0 0 0 0 x")),
     "puzzle/problems/problem[1]/solutions/solution[1]/assembly",
     "the assembly places 2 pieces; the problem has 1"),
    ("orientation", xml(V, SOLUTION.format("0 0 0 24")),
     "puzzle/problems/problem[1]/solutions/solution[1]/assembly",
     "the orientation of piece 1 is 24; it must be between 0 and 23"),
    ("two shape lists", gzip.compress(b'<puzzle version="2"><shapes/><shapes/></puzzle>'), "puzzle",
     "<shapes> appears 2 times; at most once is allowed"),
    ("stray text", gzip.compress(b'<puzzle version="2">text<shapes/></puzzle>'), "puzzle",
     "unexpected text"),
    ("version", gzip.compress(b'<puzzle version="3"/>'), "puzzle",
     "attribute 'version' is 3; it must be between 1 and 2"),
    ("root", gzip.compress(b'<puzzles version="2"/>'), "puzzles",
     "the root element must be <puzzle>"),
    ("bad XML", gzip.compress(b'<?xml version="1.0"?>\n<puzzle version="2">\n <shapes>\n</puzzle>'),
     "line 4, column 3", "not well-formed XML (mismatched tag)"),
    ("not XML", b"hello", "line 1, column 1", "not well-formed XML (syntax error)"),
    ("empty file", b"", "line 1, column 1", "not well-formed XML (no element found)"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "where", "message"), [m[1:] for m in MALFORMED],
                         ids=[m[0] for m in MALFORMED])  # fmt: skip
def test_malformed(data, where, message):
    with pytest.raises(XmpuzzleError) as caught:
        parse_xmpuzzle(data, "t.xmpuzzle")
    assert str(caught.value) == f"t.xmpuzzle: {where}: {message}"


def test_truncated_and_corrupt_gzip() -> None:
    data = (DATA / "dominoes.xmpuzzle").read_bytes()
    with pytest.raises(XmpuzzleError) as caught:
        parse_xmpuzzle(data[: len(data) // 2], "t.xmpuzzle")
    assert str(caught.value) == (
        "t.xmpuzzle: gzip stream: the file ends inside the compressed data (truncated?)"
    )
    corrupt = data[:20] + bytes(b ^ 0x55 for b in data[20:60]) + data[60:]
    with pytest.raises(XmpuzzleError, match=r"^t\.xmpuzzle: gzip stream: corrupt compressed data"):
        parse_xmpuzzle(corrupt, "t.xmpuzzle")


def test_a_gzip_bomb_is_refused_once_it_passes_the_cap(monkeypatch) -> None:
    monkeypatch.setattr(reader, "MAX_XML_BYTES", 1 << 20)
    bomb = gzip.compress(b"<puzzle>" + b" " * (4 << 20) + b"</puzzle>")
    assert len(bomb) < 10_000
    with pytest.raises(XmpuzzleError) as caught:
        parse_xmpuzzle(bomb, "t.xmpuzzle")
    assert str(caught.value) == (
        "t.xmpuzzle: gzip stream: unpacks to more than 1 MiB of XML, more than any puzzle "
        "needs; refused"
    )


def test_the_cap_lets_a_file_of_exactly_its_size_through(monkeypatch) -> None:
    data = (DATA / "dominoes.xmpuzzle").read_bytes()
    monkeypatch.setattr(reader, "MAX_XML_BYTES", len(gzip.decompress(data)))
    assert parse_xmpuzzle(data, "t.xmpuzzle") == read_xmpuzzle(DATA / "dominoes.xmpuzzle")


def test_a_huge_declared_space_is_refused_without_allocating_it() -> None:
    data = xml('<voxel x="1000000" y="1000000" z="1000000" type="0">#</voxel>')
    with pytest.raises(XmpuzzleError, match="the voxel string has 1 voxels, the 1000000x"):
        parse_xmpuzzle(data, "t.xmpuzzle")


def test_truncated_xml_in_a_made_file() -> None:
    text = gzip.decompress((DATA / "screws.xmpuzzle").read_bytes())
    cut = text.index(b"###__#__") + 8  # the line so far: 4 blanks, <voxel ...> (47), 8 voxels
    with pytest.raises(XmpuzzleError) as caught:
        parse_xmpuzzle(gzip.compress(text[:cut]), "t.xmpuzzle")
    assert (
        str(caught.value) == "t.xmpuzzle: line 6, column 60: not well-formed XML (no element found)"
    )


def test_truncated_xml_inside_a_good_gzip_stream(examples):
    text = gzip.decompress((examples / "PelikanBurr.xmpuzzle").read_bytes())
    with pytest.raises(XmpuzzleError) as caught:
        parse_xmpuzzle(gzip.compress(text[:1000]), "t.xmpuzzle")
    assert (
        str(caught.value)
        == "t.xmpuzzle: line 7, column 339: not well-formed XML (no element found)"
    )


def test_damaged_made_files_raise_only_xmpuzzle_errors() -> None:
    """Random edits of the made files' XML are read or refused with XmpuzzleError, nothing else."""
    damage(sorted(DATA.glob("*.xmpuzzle")))


def test_damaged_files_raise_only_xmpuzzle_errors(examples):
    """Random edits of the examples' XML are read or refused with XmpuzzleError, nothing else."""
    damage(sorted(examples.glob("*.xmpuzzle")))


def damage(paths: list[Path]) -> None:
    """Parse 300 random edits of the files' XML: read, or refused with XmpuzzleError."""
    texts = [gzip.decompress(path.read_bytes()) for path in paths]
    assert texts
    chooser = random.Random(10)
    for _ in range(300):
        text = bytearray(chooser.choice(texts))
        at = chooser.randrange(len(text))
        edit = chooser.choice([b"", b"_", b"#", b"7", b"x", b"<", b'"', b"/>", b" a=", b"-1"])
        text[at : at + chooser.randint(0, 8)] = edit
        with contextlib.suppress(XmpuzzleError):
            parse_xmpuzzle(gzip.compress(bytes(text)), "t.xmpuzzle")

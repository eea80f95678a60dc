"""Numbers BurrTools files hold are checked against the engine, and stored disassemblies of any
content or depth end in a value or a message, never a traceback."""

from __future__ import annotations

import gzip

import pytest

from slidelab.burrtools.model import XmpuzzleError
from slidelab.burrtools.reader import parse_xmpuzzle
from slidelab.cli import main

from .conftest import xml

CUBE = '<voxel x="1" y="1" z="1" type="0">#</voxel>'
PART = "puzzle/problems/problem[1]/shapes/shape[1]"


def problem(shape: str) -> bytes:
    return xml(CUBE, f'<problem><shapes>{shape}</shapes><result id="0"/></problem>')


@pytest.mark.parametrize(
    ("data", "where", "message"),
    [
        (problem('<shape id="0" count="4294967298"/>'), PART,
         "attribute 'count' is 4294967298; it must be between 1 and 2147483647"),
        (problem('<shape id="0" min="0" max="4294967298"/>'), PART,
         "attribute 'max' is 4294967298; it must be between 1 and 2147483647"),
        (problem('<shape id="0" count="1"><group group="1" count="2147483648"/></shape>'),
         f"{PART}/group[1]",
         "attribute 'count' is 2147483648; it must be between 1 and 2147483647"),
        (xml(f'<voxel x="{"9" * 5000}" y="1" z="1" type="0">#</voxel>'), "puzzle/shapes/voxel[1]",
         f"attribute 'x' is '{'9' * 40}'...; it must be at least 0"),
        (xml('<voxel x="1" y="1" z="1" type="0" hx="-9223372036854775808">#</voxel>'),
         "puzzle/shapes/voxel[1]", "attribute 'hx' is '-9223372036854775808'; it must be between "
         "-9223372036854775807 and 9223372036854775807"),
        (xml('<voxel x="\u0661" y="1" z="1" type="0">#</voxel>'), "puzzle/shapes/voxel[1]",
         "attribute 'x' must be a whole number, not '\u0661'"),
    ],
)  # fmt: skip
def test_numbers_beyond_the_engine_are_refused(data, where, message):
    with pytest.raises(XmpuzzleError) as caught:
        parse_xmpuzzle(data, "t.xmpuzzle")
    assert str(caught.value) == f"t.xmpuzzle: {where}: {message}"


def test_a_piece_count_that_would_wrap_is_refused_by_the_command(tmp_path, capsys):
    path = tmp_path / "wrap.xmpuzzle"
    path.write_bytes(problem('<shape id="0" count="4294967298"/>'))
    assert main(["polycube", str(path), "--count"]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"slidelab: {path}: {PART}: attribute 'count' is 4294967298; it must be between 1 and "
        "2147483647\n"
    )


def solved(disassembly: str) -> bytes:
    """A puzzle with one stored solution whose disassembly is `disassembly`."""
    text = (
        f'<?xml version="1.0" encoding="utf-8"?>\n<puzzle version="2"><shapes>{CUBE}</shapes>'
        '<problems><problem state="2" assemblies="1"><shapes><shape id="0"/></shapes>'
        '<result id="0"/><solutions><solution><assembly>0 0 0 0</assembly>'
        f"{disassembly}</solution></solutions></problem></problems></puzzle>"
    )
    return gzip.compress(text.encode())


def test_a_disassembly_with_non_ascii_names_is_kept():
    stored = '<separation><piécé nämé="ü">ß €</piécé></separation>'
    loaded = parse_xmpuzzle(solved(stored), "t.xmpuzzle")
    assert loaded.problems[0].stored[0].disassembly == stored


def test_a_disassembly_nested_too_deep_is_refused():
    depth = 100_000
    deep = "<separation>" + "<a>" * depth + "</a>" * depth + "</separation>"
    with pytest.raises(XmpuzzleError) as caught:
        parse_xmpuzzle(solved(deep), "t.xmpuzzle")
    assert str(caught.value) == (
        "t.xmpuzzle: puzzle/problems/problem[1]/solutions/solution[1]/separation[1]: "
        "the disassembly is nested more than 200 levels deep"
    )
    kept = "<separation>" + "<a>" * 199 + "x" + "</a>" * 199 + "</separation>"
    assert parse_xmpuzzle(solved(kept), "t.xmpuzzle").problems[0].stored[0].disassembly == kept

"""`slidelab polycube FILE.xmpuzzle` and `--export-xmpuzzle`, through slidelab.cli.main."""

from __future__ import annotations

import json

import pytest

from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.cli import main
from slidelab.library import shipped_text

from .conftest import xml
from .made import DATA


def test_distinct_text_and_json_of_a_made_file(capsys: pytest.CaptureFixture[str]) -> None:
    dominoes = str(DATA / "dominoes.xmpuzzle")
    assert main(["polycube", dominoes, "--problem", "square", "--distinct"]) == 0
    assert capsys.readouterr().out == (
        "2 assemblies in the fixed result, 1 as BurrTools counts them (up to the result's "
        "8 rotations and 8 reflections)\n"
        "BurrTools recorded assemblies 1, solutions 1 (assemblies it could also take apart)\n"
    )
    assert main(["polycube", dominoes, "--problem", "rectangle", "--distinct", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["solutions"], result["distinct"], result["symmetries"]) == (3, 2, 8)
    assert result["problem"] == "rectangle" and result["mirror"] is False
    recorded = result["recorded_by_burrtools"]
    assert (recorded["state"], recorded["assemblies"], recorded["solutions"]) == ("solved", 2, 2)
    assert "not slidelab's" in recorded["note"] and "--disassemble" in recorded["note"]


def test_count_and_choosing_a_problem_of_a_made_file(capsys: pytest.CaptureFixture[str]) -> None:
    screws = str(DATA / "screws.xmpuzzle")
    assert main(["polycube", screws, "--count"]) == 2
    assert capsys.readouterr().err == (
        f"slidelab: {screws}: problems: the file has problems 1: 'either screw', "
        "2: 'both screws'; choose with --problem\n"
    )
    assert main(["polycube", screws, "--problem", "both screws", "--count"]) == 0
    assert capsys.readouterr().out == "1\n"
    assert main(["polycube", screws, "--problem", "1", "--count", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solutions"] == 2 and "recorded_by_burrtools" not in result
    assert main(["polycube", screws, "--problem", "3"]) == 2
    assert capsys.readouterr().err.endswith(
        "problems: no problem '3'; the file has 1: 'either screw', 2: 'both screws'\n"
    )


def test_listing_a_made_file(capsys: pytest.CaptureFixture[str]) -> None:
    screws = str(DATA / "screws.xmpuzzle")
    assert main(["polycube", screws, "--problem", "either screw"]) == 0
    blocks = capsys.readouterr().out.strip().split("\n\n")
    assert sorted(blocks) == ["S1 0,0,0 0,1,0 1,0,0 1,0,1", "S2 0,0,0 0,1,0 0,1,1 1,0,0"]
    assert main(["polycube", screws, "--problem", "both screws", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["found"]
    assert found == [[
        {"piece": "S1", "cells": [[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]]},
        {"piece": "S2", "cells": [[2, 0, 0], [2, 0, 1], [3, 0, 0], [3, 1, 0]]},
    ]]  # fmt: skip


def test_distinct_text_and_json(examples, capsys):
    cage = str(examples / "CubeInCage.xmpuzzle")
    assert main(["polycube", cage, "--distinct"]) == 0
    assert capsys.readouterr().out == (
        "1152 assemblies in the fixed result, 96 as BurrTools counts them (up to the result's "
        "12 rotations and 12 reflections)\n"
        "BurrTools recorded assemblies 96, solutions 1 (assemblies it could also take apart)\n"
    )
    assert main(["polycube", cage, "--distinct", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["solutions"], result["distinct"], result["symmetries"]) == (1152, 96, 24)
    assert result["problem"] == "g" and result["mirror"] is False
    recorded = result["recorded_by_burrtools"]
    assert (recorded["state"], recorded["assemblies"], recorded["solutions"]) == ("solved", 96, 1)
    assert "not slidelab's" in recorded["note"] and "--disassemble" in recorded["note"]


def test_count_and_choosing_a_problem(examples, capsys):
    demo = str(examples / "DemoMirrorParadox.xmpuzzle")
    assert main(["polycube", demo, "--count"]) == 2
    assert capsys.readouterr().err == (
        f"slidelab: {demo}: problems: the file has problems 1: 'Example From Text', "
        "2: 'Another Example'; choose with --problem\n"
    )
    assert main(["polycube", demo, "--problem", "Another Example", "--count"]) == 0
    assert capsys.readouterr().out == "48\n"
    assert main(["polycube", demo, "--problem", "1", "--count", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solutions"] == 2 and "recorded_by_burrtools" not in result
    assert main(["polycube", demo, "--problem", "3"]) == 2
    assert capsys.readouterr().err.endswith(
        "problems: no problem '3'; the file has 1: 'Example From Text', 2: 'Another Example'\n"
    )


def test_listing(examples, capsys):
    demo = str(examples / "DemoMirrorParadox.xmpuzzle")
    assert main(["polycube", demo, "--problem", "Example From Text"]) == 0
    blocks = capsys.readouterr().out.strip().split("\n\n")
    assert blocks[0] == "S2 0,0,0 0,1,0 0,1,1 0,2,0 1,2,0\nS2 1,0,0 2,0,0 2,1,0 2,1,1 2,2,0"
    assert len(blocks) == 2 and blocks[1].startswith("S3 ")
    assert main(["polycube", demo, "--problem", "Example From Text", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["found"]
    assert found[0][0] == {"piece": "S2", "cells": [[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 2, 0],
                                                     [1, 2, 0]]}  # fmt: skip


def test_export_a_spec_and_solve_it(tmp_path, capsys):
    spec = tmp_path / "soma.pcube"
    spec.write_text(shipped_text("polycube", "soma.pcube"))
    out = tmp_path / "soma.xmpuzzle"
    assert main(["polycube", str(spec), "--export-xmpuzzle", str(out)]) == 0
    assert capsys.readouterr().out == ""
    exported = read_xmpuzzle(out)
    assert exported.problems[0].name == "soma" and len(exported.shapes) == 8
    assert main(["polycube", str(out), "--distinct", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["solutions"], result["distinct"]) == (11520, 240)
    again = tmp_path / "again.xmpuzzle"
    assert main(["polycube", str(out), "--export-xmpuzzle", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()


def test_no_assembly_and_refusals(tmp_path, capsys):
    empty = tmp_path / "none.xmpuzzle"
    shapes = (
        '<voxel x="2" y="1" z="1" type="0">##</voxel><voxel x="1" y="1" z="1" type="0">#</voxel>'
    )
    empty.write_bytes(
        xml(shapes, '<problem><shapes><shape id="0"/></shapes><result id="1"/></problem>')
    )
    assert main(["polycube", str(empty), "--count"]) == 1
    assert capsys.readouterr().out == "0\n"
    for flag, message in (
        (
            "--mirror",
            "--mirror does not apply to .xmpuzzle files: BurrTools never turns pieces over",
        ),
        ("--dlx", "--dlx does not apply to .xmpuzzle files, only to polycube specs"),
    ):
        assert main(["polycube", str(empty), flag]) == 2
        assert capsys.readouterr().err == f"slidelab: {message}\n"
    spec = tmp_path / "tiny.pcube"
    spec.write_text("[01]00\nU 000\n")
    assert main(["polycube", str(spec), "--problem", "x"]) == 2
    assert capsys.readouterr().err == "slidelab: --problem applies to .xmpuzzle files only\n"
    out = str(tmp_path / "t.xmpuzzle")
    assert main(["polycube", str(spec), "--mirror", "--export-xmpuzzle", out]) == 2
    assert capsys.readouterr().err == (
        "slidelab: --mirror cannot be exported: BurrTools never turns pieces over\n"
    )


def test_malformed_files_give_one_line_not_a_traceback(tmp_path, capsys):
    truncated = tmp_path / "cut.xmpuzzle"
    truncated.write_bytes(xml('<voxel x="1" y="1" z="1" type="0">#</voxel>')[:30])
    assert main(["polycube", str(truncated), "--count"]) == 2
    assert capsys.readouterr().err == (
        f"slidelab: {truncated}: gzip stream: the file ends inside the compressed data "
        "(truncated?)\n"
    )
    grid = tmp_path / "spheres.xmpuzzle"
    grid.write_bytes(xml("", grid=2))
    assert main(["polycube", str(grid)]) == 2
    assert capsys.readouterr().err == (
        f"slidelab: {grid}: puzzle/gridType: grid type 2 (spheres) is not supported: slidelab "
        "reads the cube grid (type 0) only\n"
    )
    assert main(["polycube", str(tmp_path / "missing.xmpuzzle")]) == 2
    assert "missing.xmpuzzle: cannot read" in capsys.readouterr().err

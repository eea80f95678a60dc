"""`slidelab polycube`: output forms, JSON fields and exit statuses."""

from __future__ import annotations

import json

import pytest

from slidelab.cli import main
from slidelab.exactcover.dlxformat import parse_problem
from slidelab.library import shipped_text


@pytest.fixture
def soma(tmp_path):
    path = tmp_path / "soma.pcube"
    path.write_text(shipped_text("polycube", "soma.pcube"))
    return str(path)


def test_dlx_output(soma, capsys):
    assert main(["polycube", soma, "--dlx"]) == 0
    problem = parse_problem(capsys.readouterr().out)
    assert len(problem.primary) == 34 and len(problem.options) == 688


def test_count_and_distinct(soma, capsys):
    assert main(["polycube", soma, "--count"]) == 0
    assert capsys.readouterr().out == "11520\n"
    assert main(["polycube", soma, "--distinct"]) == 0
    assert "11,520 solutions, 240 distinct" in capsys.readouterr().out


def test_json(soma, capsys):
    assert main(["polycube", soma, "--distinct", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solutions"] == 11520 and result["distinct"] == 240
    assert result["symmetries"] == 48 and result["reflections"] is True
    assert main(["polycube", soma, "--count", "--json", "--mirror"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["mirror"] is True and "distinct" not in result


def test_listing(tmp_path, capsys):
    path = tmp_path / "tiny.pcube"
    path.write_text("[01][01]0\nL 000 100 010\nU 000\n")
    assert main(["polycube", str(path)]) == 0
    blocks = capsys.readouterr().out.strip().split("\n\n")
    assert len(blocks) == 4 and blocks[0].splitlines()[0].startswith("L ")
    assert main(["polycube", str(path), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["found"]
    assert found[0][1] == {"piece": "U", "cells": [found[0][1]["cells"][0]]}


def test_no_solution_and_bad_input(tmp_path, capsys):
    none = tmp_path / "none.pcube"
    none.write_text("[01]00\nU 000\n")
    assert main(["polycube", str(none), "--count"]) == 1
    bad = tmp_path / "bad.pcube"
    bad.write_text("0[3-2]0\n")
    assert main(["polycube", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"{bad}:1:5: decreasing range")
    assert main(["polycube", str(tmp_path / "missing.pcube")]) == 2


@pytest.mark.parametrize("options", [["--count"], [], ["--distinct"], ["--json"]])
def test_a_piece_that_fits_nowhere_is_named_with_its_line(tmp_path, capsys, options):
    path = tmp_path / "long.pcube"
    path.write_text("| a 1 x 3 x 3 box\n[0-0][0-2][0-2]\nA 000\nB 000 010 020 030\nA 001\n")
    assert main(["polycube", str(path), *options]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"{path}:4:1: piece B fits nowhere in the box\n"
    assert captured.out == ""


def test_the_dlx_of_a_piece_that_fits_nowhere_is_written_as_the_seed_writes_it(tmp_path, capsys):
    path = tmp_path / "long.pcube"
    path.write_text("[0-0][0-2][0-2]\nB 000 010 020 030\n")
    assert main(["polycube", str(path), "--dlx"]) == 0
    problem = parse_problem(capsys.readouterr().out)
    assert "B" in problem.primary and problem.options == ()

"""Taking BurrTools' examples apart: the figures and disassemblies its files record."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from slidelab.burrtools.disassemblies import search_disassemblies
from slidelab.burrtools.packing import build_packing
from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.burrtools.stored import stored_assembly, stored_level, stored_separation
from slidelab.cli import main
from slidelab.disassembly.model import separations
from slidelab.disassembly.search import first_separation
from slidelab.runs import drive

STORED = [
    # file, level of its stored disassembly (moves to each separation, as BurrTools saved it)
    ("CubeInCage.xmpuzzle", (4, 9, 3)),
    ("DraculasDentalDesaster.xmpuzzle", (3, 5, 16, 6, 4, 1, 1, 1)),
    ("PelikanBurr.xmpuzzle", (98, 1, 2, 1, 4, 2)),
]


@pytest.mark.parametrize(("name", "level"), STORED)
def test_every_stored_separation_is_as_short_as_the_search_finds(examples, name, level):
    """From where each stored separation starts, the fewest moves to a separation are the
    stored moves.  (Which set leaves may differ: several can leave after as many moves, and
    the two searches meet the positions in another order.)"""
    path = str(examples / name)
    puzzle = read_xmpuzzle(path)
    (solution,) = puzzle.problems[0].stored
    stored = stored_assembly(puzzle, 0, solution, path)
    tree = stored_separation(stored, solution.disassembly)
    assert tree.level == level == stored_level(solution.disassembly)
    for separation in separations(tree):
        moves, removed = first_separation(stored.assembly, separation.pieces, separation.start)
        assert len(moves) == len(separation.moves)
        assert 0 < len(removed) < len(separation.pieces)


@pytest.mark.parametrize(
    ("name", "assemblies", "first", "separations"),
    [
        ("CubeInCage.xmpuzzle", 96, 4, 3),
        ("DraculasDentalDesaster.xmpuzzle", 84, 3, 8),
        ("PelikanBurr.xmpuzzle", 12, 98, 6),
    ],
)
def test_one_assembly_comes_apart_in_as_many_moves_as_burrtools_took(
    examples, name, assemblies, first, separations
):
    puzzle = read_xmpuzzle(examples / name)
    counted = drive(search_disassemblies(build_packing(puzzle, 0), distinct=True))
    assert (counted.assemblies, counted.disassemblable) == (assemblies, 1)
    assert puzzle.problems[0].solutions == 1
    (taken,) = [r for r in counted.results if r.disassembly.separable]
    assert taken.disassembly.first_separation == first
    assert len(taken.disassembly.level) == separations == len(separations_of(taken))
    assert taken.disassembly.level == counted.highest_level


def separations_of(taken):
    return separations(taken.disassembly.separation)


def test_solid_six_piece_burrs_314_of_1063_come_apart_at_burrtools_levels(examples):
    puzzle = read_xmpuzzle(examples / "SolidSixPieceBurrs.xmpuzzle")
    counted = drive(search_disassemblies(build_packing(puzzle, 0), distinct=True))
    assert (counted.assemblies, counted.disassemblable) == (1063, 314)
    ours = Counter(r.disassembly.level for r in counted.results if r.disassembly.separable)
    recorded = Counter(stored_level(s.disassembly) for s in puzzle.problems[0].stored)
    assert ours == recorded == Counter({(1, 1, 1, 1, 1): 257, (1, 2, 1, 1, 1): 57})


def test_the_command_line_takes_cube_in_cage_apart(examples, capsys):
    cage = str(examples / "CubeInCage.xmpuzzle")
    assert main(["polycube", cage, "--disassemble", "--distinct"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1 of 96 distinct assemblies come apart; highest level 4.9.3"
    assert lines[1].endswith(": level 4.9.3")
    assert (
        lines[2]
        == "BurrTools recorded assemblies 96, solutions 1 (assemblies it could also take apart)"
    )
    assert main(["polycube", cage, "--disassemble", "--distinct", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["assemblies"], result["disassemblable"], result["highest_level"]) == (
        96,
        1,
        [4, 9, 3],
    )
    (taken,) = result["disassemblies"]
    assert taken["first_separation"] == 4 and taken["level"] == [4, 9, 3]
    assert [len(moves) for moves in taken["moves"]] == [4, 9, 3]
    assert taken["moves"][0][-1]["distance"] is None
    assert {move["direction"] for moves in taken["moves"] for move in moves} <= {
        "+x", "-x", "+y", "-y", "+z", "-z"
    }  # fmt: skip


def test_a_spec_is_taken_apart_too(tmp_path, capsys):
    spec = tmp_path / "pair.pcube"
    spec.write_text("[0-1]00\nA 000\nB 000\n")
    assert main(["polycube", str(spec), "--disassemble"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "2 of 2 assemblies in the fixed result come apart; highest level 1",
        "assembly 1: level 1",
        "assembly 2: level 1",
    ]


def test_unit_moves_need_disassemble(examples, capsys):
    assert main(["polycube", str(examples / "CubeInCage.xmpuzzle"), "--unit-moves"]) == 2
    assert capsys.readouterr().err == "slidelab: --unit-moves applies to --disassemble only\n"

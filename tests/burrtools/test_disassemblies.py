"""Taking BurrTools' examples apart: the figures and disassemblies its files record."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.burrtools.disassemblies import search_disassemblies
from slidelab.burrtools.model import Shape, Voxel
from slidelab.burrtools.packing import build_packing
from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.burrtools.stored import (
    burrtools_rotation,
    problem_pieces,
    stored_assembly,
    stored_level,
    stored_place,
    stored_separation,
)
from slidelab.cli import main
from slidelab.disassembly.model import separations
from slidelab.disassembly.search import disassemble, first_separation
from slidelab.runs import drive


def stored_disassemblies(examples):
    """Every stored solution of the example files that keeps its disassembly: the file's name,
    the solution's assembly and the disassembly's text."""
    for path in sorted(examples.glob("*.xmpuzzle")):
        puzzle = read_xmpuzzle(path)
        for index, problem in enumerate(puzzle.problems):
            for solution in problem.stored:
                if solution.disassembly is not None:
                    stored = stored_assembly(puzzle, index, solution, str(path))
                    yield path.name, stored, solution.disassembly


def shape(tree):
    """A separation tree as comparable values: for each separation its pieces, where they
    stand seen from the first (a whole part shifted is the same position), its moves and the
    pieces that leave."""
    return [(s.pieces, normal(s.start), s.moves, s.removed_pieces) for s in separations(tree)]


def normal(places):
    ax, ay, az = places[0]
    return tuple((x - ax, y - ay, z - az) for x, y, z in places)


def test_each_stored_assembly_comes_apart_as_burrtools_took_it_apart(examples):
    """Taken apart from its stored assembly, every stored solution gets its stored level (the
    314 of SolidSixPieceBurrs keep only that); where the stored tree is kept, the first
    separation splits the pieces as the stored one does and the whole tree is the stored
    one: the same moves (the same pieces the same way and as far) and the same pieces
    leaving at every separation.  So BurrTools' order is the search's, tie for tie."""
    levels = Counter()
    trees = []
    for name, stored, text in stored_disassemblies(examples):
        found = disassemble(stored.assembly)
        assert found.level == stored_level(text), name
        levels[name] += 1
        tree = stored_separation(stored, text)
        if tree is not None:
            parts = {
                tree.removed_pieces,
                tuple(sorted(set(tree.pieces) - set(tree.removed_pieces))),
            }
            ours = found.separation
            assert ours.removed_pieces in parts, name
            assert shape(ours) == shape(tree), name
            trees.append((name, found.level))
    assert levels == {
        "AlPackino.xmpuzzle": 1,
        "CubeInCage.xmpuzzle": 1,
        "DraculasDentalDesaster.xmpuzzle": 1,
        "PelikanBurr.xmpuzzle": 1,
        "SolidSixPieceBurrs.xmpuzzle": 314,
    }
    assert trees == [
        ("AlPackino.xmpuzzle", (1, 1, 1, 1, 1, 2, 1, 3, 1, 2, 1, 2)),
        ("CubeInCage.xmpuzzle", (4, 9, 3)),
        ("DraculasDentalDesaster.xmpuzzle", (3, 5, 16, 6, 4, 1, 1, 1)),
        ("PelikanBurr.xmpuzzle", (98, 1, 2, 1, 4, 2)),
    ]


def test_from_where_each_stored_separation_starts_the_search_makes_its_moves(examples):
    """`first_separation` from the start of every stored separation (a part, placed as
    BurrTools left it) finds the stored moves and the stored pieces leaving."""
    for name, stored, text in stored_disassemblies(examples):
        for separation in separations(stored_separation(stored, text)):
            moves, removed = first_separation(stored.assembly, separation.pieces, separation.start)
            assert (moves, removed) == (separation.moves, separation.removed_pieces), name


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


def test_burrtools_rotation_numbers_place_every_stored_piece(examples):
    """Each stored piece is its shape turned by its rotation number about the hotspot and
    set there: the numbers occurring in the examples check the rule for all 24."""
    seen = set()
    for path in sorted(examples.glob("*.xmpuzzle")):
        puzzle = read_xmpuzzle(path)
        for index, problem in enumerate(puzzle.problems):
            parts = problem_pieces(puzzle, index)
            for solution in problem.stored:
                stored = stored_assembly(puzzle, index, solution, str(path))
                for number, piece in zip(stored.numbers, stored.assembly.pieces, strict=True):
                    place = solution.assembly[number]
                    shape = puzzle.shapes[parts[number].shape]
                    turned = {
                        tuple(
                            c + p
                            for c, p in zip(
                                burrtools_rotation(
                                    place.transformation, _less(cell, shape.hotspot)
                                ),
                                (place.x, place.y, place.z),
                                strict=True,
                            )
                        )
                        for cell in shape.cells
                    }
                    assert turned == set(piece.cells)
                    seen.add(place.transformation)
    assert len(seen) == 19


def _less(a, b):
    return tuple(x - y for x, y in zip(a, b, strict=True))


@settings(max_examples=100, deadline=None)
@given(
    st.sets(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=6
    ),
    st.integers(0, 23),
    st.tuples(st.integers(-5, 5), st.integers(-5, 5), st.integers(-5, 5)),
    st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
)
def test_a_piece_s_stored_place_turns_its_shape_onto_its_cells(cells, number, at, hotspot):
    shape = Shape((4, 4, 4), tuple(Voxel(c, "#") for c in sorted(cells)), hotspot=hotspot)
    placed = tuple(
        sorted(
            tuple(
                a + b
                for a, b in zip(at, burrtools_rotation(number, _less(c, hotspot)), strict=True)
            )
            for c in cells
        )
    )
    place = stored_place(shape, placed)
    again = {
        tuple(
            a + b
            for a, b in zip(
                (place.x, place.y, place.z),
                burrtools_rotation(place.transformation, _less(c, hotspot)),
                strict=True,
            )
        )
        for c in cells
    }
    assert again == set(placed) and place.transformation <= number


@pytest.mark.parametrize(
    ("name", "level"),
    [
        ("CubeInCage.xmpuzzle", (4, 9, 3)),
        ("DraculasDentalDesaster.xmpuzzle", (3, 5, 16, 6, 4, 1, 1, 1)),
        ("PelikanBurr.xmpuzzle", (98, 1, 2, 1, 4, 2)),
    ],
)
def test_disassemblies_are_written_as_burrtools_stores_them_and_read_back(
    examples, tmp_path, capsys, name, level
):
    """The assembly written is the one the example stores, placement for placement, and it
    reads back with the stored level."""
    out = tmp_path / name
    assert main(["polycube", str(examples / name), "--distinct", "--disassemble",
                 "--export-xmpuzzle", str(out)]) == 0  # fmt: skip
    capsys.readouterr()
    written = read_xmpuzzle(out)
    problem = written.problems[0]
    assert (problem.state, problem.solutions) == (2, 1)
    (solution,) = problem.stored
    (original,) = read_xmpuzzle(examples / name).problems[0].stored
    assert solution.assembly == original.assembly
    stored = stored_assembly(written, 0, solution, str(out))
    tree = stored_separation(stored, solution.disassembly)
    assert tree.level == level == stored_level(solution.disassembly)
    assert shape(disassemble(stored.assembly).separation) == shape(tree)
    for separation in separations(tree):
        moves, _ = first_separation(stored.assembly, separation.pieces, separation.start)
        assert moves == separation.moves


@pytest.mark.parametrize(
    "name",
    [
        "AlPackino.xmpuzzle",
        "CubeInCage.xmpuzzle",
        "DraculasDentalDesaster.xmpuzzle",
        "PelikanBurr.xmpuzzle",
    ],
)
def test_the_listed_assembly_that_comes_apart_is_burrtools_stored_one(examples, name):
    """Of each class slidelab lists the assembly BurrTools keeps (`slidelab.burrtools.order`),
    so the one that comes apart is the stored one, its pieces in the stored order (copies of a
    part in BurrTools' order: AlPackino's three parts four times each), and it comes apart as
    the stored tree does, tie for tie (PelikanBurr's last separation included: 98.1.2.1.4.2,
    where a turned copy of the stored assembly gives 98.1.2.1.4.1)."""
    path = examples / name
    puzzle = read_xmpuzzle(path)
    (solution,) = puzzle.problems[0].stored
    stored = stored_assembly(puzzle, 0, solution, str(path))
    counted = drive(search_disassemblies(build_packing(puzzle, 0), distinct=True))
    (taken,) = [r for r in counted.results if r.disassembly.separable]
    assert [p.cells for p in taken.assembly.pieces] == [
        tuple(sorted(p.cells)) for p in stored.assembly.pieces
    ]
    tree = stored_separation(stored, solution.disassembly)
    assert shape(taken.disassembly.separation) == shape(tree)
    assert taken.disassembly.level == tree.level == stored_level(solution.disassembly)


def test_copies_of_a_part_are_written_in_burrtools_order(examples, tmp_path, capsys):
    """AlPackino's three parts used four times each: the copies take their part's piece
    numbers in the order of their places (rotation number, then x, y, z), as BurrTools sorts
    them, so the assembly written is the stored one."""
    out = tmp_path / "AlPackino.xmpuzzle"
    assert main(["polycube", str(examples / "AlPackino.xmpuzzle"), "--distinct", "--disassemble",
                 "--export-xmpuzzle", str(out)]) == 0  # fmt: skip
    capsys.readouterr()
    (solution,) = read_xmpuzzle(out).problems[0].stored
    (original,) = read_xmpuzzle(examples / "AlPackino.xmpuzzle").problems[0].stored
    assert solution.assembly == original.assembly
    places = [(p.transformation, p.x, p.y, p.z) for p in solution.assembly]
    assert all(places[k : k + 4] == sorted(places[k : k + 4]) for k in (1, 5, 9))

"""Spec to exact cover: the seed's items and options, multiplicities, mirrors and counts."""

from __future__ import annotations

import pytest

from slidelab.exactcover.dlxformat import parse_problem
from slidelab.exactcover.search import count_solutions
from slidelab.library import load_shipped, shipped_text
from slidelab.memory import MemoryBudget, MemoryBudgetError
from slidelab.polycube import packing as packing_module
from slidelab.polycube.family import POLYCUBE
from slidelab.polycube.packing import build_packing, format_dlx, packing_steps, solution_numbers
from slidelab.polycube.reference import count_with_labelled_copies
from slidelab.polycube.rotations import ROTATIONS, apply, normalize
from slidelab.polycube.spec import cell_name, parse_spec
from slidelab.runs import Progress, drive


def seed_options(spec_text: str) -> set[frozenset[str]]:
    """The seed's options, built independently: 24 rotation matrices, every shift in the box."""
    spec = parse_spec(spec_text)
    box = set(spec.box)
    options = set()
    for piece in spec.pieces:
        for shape in piece.shapes:
            for m in ROTATIONS:
                turned = normalize(apply(m, c) for c in shape)
                for dx, dy, dz in box:
                    cells = {(x + dx, y + dy, z + dz) for x, y, z in turned}
                    if cells <= box:
                        options.add(frozenset({piece.name, *(cell_name(c) for c in cells)}))
    return options


def test_soma_dlx_has_the_seeds_items_and_options():
    text = shipped_text("polycube", "soma.pcube")
    problem = parse_problem(format_dlx(build_packing(parse_spec(text)), echo=text))
    cells = [f"{x}{y}{z}" for x in "012" for y in "012" for z in "012"]
    assert problem.primary == (*cells, "V", "L", "T", "Z", "A", "B", "P")
    assert problem.secondary == ()
    options = [frozenset(item for item, _ in option) for option in problem.options]
    assert len(options) == len(set(options)) == 688
    assert set(options) == seed_options(text)


def test_dlx_echoes_the_spec_and_writes_multiplicities_the_engine_reads():
    text = "| tiny\n[01][01]0\n2*D 000 100\n"
    dlx = format_dlx(build_packing(parse_spec(text)), echo=text)
    assert dlx.splitlines()[:3] == ["| | tiny", "| [01][01]0", "| 2*D 000 100"]
    assert "000 010 100 110 2|D" in dlx.splitlines()
    problem = parse_problem(dlx)
    assert problem.bounds[-1] == (2, 2)
    assert [tuple(i for i, _ in o) for o in problem.options] == [
        ("D", "000", "100"),
        ("D", "010", "110"),
        ("D", "000", "010"),
        ("D", "100", "110"),
    ]
    assert count_solutions(problem) == 2


def test_option_order_follows_the_seed():
    packing = build_packing(parse_spec("[0-2]00 0[0-2]0\nI 000 100\n"))
    assert [p.cells for p in packing.placements] == [
        ((0, 0, 0), (1, 0, 0)),
        ((1, 0, 0), (2, 0, 0)),
        ((0, 0, 0), (0, 1, 0)),
        ((0, 1, 0), (0, 2, 0)),
    ]


def test_lines_of_one_piece_are_merged_without_repeating_placements():
    one = build_packing(parse_spec("[0-2][0-2]0\nV 000 100 010\n"))
    two = build_packing(parse_spec("[0-2][0-2]0\nV 000 100 010\nV 000 010 110\nW 000\n"))
    assert [p for p in two.placements if p.piece == "V"] == list(one.placements)


def test_soma_cube_has_11520_solutions():
    assert (
        count_solutions(build_packing(load_shipped("polycube", "soma.pcube", parse_spec)).problem)
        == 11520
    )


def test_flat_pentominoes_in_6x10x1_give_9356_without_mirror():
    packing = build_packing(load_shipped("polycube", "pentominoes-6x10x1.pcube", parse_spec))
    assert len(packing.placements) == 2056
    assert count_solutions(packing.problem) == 9356


def test_mirror_adds_the_reflected_placements():
    text = "[0-2][0-1][0-1]\nB 000 100 010 101\n"
    plain = build_packing(parse_spec(text))
    mirrored = build_packing(parse_spec(text), with_mirror=True)
    assert len(mirrored.placements) == 2 * len(plain.placements)
    assert set(plain.placements) < set(mirrored.placements)
    flat = "[0-2][0-2]0\nL 000 100 200 010\n"  # a flat piece is its own mirror image in 3-D
    assert len(build_packing(parse_spec(flat), with_mirror=True).placements) == len(
        build_packing(parse_spec(flat)).placements
    )


def test_copies_are_indistinguishable():
    for text in (
        "[0-3][0-2]0\n4*L 000 100 010\n",
        "[0-1][0-2][0-1]\n2*L 000 100 010\nD 000 001\n4*U 000\n",
    ):
        spec = parse_spec(text)
        counted = count_solutions(build_packing(spec).problem)
        assert counted == count_with_labelled_copies(spec) > 0


def test_solutions_decode_to_pieces_and_cells():
    packing = build_packing(parse_spec("[01][01]0\nL 000 100 010\nU 000\n"))
    decoded = [packing.decode(s) for s in solution_numbers(packing.problem)]
    assert len(decoded) == 4
    for placements in decoded:
        assert [p.piece for p in placements] == ["L", "U"]
        assert sorted(c for p in placements for c in p.cells) == list(packing.spec.box)


PENTOMINOES_IN_A_CUBE = shipped_text(POLYCUBE, "solid-pentominoes-2x3x10.pcube").replace(
    "[01][0-2][0-9]", "[0-5][0-5][0-5]"
)
"""The twelve pentominoes in a 6x6x6 box: thousands of placements (and no solution)."""


def test_placing_pieces_is_a_phase_with_progress_and_the_same_packing(monkeypatch):
    monkeypatch.setattr(packing_module, "PROGRESS_SECONDS", 0.0)
    spec = parse_spec(PENTOMINOES_IN_A_CUBE)
    events: list[Progress] = []
    packing = drive(packing_steps(spec), on_progress=events.append)
    phases = [e.phase for e in events]
    assert phases.count("placing pieces") > 100
    tables = phases.index("building tables")
    assert set(phases[:tables]) == {"placing pieces"}
    assert set(phases[tables + 1 :]) <= {"checking the options"}
    assert packing == build_packing(spec)


def test_closing_the_build_after_its_first_progress_stops_it(monkeypatch):
    monkeypatch.setattr(packing_module, "PROGRESS_SECONDS", 0.0)
    steps = packing_steps(parse_spec(PENTOMINOES_IN_A_CUBE))
    first = next(steps)
    assert (first.phase, first.explored) == ("placing pieces", 64)
    steps.close()
    with pytest.raises(StopIteration):
        next(steps)


def test_the_build_is_refused_once_it_passes_its_memory_budget(monkeypatch):
    monkeypatch.setattr(packing_module, "PROGRESS_SECONDS", 0.0)
    budget = MemoryBudget.of(1 << 20)
    with pytest.raises(MemoryBudgetError) as refused:
        drive(packing_steps(parse_spec(PENTOMINOES_IN_A_CUBE), budget=budget))
    assert str(refused.value) == (
        "placing the pieces would need 1.0 MiB, more than the limit set by --max-memory (1.0 MiB)"
    )

"""A BurrTools problem as exact cover: items, bounds, colour rules and unusable problems."""

from __future__ import annotations

import pytest

from slidelab.burrtools import packing
from slidelab.burrtools.convert import puzzle_from_spec
from slidelab.burrtools.model import (
    FIXED,
    BurrProblem,
    Part,
    Puzzle,
    Shape,
    Voxel,
    XmpuzzleError,
)
from slidelab.burrtools.packing import build_packing, packing_steps
from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.library import shipped_text
from slidelab.memory import MemoryBudget, MemoryBudgetError
from slidelab.polycube.packing import solution_numbers
from slidelab.polycube.spec import parse_spec
from slidelab.runs import Progress, drive
from tests.polycube.test_packing import PENTOMINOES_IN_A_CUBE

from .conftest import puzzle
from .made import DATA

RED_BLUE = '<color red="255" green="0" blue="0"/><color red="0" green="0" blue="255"/>'
DOMINO = '<voxel x="2" y="1" z="1" type="0">#1#2</voxel>'


def bitmap(*pairs: tuple[int, int]) -> str:
    """A <bitmap> allowing the given (piece, result) colour pairs, written from 0."""
    return "<bitmap>" + "".join(f'<pair piece="{p}" result="{r}"/>' for p, r in pairs) + "</bitmap>"


def one_problem(shapes: str, parts: str, extra: str = "", colours: str = RED_BLUE):
    problem = f"<problem><shapes>{parts}</shapes>{extra}</problem>"
    return build_packing(puzzle(shapes, problem, colours), 0, "t.xmpuzzle")


def test_items_and_bounds_of_made_files() -> None:
    dominoes = read_xmpuzzle(DATA / "dominoes.xmpuzzle")
    ranges = build_packing(dominoes, 2)
    cover = ranges.exact_cover
    assert cover.secondary == ((1, 1, 0),)  # the variable corner
    assert cover.primary == ((0, 0, 0), (1, 0, 0), (0, 1, 0), "S1", "S2")
    assert cover.bounds[-2:] == ((1, 2), (0, 2))
    assert len(cover.options) == len(ranges.placements) == 4 + 4  # dominoes, cubes
    square = build_packing(dominoes, 0).exact_cover
    assert not square.secondary and square.primary[-1:] == ("S1",) and square.bounds[-1] == (2, 2)
    assert len(square.options) == 4
    coloured = read_xmpuzzle(DATA / "colours.xmpuzzle")
    same, every, plain = (len(build_packing(coloured, k).placements) for k in range(3))
    assert (same, every, plain) == (2, 8, 8)  # columns red end down; 4 places either way round
    either = build_packing(read_xmpuzzle(DATA / "screws.xmpuzzle"), 0).exact_cover
    assert either.secondary == ((1, 0, 1), (0, 1, 1)) and len(either.options) == 2
    # each screw may be used 0 or 1 times and fits once at most: that bound never binds,
    # so the parts get no items
    assert not any(isinstance(item, str) for item in either.primary)


def test_items_and_bounds(examples):
    packing = build_packing(read_xmpuzzle(examples / "CubeInCage.xmpuzzle"), 0)
    cover = packing.exact_cover
    result = packing.result
    assert len(cover.secondary) == sum(v.state == "+" for v in result.voxels) == 39
    assert cover.primary[-5:] == ("S2", "S3", "S4", "S5", "S6")
    assert cover.bounds[-5:] == ((1, 1), (2, 2), (1, 1), (1, 1), (1, 1))
    assert len(cover.options) == len(packing.placements) == 342
    burrs = build_packing(read_xmpuzzle(examples / "SolidSixPieceBurrs.xmpuzzle"), 0)
    # 20 shapes, each usable 0 to 6 times, of which 6 pieces fit: no bound can bind, so no
    # part gets an item and the cells alone make an exactly-once problem
    assert not burrs.exact_cover.secondary and set(burrs.exact_cover.bounds) == {(1, 1)}
    assert not any(isinstance(item, str) for item in burrs.exact_cover.primary)


def test_a_coloured_piece_on_coloured_voxels_needs_an_allowed_pair():
    result = '<voxel x="2" y="1" z="1" type="0">#1#2</voxel>'
    parts = '<shape id="0"/>'
    nothing = one_problem(DOMINO + result, parts, '<result id="1"/>')
    assert nothing.placements == ()
    same = bitmap((0, 0), (1, 1))
    matched = one_problem(DOMINO + result, parts, '<result id="1"/>' + same)
    assert [p.voxels for p in matched.placements] == [(((0, 0, 0), 1), ((1, 0, 0), 2))]
    every = bitmap((0, 0), (1, 1), (0, 1), (1, 0))
    assert len(one_problem(DOMINO + result, parts, '<result id="1"/>' + every).placements) == 2


def test_neutral_voxels_fit_any_colour():
    neutral = '<voxel x="2" y="1" z="1" type="0">##</voxel>'
    packing = one_problem(DOMINO + neutral, '<shape id="0"/>', '<result id="1"/>')
    assert len(packing.placements) == 2  # both ways round, told apart by their colours
    plain = '<voxel x="2" y="1" z="1" type="0">##</voxel>'
    uncoloured = one_problem(plain + neutral, '<shape id="0"/>', '<result id="1"/>', "")
    assert len(uncoloured.placements) == 1


def test_variable_voxels_may_stay_empty():
    cube = '<voxel x="1" y="1" z="1" type="0">#</voxel>'
    result = '<voxel x="3" y="1" z="1" type="0">#+#</voxel>'
    packing = one_problem(cube + result, '<shape id="0" min="2" max="3"/>', '<result id="1"/>')
    found = sorted(len(s) for s in solution_numbers(packing.exact_cover))
    assert found == [2, 3]


CUBE = '<voxel x="1" y="1" z="1" type="0">#</voxel>'
UNUSABLE = [
    ('<shape id="0"/>', "", "it has no result shape"),
    ("", '<result id="0"/>', "it has no pieces"),
    ('<shape id="0"/>', '<result id="1"/>', "its result shape S2 is empty"),
    ('<shape id="1"/>', '<result id="0"/>', "its piece S2 is empty"),
    ('<shape id="2"/>', '<result id="0"/>',
     "its piece S3 has variable voxels; BurrTools allows them only in result shapes"),
]  # fmt: skip


@pytest.mark.parametrize(("parts", "extra", "message"), UNUSABLE)
def test_unusable_problems(parts, extra, message):
    shapes = CUBE + '<voxel x="1" y="1" z="1" type="0">_</voxel>'
    shapes += '<voxel x="1" y="1" z="1" type="0">+</voxel>'
    with pytest.raises(XmpuzzleError) as caught:
        one_problem(shapes, parts, extra)
    assert str(caught.value) == f"t.xmpuzzle: problem 'P1': {message}"


def test_max_holes_is_refused():
    shapes = CUBE + '<voxel x="2" y="1" z="1" type="0">#+</voxel>'
    problem = '<problem name="h" maxHoles="1"><shapes><shape id="0"/></shapes><result id="1"/>'
    with pytest.raises(XmpuzzleError) as caught:
        build_packing(puzzle(shapes, problem + "</problem>"), 0, "t.xmpuzzle")
    assert str(caught.value) == (
        "t.xmpuzzle: problem 'h': maxHoles (at most 1 empty variable voxels) is not supported"
    )


def test_placing_pieces_yields_progress_while_nothing_fits(monkeypatch) -> None:
    monkeypatch.setattr(packing, "PROGRESS_SECONDS", 0.0)
    corners = (Voxel((0, 0, 0), FIXED), Voxel((99, 99, 99), FIXED))
    sparse = Puzzle(
        shapes=(Shape((1, 1, 2), (Voxel((0, 0, 0), FIXED), Voxel((0, 0, 1), FIXED))),
                Shape((100, 100, 100), corners)),
        problems=(BurrProblem(name="", parts=(Part(0, 1, 1),), result=1),),
    )  # fmt: skip
    steps = packing_steps(sparse, 0)
    first = next(steps)
    assert (first.phase, first.explored) == ("placing pieces", 0)
    steps.close()


def test_a_big_build_is_refused_at_its_memory_budget(monkeypatch) -> None:
    monkeypatch.setattr(packing, "PROGRESS_SECONDS", 0.0)
    spec = parse_spec(PENTOMINOES_IN_A_CUBE)
    with pytest.raises(MemoryBudgetError, match=r"^placing the pieces would need "):
        drive(packing_steps(puzzle_from_spec(spec), 0, budget=MemoryBudget.of(1 << 20)))


def test_the_build_in_steps_is_the_build(monkeypatch) -> None:
    monkeypatch.setattr(packing, "PROGRESS_SECONDS", 0.0)
    made = puzzle_from_spec(parse_spec(shipped_text("polycube", "solid-pentominoes-2x3x10.pcube")))
    events: list[Progress] = []
    built = drive(packing_steps(made, 0), on_progress=events.append)
    assert len(events) > 2 and events[-1].phase == "building tables"
    assert built == build_packing(made, 0)

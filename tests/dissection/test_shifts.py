"""Orientations, stances and the legal shifts, against the seed's list."""

from __future__ import annotations

import pytest

from slidelab.dissection import search, shifts
from slidelab.dissection.model import Dissection
from slidelab.dissection.motions import oriented, stances
from slidelab.dissection.search import solve
from slidelab.dissection.shape import Shape, parse_region, parse_shape, square
from slidelab.dissection.shifts import Tables
from slidelab.library import load_shipped
from slidelab.memory import MemoryBudget, MemoryBudgetError
from slidelab.runs import drive
from tests.dissection.figures import RUNS, TOY_SHIFTS


def test_the_toy_shape_has_the_seeds_29_shifts_in_its_order():
    tables = Tables.build(square(3), load_shipped("dissection", "knuth-toy.dots", parse_shape))
    assert [p.shift for p in tables.placements] == TOY_SHIFTS
    assert len(TOY_SHIFTS) == 29


@pytest.mark.parametrize(("name", "shifts", "solutions"), RUNS)
def test_shift_counts_of_the_seeds_runs(name, shifts, solutions):
    target = load_shipped("dissection", name, parse_shape)
    assert len(Tables.build(square(target.side), target).placements) == shifts


def test_orientation_one_is_a_quarter_turn_counterclockwise():
    # The seed's t = 1 turns target cells clockwise back into the square, so pieces turn
    # counterclockwise on their way out: the top right corner comes to the top left.
    cells = ((0, 0), (0, 1), (0, 2), (1, 0))  # an L: a row of three, one cell below its left
    turned = dict(zip(cells, oriented(cells, 1), strict=True))
    assert turned[(0, 2)] == (0, 0)
    assert turned[(0, 0)] == (2, 0)


def test_stances_follow_the_sources_symmetry():
    assert [s.orientations for s in stances(square(3))] == [(0, 1, 2, 3)]
    assert [s.orientations for s in stances(square(3), flips=True)] == [tuple(range(8))]
    rectangle = parse_region("***\n***\n")
    assert [s.orientations for s in stances(rectangle)] == [(0, 2), (1, 3)]
    ell = Shape(((0, 0), (1, 0), (2, 0), (2, 1)))
    assert len(stances(ell)) == 4
    assert len(stances(ell, flips=True)) == 8


def test_every_placement_meets_the_target_and_masks_agree_with_footprints():
    target = load_shipped("dissection", "knuth-toy.dots", parse_shape)
    tables = Tables.build(square(3), target, flips=True)
    assert tables.group == 8
    for q, placement in enumerate(tables.placements):
        begin, end = tables.arrays.footprint_start[q], tables.arrays.footprint_start[q + 1]
        assert tuple(tables.arrays.footprint_target[begin:end]) == placement.footprint
        assert int(tables.arrays.target_mask[q, 0]) == sum(1 << y for y in placement.footprint)
        for i in range(tables.group):
            moved = {int(x) for x in tables.arrays.footprint_source[i, begin:end]}
            assert len(moved) == end - begin
            assert int(tables.arrays.source_mask[q, i, 0]) == sum(1 << x for x in moved)


def test_building_the_tables_is_the_solvers_first_phase(monkeypatch):
    monkeypatch.setattr(shifts, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(search, "_kept_tables", {})  # built here, not kept from another test
    target = square(12)
    events = iter(solve(Dissection(square(12), target, 4, False, False)))
    phases = [next(events).phase for _ in range(3)]
    assert phases == ["building tables"] * 3
    events.close()


def test_the_tables_are_refused_before_they_pass_the_memory_budget():
    square16 = square(16)
    with pytest.raises(MemoryBudgetError) as refused:
        drive(Tables.steps(square16, square16, budget=MemoryBudget.of(1 << 20)))
    assert str(refused.value) == (
        "building the tables would need 12.6 MiB, more than the limit set by --max-memory (1.0 MiB)"
    )


def test_finding_the_legal_shifts_reports_progress(monkeypatch):
    """The shifts themselves take a while on big shapes: progress comes while they are
    found (fewer placements than there will be, and no fraction yet)."""
    monkeypatch.setattr(shifts, "PROGRESS_SECONDS", 0.0)
    steps = Tables.steps(square(12), square(12))
    first = next(steps)
    steps.close()
    assert first.phase == "building tables" and first.fraction is None
    assert 0 < first.explored < len(drive(Tables.steps(square(12), square(12))).placements)

"""The search finds exactly the solutions of the brute-force oracle on small random shapes.

Solutions are compared as (each colour's orientation and shift, the source's colouring),
so placement numbering plays no part.  Sources are squares, symmetric rectangles and
random cell sets; targets are random (often disconnected); pieces may be connected or
not, flipped or not.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slidelab.dissection import search
from slidelab.dissection.model import Dissection, square_source
from slidelab.dissection.reference import Found, reference_solutions
from slidelab.dissection.search import count_solutions, find_solutions
from slidelab.dissection.shape import Shape, parse_region
from slidelab.dissection.shifts import Tables
from tests.dissection.figures import TOY

RANDOM = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def searched(problem: Dissection) -> list[Found]:
    tables = Tables.build(problem.source, problem.target, problem.flips)
    return sorted(
        (
            tuple((t, tables.placements[q].shift) for q, t in s.maps),
            tuple(c - 1 for c in s.source_colours),
        )
        for s in find_solutions(problem)
    )


def shapes(cells: int, rows: int, columns: int) -> st.SearchStrategy[Shape]:
    grid = [(r, c) for r in range(rows) for c in range(columns)]
    return st.lists(st.sampled_from(grid), min_size=cells, max_size=cells, unique=True).map(
        lambda chosen: Shape(tuple(chosen))
    )


@st.composite
def problems(draw: st.DrawFn) -> Dissection:
    kind = draw(st.sampled_from(["square", "rectangle", "random"]))
    if kind == "square":
        source = Shape(((0, 0), (0, 1), (1, 0), (1, 1)))
    elif kind == "rectangle":
        source = draw(st.sampled_from([parse_region("***\n***\n"), parse_region("***\n")]))
    else:
        source = draw(shapes(draw(st.integers(2, 5)), 3, 3))
    target = draw(shapes(len(source), 3, 4))
    pieces = draw(st.integers(2, 3 if len(source) <= 5 else 2))
    return Dissection(source, target, pieces, draw(st.booleans()), draw(st.booleans()))


@RANDOM
@given(problems())
def test_search_agrees_with_brute_force(problem):
    assert searched(problem) == reference_solutions(problem)


@RANDOM
@given(problems(), st.sampled_from([0, 1, 4096]))
def test_counts_agree_with_brute_force(problem, bits_nodes):
    # 0 and 1 nodes make every count that forced moves leave open fall back to `_match`.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "BITS_NODES", bits_nodes)
        assert count_solutions(problem).count == len(reference_solutions(problem))


@pytest.mark.parametrize(("connected", "flips"), [(False, False), (True, False), (False, True)])
def test_the_seeds_shape_agrees_with_brute_force(connected, flips):
    target = parse_region(TOY)
    problem = Dissection(square_source(target), target, 2, connected, flips)
    assert searched(problem) == reference_solutions(problem)

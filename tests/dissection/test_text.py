"""The seed's solution report, one at a time and in batches, and the shipped library."""

from __future__ import annotations

import pytest

from slidelab.dissection.library import library_names, library_text, load_library_shape
from slidelab.dissection.model import Dissection, Solution, square_source
from slidelab.dissection.search import SolutionsFound, solve
from slidelab.dissection.shape import format_shape, parse_region, square
from slidelab.dissection.text import Layout, batch_text, colour_rows, solution_text


def test_one_solution_side_by_side():
    target = load_library_shape("knuth-toy.dots")
    solution = Solution(
        maps=((13, 0), (15, 1)),
        source_colours=(2, 1, 2, 2, 1, 2, 2, 2, 2),
        target_colours=(1, 2, 2, 2, 1, 2, 2, 2, 2),
    )
    assert solution_text(3, solution, square(3), target) == (
        "Solution 3, from 13~0 15~1:\n212  1222\n212  1..2\n222  .222\n"
    )


def test_a_taller_target_and_a_source_with_holes():
    source = parse_region("*.*\n")
    target = parse_region("*\n*\n")
    solution = Solution(((0, 1), (2, 0)), (1, 2), (1, 2))
    assert solution_text(1, solution, source, target) == (
        "Solution 1, from 0~1 2~0:\n1.2  1\n     2\n"
    )
    assert colour_rows(source, (1, 2)) == ["1.2"]


def test_batches_read_as_the_solutions_one_by_one():
    target = load_library_shape("rectangle-2x8.dots")
    problem = Dissection(square_source(target), target, 3)
    layout = Layout.of(problem.source, target)
    batches = [e for e in solve(problem) if isinstance(e, SolutionsFound)]
    fast = slow = ""
    for batch in batches:
        fast += batch_text(len(slow.split("Solution")), batch, layout)
        slow += "".join(
            solution_text(len(slow.split("Solution")) + k, s, problem.source, target)
            for k, s in enumerate(batch.solutions())
        )
    assert fast == slow
    assert fast.count("Solution") > 100 and batches[0].maps.shape[1:] == (3, 2)


@pytest.mark.parametrize("name", library_names())
def test_library_shapes_round_trip(name):
    shape = load_library_shape(name)
    assert format_shape(shape) == library_text(name)
    assert shape.side is not None


def test_the_library_has_the_seeds_shape():
    assert "knuth-toy.dots" in library_names()
    assert len(library_names()) >= 5

"""The seed's solution report, one at a time and in batches, and the shipped library."""

from __future__ import annotations

import pytest

from slidelab.dissection.model import Dissection, Solution, square_source
from slidelab.dissection.search import SolutionsFound, solve
from slidelab.dissection.shape import format_shape, parse_region, parse_shape, square
from slidelab.dissection.text import Layout, batch_text, colour_rows, solution_text
from slidelab.library import load_shipped, shipped_names, shipped_text


def test_one_solution_side_by_side():
    target = load_shipped("dissection", "knuth-toy.dots", parse_shape)
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
    target = load_shipped("dissection", "rectangle-2x8.dots", parse_shape)
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


@pytest.mark.parametrize("name", shipped_names("dissection"))
def test_library_shapes_round_trip(name):
    shape = load_shipped("dissection", name, parse_shape)
    assert format_shape(shape) == shipped_text("dissection", name)
    assert shape.side is not None


def test_the_library_has_the_seeds_shape():
    assert "knuth-toy.dots" in shipped_names("dissection")
    assert len(shipped_names("dissection")) >= 5

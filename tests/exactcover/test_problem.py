"""Problems as Python values: what is accepted, what is refused, and the flat arrays."""

from __future__ import annotations

import numpy as np
import pytest

from slidelab.exactcover.problem import Problem, ProblemError


def test_of_sets_builds_uncoloured_options_with_default_bounds():
    problem = Problem.of_sets(["a", "b"], [["a"], ["a", "b", "s"]], ["s"], {"b": (0, 2)})
    assert problem.options[1] == (("a", None), ("b", None), ("s", None))
    assert problem.bounds == ((1, 1), (0, 2))
    assert problem.items == ("a", "b", "s")
    assert problem.has_multiplicities


def test_items_may_be_any_hashable_values():
    problem = Problem.of_sets([("cell", 0, 0), ("piece", "F")], [[("cell", 0, 0), ("piece", "F")]])
    matrix = problem.matrix()
    assert matrix.option_items.tolist() == [1, 2]
    assert matrix.n_primary == matrix.n_items == 2


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Problem.of_sets(["a", "a"], [["a"]]), "listed twice"),
        (lambda: Problem.of_sets(["a"], [["a"]], ["a"]), "listed twice"),
        (lambda: Problem.of_sets(["a"], [["b"]]), "unknown item 'b'"),
        (lambda: Problem.of_sets(["a"], [["a", "a"]]), "names item 'a' twice"),
        (lambda: Problem.of_sets(["a"], [[]]), "option 0 is empty"),
        (lambda: Problem(("a",), ((("a", "red"),),)), "gives primary item 'a' a colour"),
        (lambda: Problem.of_sets(["a"], [["a"]], bounds={"a": (2, 1)}), "bounds 2:1"),
        (lambda: Problem.of_sets(["a"], [["a"]], bounds={"a": (0, 0)}), "must be positive"),
        (lambda: Problem.of_sets(["a"], [["a"]], bounds={"z": (1, 1)}), "not a primary item"),
        (lambda: Problem(("a", "b"), ((("a", None),),), bounds=((1, 1),)), "1 bounds given"),
    ],
)
def test_invalid_problems_are_refused(build, message):
    with pytest.raises(ProblemError, match=message):
        build()


def test_matrix_numbers_items_and_colours():
    problem = Problem(
        ("a", "b"),
        ((("a", None), ("x", "red")), (("b", None), ("x", "blue")), (("a", None), ("x", "red"))),
        ("x",),
        ((1, 2), (1, 1)),
    )
    matrix = problem.matrix()
    assert matrix.option_items.tolist() == [1, 3, 2, 3, 1, 3]
    assert matrix.option_colours.tolist() == [0, 1, 0, 2, 0, 1]
    assert matrix.option_starts.tolist() == [0, 2, 4, 6]
    assert np.array_equal(matrix.option(1), [2, 3])
    assert matrix.low.tolist() == [1, 1] and matrix.high.tolist() == [2, 1]


def test_fingerprint_tells_problems_apart_and_ignores_names():
    one = Problem.of_sets(["a", "b"], [["a"], ["b"]])
    renamed = Problem.of_sets(["p", "q"], [["p"], ["q"]])
    other = Problem.of_sets(["a", "b"], [["a", "b"], ["b"]])
    assert one.matrix().fingerprint() == renamed.matrix().fingerprint()
    assert one.matrix().fingerprint() != other.matrix().fingerprint()


def test_without_options_drops_the_numbered_ones():
    problem = Problem.of_sets(["a"], [["a"], ["a"], ["a"]])
    assert problem.without_options([0, 2]).options == ((("a", None),),)

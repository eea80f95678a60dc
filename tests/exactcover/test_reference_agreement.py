"""Every engine agrees with the slow reference on every solution of small random problems.

Random problems have secondary items, colours and (for the links engine) bounds;
every search runs in tiny chunks, so that it also stops and resumes at many
points, and with and without preprocessing and a random order.  The bits engine reads
its rows whole or through their summaries (`state.BITS_WHOLE_ROW_WORDS`).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slidelab.exactcover import state as state_module
from slidelab.exactcover.problem import Problem
from slidelab.exactcover.reference import reference_solutions
from slidelab.exactcover.search import SolutionsFound, solve
from slidelab.exactcover.state import BITS, CELLS, LINKS

RANDOM_PROBLEMS = settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def problems(draw: st.DrawFn, multiplicities: bool) -> Problem:
    primary = [f"p{k}" for k in range(draw(st.integers(1, 4)))]
    secondary = [f"s{k}" for k in range(draw(st.integers(0, 3)))]
    bounds = ()
    if multiplicities:
        highs = draw(st.lists(st.integers(1, 3), min_size=len(primary), max_size=len(primary)))
        bounds = tuple((draw(st.integers(0, high)), high) for high in highs)
    colour = st.sampled_from([None, "a", "b"])
    options = draw(
        st.lists(
            st.lists(st.sampled_from(primary + secondary), min_size=1, max_size=4, unique=True),
            min_size=1,
            max_size=9,
        )
    )
    return Problem(
        tuple(primary),
        tuple(tuple((i, draw(colour) if i in secondary else None) for i in o) for o in options),
        tuple(secondary),
        bounds,
    )


def solutions(problem: Problem, **settings: object) -> list[tuple[int, ...]]:
    found = []
    search = solve(problem, **settings)  # type: ignore[arg-type]
    while True:
        try:
            event = next(search)
        except StopIteration as stop:
            assert stop.value.count == len(found)
            return found
        if isinstance(event, SolutionsFound):
            found += [tuple(sorted(s)) for s in event.solutions]


def agree(
    problem: Problem,
    engine: str,
    chunk: int,
    seed: int | None,
    preprocess: bool,
    whole_rows: bool = True,
) -> None:
    expected = reference_solutions(problem)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(state_module, "BITS_WHOLE_ROW_WORDS", 1 << 20 if whole_rows else 0)
        found = solutions(
            problem, engine=engine, max_chunk_nodes=chunk, random_seed=seed, preprocess=preprocess
        )
    assert len(found) == len(set(found))
    assert set(found) == expected


@RANDOM_PROBLEMS
@given(
    problems(multiplicities=False),
    st.sampled_from([BITS, CELLS, LINKS]),
    st.integers(1, 6),
    st.sampled_from([None, 3]),
    st.booleans(),
    st.booleans(),
)
def test_exactly_once_problems(problem, engine, chunk, seed, preprocess, whole_rows):
    agree(problem, engine, chunk, seed, preprocess, whole_rows)


@RANDOM_PROBLEMS
@given(problems(multiplicities=True), st.integers(1, 6), st.sampled_from([None, 3]))
def test_problems_with_multiplicities(problem, chunk, seed):
    agree(problem, LINKS, chunk, seed, preprocess=True)

"""Golden counts, the three engines against each other, limits, random order and progress."""

from __future__ import annotations

import itertools
from itertools import combinations, product

import pytest

from slidelab.exactcover import problem as problem_module
from slidelab.exactcover import state as state_module
from slidelab.exactcover.dlxformat import parse_problem
from slidelab.exactcover.problem import Problem, ProblemError
from slidelab.exactcover.reference import reference_solutions
from slidelab.exactcover.search import (
    SolutionsFound,
    count_solutions,
    find_solutions,
    solve,
)
from slidelab.exactcover.state import BITS, CELLS, LINKS, SearchState, choose_engine
from slidelab.memory import MemoryBudget, MemoryBudgetError
from slidelab.runs import Progress, drive
from tests.exactcover.problems import PENTOMINO_BOXES, QUEENS, SOMA, pentominoes, queens, soma
from tests.exactcover.test_dlxformat import DLX1_EXAMPLE, DLX2_EXAMPLE, DLX3_EXAMPLE


def events(search):
    """(solutions in the order found, progress events, result) of a finished search."""
    found, progress = [], []
    while True:
        try:
            event = next(search)
        except StopIteration as stop:
            return found, progress, stop.value
        if isinstance(event, SolutionsFound):
            found += event.solutions
        else:
            progress.append(event)


@pytest.mark.parametrize("n", sorted(QUEENS))
def test_queens(n):
    assert count_solutions(queens(n)) == QUEENS[n]
    if n <= 10:
        assert count_solutions(queens(n), engine=LINKS) == QUEENS[n]


@pytest.mark.parametrize(("rows", "cols"), sorted(PENTOMINO_BOXES))
def test_pentominoes(rows, cols):
    assert count_solutions(pentominoes(rows, cols)) == PENTOMINO_BOXES[rows, cols]


def test_pentominoes_6x10_up_to_symmetry():
    """2339 = 9356 / 4, by symmetry breaking.

    The 6 x 10 box has four symmetries (identity, the half turn and the two mirror
    images), and no packing is symmetric, so every class of packings has four
    members.  The centre of the X pentomino lies in one of the four quadrants of the
    box, never on a midline (centre rows 1-4 and columns 1-8 avoid 2.5 and 4.5), and
    the four symmetries carry it to the four quadrants one each.  Keeping only the X
    placements centred in the top-left quadrant leaves one packing per class.
    """
    problem = pentominoes(6, 10)

    def centre(option):
        cells = [(int(name[0], 36), int(name[1], 36)) for name, _ in option[1:]]
        return sum(r for r, _ in cells) / 5, sum(c for _, c in cells) / 5

    away = [
        k
        for k, option in enumerate(problem.options)
        if option[0][0] == "X" and not (centre(option)[0] < 2.5 and centre(option)[1] < 4.5)
    ]
    assert len(away) == 24  # 32 placements of X, 8 in the top-left quadrant
    assert count_solutions(problem.without_options(away)) == 2339


def test_soma_cube():
    assert count_solutions(soma()) == SOMA


def test_the_bits_engine_reads_narrow_rows_whole_and_wide_ones_through_summaries():
    """The Soma cube's 688 options take 11 words a row; one more word than the limit is wide."""
    assert drive(SearchState.start_steps(soma(), engine=BITS)).whole_rows
    wide = Problem.of_sets(["a"], [["a"]] * (64 * state_module.BITS_WHOLE_ROW_WORDS + 1))
    assert not drive(SearchState.start_steps(wide, engine=BITS)).whole_rows
    assert not drive(SearchState.start_steps(soma(), engine=LINKS)).whole_rows


@pytest.fixture(params=["whole rows", "summaries"])
def bits_rows(request, monkeypatch):
    """The bits engine reads its rows whole, or through their summaries."""
    whole = request.param == "whole rows"
    monkeypatch.setattr(state_module, "BITS_WHOLE_ROW_WORDS", 1 << 20 if whole else 0)
    return whole


@pytest.mark.parametrize("engine", [BITS, CELLS])
def test_engines_walk_the_same_tree_in_the_same_order(engine, bits_rows):
    for problem in (queens(8), pentominoes(3, 20), parse_problem(DLX2_EXAMPLE)):
        other = events(solve(problem, engine=engine, preprocess=False, max_chunk_nodes=50))
        links = events(solve(problem, engine=LINKS, preprocess=False))
        assert other[0] == links[0]
        assert other[2].nodes == links[2].nodes


def test_engines_agree_on_more_than_64_words_of_options(bits_rows):
    # 6195 options: 97 words a row, so the bits engine's summaries take two words
    items = range(20)
    problem = Problem.of_sets(items, [s for size in range(1, 5) for s in combinations(items, size)])
    assert drive(SearchState.start_steps(problem, engine=BITS)).whole_rows == bits_rows
    bits = events(solve(problem, engine=BITS, limit=300, max_chunk_nodes=7))
    links = events(solve(problem, engine=LINKS, limit=300, preprocess=False))
    cells = events(solve(problem, engine=CELLS, limit=300, max_chunk_nodes=7))
    assert len(bits[0]) == 300
    assert bits[0] == links[0] == cells[0]
    assert bits[2].nodes == links[2].nodes == cells[2].nodes


def test_knuths_examples():
    assert find_solutions(parse_problem(DLX1_EXAMPLE)) == [
        [
            (("A", None), ("D", None)),
            (("C", None), ("E", None), ("F", None)),
            (("B", None), ("G", None)),
        ]
    ]
    colours = parse_problem(DLX2_EXAMPLE)
    assert [sorted(colours.options.index(o) for o in s) for s in find_solutions(colours)] == [
        [1, 3]
    ]
    bounds = parse_problem(DLX3_EXAMPLE)
    assert [sorted(bounds.options.index(o) for o in s) for s in find_solutions(bounds)] == [
        [1, 3, 4]
    ]


def test_a_multiplicity_case_against_the_reference():
    """Mark cells of a 4 x 5 grid: at most 2 in each row, 1 to 3 in each column."""
    options = [[f"r{r}", f"c{c}"] for r in range(4) for c in range(5)]
    problem = Problem.of_sets(
        [f"r{r}" for r in range(4)] + [f"c{c}" for c in range(5)],
        options,
        bounds={**{f"r{r}": (0, 2) for r in range(4)}, **{f"c{c}": (1, 3) for c in range(5)}},
    )
    solutions = {tuple(sorted(s)) for s in events(solve(problem))[0]}
    assert solutions == reference_solutions(problem)
    rows = [set(c) for k in range(3) for c in combinations(range(5), k)]
    by_brute_force = sum(
        all(1 <= sum(c in row for row in grid) <= 3 for c in range(5))
        for grid in product(rows, repeat=4)
    )
    assert len(solutions) == count_solutions(problem) == by_brute_force == 13740


def test_a_colour_case_against_the_reference():
    """Colour the cells of a 3 x 3 grid, one colour per row, so that columns all differ."""
    colours = "rgb"
    options = [
        [(f"row{r}", None), *((f"c{r}{k}", colour) for k in range(3)), (f"col{colour}{r}", None)]
        for r in range(3)
        for colour in colours
    ]
    problem = Problem(
        tuple(f"row{r}" for r in range(3)),
        tuple(tuple(o) for o in options),
        tuple(f"c{r}{k}" for r in range(3) for k in range(3))
        + tuple(f"col{c}{r}" for c in colours for r in range(3)),
    )
    solutions = {tuple(sorted(s)) for s in events(solve(problem))[0]}
    assert solutions == reference_solutions(problem)
    assert len(solutions) == 27


def test_limit_stops_after_that_many_solutions():
    found, _, result = events(solve(queens(8), limit=5))
    assert len(found) == result.count == 5
    assert not result.complete
    assert len(set(found)) == 5


def test_random_order_finds_the_same_solutions_in_another_order():
    problem = queens(8)
    plain = events(solve(problem))[0]
    shuffled = events(solve(problem, random_seed=7))[0]
    again = events(solve(problem, random_seed=7))[0]
    assert {frozenset(s) for s in shuffled} == {frozenset(s) for s in plain}
    assert shuffled == again
    assert shuffled != plain


def test_progress_fraction_grows_from_zero_to_one():
    for engine in (BITS, LINKS):
        _, progress, result = events(
            solve(pentominoes(3, 20), engine=engine, preprocess=False, max_chunk_nodes=500)
        )
        fractions = [p.fraction for p in progress if p.phase == "exact cover"]
        assert len(fractions) > 10
        assert all(0 <= f <= 1 for f in fractions)
        assert fractions == sorted(fractions)
        assert fractions[-1] == 1.0
        assert result.nodes == progress[-1].explored


def test_preprocessing_removes_options_but_no_solution():
    problem = pentominoes(3, 20)
    kept = drive(solve(problem, count_only=True, preprocess=False))
    pruned = drive(solve(problem, count_only=True, preprocess=True))
    assert pruned.count == kept.count == 8
    assert pruned.options_removed > 0 and kept.options_removed == 0
    assert pruned.nodes < kept.nodes


def test_preprocessing_by_default_with_links_only():
    problem = pentominoes(3, 20)
    assert drive(solve(problem, engine=LINKS)).options_removed == 150
    assert drive(solve(problem, engine=BITS)).options_removed == 0


def test_default_engine():
    assert choose_engine(pentominoes(6, 10)) == BITS
    assert choose_engine(parse_problem(DLX3_EXAMPLE)) == LINKS
    assert choose_engine(queens(100)) == CELLS
    # the rule's switch between bitsets and cells for n queens (state.BITS_MAX_SCAN)
    assert (choose_engine(queens(45)), choose_engine(queens(46))) == (BITS, CELLS)
    # long options beyond the bits engine's reach go to links (state.CELLS_MAX_LENGTH)
    ring = Problem.of_sets(range(200), [[(k + d) % 200 for d in range(6)] for k in range(100)])
    assert choose_engine(ring) == LINKS


def test_progress_events_are_progress():
    assert all(isinstance(p, Progress) for p in events(solve(queens(6)))[1])


def many_options(count: int) -> Problem:
    """Pairs of items on a ring of 64: `count` options, repeating (none of them useless)."""
    return Problem.of_sets(range(64), [(k % 64, (k + 1) % 64) for k in range(count)])


def test_reading_the_options_is_the_solvers_first_phase(monkeypatch) -> None:
    monkeypatch.setattr(problem_module, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(problem_module, "CHECK_EVERY", 1)
    search = solve(many_options(5000))
    first = [next(search) for _ in range(5)]
    assert [event.phase for event in first] == ["reading the options"] * 5
    assert [event.explored for event in first] == [1, 2, 3, 4, 5]
    search.close()
    assert search.gi_frame is None


def test_the_matrix_and_the_arrays_are_refused_past_the_memory_budget() -> None:
    problem = many_options(20_000)
    with pytest.raises(MemoryBudgetError) as refused:
        drive(problem.matrix_steps(MemoryBudget.of(1 << 19)))
    assert str(refused.value) == (
        "reading the options would need 0.9 MiB, more than the limit set by --max-memory (0.5 MiB)"
    )
    with pytest.raises(MemoryBudgetError) as refused:
        SearchState.start(problem, engine=LINKS, budget=MemoryBudget.of(1 << 20))
    assert str(refused.value) == (
        "the links engine's arrays would need 3.7 MiB, more than the limit set by --max-memory "
        "(1.0 MiB)"
    )


def test_checking_a_long_option_list_is_a_phase(monkeypatch) -> None:
    monkeypatch.setattr(problem_module, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(problem_module, "CHECK_EVERY", 100)
    steps = Problem.of_sets_steps(range(64), ((k % 64, (k + 1) % 64) for k in range(1000)))
    events = []
    problem = drive(steps, on_progress=events.append)
    assert [(e.phase, e.explored) for e in events] == [
        ("checking the options", k) for k in range(1, 1000, 100)
    ]
    assert problem == many_options(1000)
    broken = Problem.of_sets_steps(["a"], [["a"]] * 500 + [["a", "b"]])
    with pytest.raises(ProblemError) as refused:
        drive(broken)
    assert str(refused.value) == "option 500 names unknown item 'b'"


@pytest.mark.parametrize("seed", [None, 3])
def test_building_the_links_is_a_phase(monkeypatch, seed) -> None:
    """Small kernel calls with progress between them, and the same search as one call."""
    monkeypatch.setattr(state_module, "PROGRESS_SECONDS", 0.0)
    problem = pentominoes(3, 20)
    whole = count_solutions(problem, engine=LINKS, random_seed=seed, preprocess=False)
    monkeypatch.setattr(state_module, "LINK_CHUNK", 64)
    phases = [
        event.phase
        for event in itertools.islice(solve(problem, engine=LINKS, random_seed=seed), 400)
        if isinstance(event, Progress)
    ]
    assert phases.count("building the links") > 20
    assert count_solutions(problem, engine=LINKS, random_seed=seed, preprocess=False) == whole

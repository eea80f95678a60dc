"""`within_budget`: when a probed search is given up as big, and when it is let finish."""

from __future__ import annotations

from collections.abc import Generator

import pytest

from slidelab.parallel.run import GROWTH, RECHECK_GROWTH, within_budget
from slidelab.runs import Progress, drive

BUDGET = 1000


def search(points: list[tuple[int, float]]) -> Generator[Progress, None, str]:
    """A search that reports (nodes, fraction done) at each point, then ends."""
    for explored, fraction in points:
        yield Progress(phase="search", explored=explored, elapsed=0.0, fraction=fraction)
    return "finished"


def probe(points: list[tuple[int, float]]) -> str | None:
    return drive(within_budget(search(points), BUDGET))


def test_a_search_within_its_budget_finishes():
    assert probe([(500, 0.1), (900, 0.2)]) == "finished"


def test_a_search_estimated_big_at_its_budget_is_given_up():
    assert probe([(BUDGET, BUDGET / (GROWTH * BUDGET + 1))]) is None


def test_a_search_estimated_small_at_its_budget_goes_on_while_its_estimates_hold():
    points = [(BUDGET, 0.5), (2 * BUDGET, 0.6), (4 * BUDGET, 0.9), (8 * BUDGET, 0.95)]
    assert probe(points) == "finished"


@pytest.mark.parametrize("doubled", [2, 4, 8])
def test_a_search_whose_estimate_grows_on_a_recheck_is_given_up(doubled):
    """Much more left than `RECHECK_GROWTH` times what is done, found when the nodes double."""
    explored = doubled * BUDGET
    too_little = 1 / (1 + RECHECK_GROWTH) * 0.9
    points = [(BUDGET, 0.5), *[(k * BUDGET, 0.5) for k in (2, 4) if k < doubled]]
    assert probe([*points, (explored, too_little), (explored + 1, 1.0)]) is None


def test_between_doublings_a_search_is_not_rechecked():
    """An estimate only looked at when the nodes double: a pessimistic one between passes."""
    points = [(BUDGET, 0.5), (BUDGET + 500, 0.01), (2 * BUDGET - 1, 0.9)]
    assert probe(points) == "finished"

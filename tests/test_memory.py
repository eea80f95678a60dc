"""Memory budgets: sizes as the user writes them, refusals that name their limit."""

from __future__ import annotations

import pytest

from slidelab.memory import MemoryBudget, MemoryBudgetError, parse_size
from slidelab.validation import OptionValueError


@pytest.mark.parametrize(
    ("text", "size"),
    [("2G", 2 << 30), ("512m", 512 << 20), ("1.5GiB", 3 << 29), ("1048576", 1 << 20)],
)
def test_sizes(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "G", "2X", "-1G", "nan", "1e9"])
def test_bad_sizes(text):
    with pytest.raises(OptionValueError, match="takes a size such as 2G"):
        parse_size(text)


def test_a_budget_refuses_what_needs_more_and_names_its_source():
    budget = MemoryBudget.of(8 << 20)
    budget.check(8 << 20, "placing pieces")
    with pytest.raises(MemoryBudgetError) as refused:
        budget.check(9 << 20, "placing pieces")
    assert str(refused.value) == (
        "placing pieces would need 9.0 MiB, more than the limit set by --max-memory (8.0 MiB)"
    )

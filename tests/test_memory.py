"""Memory budgets: sizes as the user writes them, refusals that name their limit."""

from __future__ import annotations

import pytest

from slidelab import memory
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


def test_a_share_of_a_budget_names_the_budget_it_comes_from():
    budget = MemoryBudget.of(8 << 20)
    assert budget.shared(1) == budget
    assert budget.shared(2) == MemoryBudget(
        4 << 20,
        "4.0 MiB, the share of each of 2 processes in the limit set by --max-memory (8.0 MiB)",
    )


def test_the_available_memory_is_no_more_than_the_address_space_limit_leaves(monkeypatch):
    with open("/proc/self/status", encoding="ascii") as status:
        mapped = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    monkeypatch.setattr(memory.resource, "getrlimit", lambda which: (mapped + (64 << 20), -1))
    assert 32 << 20 < memory.available_memory() <= 64 << 20  # what `ulimit -v` leaves

"""Growing columns, and their rows sorted and filtered: right rows, stable, merged batches."""

from __future__ import annotations

import numpy as np
import pytest

from slidelab.columns import Arrangement, ColumnError, ColumnStore

MILLION = 1_000_000


def synthetic(rows: int, seed: int = 5) -> dict[str, np.ndarray]:
    """Rows like the antislide list's: a found number, a block count, a symmetry order."""
    rng = np.random.default_rng(seed)
    return {
        "number": np.arange(1, rows + 1, dtype=np.int32),
        "blocks": rng.integers(0, 26, rows).astype(np.uint8),
        "symmetries": rng.choice(np.array([1, 2, 4, 8, 16, 48], np.uint8), rows),
    }


def filled(columns: dict[str, np.ndarray], batch: int) -> ColumnStore:
    store = ColumnStore()
    for start in range(0, len(columns["number"]), batch):
        store.append({name: values[start : start + batch] for name, values in columns.items()})
    return store


def test_a_store_grows_by_batches_and_keeps_every_row_in_order():
    columns = synthetic(10_000)
    store = filled(columns, 333)
    assert len(store) == 10_000
    for name, values in columns.items():
        assert np.array_equal(store.column(name), values)
    store.trim()
    assert store.nbytes == sum(values.nbytes for values in columns.values())


def test_a_store_refuses_mismatched_columns():
    store = ColumnStore()
    store.append({"a": np.zeros(3), "b": np.zeros(3)})
    with pytest.raises(ColumnError):
        store.append({"a": np.zeros(3)})
    with pytest.raises(ColumnError):
        store.append({"a": np.zeros(3), "b": np.zeros(2)})


def test_sorting_and_filtering_a_million_rows_gives_the_right_rows_stably():
    columns = synthetic(MILLION)
    store = filled(columns, 4096)
    blocks = columns["blocks"]

    ascending = Arrangement(key="blocks").rows(store)
    assert np.array_equal(ascending, np.argsort(blocks, kind="stable"))
    descending = Arrangement(key="blocks", descending=True).rows(store)
    assert np.all(np.diff(blocks[descending].astype(int)) <= 0)
    ties = descending[blocks[descending] == 12]
    assert np.all(np.diff(ties) > 0)  # equal keys keep the order found

    shown = Arrangement(key="symmetries", ranges=(("blocks", 10, 12),)).rows(store)
    wanted = np.flatnonzero((blocks >= 10) & (blocks <= 12))
    assert np.array_equal(np.sort(shown), wanted)
    assert np.array_equal(shown, wanted[np.argsort(columns["symmetries"][wanted], kind="stable")])


def test_batches_merged_into_a_sorted_filtered_order_equal_arranging_anew():
    columns = synthetic(50_000, seed=9)
    arrangement = Arrangement(key="blocks", descending=True, ranges=(("symmetries", 2, 16),))
    store = ColumnStore()
    order = arrangement.rows(store)
    ends = []
    for start in range(0, 50_000, 4096):
        store.append({name: values[start : start + 4096] for name, values in columns.items()})
        order, at_end = arrangement.merged(order, store, start)
        ends.append(at_end)
    assert np.array_equal(order, arrangement.rows(store))
    assert not all(ends)  # sorted by blocks, later batches go between earlier rows


def test_batches_in_found_order_go_at_the_end():
    columns = synthetic(10_000)
    store = ColumnStore()
    order = Arrangement().rows(store)
    for start in range(0, 10_000, 1000):
        store.append({name: values[start : start + 1000] for name, values in columns.items()})
        order, at_end = Arrangement(key="number").merged(order, store, start)
        assert at_end
    assert np.array_equal(order, np.arange(10_000))

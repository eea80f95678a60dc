"""Growing columns, and their rows sorted and filtered: right rows, stable, merged batches;
payload columns in blocks that appends and trims never copy."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.columns import BLOCK_BYTES, Arrangement, ColumnError, ColumnStore

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
    with pytest.raises(ColumnError, match=re.escape("expected the columns ['a', 'b'], not ['a']")):
        store.append({"a": np.zeros(3)})
    with pytest.raises(ColumnError, match=re.escape("columns of different lengths: [2, 3]")):
        store.append({"a": np.zeros(3), "b": np.zeros(2)})
    assert len(store) == 3


def packings(rows: int, start: int = 0, seed: int = 3) -> dict[str, np.ndarray]:
    """Rows with scalar columns and payload ones: 25 moves a row, and 12-byte names."""
    rng = np.random.default_rng(seed + start)
    return {
        "number": np.arange(start + 1, start + rows + 1, dtype=np.int32),
        "blocks": rng.integers(19, 25, rows).astype(np.uint8),
        "moves": rng.integers(-1, 300, (rows, 25)).astype(np.int16),
        "name": np.array([f"p{start + r}" for r in range(rows)], "S12"),
    }


def every_row(store: ColumnStore, name: str) -> np.ndarray:
    return np.array([store.row(name, r) for r in range(len(store))])


@settings(max_examples=200, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 40), max_size=12),
    trimmed_after=st.integers(0, 12),
    block_bytes=st.sampled_from([1, 50, 64, 130, 500, 1 << 20]),
)
def test_rows_appended_in_any_batches_across_blocks_equal_one_concatenation(
    sizes, trimmed_after, block_bytes
):
    store = ColumnStore(block_bytes)
    batches = []
    for count, size in enumerate(sizes):
        if count == trimmed_after:
            store.trim()  # a trimmed store still takes rows
        batches.append(packings(size, sum(sizes[:count])))
        store.append(batches[-1])
    if not batches:
        assert len(store) == 0
        return
    whole = {name: np.concatenate([b[name] for b in batches]) for name in batches[0]}
    assert_holds(store, whole)
    store.trim()
    assert_holds(store, whole)
    assert store.nbytes == sum(values.nbytes for values in whole.values())


def assert_holds(store: ColumnStore, whole: dict[str, np.ndarray]) -> None:
    """The store holds exactly the rows of `whole`: scalar columns whole, payload by rows."""
    assert len(store) == len(whole["number"])
    for name in ("number", "blocks"):
        assert np.array_equal(store.column(name), whole[name])
    for name in ("moves", "name"):
        assert np.array_equal(every_row(store, name).reshape(whole[name].shape), whole[name])


def test_a_payload_column_is_read_by_rows_not_whole():
    store = ColumnStore()
    store.append(packings(10))
    assert np.array_equal(store.row("moves", 9), packings(10)["moves"][9])
    assert int(store.row("number", 9)) == 10
    with pytest.raises(ColumnError, match=re.escape("the column 'moves' is held in blocks")):
        store.column("moves")
    with pytest.raises(IndexError, match=re.escape("row 10 of 10")):
        store.row("moves", 10)


def test_appending_and_trimming_never_copy_the_payload_already_held():
    per_block = BLOCK_BYTES // 50  # 25 int16 moves a row
    store = ColumnStore()
    store.append(packings(per_block + 5))
    first, last = store.row("moves", 0), store.row("moves", per_block + 4)
    for start in range(per_block + 5, 5 * per_block, 4096):  # scalar columns double 3 times
        store.append(packings(4096, start))
        assert np.shares_memory(first, store.row("moves", 0))
        assert np.shares_memory(last, store.row("moves", per_block + 4))
    store.trim()
    assert np.shares_memory(first, store.row("moves", 0))
    assert np.shares_memory(last, store.row("moves", per_block + 4))
    assert np.array_equal(store.row("moves", per_block + 4), packings(per_block + 5)["moves"][-1])


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

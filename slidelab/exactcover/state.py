"""The whole state of an exact-cover search in arrays: built from a problem, saved, resumed.

A search lives in the arrays of one of three engines (see `slidelab.exactcover.kernels`):

- "links": Knuth's dancing links, Algorithm M (any bounds, colours);
- "bits": the same search tree as Algorithm C on bitsets, for problems whose
  primary items are all covered exactly once and small enough for it to pay;
- "cells": the same tree again on sparse sets (Knuth's dancing cells), for problems whose
  primary items are all covered exactly once.

Between kernel chunks the arrays are consistent, so writing them to a file
(numpy's npz, replaced atomically) and reading them back later continues the
search exactly where it stopped.  A file records a fingerprint of the problem
it belongs to and is refused for any other.
"""

from __future__ import annotations

import hashlib
import io
import os
import time
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import numpy as np

from slidelab.errors import SlidelabError
from slidelab.exactcover import kernels
from slidelab.exactcover.kernels import BitsArrays, CellsArrays, LinksArrays
from slidelab.exactcover.problem import Matrix, Problem
from slidelab.fileio import read_bytes, write_bytes_atomically
from slidelab.memory import MemoryBudget
from slidelab.runs import Pacer, Progress, drive

FORMAT_VERSION = 5
"""Bumped whenever the meaning of the saved arrays changes (4: narrow rows of the bits
engine keep no summaries, see `BITS_WHOLE_ROW_WORDS`, and a digest of the arrays is kept;
5: the digest covers the settings too, and solutions found but not yet handed out are kept)."""

LINKS, BITS, CELLS = "links", "bits", "cells"
ENGINES = (LINKS, BITS, CELLS)

BITS_MAX_SCAN = 64
"""The bits engine is chosen when (primary items) x (options / 64), the words its choice of
an item may scan at a node, is at most this many times the mean length of a primary item's
list (about the updates dancing links make per option they hide): measured, it holds for
pentomino boxes, the Bedlam cube and up to 45 queens, where bitsets run 1.6-6x more nodes a
second, and fails for Sudoku and 70 or 100 queens, where dancing links run 1.3-4.5x more."""

BITS_MAX_OPTIONS = 16384
"""... and there are at most this many options (its tables grow with their square)."""

BITS_WHOLE_ROW_WORDS = 96
"""The bits engine reads every word of its option rows when a row has at most this many
words, and otherwise only the words their summaries name.  Measured in nodes a second,
whole rows against summaries: 3.2x on the Soma cube (11 words), 2.3-2.5x on pentomino boxes
(33 and 39), 2.2x on the Bedlam cube (60), on n queens 2.4x (32 words), 1.2x (77), 1.35x
(100), 1.0x (127) and 0.5x (157), where deep in the tree most words of a live row are 0.
A saved search of narrow rows has no summaries past level 0: changing this number changes
what a saved search means (`FORMAT_VERSION`)."""

CELLS_MAX_LENGTH = 4.5
"""Where bits are not chosen, the cells engine is when the options have at most this many
items on average: measured, dancing cells run 1.6-2.7x the nodes a second of dancing links
on 70 and 100 queens (4 items an option) and as many on Sudoku (4) and Langford pairs (3),
but 0.7x on packings (the Soma cube, pentominoes and the Bedlam cube: 5-6 items), where
each node hides many long options and a cell taken out costs more than a link."""

PROGRESS_SECONDS = 0.05
"""Most time between two progress events while the links are built."""

CONFLICT_CHUNK = 1024
"""Options whose conflict rows the bits engine's tables are built for at a time."""

LINK_CHUNK = 1 << 21
"""Nodes one call of `kernels.link_nodes` puts into their lists (a few milliseconds)."""

LINK_ENTRY_BYTES = 4 * 4 + 6 * 8
"""Bytes per node while the dancing links are built: four int32 arrays, and the int64
index arrays that sort the nodes into item lists."""

CELLS_ENTRY_BYTES = 6 * 4 + 4 * 8
"""Bytes per entry the cells engine holds: six int32 arrays (the trail one of them), and
the int64 ones that sort the entries into their items' sets."""


class StateError(SlidelabError):
    """A saved search that cannot be resumed (another problem, another version, a damaged file)."""


Arrays = LinksArrays | BitsArrays | CellsArrays

_ENGINE_ARRAYS: dict[str, type[Arrays]] = {LINKS: LinksArrays, BITS: BitsArrays, CELLS: CellsArrays}
"""The arrays each engine saves."""


@dataclass(eq=False)
class SearchState:
    """Arrays and settings of one search; the kernels update the arrays in place."""

    fingerprint: str
    """Digest of the problem's matrix (see `Matrix.fingerprint`)."""
    engine: str
    random_seed: int | None
    n_items: int
    n_primary: int
    alive: np.ndarray
    """Which options take part (preprocessing may have removed some)."""
    arrays: Arrays
    pending: tuple[tuple[int, ...], ...] = ()
    """Solutions the search has passed (they are in `count`) but not yet handed out: a run
    stopped between finding them and handing them out saves them here, and the run that
    resumes it hands them out first."""

    @classmethod
    def start(
        cls,
        problem: Problem,
        *,
        engine: str | None = None,
        random_seed: int | None = None,
        alive: np.ndarray | None = None,
        budget: MemoryBudget | None = None,
    ) -> SearchState:
        """A search of `problem` at its beginning, with only the `alive` options (default all);
        its arrays are refused (`MemoryBudgetError`) when they would pass `budget` (default:
        `MemoryBudget.of(None)`)."""
        return drive(
            cls.start_steps(
                problem, engine=engine, random_seed=random_seed, alive=alive, budget=budget
            )
        )

    @classmethod
    def start_steps(
        cls,
        problem: Problem,
        *,
        engine: str | None = None,
        random_seed: int | None = None,
        alive: np.ndarray | None = None,
        matrix: Matrix | None = None,
        budget: MemoryBudget | None = None,
    ) -> Generator[Progress, None, SearchState]:
        """`start` as a solver's phase, `Progress` between bounded steps; `matrix` is
        `problem.matrix()` when the caller has it already."""
        matrix = problem.matrix() if matrix is None else matrix
        engine = engine or choose_engine(problem)
        if engine not in ENGINES:
            raise SlidelabError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
        if engine != LINKS and problem.has_multiplicities:
            raise SlidelabError(f"the {engine} engine covers every primary item exactly once")
        (MemoryBudget.of(None) if budget is None else budget).check(
            arrays_bytes(matrix, engine), f"the {engine} engine's arrays"
        )
        if alive is None:
            alive = np.ones(matrix.n_options, np.bool_)
        if engine == BITS:
            arrays: Arrays = _bits(matrix, alive, random_seed)
        elif engine == CELLS:
            arrays = _cells(matrix, alive, random_seed)
        else:
            arrays = yield from _links(matrix, alive, random_seed)
        return cls(
            matrix.fingerprint(),
            engine,
            random_seed,
            matrix.n_items,
            matrix.n_primary,
            alive,
            arrays,
        )

    def forget_pending(self) -> None:
        """Drop `pending`, once its solutions are handed out."""
        self.pending = ()

    @property
    def level(self) -> int:
        return int(self.arrays.regs[kernels.LEVEL])

    @property
    def whole_rows(self) -> bool:
        """Whether the bits engine reads its option rows whole (`BITS_WHOLE_ROW_WORDS`)."""
        arrays = self.arrays
        return isinstance(arrays, BitsArrays) and arrays.live.shape[1] <= BITS_WHOLE_ROW_WORDS

    @property
    def nodes(self) -> int:
        return int(self.arrays.regs[kernels.NODES])

    @property
    def count(self) -> int:
        return int(self.arrays.regs[kernels.COUNT])

    @property
    def done(self) -> bool:
        return int(self.arrays.regs[kernels.PC]) == kernels.DONE

    @property
    def options_removed(self) -> int:
        return int(len(self.alive) - self.alive.sum())

    def fraction(self) -> float:
        """Knuth's estimate of the part of the search tree already explored.

        If the choice at level 0 is the k-th of d (counting from 0), the estimate is
        k/d plus 1/d times the estimate for the subtree below, as if the tree were
        uniform; at the current level it is 1/2 of what is left.
        """
        if self.done:
            return 1.0
        level = self.level
        fraction, weight = 0.0, 1.0
        for d, k in zip(self.arrays.degree[:level], self.arrays.tried[:level], strict=True):
            weight /= max(int(d), 1)
            fraction += int(k) * weight
            if weight < 1e-18:
                break
        return min(fraction + 0.5 * weight, 1.0)


def arrays_bytes(matrix: Matrix, engine: str) -> int:
    """About the most memory building `engine`'s arrays for `matrix` holds at once."""
    entries, options, items = len(matrix.option_items), matrix.n_options, matrix.n_items
    if engine == BITS:
        # item rows (booleans, padded, and packed; as many again for coloured entries), the
        # conflict rows, a row per entry of a chunk of options, and a few entry arrays
        words = -(-options // 64)
        chunk = min(entries, -(-entries * CONFLICT_CHUNK // max(options, 1)))
        rows = 3 * (items + 1) * (options + 8 * words)
        return rows + (options + chunk) * 8 * words + 48 * entries
    if engine == CELLS:
        return CELLS_ENTRY_BYTES * entries
    return LINK_ENTRY_BYTES * (entries + options + items)


def choose_engine(problem: Problem) -> str:
    """The faster engine for `problem`: bits for exactly-once problems whose item lists are
    long for their number of bitset words (see `BITS_MAX_SCAN`); for other exactly-once
    problems cells when their options are short (see `CELLS_MAX_LENGTH`); else links."""
    if problem.has_multiplicities:
        return LINKS
    n_options = len(problem.options)
    primary = set(problem.primary)
    entries = sum(item in primary for option in problem.options for item, _ in option)
    words = -(-n_options // 64)
    if (
        n_options <= BITS_MAX_OPTIONS
        and len(problem.primary) ** 2 * words <= BITS_MAX_SCAN * entries
    ):
        return BITS
    length = sum(len(option) for option in problem.options)
    return CELLS if length <= CELLS_MAX_LENGTH * n_options else LINKS


def links_for_pruning(matrix: Matrix) -> Generator[Progress, None, LinksArrays]:
    """Dancing links of every option, in input order, for `kernels.prune`."""
    return (yield from _links(matrix, np.ones(matrix.n_options, np.bool_), None))


def first_nodes(matrix: Matrix) -> np.ndarray:
    """The node of the dancing links where each option begins."""
    first: np.ndarray = matrix.n_items + 2 + np.arange(matrix.n_options) + matrix.option_starts[:-1]
    return first.astype(np.int64)


def _links(
    matrix: Matrix, alive: np.ndarray, random_seed: int | None
) -> Generator[Progress, None, LinksArrays]:
    """Knuth's node layout for `matrix`; the `alive` options in item lists, shuffled if seeded.

    Built by kernel calls that each lay out or link about `LINK_CHUNK` nodes, with a
    `Progress` between them, so that big problems can be stopped while their links are
    built."""
    pacer = Pacer("building the links", time.perf_counter(), PROGRESS_SECONDS)

    n, n1 = matrix.n_items, matrix.n_primary
    starts = matrix.option_starts
    n_options, n_entries = matrix.n_options, len(matrix.option_items)
    size = n + 2 + n_options + n_entries
    top = np.zeros(size, np.int32)
    ulink = np.zeros(size, np.int32)
    dlink = np.zeros(size, np.int32)
    color = np.zeros(size, np.int32)
    length = np.zeros(n + 1, np.int32)
    last = np.arange(n + 1, dtype=np.int32)
    # Options in input order make the item lists in input order too; with a seed, the
    # lists are made afterwards, in the order of a random rank of the listed nodes.
    linking = random_seed is None
    options = kernels.Options(starts, matrix.option_items, matrix.option_colours)
    nodes = kernels.Nodes(top, color, ulink, dlink, length, last)
    step = max(LINK_CHUNK * n_options // max(n_entries, 1), 1)
    for first in range(0, n_options, step):
        stop = min(first + step, n_options)
        kernels.lay_out_options(options, alive, n, nodes, linking, first, stop)
        if event := pacer.due(0, stop / n_options):
            yield event
    rng = _generator(random_seed)
    if rng is not None:
        option_of = np.repeat(np.arange(n_options, dtype=np.int64), np.diff(starts))
        listed = (option_of + np.arange(n + 2, n + 2 + n_entries))[alive[option_of]]
        rank = rng.permutation(len(listed))
        shuffled = np.empty_like(listed)
        shuffled[rank] = listed
        for start in range(0, len(shuffled), LINK_CHUNK):
            end = min(start + LINK_CHUNK, len(shuffled))
            kernels.link_nodes(shuffled, nodes, start, end)
            if event := pacer.due(0, end / len(shuffled)):
                yield event
    header = np.arange(n + 1, dtype=np.int32)
    dlink[last] = header
    ulink[header] = last
    # Primary items in a circular list headed by 0; secondary items link to themselves.
    llink = np.arange(n + 1, dtype=np.int32)
    rlink = np.arange(n + 1, dtype=np.int32)
    llink[: n1 + 1] = np.roll(np.arange(n1 + 1), 1)
    rlink[: n1 + 1] = np.roll(np.arange(n1 + 1), -1)
    bound = np.zeros(n + 1, np.int32)
    slack = np.zeros(n + 1, np.int32)
    bound[1 : n1 + 1] = matrix.high
    slack[1 : n1 + 1] = matrix.high - matrix.low
    levels = min(int(matrix.high.sum()), n_options) + n1 + 1
    return LinksArrays(
        top,
        ulink,
        dlink,
        color,
        length,
        llink,
        rlink,
        bound,
        slack,
        x=np.zeros(levels, np.int32),
        ft=np.zeros(levels, np.int32),
        degree=np.zeros(levels, np.int64),
        tried=np.zeros(levels, np.int64),
        regs=np.zeros(kernels.REGS, np.int64),
        rng=_seed_words(rng),
    )


def _bits(matrix: Matrix, alive: np.ndarray, random_seed: int | None) -> BitsArrays:
    """Bitset tables for `matrix`, options renumbered at random if seeded."""
    n, n1, n_options = matrix.n_items, matrix.n_primary, matrix.n_options
    rng = _generator(random_seed)
    order = np.arange(n_options) if rng is None else rng.permutation(n_options)
    rank = np.empty(n_options, np.int64)
    rank[order] = np.arange(n_options)
    option_of = np.repeat(np.arange(n_options), np.diff(matrix.option_starts))
    items = matrix.option_items.astype(np.int64)
    # has[i, k]: option k contains item i.
    has = np.zeros((n + 1, n_options), np.bool_)
    has[items, rank[option_of]] = True
    item_opts = _pack(has)
    conflict = _conflicts(matrix, item_opts, rank[option_of], rank)
    primary_entry = items <= n1
    covers = np.zeros((n_options, n1), np.bool_)
    covers[rank[option_of[primary_entry]], items[primary_entry] - 1] = True
    levels = n1 + 1
    live = np.zeros((levels, conflict.shape[1]), np.uint64)
    live[0] = _pack(alive[order][None, :])[0]
    live_words = np.zeros((levels, -(-live.shape[1] // 64)), np.uint64)
    live_words[0] = _pack(live[:1] != 0, live_words.shape[1])[0]
    item_opts = np.ascontiguousarray(item_opts[: n1 + 1])
    covered = np.zeros((levels, -(-n1 // 64) or 1), np.uint64)
    covered[0] = ~_pack(np.ones((1, n1), np.bool_), covered.shape[1])[0]
    return BitsArrays(
        item_opts=item_opts,
        item_words=_pack(item_opts != 0, live_words.shape[1]),
        conflict=conflict,
        option_cover=_pack(covers, covered.shape[1]),
        order=order.astype(np.int64),
        live=live,
        live_words=live_words,
        covered=covered,
        x=np.zeros(levels, np.int64),
        item=np.zeros(levels, np.int64),
        degree=np.zeros(levels, np.int64),
        tried=np.zeros(levels, np.int64),
        regs=np.zeros(kernels.REGS, np.int64),
        rng=_seed_words(rng),
    )


def _cells(matrix: Matrix, alive: np.ndarray, random_seed: int | None) -> CellsArrays:
    """Sparse sets for `matrix`: each item's entries in input order (shuffled if seeded),
    those of the `alive` options first."""
    n, n1, n_options = matrix.n_items, matrix.n_primary, matrix.n_options
    starts = matrix.option_starts
    items = matrix.option_items
    entries = len(items)
    rng = _generator(random_seed)
    option_of = np.repeat(np.arange(n_options, dtype=np.int32), np.diff(starts))
    live = alive[option_of]
    key = np.arange(entries) if rng is None else rng.permutation(entries)
    cell = np.lexsort((key, ~live, items)).astype(np.int32)
    loc = np.empty(entries, np.int32)
    loc[cell] = np.arange(entries, dtype=np.int32)
    base = np.zeros(n + 2, np.int32)
    base[1:] = np.cumsum(np.bincount(items, minlength=n + 1))
    size = np.bincount(items[live], minlength=n + 1).astype(np.int32)
    levels = n1 + 1
    regs = np.zeros(kernels.CELLS_REGS, np.int64)
    regs[kernels.ACTIVE_P] = n1
    regs[kernels.ACTIVE_S] = n - n1
    return CellsArrays(
        cell=cell,
        loc=loc,
        base=base,
        size=size,
        entry_item=items.astype(np.int32),
        entry_colour=matrix.option_colours.astype(np.int32),
        entry_option=option_of,
        option_start=starts.astype(np.int64),
        active=np.arange(1, n + 1, dtype=np.int32),
        where=np.arange(-1, n, dtype=np.int32),
        trail=np.zeros(entries, np.int32),
        frame=np.zeros((levels, 6), np.int64),
        x=np.zeros(levels, np.int64),
        item=np.zeros(levels, np.int64),
        degree=np.zeros(levels, np.int64),
        tried=np.zeros(levels, np.int64),
        regs=regs,
        rng=_seed_words(rng),
    )


def _conflicts(
    matrix: Matrix, item_opts: np.ndarray, entry_option: np.ndarray, rank: np.ndarray
) -> np.ndarray:
    """Row rank[k]: the engine options that cannot go with option k, which are those that
    share an item with it, less those that give the item the same colour.  Built
    `CONFLICT_CHUNK` options at a time: a row per entry of them is held meanwhile.
    (`entry_option`: the engine option of each entry.)"""
    n_options, words = matrix.n_options, item_opts.shape[1]
    items, colours, starts = matrix.option_items, matrix.option_colours, matrix.option_starts
    conflict = np.zeros((n_options, words), np.uint64)
    coloured = colours.any()
    if coloured:
        pairs, pair_of = np.unique(np.stack([items, colours], 1), axis=0, return_inverse=True)
        has_colour = np.zeros((len(pairs), n_options), np.bool_)
        has_colour[pair_of.ravel(), entry_option] = True
        colour_rows = _pack(has_colour)
    for first in range(0, n_options, CONFLICT_CHUNK):
        last = min(first + CONFLICT_CHUNK, n_options)
        a, b = starts[first], starts[last]
        blocks = item_opts[items[a:b]]
        if coloured:
            same = colour_rows[pair_of.ravel()[a:b]]
            blocks &= ~np.where((colours[a:b] > 0)[:, None], same, np.uint64(0))
        conflict[rank[first:last]] = np.bitwise_or.reduceat(blocks, starts[first:last] - a, 0)
    return conflict


def _pack(bits: np.ndarray, words: int | None = None) -> np.ndarray:
    """Rows of booleans as rows of uint64 words, bit k of a row in word k // 64 (at least 1)."""
    rows, width = bits.shape
    words = words if words is not None else max(-(-width // 64), 1)
    padded = np.zeros((rows, words * 64), np.bool_)
    padded[:, :width] = bits
    packed = np.packbits(padded, axis=1, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64)


def _generator(random_seed: int | None) -> np.random.Generator | None:
    """numpy's generator for a seeded run; None for an unseeded one, which draws nothing
    (importing `numpy.random` costs a small problem's process 10-30 ms)."""
    return None if random_seed is None else np.random.default_rng(random_seed)


def _seed_words(rng: np.random.Generator | None) -> np.ndarray:
    """The kernels' generator state: drawn from `rng` in a seeded run; any nonzero word in an
    unseeded one, whose kernels never draw."""
    if rng is None:
        return np.ones(1, np.uint64)
    return np.array([rng.integers(1, 2**63, dtype=np.uint64)], np.uint64)


def save_state(path: str | os.PathLike[str], state: SearchState) -> None:
    """Write `state` to `path` atomically (the old file stays intact until the new one is whole)."""
    settings = _settings(state)
    pending_options, pending_ends = _flattened(state.pending)
    arrays = {
        "alive": state.alive,
        "pending_options": pending_options,
        "pending_ends": pending_ends,
        **_named(state.arrays),
    }
    meta = np.array([*settings, _contents_digest(settings, arrays)])
    buffer = io.BytesIO()
    np.savez(buffer, meta=meta, **arrays)
    write_bytes_atomically(path, buffer.getvalue())


def _settings(state: SearchState) -> list[str]:
    """What the saved arrays mean, as the first fields of the saved `meta`."""
    return [
        str(FORMAT_VERSION),
        state.fingerprint,
        state.engine,
        "" if state.random_seed is None else str(state.random_seed),
        str(state.n_items),
        str(state.n_primary),
    ]


def _flattened(solutions: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Solutions as one array of their options and one of where each ends in it."""
    ends = np.cumsum([len(s) for s in solutions], dtype=np.int64)
    return np.array([k for s in solutions for k in s], np.int64), ends


def unflattened(options: np.ndarray, ends: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """Solutions from one array of their options and one of where each ends in it."""
    flat, stops = options.tolist(), ends.tolist()
    return tuple(tuple(flat[b:e]) for b, e in zip([0, *stops][:-1], stops, strict=True))


def _named(arrays: Arrays) -> dict[str, Any]:
    """The arrays of an engine by name."""
    return arrays._asdict()


def _contents_digest(settings: list[str], arrays: dict[str, np.ndarray]) -> str:
    """A digest of the settings and of every saved array with its type and shape.  The kernels
    trust what they are given: a setting or an array changed or cut after it was saved (the
    zip's own checksums hold when a file is rewritten whole) could make them count wrong or
    crash, so such a save is refused instead."""
    digest = hashlib.sha256("\n".join(settings).encode())
    for name, array in arrays.items():
        digest.update(f"\n{name} {array.dtype.str} {array.shape}\n".encode())
        digest.update(np.ascontiguousarray(array).data)
    return digest.hexdigest()


def load_state(path: str | os.PathLike[str], problem: Problem) -> SearchState:
    """The search saved in `path`, which must have been a search of `problem`."""
    data = read_bytes(path, MemoryBudget.of(None).limit)
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as saved:
            meta = [str(v) for v in saved["meta"]]
            if len(meta) != 7 or meta[0] != str(FORMAT_VERSION) or meta[2] not in ENGINES:
                raise StateError(
                    f"{path}: saved by another version of slidelab; start the search anew"
                )
            fields = _ENGINE_ARRAYS[meta[2]]._fields
            names = ("alive", "pending_options", "pending_ends", *fields)
            arrays = {name: saved[name] for name in names}
    except StateError:
        raise
    except Exception:
        # a damaged file fails in zipfile, zlib or numpy in many ways (BadZipFile, KeyError,
        # ValueError, EOFError, OSError for a seek before its start, NotImplementedError for
        # a compression method, RuntimeError for a flag saying "encrypted", MemoryError for
        # a huge shape, ...): all mean this
        raise StateError(f"{path}: not a saved exact-cover search (or a damaged one)") from None
    settings, contents = meta[:6], meta[6]
    if contents != _contents_digest(settings, arrays):
        raise StateError(
            f"{path}: the saved search is damaged (it changed after it was saved);"
            " start the search anew"
        )
    _, fingerprint, engine, seed, n_items, n_primary = settings
    if fingerprint != problem.matrix().fingerprint():
        raise StateError(f"{path}: this saved search belongs to another problem")
    engine_arrays = _ENGINE_ARRAYS[engine]
    return SearchState(
        fingerprint,
        engine,
        int(seed) if seed else None,
        int(n_items),
        int(n_primary),
        arrays["alive"],
        engine_arrays(*(arrays[name] for name in engine_arrays._fields)),
        unflattened(arrays["pending_options"], arrays["pending_ends"]),
    )

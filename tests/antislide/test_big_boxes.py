"""Big boxes: the search's arrays grow with the square of the cells, so they are counted
against the memory budget before they are made, and the work between two progress events
stays bounded however deep the search goes."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from slidelab.antislide import kernels, search
from slidelab.antislide.model import Box, Tables
from slidelab.antislide.search import solve
from slidelab.runs import Progress, drive
from tests.antislide.test_search import _listing_digest


def _start(dims: tuple[int, int, int], brick: tuple[int, int, int] = (2, 2, 1), keep=False):
    return drive(search._Run.start(Tables.build(Box(dims), brick), 0, None, keep, (), -1))


def test_the_sizes_count_every_array_the_search_makes():
    for dims, brick in [((4, 5, 5), (2, 2, 1)), ((1, 1, 300), (2, 2, 1)),
                        ((3, 3, 4), (1, 1, 2)), ((1, 2, 66), (1, 1, 33))]:  # fmt: skip
        for keep in (False, True):
            run = _start(dims, brick, keep)
            arrays = [a for part in (run.state, run.geometry, run.out) for a in part]
            made = sum(a.nbytes for a in arrays if isinstance(a, np.ndarray))
            assert search._Sizes.of(run.tables, keep).held == made
            assert run.held == run.tables.nbytes + made


def test_the_constraint_lists_grow_as_the_path_needs_them(monkeypatch):
    """The lists' stack had room for every brick's face sets at every level (44 MB for
    3 x 3 x 300); started with none, it grows and the packings come as before."""
    grown = []
    sizes_of, grow = search._Sizes.of, search._Run.grow_lists
    monkeypatch.setattr(
        search._Sizes,
        "of",
        lambda tables, keep: dataclasses.replace(sizes_of(tables, keep), lists=0),
    )
    monkeypatch.setattr(
        search._Run, "grow_lists", lambda run: (grow(run), grown.append(run.state.cons.size))
    )
    assert _listing_digest((4, 4, 5), (2, 2, 1)) == (47403, "1d834d3aa466eede")
    assert grown == [6, 12, 24, 48, 96, 192, 384]


def test_backing_up_a_deep_path_is_paced(monkeypatch):
    """A kernel call stops after `budget` nodes, backing up a level counting as one: the empty
    packing of 1 x 1 x N is N levels deep, and one call backed up all of them."""
    monkeypatch.setattr(search, "next_budget", lambda budget, *pace: budget)
    run = _start((1, 1, 128))
    run.budget = 16
    depths = [0]
    while run.chunk() != kernels.DONE:
        depths.append(int(run.state.st[kernels.L]))
    steps = [b - a for a, b in itertools.pairwise(depths)]
    assert max(depths) == 128 and steps[:8] == [16] * 8  # down to the empty packing
    assert min(steps) == -17  # up: 16 levels, and the one the packing was recorded at


def test_preparing_the_search_yields_progress(monkeypatch):
    """The bitboards are made a block at a time: 2 x 2 x 8000's conflict sets took 4 s in one
    numpy call, which Ctrl-C (or the desktop app's Stop) could not interrupt."""
    monkeypatch.setattr(search, "BLOCK_WORDS", 4)
    monkeypatch.setattr(search, "CHUNK_SECONDS", 0.0)
    phases = [e.phase for e in solve(Box((4, 4, 4))) if isinstance(e, Progress)]
    assert phases.count("preparing the search") > 100
    assert drive(solve(Box((4, 4, 4)))).solutions == 1171


def _fraction_level_by_level(run: search._Run) -> float:
    """The estimate as it was computed, reading every level of the path."""
    done, weight = 0.0, 1.0
    start, cover = run.tables.cover_start, run.tables.cover
    for level in range(run.goal.prefix.size, int(run.state.st[kernels.L]) + 1):
        x, move = int(run.state.cell[level]), int(run.state.mv[level])
        if x < 0 or move == kernels.UNSET:
            break
        covering = cover[start[x] : start[x + 1]]
        choices = len(covering) + 1
        position = 0 if move == kernels.EMPTY else int(np.searchsorted(covering, move)) + 1
        done += weight * position / choices
        weight /= choices
    return min(done, 1.0)


def test_the_fraction_reads_only_the_levels_that_can_change_it():
    """Read level by level, the estimate took 18 ms at depth 3,000, longer than a kernel call;
    the levels of one choice and those below the sum's precision change nothing."""
    for dims in [(4, 5, 5), (1, 1, 128), (2, 2, 30)]:
        run = _start(dims)
        for _ in range(20):
            run.chunk()
            assert run.fraction() == _fraction_level_by_level(run)

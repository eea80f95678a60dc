"""Taking a list of assemblies apart in one run, and sorting them by level.

`disassemble_all` is one solver for the whole list: its progress counts the
assemblies done (`explored`) and those that came apart (`found`), and it can be
stopped between them (and within one, at its search's own progress events).  Given
a time, it also stops by itself when its pace says the rest would take longer,
keeping what it has done: a split run (`slidelab.disassembly.split`) takes a short
list apart here, and hands the rest of a long one to its workers.
`level_keys` turns the results into integers that sort as levels do, for lists
that sort and filter integer columns.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass

import numpy as np

from slidelab.disassembly.model import Assembly, Disassembly, highest_level, level_text
from slidelab.disassembly.search import disassembly_steps
from slidelab.runs import Pacer, Progress, RunStopped, relay

PHASE = "taking assemblies apart"
PROGRESS_SECONDS = 0.05
"""Least time between two progress events of the list (besides its searches' own)."""
FIRST_LOOK = 0.05
"""Seconds of pace, after the first assembly, before a run given a time judges the rest."""

STUCK_KEY = 1 << 30
"""The sort key of an assembly that does not come apart: after every level."""
UNTRIED_KEY = STUCK_KEY + 1
"""The sort key of an assembly not taken apart yet: last of all."""


@dataclass(frozen=True)
class TakenApartAll:
    """A list of assemblies and how each comes apart (or not), in the same order."""

    assemblies: Sequence[Assembly]
    """As given: a sequence that makes each assembly when asked for stays one."""
    disassemblies: tuple[Disassembly, ...]
    """One for each assembly, or for the first ones only when the run stopped early."""
    seconds: float
    highest_level: tuple[int, ...] | None
    """The greatest level of those that come apart (`model.highest_level`)."""

    @classmethod
    def of(
        cls, assemblies: Sequence[Assembly], disassemblies: tuple[Disassembly, ...], seconds: float
    ) -> TakenApartAll:
        """The result, its highest level worked out here: on the solver's thread, which then
        holds every disassembly's level (cached), so the window reads them for little."""
        return cls(assemblies, disassemblies, seconds, highest_level(disassemblies))

    @property
    def complete(self) -> bool:
        """Whether every assembly was taken apart (a run given a time may stop before)."""
        return len(self.disassemblies) == len(self.assemblies)

    @property
    def separable(self) -> int:
        """How many of the assemblies come apart."""
        return sum(d.separable for d in self.disassemblies)


def disassemble_all(
    assemblies: Sequence[Assembly],
    *,
    unit_steps: bool = False,
    max_states: int | None = None,
    within: float | None = None,
) -> Generator[Progress, None, TakenApartAll]:
    """Take every assembly apart in turn (`disassembly_steps`), yielding progress about every
    50 ms: assemblies done, how many came apart, the fraction of the list done.  The last
    event, at the end, counts them all, so a status line ends on the result's figures.

    With `within` (seconds), the run stops as soon as, `FIRST_LOOK` seconds or more after its
    first assembly was done (the first may have loaded the kernels), its pace says the rest
    would take longer than `within`; its result then holds the disassemblies of the
    assemblies taken apart so far, a prefix of the list, and is not `complete`."""
    started = time.perf_counter()
    pacer = Pacer(PHASE, started, PROGRESS_SECONDS)
    total = max(len(assemblies), 1)
    found: list[Disassembly] = []
    separable = 0
    first_done: float | None = None

    def too_long(under_way: bool) -> bool:
        """Whether the pace since the first assembly says the rest takes longer than `within`
        (an assembly `under_way` is counted as done now)."""
        if within is None or first_done is None:
            return False
        spent = time.perf_counter() - first_done
        pace = spent / max(len(found) - 1 + under_way, 1)
        return spent >= FIRST_LOOK and pace * (len(assemblies) - len(found) - under_way) > within

    def totals() -> Progress:
        """The list's progress: assemblies done, how many came apart."""
        return Progress(
            PHASE, len(found), time.perf_counter() - started, found=separable,
            fraction=len(found) / total,
        )  # fmt: skip

    def overall(_inner: Progress) -> Progress:
        """The list's progress in place of one search's (or the end of the run, too long)."""
        if too_long(under_way=True):
            raise RunStopped
        return totals()

    try:
        for assembly in assemblies:
            steps = disassembly_steps(assembly, unit_steps=unit_steps, max_states=max_states)
            disassembly = yield from relay(steps, report=overall)
            found.append(disassembly)
            separable += disassembly.separable
            if first_done is None:
                first_done = time.perf_counter()
            if too_long(under_way=False):
                break
            if pacer.due(len(found), len(found) / total) is not None:
                yield totals()
    except RunStopped:  # too long, within an assembly: it is left undone
        pass
    yield totals()
    return TakenApartAll.of(assemblies, tuple(found), time.perf_counter() - started)


def level_keys(disassemblies: Sequence[Disassembly | None]) -> tuple[np.ndarray, list[str]]:
    """Integer sort keys for the assemblies' levels, and the text of each key below
    `STUCK_KEY`: equal levels share a key, and keys follow the levels' order (moves to the
    first separation first, then to the next, ...); an assembly that does not come apart gets
    `STUCK_KEY`, one not tried (None) `UNTRIED_KEY`."""
    levels = sorted({d.level for d in disassemblies if d is not None and d.separable})
    rank = {level: k for k, level in enumerate(levels)}
    keys = np.array(
        [
            UNTRIED_KEY if d is None else rank[d.level] if d.separable else STUCK_KEY
            for d in disassemblies
        ],
        np.int64,
    )
    return keys, [level_text(level) for level in levels]

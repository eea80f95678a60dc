"""Taking a list of assemblies apart in chunks: on local processes, a Dask cluster, journaled.

The assemblies are independent, so a subproblem is a run of consecutive ones (a
chunk): the root holds the whole list, and a chunk of more than one assembly splits
into `FANOUT` chunks of as many (within one) in order, down to single assemblies.
`slidelab.parallel.run` decides which chunks to take apart where; each comes back
as the disassemblies of its assemblies (`records`), and the chunks' keys sort in the
list's order, so the result is the one `disassemble_all` gives in one process.

How long an assembly takes varies forty times over between BurrTools' examples (a third of
a millisecond for a six-piece burr, thirteen for DraculasDentalDesaster's nine big pieces),
and the positions a search visits say little of it (most of the time is preparing
each assembly), so a chunk is judged by its pace: a probe (`explore` with a budget)
gives up, to be split, once its pace says it would take longer than `CHUNK_SECONDS`
(the root, taken apart here, longer than `ALONE_SECONDS`).  On local processes without
a journal the list is first taken apart here, keeping what is done, for as long as
the pace says the rest ends within `ALONE_SECONDS`: a short list never starts the
workers, and a long one hands them only what is left.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace

from slidelab import heap
from slidelab.disassembly.batch import TakenApartAll, disassemble_all
from slidelab.disassembly.model import Assembly, Disassembly
from slidelab.disassembly.records import (
    checked_disassembly,
    disassembly_from_record,
    disassembly_record,
)
from slidelab.parallel.payload import adds_up, expect, fields, items
from slidelab.parallel.run import SPLIT_RULES, run_journaled
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress, relay

FANOUT = 16
"""Chunks a chunk splits into."""
ALONE_SECONDS = 0.5
"""A list whose pace says it is taken apart within this is taken apart here, in one process:
splitting it would gain little (forking two workers, sending them 35 small chunks and closing
them took 0.1 s, CubeInCage's 96 classes, a loaded machine)."""
CHUNK_SECONDS = 2.0
"""A chunk whose pace says it takes longer is split into its chunks: short enough that
progress comes often, long enough that a task's overhead (a few milliseconds) is small, and
that the noise of a busy machine in a probe's first look rarely splits a chunk for nothing."""


@dataclass(frozen=True)
class Chunk:
    """Assemblies `start` to `stop` (not included) of the list."""

    key: tuple[int, ...]
    """Child numbers on the path from the root (the journal's name for the chunk)."""
    start: int
    stop: int


@dataclass(frozen=True)
class DisassemblyJob:
    """What every worker needs to take chunks of one list apart (a `SplitJob`)."""

    assemblies: tuple[Assembly, ...]
    unit_steps: bool
    max_states: int | None
    big_root: bool = False
    """The list was found too long to take apart here (`disassemble_split`): the root is split
    at once instead of probed again."""

    def root(self) -> Chunk:
        return Chunk((), 0, len(self.assemblies))

    def children(self, chunk: Chunk) -> list[Chunk]:
        """`FANOUT` chunks of as many assemblies (within one), or fewer of one each; [] for a
        single assembly."""
        size = chunk.stop - chunk.start
        if size <= 1:
            return []
        parts = min(FANOUT, size)
        bounds = [chunk.start + size * k // parts for k in range(parts + 1)]
        return [Chunk((*chunk.key, k), bounds[k], bounds[k + 1]) for k in range(parts)]

    def explore(
        self, chunk: Chunk, budget: int | None, growth: float | None = None
    ) -> Generator[Progress, None, TaskResult | None]:
        """Take the chunk apart; a probe (any `budget`) gives up, returning None, once its pace
        says it takes longer than `CHUNK_SECONDS` (the root: `ALONE_SECONDS`)."""
        if budget is not None and not chunk.key and self.big_root:
            return None
        within = None if budget is None else CHUNK_SECONDS if chunk.key else ALONE_SECONDS
        taken = yield from disassemble_all(
            self.assemblies[chunk.start : chunk.stop],
            unit_steps=self.unit_steps,
            max_states=self.max_states,
            within=within,
        )
        if not taken.complete:
            return None
        records = [disassembly_record(d) for d in taken.disassemblies]
        return TaskResult(chunk.key, taken.separable, len(records), {"disassemblies": records})

    def check(self, result: TaskResult) -> None:
        """A payload as `explore` writes it: one disassembly record for each assembly of the
        chunk its key names, as many as its nodes, as many separable as it counts.  A key
        that names no chunk is never read (`run_split`), and not checked."""
        chunk = self._chunk(result.key)
        if chunk is None:
            return
        fields(result.payload, ("disassemblies",))
        records = items(result.payload["disassemblies"], "disassemblies", chunk.stop - chunk.start)
        expect(result.nodes == len(records), f"nodes must be {len(records)}, its disassemblies")
        separable = sum(
            checked_disassembly(
                record, f"disassemblies[{n}]", len(self.assemblies[chunk.start + n].pieces)
            ).separable
            for n, record in enumerate(records)
        )
        adds_up(separable, result.count, "separable disassemblies")

    def _chunk(self, key: tuple[int, ...]) -> Chunk | None:
        """The chunk `key` names, or None."""
        chunk = self.root()
        for step in key:
            kids = self.children(chunk)
            if step >= len(kids):
                return None
            chunk = kids[step]
        return chunk

    def fingerprint(self) -> str:
        """Names the list, the moves and limit, and the splitting rules, for journals.  Each
        assembly counts by the hash of its pieces' cells (of whole numbers only, so the same in
        every process and run) and the text of their names, groups and weights."""
        digest = hashlib.sha256(
            f"taking apart; unit_steps={self.unit_steps}; max_states={self.max_states}; "
            f"fanout={FANOUT}; {SPLIT_RULES}".encode()
        )
        for assembly in self.assemblies:
            pieces = assembly.pieces
            cells = hash(tuple(piece.cells for piece in pieces))
            rest = [(piece.name, sorted(piece.groups), piece.weight) for piece in pieces]
            digest.update(f"{cells} {rest}\n".encode())
        return digest.hexdigest()


@dataclass(frozen=True)
class Shared:
    """How taking a list apart was shared out."""

    here: int
    """Assemblies taken apart in this process before the rest was split (all when it was
    not split)."""
    subproblems: int
    """Chunks the rest was taken apart in (0 when it was not split)."""
    resumed: int
    """Chunks whose disassemblies came from the journal."""


def disassemble_split(
    assemblies: Sequence[Assembly],
    *,
    unit_steps: bool = False,
    max_states: int | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    journal: str | None = None,
    what: str = "",
) -> Generator[Progress, None, tuple[TakenApartAll, Shared]]:
    """Take every assembly apart, as `disassemble_all` does, in chunks (module doc): on `jobs`
    processes, or on the Dask cluster at `scheduler`, recording each chunk done in the
    `journal` file.  One job, no scheduler and no journal: `disassemble_all` itself."""
    started = time.perf_counter()
    heap.settle()  # the list: out of full collections here and in forked workers (their pages)
    if jobs == 1 and scheduler is None and journal is None:
        taken = yield from disassemble_all(assemblies, unit_steps=unit_steps, max_states=max_states)
        return taken, Shared(len(assemblies), 0, 0)
    alone_first = scheduler is None and journal is None
    here: tuple[Disassembly, ...] = ()
    if alone_first:
        alone = yield from disassemble_all(
            assemblies, unit_steps=unit_steps, max_states=max_states, within=ALONE_SECONDS
        )
        if alone.complete:
            return alone, Shared(len(assemblies), 0, 0)
        here = alone.disassemblies
    job = DisassemblyJob(tuple(assemblies[len(here) :]), unit_steps, max_states, alone_first)
    separable_here = sum(d.separable for d in here)

    def whole_list(event: Progress) -> Progress:
        """The split run's progress counting the assemblies taken apart here before."""
        return replace(
            event, explored=event.explored + len(here), found=event.found + separable_here
        )

    run = run_journaled(
        job, jobs=jobs, scheduler=scheduler, journal=journal, what=what or "a list of assemblies"
    )
    results, resumed = yield from relay(run, report=whole_list)
    found = list(here)
    for result in results:  # tens of thousands of objects that live on: kept from full passes
        found.extend(map(disassembly_from_record, result.payload["disassemblies"]))
        heap.settle()
    taken = TakenApartAll.of(assemblies, tuple(found), time.perf_counter() - started)
    return taken, Shared(len(here), len(results), resumed)

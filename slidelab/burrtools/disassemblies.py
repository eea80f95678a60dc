"""Which assemblies of a BurrTools problem come apart, and how (BurrTools' `solutions`).

The assemblies are found as `slidelab polycube` finds them: every assembly in
the fixed result, or with `distinct` one per class as BurrTools counts them
(taking apart does not depend on how the whole is turned).  Each is then taken
apart by `slidelab.disassembly.search`; the pieces carry their part's groups and
their shape's weight, as BurrTools' disassembler uses them.  The assemblies are
always found in this process, in the exact cover's own order, which numbers them
(and, with `distinct`, picks each class's first); a split search would list them in
another order.  Taking them apart may be split (`slidelab.disassembly.split`): the
result is the same.  `listed_assembly` makes the assembly of a listed solution of
either a BurrTools problem or a polycube spec (whose pieces have no groups), as the
polycube tab takes its list apart; `ListedAssemblies` makes them one at a time.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import overload

from slidelab.burrtools.assemblies import search_assemblies
from slidelab.burrtools.packing import BurrPacking
from slidelab.disassembly.model import Assembly, Disassembly, Piece, highest_level
from slidelab.disassembly.split import Shared, disassemble_split
from slidelab.exactcover.search import SolutionsFound, solve
from slidelab.polycube.packing import Packing
from slidelab.runs import Progress, relay


@dataclass(frozen=True)
class TakenApart:
    """One assembly and what taking it apart found."""

    solution: tuple[int, ...]
    """The assembly as option numbers of the problem's exact cover."""
    assembly: Assembly
    disassembly: Disassembly


@dataclass(frozen=True)
class DisassemblyCount:
    """Every assembly of a problem, taken apart."""

    assemblies: int
    disassemblable: int
    """Assemblies that come apart (BurrTools' `solutions`)."""
    results: tuple[TakenApart, ...]
    """Every assembly in the order found."""
    seconds: float
    shared: Shared
    """How taking them apart was shared out."""

    @property
    def highest_level(self) -> tuple[int, ...] | None:
        return highest_level(r.disassembly for r in self.results)


def assembly_of(packing: BurrPacking, solution: tuple[int, ...]) -> Assembly:
    """The pieces of an assembly, in part order, with their groups and weights."""
    pieces = []
    for placed in packing.decode(solution):
        part = packing.problem.parts[placed.part]
        shape = packing.puzzle.shapes[part.shape]
        groups = frozenset(g.group for g in part.groups if g.group)
        pieces.append(Piece(placed.cells, packing.part_label(placed.part), groups, shape.weight))
    return Assembly(tuple(pieces))


def spec_assembly(packing: Packing, solution: tuple[int, ...]) -> Assembly:
    """The pieces of a solution of a polycube spec, in the order it places them, named by
    their piece (no groups: every piece must come free; all of weight 1)."""
    return Assembly(tuple(Piece(placed.cells, placed.piece) for placed in packing.decode(solution)))


def listed_assembly(packing: Packing | BurrPacking, solution: tuple[int, ...]) -> Assembly:
    """A listed solution of a spec or assembly of a BurrTools problem, as an assembly whose
    pieces come in the order the 3D scenes draw them (`geometry.packing_scenes`)."""
    if isinstance(packing, BurrPacking):
        return assembly_of(packing, solution)
    return spec_assembly(packing, solution)


@dataclass(frozen=True)
class ListedAssemblies(Sequence[Assembly]):
    """The assemblies of listed solutions (`listed_assembly`), each made when it is asked
    for.  A list of 11,520 Soma solutions made at once is a hundred thousand objects alive
    together, and the GUI's garbage collection, which walks them on the main thread, held
    the window 70-115 ms; made one at a time, each is freed when its turn is over."""

    packing: Packing | BurrPacking
    solutions: tuple[tuple[int, ...], ...]

    def __len__(self) -> int:
        return len(self.solutions)

    @overload
    def __getitem__(self, index: int) -> Assembly: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Assembly]: ...
    def __getitem__(self, index: int | slice) -> Assembly | Sequence[Assembly]:
        if isinstance(index, slice):
            return ListedAssemblies(self.packing, self.solutions[index])
        return listed_assembly(self.packing, self.solutions[index])


def search_disassemblies(
    packing: BurrPacking,
    *,
    distinct: bool,
    unit_steps: bool = False,
    max_states: int | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    journal: str | None = None,
    what: str = "",
) -> Generator[Progress, None, DisassemblyCount]:
    """Find the assemblies (one per class with `distinct`), then take each apart: here, or
    in chunks on `jobs` processes or the Dask cluster at `scheduler`, recording each chunk
    done in the `journal` file (`disassemble_split`)."""
    started = time.perf_counter()
    found: list[tuple[int, ...]] = []

    def keep(batch: SolutionsFound) -> None:
        found.extend(batch.solutions)

    if distinct:
        yield from relay(search_assemblies(packing, listing=True), keep)
    else:
        yield from relay(solve(packing.exact_cover), keep)
    assemblies = [assembly_of(packing, solution) for solution in found]
    taken, shared = yield from disassemble_split(
        assemblies, unit_steps=unit_steps, max_states=max_states, jobs=jobs,
        scheduler=scheduler, journal=journal, what=what,
    )  # fmt: skip
    results = tuple(
        TakenApart(solution, assembly, disassembly)
        for solution, assembly, disassembly in zip(
            found, taken.assemblies, taken.disassemblies, strict=True
        )
    )
    seconds = time.perf_counter() - started
    return DisassemblyCount(len(found), taken.separable, results, seconds, shared)

"""Counting packings up to the symmetries of the box, by symmetry breaking during the search.

The group G: the symmetries of the cube lattice (rotations, and reflections when
the set of pieces is closed under mirroring) that map the box onto itself, each
taken as the permutation it induces on the options (a reflection also swaps
each chiral piece with its mirror image).  Symmetries that move no option, such
as turning a one-cell-thick box over, act as the identity and count once.

Distinct solutions are the orbits of G on the solutions.  Pick a piece kind P
with one copy that every symmetry maps to itself.  Every solution holds exactly
one placement of P, so the orbits of solutions split by the orbit of that
placement: for one representative r of each orbit of G on P's placements, the
orbits of solutions whose P-placement lies in r's orbit correspond one to one
to the orbits of r's stabiliser H_r on the solutions that contain r.  So

    distinct = sum over representatives r of (H_r-orbits of solutions containing r),

and when H_r is trivial that is simply the number of solutions containing r.
The search therefore keeps only the representatives of P (one engine count for
all those with a trivial stabiliser together) and, for each representative with
a nontrivial stabiliser, lists the solutions containing it and merges those
that H_r maps onto each other.  The fixed count comes out too: r's orbit has
|G| / |H_r| placements, each in as many solutions as r.  P is chosen to have as
few representatives with a nontrivial stabiliser as possible, then as few
representatives as possible.  When no piece qualifies, every solution is listed
and merged by their least images (`canonical`).

Listing the distinct solutions costs little more: each solution containing a
representative with a trivial stabiliser is a class of its own, and of the
others the first of each class met is kept, so one solution per class streams
out as the engine finds it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from functools import partial

from slidelab.exactcover.problem import Problem
from slidelab.exactcover.search import ExactCoverResult, SolutionsFound, solve
from slidelab.mirror_pairs import mirror_pairs
from slidelab.polycube.packing import Packing, base_shapes
from slidelab.polycube.rotations import REFLECTIONS, ROTATIONS, Matrix, apply, mirror
from slidelab.polycube.spec import Cell
from slidelab.runs import Progress, drive, translate

Permutation = tuple[int, ...]


@dataclass(frozen=True)
class BoxGroup:
    """The box's symmetry group acting on the options of a packing."""

    permutations: tuple[Permutation, ...]
    """Distinct option permutations, the identity first."""
    reflections: bool
    """Whether reflections of the box were admitted (the pieces are closed under mirroring)."""


@dataclass(frozen=True)
class DistinctCount:
    """Solutions of a packing, in the fixed box and up to the box's symmetries."""

    solutions: int
    """Every packing of the fixed box."""
    distinct: int
    """Packings up to the symmetries in the group."""
    group_order: int
    """Symmetries of the box, as distinct permutations of the placements."""
    reflections: bool
    """Whether the group includes reflections."""
    piece: str | None
    """The piece whose placements were restricted (None: all solutions were merged)."""
    representatives: int
    """Placements of that piece kept in the search."""
    seconds: float


def mirror_partners(packing: Packing) -> dict[str, str] | None:
    """Each piece's mirror-image piece (`slidelab.mirror_pairs`), or None when some piece has
    none.

    A piece's mirror partner has the mirrored set of base placements and the
    same multiplicity (with `packing.mirror` every piece is its own partner).
    """
    names = [p.name for p in packing.spec.pieces]
    shapes = [frozenset(base_shapes(p, packing.mirror)) for p in packing.spec.pieces]
    copies = [p.multiplicity for p in packing.spec.pieces]
    pairs = mirror_pairs(
        list(zip(shapes, copies, strict=True)),
        [(frozenset(mirror(s) for s in own), m) for own, m in zip(shapes, copies, strict=True)],
    )
    if len(pairs) < len(names):
        return None
    return {names[k]: names[j] for k, j in pairs.items()}


def box_group(packing: Packing) -> BoxGroup:
    """The symmetries of the box as permutations of `packing`'s options."""
    partners = mirror_partners(packing)
    matrices = ROTATIONS + (REFLECTIONS if partners is not None else ())
    number = {(p.piece, p.cells): k for k, p in enumerate(packing.placements)}
    found: dict[Permutation, None] = {}
    for m in matrices:
        move = self_map(m, packing.spec.box)
        if move is None:
            continue
        rename = partners if m in REFLECTIONS and partners is not None else {}
        found[
            tuple(
                number[(rename.get(p.piece, p.piece), tuple(sorted(move(c) for c in p.cells)))]
                for p in packing.placements
            )
        ] = None
    return BoxGroup(tuple(found), partners is not None)


def self_map(m: Matrix, box: tuple[Cell, ...]) -> Callable[[Cell], Cell] | None:
    """`m` followed by the shift that puts the box back in place, if it maps the box onto itself.

    `box` may be any set of cells (slidelab.burrtools uses it on BurrTools' result shapes).
    """
    image = [apply(m, c) for c in box]
    shift = [min(c[a] for c in box) - min(c[a] for c in image) for a in range(3)]
    moved = {(x + shift[0], y + shift[1], z + shift[2]) for x, y, z in image}
    if moved != set(box):
        return None

    def move(cell: Cell) -> Cell:
        x, y, z = apply(m, cell)
        return (x + shift[0], y + shift[1], z + shift[2])

    return move


def images(solution: Iterable[int], permutations: Iterable[Permutation]) -> list[Permutation]:
    """A solution's images (option numbers, sorted) under the permutations."""
    chosen = tuple(solution)
    return [tuple(sorted(perm[k] for k in chosen)) for perm in permutations]


def canonical(solution: Iterable[int], permutations: Iterable[Permutation]) -> Permutation:
    """The least image of a solution (its option numbers) under the permutations."""
    return min(images(solution, permutations))


def search_distinct(
    packing: Packing, *, listing: bool = False
) -> Generator[Progress | SolutionsFound, None, DistinctCount]:
    """Count solutions and distinct solutions of `packing` by symmetry breaking (see module doc).

    A solver in the house contract: it yields the progress of every engine run it
    makes (nodes and solutions summed over them) and closing it stops the run.
    With `listing` it also hands out one solution of every class, the first found,
    as soon as it is found (option numbers of `packing`).
    """
    started = time.perf_counter()
    group = box_group(packing)
    perms = group.permutations
    order = len(perms)
    tally = _Tally(started, listing)
    every = range(len(packing.placements))
    choice = _choose_piece(packing, perms)
    if choice is None:
        solutions, distinct = yield from tally.classes(packing.problem, every, perms)
        return DistinctCount(
            solutions, distinct, order, group.reflections, None, 0, time.perf_counter() - started
        )
    piece, representatives = choice
    own = {k for k, p in enumerate(packing.placements) if p.piece == piece}
    free = {r for r, stabiliser in representatives if len(stabiliser) == 1}
    solutions = distinct = 0
    if free:
        dropped = own - free
        kept = [k for k in every if k not in dropped]
        plain = yield from tally.counted(packing.problem.without_options(dropped), kept)
        distinct += plain
        solutions += plain * order
    for r, stabiliser in representatives:
        if r in free:
            continue
        removed = own - {r}
        kept = [k for k in every if k not in removed]
        found, classes = yield from tally.classes(
            packing.problem.without_options(removed), kept, stabiliser
        )
        distinct += classes
        solutions += found * order // len(stabiliser)
    return DistinctCount(
        solutions, distinct, order, group.reflections, piece, len(representatives),
        time.perf_counter() - started,
    )  # fmt: skip


def count_distinct(packing: Packing) -> DistinctCount:
    """`search_distinct` run to its end."""
    return drive(search_distinct(packing))


def list_distinct(packing: Packing) -> tuple[list[tuple[int, ...]], DistinctCount]:
    """One solution of every class, in the order `search_distinct` hands them out, and the
    counts."""
    found: list[tuple[int, ...]] = []
    counted = drive(
        search_distinct(packing, listing=True),
        on_found=lambda batch: found.extend(batch.solutions),
    )
    return found, counted


class _Tally:
    """Runs the engine on one narrowed problem after another, reporting their sum as progress
    and, when listing, handing out one solution per class."""

    def __init__(self, started: float, listing: bool) -> None:
        self.started = started
        self.listing = listing
        self.nodes = 0
        self.found = 0

    def counted(
        self, problem: Problem, numbering: Sequence[int]
    ) -> Generator[Progress | SolutionsFound, None, int]:
        """How many solutions `problem` has, each a class of its own: when listing, they are
        handed out with their options renamed through `numbering`."""
        if self.listing:
            result = yield from self._run(solve(problem), partial(_renamed, numbering))
        else:
            result = yield from self._run(solve(problem, count_only=True), _nothing)
        return result.count

    def classes(
        self, problem: Problem, numbering: Sequence[int], permutations: tuple[Permutation, ...]
    ) -> Generator[Progress | SolutionsFound, None, tuple[int, int]]:
        """The solutions of `problem` (options renamed through `numbering`) and the classes
        the permutations merge them into."""
        seen: set[Permutation] = set()

        def new(batch: SolutionsFound) -> SolutionsFound | None:
            fresh = []
            for solution in _renamed(numbering, batch).solutions:
                key = canonical(solution, permutations)
                if key not in seen:
                    seen.add(key)
                    fresh.append(solution)
            return SolutionsFound(tuple(fresh)) if fresh and self.listing else None

        result = yield from self._run(solve(problem), new)
        return result.count, len(seen)

    def _run(
        self,
        search: Generator[Progress | SolutionsFound, None, ExactCoverResult],
        change: Callable[[SolutionsFound], SolutionsFound | None],
    ) -> Generator[Progress | SolutionsFound, None, ExactCoverResult]:
        """Relay `search`'s progress as running totals and its batches as `change` makes them."""
        result = yield from translate(search, change, self._total)
        self.nodes += result.nodes
        self.found += result.count
        return result

    def _total(self, event: Progress) -> Progress:
        """One engine run's progress as that of all the runs so far."""
        return Progress(
            phase="counting up to symmetry",
            explored=self.nodes + event.explored,
            elapsed=time.perf_counter() - self.started,
            depth=event.depth,
            found=self.found + event.found,
        )


def _nothing(_batch: SolutionsFound) -> None:
    """Pass no results on (a counting run)."""


def _renamed(numbering: Sequence[int], batch: SolutionsFound) -> SolutionsFound:
    """A batch of a narrowed problem's solutions in the whole problem's option numbers."""
    return SolutionsFound(tuple(tuple(numbering[k] for k in s) for s in batch.solutions))


def _choose_piece(
    packing: Packing, perms: tuple[Permutation, ...]
) -> tuple[str, list[tuple[int, tuple[Permutation, ...]]]] | None:
    """The piece to restrict and its representatives, each with its stabiliser."""
    best: tuple[tuple[int, int], str, list[tuple[int, tuple[Permutation, ...]]]] | None = None
    for piece in packing.spec.pieces:
        options = [k for k, p in enumerate(packing.placements) if p.piece == piece.name]
        if (
            not options  # a piece that fits nowhere: there is nothing to restrict
            or piece.multiplicity != 1
            or any(perm[options[0]] not in set(options) for perm in perms)
        ):
            continue
        seen: set[int] = set()
        representatives = []
        for k in options:
            if k not in seen:
                seen.update(perm[k] for perm in perms)
                representatives.append((k, tuple(p for p in perms if p[k] == k)))
        score = (sum(len(s) > 1 for _, s in representatives), len(representatives))
        if best is None or score < best[0]:
            best = (score, piece.name, representatives)
    return None if best is None else (best[1], best[2])

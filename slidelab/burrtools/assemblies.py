"""Counting assemblies as BurrTools counts them (its default: mirror and rotated copies removed).

An assembly is a solution of the problem's exact cover in the fixed result
shape.  BurrTools keeps one assembly per class, two assemblies being in one
class when a self-symmetry of the result shape carries one onto the other
(assembly_c::smallerRotationExists over the result's selfSymmetries):

- the self-symmetries are those of the 48 rotations and reflections of the
  cube grid, each followed by the shift that puts the result back in place,
  that map every result voxel onto a voxel of the same state (fixed or
  variable) and colour;
- a rotation is applied to every assembly;
- a reflection turns every piece over, so it is applied only to an assembly
  that places every piece of the problem (each part its `high` times) and
  whose mirror image is again an assembly of the problem: each part is
  mirror-symmetric or has a mirror partner (a part whose coloured shape is
  the mirror image), and with each piece replaced by its partner every part
  is still used between its `low` and `high` times.

The first condition is BurrTools' "mirror paradox" as the examples record
it: in a problem with ranges, an assembly that leaves some copies unused is
never merged with its mirror image, because BurrTools marks an unused piece
with an orientation number (255) that its mirror test takes for a piece
turned over.  So DemoMirrorParadox's two problems give two assemblies each,
mirror images of one another, with "Keep Mirror Solutions" on or off; and
SolidSixPieceBurrs records 1063, its classes under rotations alone.  (Later
BurrTools versions skip unused pieces in that test and merge such mirror
images: 1 and 1 for DemoMirrorParadox, 588 for SolidSixPieceBurrs.)  Every
assembly is listed and reduced to a canonical form, so the count is exact.

Listing hands out each class when it is first met, as the member BurrTools
keeps: of the class's images (the assembly under each symmetry above, all of
them assemblies of the problem) the least under BurrTools' order of assemblies
(`slidelab.burrtools.order`), so the listed assembly is the one BurrTools stores,
turned as BurrTools turns it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from slidelab.burrtools.model import Labelled
from slidelab.burrtools.order import BurrToolsOrder
from slidelab.burrtools.packing import (
    BurrPacking,
    labelled_voxels,
    orientations,
    transformed,
)
from slidelab.exactcover.search import SolutionsFound, solve
from slidelab.mirror_pairs import mirror_pairs
from slidelab.polycube.rotations import REFLECTIONS, SYMMETRIES, Matrix
from slidelab.polycube.spec import Cell
from slidelab.polycube.symmetry import Permutation, self_map
from slidelab.runs import Progress, drive, translate


@dataclass(frozen=True)
class AssemblyCount:
    """Assemblies of a problem: in the fixed result, and one per class as BurrTools counts."""

    assemblies: int
    """Classes of assemblies (BurrTools' `assemblies` figure)."""
    fixed: int
    """Assemblies in the fixed result shape."""
    rotations: int
    """Self-symmetries of the result that are rotations (the identity included)."""
    reflections: int
    """Self-symmetries of the result that are reflections."""
    mirrorable: int
    """Assemblies in the fixed result that reflections apply to (see the module doc)."""
    seconds: float


def search_assemblies(
    packing: BurrPacking, *, listing: bool = False
) -> Generator[Progress | SolutionsFound, None, AssemblyCount]:
    """Count `packing`'s assemblies (module doc); yields the engine's progress, closing stops it.
    With `listing` it also hands out, as soon as a class is first met, the member of the class
    BurrTools keeps (`slidelab.burrtools.order`)."""
    started = time.perf_counter()
    symmetries = result_symmetries(packing)
    rotations = [move for m, move in symmetries.items() if m not in REFLECTIONS]
    reflections = [move for m, move in symmetries.items() if m in REFLECTIONS]
    partners = mirror_partners(packing)
    turned = _permutations(packing, rotations, {p: p for p in range(len(packing.problem.parts))})
    mirrored = np.concatenate([turned, _permutations(packing, reflections, partners)])
    order = BurrToolsOrder(packing, symmetries) if listing else None
    classes: set[Permutation] = set()
    fixed = mirrorable = 0

    def sort(batch: SolutionsFound) -> SolutionsFound | None:
        nonlocal fixed, mirrorable
        reflected = [
            bool(reflections) and _mirrorable(packing, solution, partners)
            for solution in batch.solutions
        ]
        fixed += len(reflected)
        mirrorable += sum(reflected)
        fresh = []
        for key, members in _least_images(batch.solutions, reflected, turned, mirrored):
            if key not in classes:
                classes.add(key)
                if order is not None:
                    fresh.append(min(map(tuple, members.tolist()), key=order.key))
        return SolutionsFound(tuple(fresh)) if fresh else None

    yield from translate(solve(packing.exact_cover), sort)
    return AssemblyCount(
        len(classes), fixed, len(rotations), len(reflections), mirrorable,
        time.perf_counter() - started,
    )  # fmt: skip


def count_assemblies(packing: BurrPacking) -> AssemblyCount:
    """`search_assemblies` run to its end."""
    return drive(search_assemblies(packing))


Move = Callable[[Cell], Cell]
Rows = npt.NDArray[np.int64]


def result_symmetries(packing: BurrPacking) -> dict[Matrix, Move]:
    """The result's self-symmetries (state and colour kept), each as its cell map."""
    label = {v.cell: (v.state, v.colour) for v in packing.result.voxels}
    cells = tuple(label)
    symmetries: dict[Matrix, Move] = {}
    for m in SYMMETRIES:
        move = self_map(m, cells)
        if move is not None and all(label[move(c)] == label[c] for c in cells):
            symmetries[m] = move
    return symmetries


def mirror_partners(packing: BurrPacking) -> dict[int, int]:
    """Each part's mirror partner (`slidelab.mirror_pairs`: itself when mirror-symmetric);
    parts without one are left out.

    A partner is a part whose coloured shape is, up to rotation, the mirror image
    of the part's.
    """
    shapes = [labelled_voxels(packing.puzzle.shapes[part.shape]) for part in packing.problem.parts]
    return mirror_pairs(
        [_form(shape) for shape in shapes],
        [_form(transformed(REFLECTIONS[0], shape)) for shape in shapes],
    )


def _form(voxels: Labelled) -> Labelled:
    """A coloured shape's representative under rotation: its least orientation."""
    return min(orientations(voxels))


def _permutations(packing: BurrPacking, moves: list[Move], rename: dict[int, int]) -> Rows:
    """The options' images under each move (a row per move), the part renamed (-1 where it
    has no image).

    With the result's cells numbered in sorted order, a placement is a row of keys, cell
    number times the colours plus the colour, in its voxels' order; a move is a permutation
    of the cell numbers.  A part's rows, moved and sorted again, are looked up among the
    renamed part's rows, one move at a time (so memory stays that of the rows).
    """
    cells = sorted(v.cell for v in packing.result.voxels)
    number = {cell: k for k, cell in enumerate(cells)}
    maps = np.array([[number[move(c)] for c in cells] for move in moves], dtype=np.int64)
    shapes = [packing.puzzle.shapes[part.shape] for part in packing.problem.parts]
    colours = 1 + max(v.colour for shape in shapes for v in shape.voxels)
    parts = np.array([p.part for p in packing.placements], dtype=np.int64)
    images = np.full((len(moves), len(packing.placements)), -1, dtype=np.int64)
    for part, target in rename.items():
        options, cell, colour = _rows(packing, number, parts == part)
        if not len(options) or not len(moves):
            continue
        targets, target_cell, target_colour = _rows(packing, number, parts == target)
        if not len(targets):
            raise LookupError(f"part {target} has no placements to be the image of part {part}")
        find = _lookup(target_cell * colours + target_colour)
        for k, moved in enumerate(maps):
            images[k, options] = targets[find(np.sort(moved[cell] * colours + colour))]
    return images


def _rows(
    packing: BurrPacking, number: dict[Cell, int], chosen: npt.NDArray[np.bool_]
) -> tuple[Rows, Rows, Rows]:
    """The chosen options' numbers, and their placements' cell numbers and colours (one row
    per placement; the chosen placements are of one part, so the rows are of one length)."""
    options = np.flatnonzero(chosen)
    voxels = [packing.placements[k].voxels for k in options]
    cell = np.array([[number[c] for c, _ in row] for row in voxels], dtype=np.int64)
    colour = np.array([[c for _, c in row] for row in voxels], dtype=np.int64)
    return options, cell, colour


def _lookup(table: Rows) -> Callable[[Rows], npt.NDArray[np.intp]]:
    """A search of `table`'s rows (distinct): it gives each row's index in the table, and
    raises LookupError for a row that is not there.  Rows are compared as bytes."""
    width = np.dtype((np.void, table.shape[1] * table.itemsize))
    keys = np.ascontiguousarray(table).view(width).ravel()
    order = np.argsort(keys)
    ordered = keys[order]

    def find(rows: Rows) -> npt.NDArray[np.intp]:
        wanted = np.ascontiguousarray(rows).view(width).ravel()
        at = np.minimum(np.searchsorted(ordered, wanted), len(ordered) - 1)
        missing = np.flatnonzero(ordered[at] != wanted)
        if len(missing):
            raise LookupError(f"row {rows[missing[0]].tolist()} is not in the table")
        return order[at]

    return find


def _least_images(
    solutions: tuple[tuple[int, ...], ...], reflected: list[bool], turned: Rows, mirrored: Rows
) -> list[tuple[Permutation, Rows]]:
    """Each solution's least image and its images (a row per permutation, option numbers
    sorted) under the permutations `turned`, or `mirrored` where `reflected`: the images of
    the solutions of one length that one set of permutations moves, in one array."""
    found: dict[int, tuple[Permutation, Rows]] = {}
    groups: dict[tuple[int, bool], list[int]] = {}
    for k, solution in enumerate(solutions):
        groups.setdefault((len(solution), reflected[k]), []).append(k)
    for (_, mirror), chosen in groups.items():
        permutations = mirrored if mirror else turned
        options = np.array([solutions[k] for k in chosen], dtype=np.int64)
        members = np.sort(permutations[:, options], axis=2).transpose(1, 0, 2)
        alive = np.ones(members.shape[:2], dtype=np.bool_)
        for column in members.transpose(2, 0, 1):
            kept = np.where(alive, column, np.iinfo(np.int64).max)
            alive &= kept == kept.min(axis=1, keepdims=True)
        least = members[np.arange(len(chosen)), alive.argmax(axis=1)]
        for k, key, rows in zip(chosen, least.tolist(), members, strict=True):
            found[k] = tuple(key), rows
    return [found[k] for k in range(len(solutions))]


def _mirrorable(packing: BurrPacking, solution: tuple[int, ...], partners: dict[int, int]) -> bool:
    """Whether the assembly places every piece and its mirror image is an assembly too."""
    used = Counter(packing.placements[k].part for k in solution)
    parts = packing.problem.parts
    if any(used[k] != part.high or k not in partners for k, part in enumerate(parts)):
        return False
    swapped: Counter[int] = Counter()
    for part, count in used.items():
        swapped[partners[part]] += count
    return all(part.low <= swapped[k] <= part.high for k, part in enumerate(parts))

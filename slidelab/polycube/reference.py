"""Slow, independent oracles for the tests: list everything, then merge by geometry.

`distinct_by_filtering` lists every solution of the fixed box and canonicalises
each one under the box's symmetries applied to cells (not to option numbers,
as `symmetry` does).  `count_with_labelled_copies` gives every copy of a
repeated piece its own name, lists all solutions and forgets the labels, so it
checks that the multiplicity items count copies as indistinguishable.
"""

from __future__ import annotations

from dataclasses import replace

from slidelab.polycube.packing import Packing, base_shapes, build_packing, solution_numbers
from slidelab.polycube.rotations import REFLECTIONS, ROTATIONS, apply, mirror
from slidelab.polycube.spec import Cell, PieceSpec, Spec

Layout = frozenset[tuple[str, tuple[Cell, ...]]]


def layouts(packing: Packing) -> list[Layout]:
    """Every solution as a set of (piece, cells)."""
    return [
        frozenset((p.piece, p.cells) for p in packing.decode(s))
        for s in solution_numbers(packing.problem)
    ]


def distinct_by_filtering(packing: Packing) -> int:
    """Solutions up to the box's symmetries, by listing all and merging images."""
    return len({layout_class(packing, layout) for layout in layouts(packing)})


def layout_class(packing: Packing, layout: Layout) -> tuple[tuple[str, tuple[Cell, ...]], ...]:
    """The least image of a solution under the box's symmetries, moving cells: two solutions
    are images of one another exactly when their classes are equal."""
    partners = partners_by_rank(packing)
    matrices = ROTATIONS + (REFLECTIONS if partners is not None else ())
    box = set(packing.spec.box)
    low = [min(c[a] for c in box) for a in range(3)]
    images = []
    for m in matrices:
        rename = partners if m in REFLECTIONS and partners is not None else {}
        moved = {apply(m, c) for c in box}
        shift = [low[a] - min(c[a] for c in moved) for a in range(3)]
        if {tuple(v + s for v, s in zip(c, shift, strict=True)) for c in moved} != box:
            continue
        images.append(
            tuple(
                sorted(
                    (
                        rename.get(name, name),
                        tuple(
                            sorted(
                                (c[0] + shift[0], c[1] + shift[1], c[2] + shift[2])
                                for c in (apply(m, cell) for cell in cells)
                            )
                        ),
                    )
                    for name, cells in layout
                )
            )
        )
    return min(images)


def partners_by_rank(packing: Packing) -> dict[str, str] | None:
    """Mirror partners found another way than `symmetry.mirror_partners`: the pieces of each
    shape (with multiplicity) in input order, the k-th of a shape paired with the k-th of the
    mirrored shape (itself when the shape is its own mirror image); None when two such lists
    differ in length."""
    by_shape: dict[tuple[frozenset[tuple[Cell, ...]], int], list[str]] = {}
    for piece in packing.spec.pieces:
        shape = frozenset(base_shapes(piece, packing.mirror))
        by_shape.setdefault((shape, piece.multiplicity), []).append(piece.name)
    partners: dict[str, str] = {}
    for (shape, copies), names in by_shape.items():
        mirrored = by_shape.get((frozenset(mirror(s) for s in shape), copies), [])
        if len(mirrored) != len(names):
            return None
        partners.update(zip(names, mirrored, strict=True))
    return partners


def count_with_labelled_copies(spec: Spec) -> int:
    """Solutions with copies of a piece indistinguishable, by labelling and unlabelling them."""
    pieces: list[PieceSpec] = []
    label: dict[str, str] = {}
    for piece in spec.pieces:
        for copy in range(piece.multiplicity):
            name = f"{piece.name}#{copy}"[-8:] if piece.multiplicity > 1 else piece.name
            label[name] = piece.name
            pieces.append(replace(piece, name=name, multiplicity=1))
    labelled = build_packing(replace(spec, pieces=tuple(pieces)))
    return len(
        {frozenset((label[name], cells) for name, cells in layout) for layout in layouts(labelled)}
    )

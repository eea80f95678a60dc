"""Which assembly of each class BurrTools keeps: the least under its order of assemblies.

BurrTools drops every assembly it finds that a self-symmetry of the result turns
into a smaller one (assembly_c::smallerRotationExists with assembly_c::compare),
and its assembler places the symmetry breaker's piece (below) only in the least
orientation of each orbit of the result's rotations, which the least member has;
where no symmetry is left to check, that restriction alone leaves one member per
class, again the least.  So of each class BurrTools keeps the least member under
this order (assembly.cpp, assembler_1.cpp; assembler_0.cpp for problems whose
parts are each used once, with the same outcome):

- a piece's placement is (rotation number, x, y, z): the lowest of BurrTools' 24
  rotation numbers that turns the piece's shape, colours included, onto it about
  its hotspot, and where the hotspot then lies (`stored.rotation_numbers`);
- an assembly lists its pieces' placements part by part in the problem's order,
  each part `max` times: the copies of a part sorted, an unused copy last as
  (255, 0, 0, 0);
- assemblies compare as these lists, except that the symmetry breaker's piece
  comes first.  The symmetry breaker is the part with the fewest copies, of those
  the one sharing the fewest symmetries with the result (the result's 48-way
  self-symmetries that are self-symmetries of the part's shape in some
  orientation), the first of equals; there is none when a part has a range of
  counts or the chosen part is not used exactly once.

The rule is that of BurrTools' current source; the versions of 2005 to 2007 that
solved the example files choose the same symmetry breakers for them, and every
stored assembly is the least of its class under this order (CubeInCage's only
with the symmetry breaker first; tests/burrtools/test_order.py).  BurrTools'
"expensive rotation check" (not its default), which also compares an assembly
with its turns shifted within a result with variable voxels, is not modelled.
"""

from __future__ import annotations

from collections.abc import Iterable

from slidelab.burrtools.model import Shape
from slidelab.burrtools.packing import BurrPacking, labelled_voxels, transformed
from slidelab.burrtools.stored import numbered_place, place_order, rotation_numbers
from slidelab.polycube.rotations import SYMMETRIES, Matrix, apply, compose, inverse

Place = tuple[int, int, int, int]
"""A placement as BurrTools compares them: rotation number, then x, y, z of the hotspot."""
Entry = tuple[bool, int, Place]
"""A placed piece in `BurrToolsOrder.key`: whether it is not the symmetry breaker's, its
part, its placement."""


class BurrToolsOrder:
    """BurrTools' order on the assemblies of a class, for one problem (module doc).

    Every member of a class uses each part as often (a reflection applies only to an
    assembly that uses every piece), so the unused copies stand at the same places in
    all of them and comparing BurrTools' lists is comparing the placed pieces as
    (part, placement), sorted, the symmetry breaker's first.
    """

    def __init__(self, packing: BurrPacking, symmetries: Iterable[Matrix]) -> None:
        """`symmetries`: the result's self-symmetries, reflections included."""
        self._packing = packing
        parts = packing.problem.parts
        self._numbers = [rotation_numbers(packing.puzzle.shapes[p.shape]) for p in parts]
        self._entries: dict[int, Entry] = {}
        self.breaker = symmetry_breaker(packing, symmetries)
        """The symmetry breaker's part, if any."""

    def key(self, solution: Iterable[int]) -> tuple[Entry, ...]:
        """An assembly of the class (option numbers) as BurrTools compares it."""
        return tuple(sorted(map(self.entry, solution)))

    def entry(self, option: int) -> Entry:
        """Option `option`'s piece as `key` compares it."""
        known = self._entries.get(option)
        if known is None:
            placement = self._packing.placements[option]
            at = numbered_place(self._numbers[placement.part], placement.voxels)
            known = (placement.part != self.breaker, placement.part, place_order(at))
            self._entries[option] = known
        return known


def symmetry_breaker(packing: BurrPacking, symmetries: Iterable[Matrix]) -> int | None:
    """The part that is BurrTools' symmetry breaker (module doc), None when it has none."""
    parts = packing.problem.parts
    if any(part.low != part.high for part in parts) or min(p.high for p in parts) != 1:
        return None
    result = set(symmetries)
    shared = [
        len(result & _unified(packing.puzzle.shapes[part.shape])) if part.high == 1 else 0
        for part in parts
    ]
    best = 0
    for k in range(1, len(parts)):
        fewer = parts[k].high < parts[best].high
        if fewer or (parts[k].high == parts[best].high and shared[k] < shared[best]):
            best = k
    return best


def _unified(shape: Shape) -> set[Matrix]:
    """The symmetries of a shape in any of its orientations: the conjugates of its own."""
    voxels = labelled_voxels(shape)
    form = transformed(SYMMETRIES[0], voxels)
    xs, ys, zs = zip(*(cell for cell, _ in form), strict=True)
    box = (max(xs), max(ys), max(zs))
    own = [  # a symmetry keeps the extents of the shape's box, which is quick to check first
        m
        for m in SYMMETRIES
        if tuple(abs(v) for v in apply(m, box)) == box and transformed(m, voxels) == form
    ]
    return {compose(compose(r, m), inverse(r)) for r in SYMMETRIES for m in own}

"""A polycube spec as a BurrTools puzzle: one shape per piece, the box as the result.

The box becomes a result shape of fixed voxels and each piece kind a shape
used `multiplicity` times, all moved so their smallest coordinates are 0.
BurrTools gives a piece exactly one shape, so a spec piece whose lines are
differently shaped (not rotations of one another) cannot be written.
"""

from __future__ import annotations

from collections.abc import Iterable

from slidelab.burrtools.model import FIXED, BurrProblem, Part, Puzzle, Shape, Voxel, XmpuzzleError
from slidelab.polycube.rotations import normalize, orientations
from slidelab.polycube.spec import Cell, Spec

RESULT_NAME = "Result"


def puzzle_from_spec(spec: Spec, name: str = "", source: str = "<spec>") -> Puzzle:
    """The BurrTools puzzle of packing `spec` (one problem called `name`)."""
    shapes = []
    for piece in spec.pieces:
        first = orientations(piece.shapes[0])
        for shape in piece.shapes[1:]:
            if normalize(shape) not in first:
                raise XmpuzzleError(
                    source, f"piece {piece.name}", "its lines have different shapes; a BurrTools "
                    "piece has one shape (make each line a piece of its own)",
                )  # fmt: skip
        shapes.append(_shape(piece.shapes[0], piece.name))
    shapes.append(_shape(spec.box, RESULT_NAME))
    parts = tuple(
        Part(k, piece.multiplicity, piece.multiplicity) for k, piece in enumerate(spec.pieces)
    )
    problem = BurrProblem(name=name, parts=parts, result=len(spec.pieces))
    return Puzzle(shapes=tuple(shapes), problems=(problem,))


def _shape(cells: Iterable[Cell], name: str) -> Shape:
    """A voxel space just big enough for `cells`, all fixed."""
    placed = normalize(cells)
    x, y, z = (1 + max(c[axis] for c in placed) for axis in range(3))
    in_file_order = sorted(placed, key=lambda c: (c[2], c[1], c[0]))
    return Shape((x, y, z), tuple(Voxel(c, FIXED) for c in in_file_order), name)

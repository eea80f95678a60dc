"""Small random BurrTools puzzles for hypothesis: results with and without symmetries, colours,
variable voxels, chiral pieces and mirror partners."""

from __future__ import annotations

from hypothesis import strategies as st

from slidelab.burrtools.model import FIXED, VARIABLE, BurrProblem, Part, Puzzle, Shape, Voxel
from slidelab.polycube.spec import Cell


def _shape(voxels: dict[Cell, tuple[str, int]]) -> Shape:
    x, y, z = (1 + max(cell[axis] for cell in voxels) for axis in range(3))
    return Shape((x, y, z), tuple(Voxel(c, state, colour) for c, (state, colour) in voxels.items()))


def _mirrored(voxels: dict[Cell, tuple[str, int]]) -> dict[Cell, tuple[str, int]]:
    top = max(x for x, _, _ in voxels)
    return {(top - x, y, z): label for (x, y, z), label in voxels.items()}


CELLS = st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 1))
SCREW = {(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)}
"""A tetracube that is not its own mirror image."""
COLOURS = st.integers(0, 2)


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    """A result in a box of up to 3 x 3 x 3 (the whole box, neutral or checkered, or some of
    it with random colours and states), up to three pieces of up to four cubes (neutral or
    coloured, often a chiral one), sometimes with the first piece's mirror image as another
    piece, and random colour pairs."""
    size = draw(st.tuples(*[st.sampled_from([2, 3, 1])] * 3))
    box = [(x, y, z) for x in range(size[0]) for y in range(size[1]) for z in range(size[2])]
    kind = draw(st.sampled_from(["neutral", "checkered", "random"]))
    if kind == "random":
        cells = sorted(set(draw(st.lists(st.sampled_from(box), min_size=1))))
        result = {c: (draw(st.sampled_from([FIXED, VARIABLE])), draw(COLOURS)) for c in cells}
    else:
        result = {c: (FIXED, 0 if kind == "neutral" else 1 + sum(c) % 2) for c in box}
    pieces = []
    for _ in range(draw(st.integers(1, 3))):
        piece = draw(st.just(SCREW) | st.sets(CELLS, min_size=1, max_size=4))
        neutral = draw(st.booleans())
        pieces.append({c: (FIXED, 0 if neutral else draw(COLOURS)) for c in sorted(piece)})
    if draw(st.booleans()):
        pieces.append(_mirrored(pieces[0]))
    shapes = (_shape(result), *(_shape(piece) for piece in pieces))
    parts = []
    for k in range(1, len(shapes)):
        low = draw(st.integers(0, 1))
        parts.append(Part(k, low, draw(st.integers(max(low, 1), 2))))
    pairs = draw(st.sets(st.tuples(st.integers(1, 2), st.integers(1, 2))))
    problem = BurrProblem("", tuple(parts), 0, tuple(sorted(pairs)))
    return Puzzle(shapes, (problem,), ((255, 0, 0), (0, 0, 255)))

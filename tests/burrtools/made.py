"""slidelab's own BurrTools test puzzles, built in code and written with slidelab's writer.

`scripts/make_burrtools_test_data.py` writes them to `tests/data/burrtools/`, so a
fresh clone runs the format tests without BurrTools' examples (which are never
copied).  Every figure in `COUNTS` was worked out by hand below, not by running
slidelab; the problems BurrTools would have solved record those figures.

Cells are (x, y, z).  The flat results lie in z = 0, so a map of the plane extends
to a 3D symmetry twice: once as a rotation (an in-plane reflection combined with
turning the plane over) and once as a reflection.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from slidelab.burrtools.model import (
    SOLVED,
    BurrProblem,
    Group,
    Part,
    Position,
    Puzzle,
    Shape,
    Solution,
)
from slidelab.burrtools.voxels import parse_voxels

DATA = Path(__file__).resolve().parents[1] / "data" / "burrtools"
"""Where the files live in the repository."""

RED, BLUE = (200, 30, 30), (30, 60, 200)


def _shape(name: str, size: tuple[int, int, int], voxels: str, weight: int = 1) -> Shape:
    """A shape from its BurrTools voxel string (x fastest, then y, then z)."""
    return Shape(size, parse_voxels(voxels, size, "made.py", name), name, weight)


def _solved(problem: BurrProblem, assemblies: int, *stored: Solution) -> BurrProblem:
    """`problem` as BurrTools leaves it once solved: every flat assembly comes apart."""
    return BurrProblem(
        problem.name, problem.parts, problem.result, problem.allowed_colours,
        state=SOLVED, assemblies=assemblies, solutions=assemblies, time=0, stored=stored,
    )  # fmt: skip


SEPARATION = (
    '<separation><pieces count="2">0 1</pieces><state><dx>0 0</dx><dy>0 0</dy><dz>0 0</dz>'
    "</state><state><dx>0 0</dx><dy>0 3</dy><dz>0 0</dz></state></separation>"
)
"""A disassembly as BurrTools stores one: the second domino slides off along y."""


def dominoes() -> Puzzle:
    """Dominoes (and single cubes) in flat results: piece counts, ranges, variable voxels.

    - "square": two dominoes fill a 2 x 2 square as two rows or two columns (2 fixed
      assemblies); the square has 8 rotations and 8 reflections, and a quarter turn
      carries rows onto columns: 1 assembly.
    - "rectangle": three dominoes in 3 x 2: three columns, or a column beside two
      stacked rows on the left or on the right (3 fixed, the 2 x n count being the
      Fibonacci number F(4)); the box's 4 rotations include the half turn that swaps
      left and right: 2 assemblies.
    - "ranges": 1 or 2 dominoes and up to 2 single cubes in a 2 x 2 square whose
      corner (1, 1) is variable.  The fixed assemblies: two rows or two columns (2); a
      domino inside the three fixed cells, (0,0)-(1,0) or (0,0)-(0,1), and a cube on the
      third (2, corner empty); any of the 4 domino positions with cubes on the other two
      cells (4): 8.  The only symmetries keep the variable corner: the swap of x and y,
      as a rotation (turning the plane over) and as a reflection, and turning the plane
      over alone, a reflection that moves no cell.  The swap pairs them: rows with
      columns, the two domino-and-cube ones, and the four with two cubes in two pairs:
      4 assemblies.  No assembly places 2 dominoes and 2 cubes, so reflections apply to
      none (and they would merge nothing more).
    """
    domino = _shape("Domino", (2, 1, 1), "##", weight=2)
    cube = _shape("Cube", (1, 1, 1), "#")
    square = _shape("Square", (2, 2, 1), "####")
    rectangle = _shape("Rectangle", (3, 2, 1), "######")
    corner = _shape("Open corner", (2, 2, 1), "###+")
    first_square = Solution((Position(0, 0, 0, 0), Position(0, 1, 0, 0)), 0, 0, SEPARATION)
    one_domino = Solution((Position(0, 0, 0, 0), None, Position(0, 1, 0, 0), None), 2, 2)
    return Puzzle(
        shapes=(domino, cube, square, rectangle, corner),
        problems=(
            _solved(BurrProblem("square", (Part(0, 2, 2, (Group(1, 2),)),), 2), 1, first_square),
            _solved(BurrProblem("rectangle", (Part(0, 3, 3),), 3), 2),
            _solved(BurrProblem("ranges", (Part(0, 1, 2), Part(1, 0, 2)), 4), 4, one_domino),
        ),
    )


def colours() -> Puzzle:
    """A domino red at one end and blue at the other in a 2 x 2 square, under colour rules.

    The striped square is red in the row y = 0 and blue in the row y = 1; its symmetries
    keep the rows: the mirror x -> 1 - x as a rotation and as a reflection, and turning
    the plane over, a reflection (2 rotations, 2 reflections).

    - "same colours" (red on red, blue on blue): only columns fit, red end down: 1 fixed
      assembly, 1 assembly.
    - "any colours": rows or columns, each domino either way round: 4 + 4 fixed.  The
      mirror x -> 1 - x turns both rows' dominoes round (LL~RR, LR~RL) and swaps the
      columns (UU, DD, UD~DU): 5 assemblies.
    - "plain result" (a neutral square, no pairs needed): the same 8, under the square's
      8 rotations: the two dominoes point the same way (4) or opposite ways (4), and a
      quarter turn, a half turn and the mirrors move within those sets: 2 assemblies.
    """
    domino = _shape("Two-tone domino", (2, 1, 1), "#1#2")
    striped = _shape("Striped square", (2, 2, 1), "#1#1#2#2")
    plain = _shape("Plain square", (2, 2, 1), "####")
    parts = (Part(0, 2, 2),)
    same = ((1, 1), (2, 2))
    every = ((1, 1), (1, 2), (2, 1), (2, 2))
    return Puzzle(
        shapes=(domino, striped, plain),
        problems=(
            _solved(BurrProblem("same colours", parts, 1, same), 1),
            BurrProblem("any colours", parts, 1, every),
            BurrProblem("plain result", parts, 2),
        ),
        colours=(RED, BLUE),
        comment="Coloured dominoes made for slidelab's tests.",
        comment_popup=True,
    )


def screws() -> Puzzle:
    """The mirror paradox with the two screw-shaped tetracubes, mirror images of each other.

    - "either screw": at most one of each in a V of three fixed cubes with a variable
      cube above each arm.  A screw has four cubes, so it covers the V and one of the
      two variable cubes, and which one is its handedness: 2 fixed assemblies, mirror
      images under the swap of x and y (the result's only symmetry besides the
      identity, a reflection).  Each leaves one piece unused, so BurrTools does not
      merge them: 2 assemblies, none mirrorable.
    - "both screws": one of each in a screw beside its mirror image (x -> 3 - x).  The
      cube (0,1,0) joins only (0,0,0), whose piece must take (1,0,0) and then (1,0,1)
      (with (2,0,0) the rest would fall apart): 1 fixed assembly, which places every
      piece and is its own mirror image: 1 assembly, mirrorable; the result has no
      rotation but the identity and that one reflection.
    """
    screw = _shape("Screw", (2, 2, 2), "###__#__")
    mirrored = _shape("Mirror screw", (2, 2, 2), "###___#_")
    corner = _shape("Raised corner", (2, 2, 2), "###__++_")
    pair = _shape("Pair of screws", (4, 2, 2), "#####__#_##_____")
    return Puzzle(
        shapes=(screw, mirrored, corner, pair),
        problems=(
            BurrProblem("either screw", (Part(0, 0, 1), Part(1, 0, 1)), 2),
            BurrProblem("both screws", (Part(0, 1, 1), Part(1, 1, 1)), 3),
        ),
    )


MADE = {"dominoes.xmpuzzle": dominoes, "colours.xmpuzzle": colours, "screws.xmpuzzle": screws}
"""The files and the functions that build them."""


@dataclass(frozen=True)
class Count:
    """Hand-worked figures of one problem (see the builders' docs)."""

    assemblies: int
    fixed: int
    rotations: int
    reflections: int
    mirrorable: int


COUNTS = {
    ("dominoes.xmpuzzle", 0): Count(1, 2, 8, 8, 2),
    ("dominoes.xmpuzzle", 1): Count(2, 3, 4, 4, 3),
    ("dominoes.xmpuzzle", 2): Count(4, 8, 2, 2, 0),
    ("colours.xmpuzzle", 0): Count(1, 1, 2, 2, 1),
    ("colours.xmpuzzle", 1): Count(5, 8, 2, 2, 8),
    ("colours.xmpuzzle", 2): Count(2, 8, 8, 8, 8),
    ("screws.xmpuzzle", 0): Count(2, 2, 1, 1, 0),
    ("screws.xmpuzzle", 1): Count(1, 1, 1, 1, 1),
}
"""(file, problem) -> its figures; mirrorable counts fixed assemblies placing every piece."""

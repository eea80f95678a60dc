"""The assemblies and disassemblies a BurrTools file stores, as slidelab's values.

A stored assembly gives each piece the place of its shape's hotspot and one of
BurrTools' 24 rotation numbers.  Rather than BurrTools' numbering, the piece's
cells are found among the shape's 24 rotations turned about its hotspot and
set at that place: those that lie in the result, one per piece, chosen so that
no two pieces overlap (pieces with symmetries may fit several ways, which give
the same cells).  A stored disassembly lists, for each separation, the places
of its pieces before each move (BurrTools' `state`s); a piece moved 10,000 or
more cells away has been removed.

Written back (`stored_solution`), a piece is placed as BurrTools places it: the
lowest rotation number that turns its shape onto its cells, and where its hotspot
then lies (`rotation_numbers` numbers every turn of a shape, colours included
when they tell turns apart, as BurrTools' order of assemblies needs); the copies
of a part take its piece numbers in the order of their places, as BurrTools sorts
them, and each separation lists its pieces by number.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from slidelab.burrtools.model import (
    Labelled,
    Part,
    Position,
    Puzzle,
    Shape,
    Solution,
    XmpuzzleError,
)
from slidelab.disassembly.model import DIRECTIONS, Assembly, Move, Piece, Separation, Vector
from slidelab.polycube.rotations import ROTATIONS, Matrix, apply

REMOVED = 10_000
"""BurrTools marks a removed piece by moving it at least this far."""
GONE = 30_000
"""How far slidelab moves a removed piece when it writes a state, as BurrTools does."""

TURNS = ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (0, 3))
"""BurrTools' rotation number t turns a point (t % 4) quarter turns about x, then
TURNS[t // 4] quarter turns about y and about z (worked out from the example files' stored
assemblies, whose pieces are found without the numbers: 19 of the 24 numbers occur)."""


def burrtools_rotation(number: int, point: Vector) -> Vector:
    """`point` turned as BurrTools' rotation `number` (0-23) turns a piece about its hotspot."""
    x, y, z = point
    about_y, about_z = TURNS[number // 4]
    for _ in range(number % 4):
        y, z = -z, y
    for _ in range(about_y):
        x, z = -z, x
    for _ in range(about_z):
        x, y = -y, x
    return (x, y, z)


def _rotation_matrix(number: int) -> Matrix:
    """BurrTools' rotation `number` as a matrix: its columns are the turned axes."""
    columns = [burrtools_rotation(number, axis) for axis in ((1, 0, 0), (0, 1, 0), (0, 0, 1))]
    first, second, third = (tuple(column[row] for column in columns) for row in range(3))
    return (first, second, third)  # type: ignore[return-value]


ROTATION_MATRICES = tuple(_rotation_matrix(number) for number in range(24))
"""BurrTools' 24 rotations as matrices, by number."""


def rotation_numbers(shape: Shape, *, colours: bool = True) -> dict[Labelled, tuple[int, Vector]]:
    """BurrTools' numbers for the turns of `shape`: each distinct turn (its voxels, coloured
    when `colours`, else all of colour 0, moved so that each coordinate's least is 0) with the
    lowest rotation number that gives it and where that number puts the hotspot."""
    table: dict[Labelled, tuple[int, Vector]] = {}
    for number, matrix in enumerate(ROTATION_MATRICES):
        turned = [(apply(matrix, v.cell), v.colour if colours else 0) for v in shape.voxels]
        low = _low(cell for cell, _ in turned)
        form = tuple(sorted((_minus(cell, low), colour) for cell, colour in turned))
        table.setdefault(form, (number, _minus(apply(matrix, shape.hotspot), low)))
    return table


@lru_cache(maxsize=256)
def _coloured_numbers(shape: Shape) -> dict[Labelled, tuple[int, Vector]]:
    return rotation_numbers(shape)


def burrtools_place(shape: Shape, voxels: Labelled) -> Position:
    """Where BurrTools puts a piece of `shape` that fills the coloured `voxels` (sorted by
    cell): its hotspot's place and rotation number, colours included (the numbering of each
    shape is made once)."""
    return numbered_place(_coloured_numbers(shape), voxels)


def numbered_place(table: dict[Labelled, tuple[int, Vector]], voxels: Labelled) -> Position:
    """Where BurrTools puts a piece that fills `voxels` (sorted by cell, labelled as `table`,
    its shape's `rotation_numbers`, labels them): its hotspot's place and rotation number."""
    low = _low(cell for cell, _ in voxels)
    found = table.get(tuple((_minus(cell, low), colour) for cell, colour in voxels))
    if found is None:
        raise ValueError("the cells are not a turn of the shape")
    number, hotspot = found
    return Position(*_plus(low, hotspot), number)


def stored_place(shape: Shape, cells: tuple[Vector, ...]) -> Position:
    """Where BurrTools puts a piece of `shape` that fills `cells`: its hotspot's place and the
    lowest rotation number that turns the shape onto them (colours aside)."""
    voxels = tuple(sorted((cell, 0) for cell in cells))
    return numbered_place(rotation_numbers(shape, colours=False), voxels)


def _low(cells: Iterable[Vector]) -> Vector:
    """Each coordinate's least value over `cells`."""
    xs, ys, zs = zip(*cells, strict=True)
    return (min(xs), min(ys), min(zs))


@dataclass(frozen=True)
class StoredAssembly:
    """A stored assembly's placed pieces and where BurrTools put their hotspots."""

    assembly: Assembly
    numbers: tuple[int, ...]
    """Each piece's number in the problem (parts in order, each `high` times)."""
    hotspots: tuple[Vector, ...]


def problem_pieces(puzzle: Puzzle, problem: int) -> list[Part]:
    """The part of each piece number of a problem (parts in order, each `high` times)."""
    return [part for part in puzzle.problems[problem].parts for _ in range(part.high)]


def stored_assembly(
    puzzle: Puzzle, problem: int, solution: Solution, source: str
) -> StoredAssembly:
    """The pieces of a stored assembly (module doc); XmpuzzleError when they cannot be
    placed in the result without overlapping."""
    parts = problem_pieces(puzzle, problem)
    result_index = puzzle.problems[problem].result
    result = (
        {v.cell for v in puzzle.shapes[result_index].voxels} if result_index is not None else set()
    )
    numbers = [k for k, place in enumerate(solution.assembly) if place is not None]
    choices = []
    for k in numbers:
        place = solution.assembly[k]
        assert place is not None
        shape = puzzle.shapes[parts[k].shape]
        hot = shape.hotspot
        fits = set()
        for rotation in ROTATIONS:
            cells = tuple(
                sorted(
                    _plus((place.x, place.y, place.z), apply(rotation, _minus(cell, hot)))
                    for cell in shape.cells
                )
            )
            if all(cell in result for cell in cells):
                fits.add(cells)
        choices.append(sorted(fits))
    chosen = _disjoint(choices)
    if chosen is not None:
        pieces = tuple(
            Piece(
                piece,
                f"S{parts[k].shape + 1}",
                frozenset(g.group for g in parts[k].groups if g.group),
                puzzle.shapes[parts[k].shape].weight,
            )
            for k, piece in zip(numbers, chosen, strict=True)
        )
        hotspots = tuple(_hotspot(solution, k) for k in numbers)
        return StoredAssembly(Assembly(pieces), tuple(numbers), hotspots)
    where = f"solution {solution.solution_number or solution.assembly_number or ''}".rstrip()
    raise XmpuzzleError(source, where, "its pieces do not fit in the result without overlapping")


def _disjoint(choices: list[list[tuple[Vector, ...]]]) -> list[tuple[Vector, ...]] | None:
    """One choice per piece, no two overlapping: backtracking, the pieces with fewest
    choices first, so that a piece with one way to fit rules out the others' overlaps."""
    order = sorted(range(len(choices)), key=lambda k: len(choices[k]))
    chosen: list[tuple[Vector, ...]] = [()] * len(choices)

    def place(depth: int, filled: frozenset[Vector]) -> bool:
        if depth == len(order):
            return True
        k = order[depth]
        for cells in choices[k]:
            if filled.isdisjoint(cells):
                chosen[k] = cells
                if place(depth + 1, filled.union(cells)):
                    return True
        return False

    return chosen if place(0, frozenset()) else None


def stored_separation(stored: StoredAssembly, text: str) -> Separation | None:
    """A stored `separation` element (XML text) as a separation tree of `stored`'s pieces;
    None for a `separationInfo`, which keeps only the number of states of each separation."""
    node = ET.fromstring(text)
    return _separation(stored, node) if node.tag == "separation" else None


def stored_level(text: str) -> tuple[int, ...]:
    """The level of a stored disassembly (`separation` or `separationInfo`, XML text): moves to
    each separation, this one first, then the removed part's, then the rest's."""
    node = ET.fromstring(text)
    if node.tag == "separation":
        return _level(node)
    counts = iter(int(n) for n in (node.text or "").split())
    return tuple(_info_level(counts))


def _level(node: ET.Element) -> tuple[int, ...]:
    children = {child.get("type"): _level(child) for child in node.findall("separation")}
    own = len(node.findall("state")) - 1
    return (own, *children.get("removed", ()), *children.get("left", ()))


def _info_level(counts: Iterator[int]) -> Iterator[int]:
    """BurrTools' separationInfo: each separation's number of states, in the order of the
    level, then its removed and its left part, 0 for a part that needs no separation."""
    states = next(counts)
    if states:
        yield states - 1
        yield from _info_level(counts)
        yield from _info_level(counts)


def _separation(stored: StoredAssembly, node: ET.Element) -> Separation:
    index = {number: i for i, number in enumerate(stored.numbers)}
    numbers = [int(n) for n in (node.findtext("pieces") or "").split()]
    states = [_state(state, len(numbers)) for state in node.findall("state")]
    local = [index[n] for n in numbers]
    order = sorted(range(len(local)), key=local.__getitem__)
    base = [stored.hotspots[i] for i in local]
    offsets = [[_minus(at, base[m]) for m, at in enumerate(state)] for state in states]
    moves = [
        _move([local[m] for m in order], [before[m] for m in order], [after[m] for m in order])
        for before, after in itertools.pairwise(offsets)
    ]
    children = {
        child.get("type"): _separation(stored, child) for child in node.findall("separation")
    }
    removed = tuple(sorted(moves[-1].pieces)) if moves else ()
    return Separation(
        tuple(local[m] for m in order),
        tuple(offsets[0][m] for m in order),
        tuple(moves),
        removed,
        children.get("removed"),
        children.get("left"),
    )


def _move(pieces: list[int], before: list[Vector], after: list[Vector]) -> Move:
    """The move between two stored states: the pieces that changed place, all by one shift."""
    moved = [(p, _minus(b, a)) for p, a, b in zip(pieces, before, after, strict=True) if a != b]
    shift = moved[0][1]
    axis = next(a for a in range(3) if shift[a])
    leaves = any(abs(after[pieces.index(p)][axis]) >= REMOVED for p, _ in moved)
    sign = 1 if shift[axis] > 0 else -1
    direction = 2 * axis + (sign < 0)
    return Move(tuple(sorted(p for p, _ in moved)), direction, None if leaves else abs(shift[axis]))


def _state(node: ET.Element, count: int) -> list[Vector]:
    columns = [[int(n) for n in (node.findtext(name) or "").split()] for name in ("dx", "dy", "dz")]
    return [(columns[0][k], columns[1][k], columns[2][k]) for k in range(count)]


def _hotspot(solution: Solution, number: int) -> Vector:
    place = solution.assembly[number]
    assert place is not None
    return (place.x, place.y, place.z)


def _plus(a: Vector, b: Vector) -> Vector:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _minus(a: Vector, b: Vector) -> Vector:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def stored_solution(
    puzzle: Puzzle, problem: int, parts: list[int], assembly: Assembly, tree: Separation | None
) -> Solution:
    """A solution as BurrTools stores it: the assembly (piece k of `assembly` is a copy of
    part `parts[k]`; the copies of a part take its piece numbers in the order of their places,
    rotation number first, as BurrTools sorts them) and its disassembly."""
    slots = problem_pieces(puzzle, problem)
    chosen = puzzle.problems[problem].parts
    found = [
        stored_place(puzzle.shapes[chosen[part].shape], piece.cells)
        for piece, part in zip(assembly.pieces, parts, strict=True)
    ]
    numbers = [0] * len(parts)
    places: list[Position | None] = [None] * len(slots)
    free = list(range(len(slots)))
    for k in sorted(range(len(parts)), key=lambda k: (parts[k], place_order(found[k]))):
        numbers[k] = next(n for n in free if slots[n] is chosen[parts[k]])
        free.remove(numbers[k])
        places[numbers[k]] = found[k]
    text = None if tree is None else ET.tostring(_separation_node(tree, numbers, places), "unicode")
    return Solution(tuple(places), disassembly=text)


def place_order(place: Position) -> tuple[int, int, int, int]:
    """A place as BurrTools orders places (placement_c's `<`): rotation number, then x, y, z."""
    return (place.transformation, place.x, place.y, place.z)


def _separation_node(
    tree: Separation, numbers: list[int], places: list[Position | None]
) -> ET.Element:
    node = ET.Element("separation")
    columns = sorted(range(len(tree.pieces)), key=lambda k: numbers[tree.pieces[k]])
    pieces = ET.SubElement(node, "pieces", count=str(len(tree.pieces)))
    pieces.text = " ".join(str(numbers[tree.pieces[k]]) for k in columns)  # ascending, as BurrTools
    home = []
    for p in tree.pieces:
        place = places[numbers[p]]
        assert place is not None
        home.append((place.x, place.y, place.z))
    for done in range(len(tree.moves) + 1):
        offsets = list(tree.places(done))
        if done == len(tree.moves):  # the leaving move: its pieces far away
            last = tree.moves[-1]
            step = DIRECTIONS[last.direction]
            for k, p in enumerate(tree.pieces):
                if p in last.pieces:
                    offsets[k] = _plus(offsets[k], (GONE * step[0], GONE * step[1], GONE * step[2]))
        state = ET.SubElement(node, "state")
        for axis, name in enumerate(("dx", "dy", "dz")):
            ET.SubElement(state, name).text = " ".join(
                str(home[k][axis] + offsets[k][axis]) for k in columns
            )
    for kind, part in (("removed", tree.removed), ("left", tree.left)):
        if part is not None:
            child = _separation_node(part, numbers, places)
            child.set("type", kind)
            node.append(child)
    return node

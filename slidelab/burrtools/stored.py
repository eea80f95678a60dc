"""The assemblies and disassemblies a BurrTools file stores, as slidelab's values.

A stored assembly gives each piece the place of its shape's hotspot and one of
BurrTools' 24 rotation numbers.  Rather than BurrTools' numbering, the piece's
cells are found among the shape's 24 rotations turned about its hotspot and
set at that place: those that lie in the result, one per piece, chosen so that
no two pieces overlap (pieces with symmetries may fit several ways, which give
the same cells).  A stored disassembly lists, for each separation, the places
of its pieces before each move (BurrTools' `state`s); a piece moved 10,000 or
more cells away has been removed.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

from slidelab.burrtools.model import Part, Position, Puzzle, Shape, Solution, XmpuzzleError
from slidelab.disassembly.model import DIRECTIONS, Assembly, Move, Piece, Separation, Vector
from slidelab.polycube.rotations import ROTATIONS, apply

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


def stored_place(shape: Shape, cells: tuple[Vector, ...]) -> Position:
    """Where BurrTools puts a piece of `shape` that fills `cells`: its hotspot's place and the
    lowest rotation number that turns the shape onto them."""
    wanted = sorted(cells)
    for number in range(24):
        turned = sorted(
            burrtools_rotation(number, _minus(cell, shape.hotspot)) for cell in shape.cells
        )
        shift = _minus(wanted[0], turned[0])
        if [_plus(cell, shift) for cell in turned] == wanted:
            return Position(*shift, number)
    raise ValueError("the cells are not a turn of the shape")


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
    part `parts[k]`, copies taking that part's piece numbers in order) and its disassembly."""
    slots = problem_pieces(puzzle, problem)
    numbers: list[int] = []
    for part in parts:
        taken = [n for n, slot in enumerate(slots) if slot is puzzle.problems[problem].parts[part]]
        numbers.append(next(n for n in taken if n not in numbers))
    places: list[Position | None] = [None] * len(slots)
    for number, piece, part in zip(numbers, assembly.pieces, parts, strict=True):
        shape = puzzle.shapes[puzzle.problems[problem].parts[part].shape]
        places[number] = stored_place(shape, piece.cells)
    text = None if tree is None else ET.tostring(_separation_node(tree, numbers, places), "unicode")
    return Solution(tuple(places), disassembly=text)


def _separation_node(
    tree: Separation, numbers: list[int], places: list[Position | None]
) -> ET.Element:
    node = ET.Element("separation")
    pieces = ET.SubElement(node, "pieces", count=str(len(tree.pieces)))
    pieces.text = " ".join(str(numbers[p]) for p in tree.pieces)
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
                str(at[axis] + off[axis]) for at, off in zip(home, offsets, strict=True)
            )
    for kind, part in (("removed", tree.removed), ("left", tree.left)):
        if part is not None:
            child = _separation_node(part, numbers, places)
            child.set("type", kind)
            node.append(child)
    return node

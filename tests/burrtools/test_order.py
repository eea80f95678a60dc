"""The assembly of each class BurrTools keeps: its stored assemblies, and a brute-force oracle.

The oracle numbers a piece by trying BurrTools' rotation numbers from 0 up about the
shape's hotspot, and finds an assembly's class by moving its cells with every
self-symmetry of the result (a reflection only when the assembly places every piece
and its mirror image is again an assembly), independently of `slidelab.burrtools.order`.
"""

from __future__ import annotations

from collections import Counter

import pytest

from slidelab.burrtools.assemblies import search_assemblies
from slidelab.burrtools.convert import puzzle_from_spec
from slidelab.burrtools.model import FIXED, Shape, Voxel
from slidelab.burrtools.packing import BurrPacking, build_packing, labelled_voxels
from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.burrtools.stored import (
    burrtools_rotation,
    numbered_place,
    rotation_numbers,
    stored_assembly,
)
from slidelab.exactcover.search import solve
from slidelab.library import load_shipped
from slidelab.polycube.rotations import REFLECTIONS, SYMMETRIES, apply
from slidelab.polycube.spec import parse_spec
from slidelab.runs import drive

from .made import COUNTS, DATA

Piece = tuple[int, tuple]
"""A placed piece: its part and its coloured voxels, sorted."""
Assembly = frozenset[Piece]
UNUSED = (255, 0, 0, 0)
"""BurrTools' placement of an unused copy of a part (stored as "x")."""

BREAKERS = {
    # The symmetry breaker's piece, from BurrTools' assembler (module doc of the order):
    # the Pelikan's cage shares all 48 symmetries with the result, each stick only the
    # identity, so the first stick; Dracula's first seven parts share only the identity;
    # CubeInCage's Frame1 shares a mirror, Frame2 comes twice, so the third part (piece 3);
    # AlPackino's box is the only part used once; the six-piece burrs have ranges.
    "PelikanBurr.xmpuzzle": 1,
    "DraculasDentalDesaster.xmpuzzle": 0,
    "CubeInCage.xmpuzzle": 3,
    "AlPackino.xmpuzzle": 0,
    "SolidSixPieceBurrs.xmpuzzle": None,
}


class Oracle:
    """Every assembly of a problem, the classes and BurrTools' order, by brute force."""

    def __init__(self, packing: BurrPacking) -> None:
        self.packing = packing
        self.parts = packing.problem.parts
        self.shapes = [packing.puzzle.shapes[part.shape] for part in self.parts]
        found: list = []
        drive(solve(packing.exact_cover), on_found=lambda b: found.extend(b.solutions))
        self.fixed = {self.pieces(s) for s in found}
        self.places: dict[Piece, tuple[int, int, int, int]] = {}
        self.owners: dict[tuple, int] = {}  # each turn of a part's coloured shape: its part
        for k, shape in enumerate(self.shapes):
            voxels = labelled_voxels(shape)
            for m in SYMMETRIES:
                if m not in REFLECTIONS:
                    self.owners.setdefault(_form([(apply(m, c), col) for c, col in voxels]), k)
        label = {v.cell: (v.state, v.colour) for v in packing.result.voxels}
        low = [min(c[a] for c in label) for a in range(3)]
        self.maps = []  # the result's self-symmetries: reflection or not, where cells go
        for m in SYMMETRIES:
            moved = {c: apply(m, c) for c in label}
            shift = [low[a] - min(c[a] for c in moved.values()) for a in range(3)]
            place = {c: _plus(to, shift) for c, to in moved.items()}
            if all(label.get(to) == label[c] for c, to in place.items()):
                self.maps.append((m in REFLECTIONS, place))

    def pieces(self, solution) -> Assembly:
        return frozenset(
            (self.packing.placements[k].part, self.packing.placements[k].voxels) for k in solution
        )

    def place(self, piece: Piece) -> tuple[int, int, int, int]:
        """The first rotation number (0 up) turning the part's coloured shape about its
        hotspot onto the piece's voxels shifted, and where the hotspot lands."""
        if piece not in self.places:
            part, voxels = piece
            shape = self.shapes[part]
            for number in range(24):
                turned = sorted(
                    (burrtools_rotation(number, _less(v.cell, shape.hotspot)), v.colour)
                    for v in shape.voxels
                )
                shift = _less(voxels[0][0], turned[0][0])
                if [(_plus(cell, shift), colour) for cell, colour in turned] == list(voxels):
                    self.places[piece] = (number, *shift)
                    break
        return self.places[piece]

    def key(self, assembly: Assembly, pivot: int | None) -> tuple:
        placed: list[list] = [[] for _ in self.parts]
        for piece in assembly:
            placed[piece[0]].append(self.place(piece))
        listed = []
        for part, places in zip(self.parts, placed, strict=True):
            listed += sorted(places) + [UNUSED] * (part.high - len(places))
        if pivot is not None:
            listed.insert(0, listed.pop(pivot))
        return tuple(listed)

    def members(self, assembly: Assembly) -> set[Assembly]:
        """The assemblies a self-symmetry of the result carries `assembly` onto."""
        used = Counter(part for part, _ in assembly)
        complete = all(used[k] == part.high for k, part in enumerate(self.parts))
        found = set()
        for reflection, place in self.maps:
            if reflection and not complete:
                continue
            image = set()
            for part, voxels in assembly:
                moved = tuple(sorted((place[c], colour) for c, colour in voxels))
                image.add((self.owners.get(_form(moved), -1) if reflection else part, moved))
            if frozenset(image) in self.fixed:
                found.add(frozenset(image))
        return found


def listed(oracle: Oracle) -> list[Assembly]:
    """The assemblies `search_assemblies` lists, one per class."""
    found: list = []
    counted = drive(
        search_assemblies(oracle.packing, listing=True),
        on_found=lambda b: found.extend(b.solutions),
    )
    assert len(found) == counted.assemblies
    return [oracle.pieces(s) for s in found]


def check_least(oracle: Oracle, pivot: int | None) -> list[Assembly]:
    """Each listed assembly is the least of its class by the oracle and the classes cover
    every assembly; returns the listed ones."""
    kept = listed(oracle)
    covered = 0
    for assembly in kept:
        members = oracle.members(assembly)
        assert min(members, key=lambda a: oracle.key(a, pivot)) == assembly
        covered += len(members)
    assert covered == len(oracle.fixed)
    return kept


def stored_pieces(oracle: Oracle, path) -> list[Assembly]:
    """The problem's stored assemblies (problem 0 of the file at `path`) as placed pieces."""
    packing = oracle.packing
    by_cells = {(p.part, p.cells): p.voxels for p in packing.placements}
    numbers = [k for k, part in enumerate(oracle.parts) for _ in range(part.high)]
    out = []
    for solution in packing.problem.stored:
        stored = stored_assembly(packing.puzzle, 0, solution, str(path))
        out.append(
            frozenset(
                (numbers[n], by_cells[(numbers[n], tuple(sorted(piece.cells)))])
                for n, piece in zip(stored.numbers, stored.assembly.pieces, strict=True)
            )
        )
    return out


@pytest.mark.parametrize("name", list(BREAKERS))
def test_burrtools_stores_the_least_of_each_class_and_slidelab_lists_it(examples, name):
    """Each stored assembly's placements are its pieces as the oracle numbers them (copies
    sorted), and it is the least of its class with the symmetry breaker's piece first (for
    CubeInCage only with it first); listing hands out every stored assembly."""
    path = examples / name
    oracle = Oracle(build_packing(read_xmpuzzle(path), 0))
    pivot = BREAKERS[name]
    stored = stored_pieces(oracle, path)
    for assembly, solution in zip(stored, oracle.packing.problem.stored, strict=True):
        key = list(oracle.key(assembly, pivot))
        if pivot is not None:
            key.insert(pivot, key.pop(0))
        assert key == [
            UNUSED if p is None else (p.transformation, p.x, p.y, p.z) for p in solution.assembly
        ]
        members = oracle.members(assembly)
        assert min(members, key=lambda a: oracle.key(a, pivot)) == assembly
        plain = min(members, key=lambda a: oracle.key(a, None))
        assert (plain == assembly) == (name != "CubeInCage.xmpuzzle")
    kept = set(check_least(oracle, pivot))
    assert all(assembly in kept for assembly in stored)
    assert len(stored) == (314 if name == "SolidSixPieceBurrs.xmpuzzle" else 1)


@pytest.mark.parametrize(("name", "index"), list(COUNTS), ids=[f"{n}-{k}" for n, k in COUNTS])
def test_made_files_list_the_least_of_each_class(name, index):
    """Only the screws' second problem has a symmetry breaker (its first piece: both parts
    are used once and share as many symmetries with the result); the others have ranges or
    a part used twice."""
    oracle = Oracle(build_packing(read_xmpuzzle(DATA / name), index))
    check_least(oracle, 0 if (name, index) == ("screws.xmpuzzle", 1) else None)


SCREWS = "[01][01][0-2]\nA 000 100 010 101\nB 000 100 010 011\nL 000 100 200 010\n"


@pytest.mark.parametrize(
    ("spec", "pivot", "classes"),
    [(load_shipped("polycube", "soma.pcube", parse_spec), 1, 240), (parse_spec(SCREWS), 0, 1)],
    ids=["soma", "screws"],
)
def test_exported_specs_list_the_least_of_each_class(spec, pivot, classes):
    """Soma's classes merge mirror images (its pieces are closed under mirroring); its
    symmetry breaker is the L (piece 1): flat, in any orientation it is symmetric only in the
    plane it lies in, so it shares 4 of the cube's 48 symmetries, fewer than any other piece.
    The screws' A and B share as many; A comes first."""
    oracle = Oracle(build_packing(puzzle_from_spec(spec), 0))
    assert len(check_least(oracle, pivot)) == classes


def test_colours_tell_turns_apart():
    """A two-coloured domino has 6 turns, 3 without its colours; each turn is numbered by the
    lowest rotation number giving it, colours included, and placed where that puts the
    hotspot."""
    domino = Shape((2, 1, 1), (Voxel((0, 0, 0), FIXED, 1), Voxel((1, 0, 0), FIXED, 2)))
    coloured, plain = rotation_numbers(domino), rotation_numbers(domino, colours=False)
    assert (len(coloured), len(plain)) == (6, 3)
    for number in range(24):
        voxels = tuple(
            sorted(
                (_plus((5, 6, 7), burrtools_rotation(number, v.cell)), v.colour)
                for v in domino.voxels
            )
        )
        place = numbered_place(coloured, voxels)
        again = sorted(
            (_plus((place.x, place.y, place.z), burrtools_rotation(place.transformation, v.cell)),
             v.colour)
            for v in domino.voxels
        )  # fmt: skip
        assert again == list(voxels) and place.transformation <= number
        assert place.transformation == min(
            n
            for n in range(24)
            if sorted((burrtools_rotation(n, v.cell), v.colour) for v in domino.voxels)
            == sorted((burrtools_rotation(number, v.cell), v.colour) for v in domino.voxels)
        )


def _form(voxels) -> tuple:
    """Coloured voxels moved so that each coordinate's least is 0, sorted."""
    low = [min(c[a] for c, _ in voxels) for a in range(3)]
    return tuple(sorted((_less(c, low), colour) for c, colour in voxels))


def _less(a, b):
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _plus(a, b):
    return tuple(x + y for x, y in zip(a, b, strict=True))

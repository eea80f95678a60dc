"""Disassemblies as flat lists of whole numbers and back: how a split run's workers send them,
and how its journal keeps them (`slidelab.disassembly.split`).

One list per disassembly, of numbers only: sending thousands of them (pickled, or as
JSON) then makes one object each, not one per move, offset and separation, which
would keep Python's garbage collector busy for longer than sending them takes.  The
list is the disassembly's states, its stuck pieces (their count, the pieces, then
their start, three numbers an offset), then its separation tree in preorder: 0 for
none, or 1, the part's pieces (count, pieces), their start, the moves (count, then
each: its pieces, its direction, its distance, -1 for the leaving move), the removed
pieces (count, pieces), then the removed part's tree and the rest's.  Reading a
record back gives a value equal to the one written; `checked_disassembly` reads one from a
journal, which anyone may have edited, checking it.
"""

from __future__ import annotations

import itertools
from typing import Any

from slidelab.disassembly.model import DIRECTIONS, Disassembly, Move, Separation, Vector
from slidelab.parallel.payload import PayloadError, expect

LEAVES = -1
"""The distance written for the move that takes a part away (None in a `Move`)."""


def disassembly_record(disassembly: Disassembly) -> list[int]:
    """`disassembly` as a list of whole numbers (a JSON value)."""
    record = [disassembly.states, len(disassembly.stuck), *disassembly.stuck]
    for at in disassembly.stuck_start:
        record.extend(at)
    _write_separation(disassembly.separation, record)
    return record


def disassembly_from_record(record: list[int]) -> Disassembly:
    """The disassembly `disassembly_record` wrote as `record`."""
    return _Reader(record).disassembly()


def checked_disassembly(record: Any, name: str, pieces: int) -> Disassembly:
    """The disassembly of an assembly of `pieces` pieces that `record` (called `name`) holds,
    if `disassembly_record` could have written it; raises `PayloadError` otherwise."""
    expect(
        isinstance(record, list) and all(type(number) is int for number in record),
        f"{name} must be a list of whole numbers",
    )
    read = _CheckedReader(record, name)
    try:
        disassembly = read.disassembly()
        expect(read.at == len(record), f"{name} goes on after its disassembly")
        expect(_fits(disassembly, pieces), f"{name} is no disassembly of {pieces} pieces")
    except RecursionError:  # trees nested deeper than any assembly's
        raise PayloadError(f"{name} is nested too deep") from None
    return disassembly


def _fits(disassembly: Disassembly, pieces: int) -> bool:
    """Whether `disassembly` could be one of an assembly of `pieces` pieces: pieces listed
    in increasing order, each separation's moves moving its pieces, the last one taking the
    removed ones away, and its trees taking apart the removed pieces and the rest."""
    return (
        disassembly.states >= 0
        and _piece_list(disassembly.stuck, pieces)
        and _separation_fits(disassembly.separation, pieces, None)
    )


def _separation_fits(
    separation: Separation | None, pieces: int, expected: tuple[int, ...] | None
) -> bool:
    if separation is None:
        return True
    part = separation.pieces
    removed = separation.removed_pieces
    rest = tuple(piece for piece in part if piece not in removed)
    moves = separation.moves
    return (
        _piece_list(part, pieces)
        and expected in (None, part)
        and _piece_list(removed, pieces)
        and 0 < len(removed) < len(part)
        and set(removed) <= set(part)
        and bool(moves)
        and all(
            _piece_list(move.pieces, pieces)
            and len(move.pieces) > 0
            and set(move.pieces) <= set(part)
            and 0 <= move.direction < len(DIRECTIONS)
            and (move.distance is None) == (n == len(moves) - 1)
            and (move.distance is None or move.distance > 0)
            for n, move in enumerate(moves)
        )
        and _separation_fits(separation.removed, pieces, removed)
        and _separation_fits(separation.left, pieces, rest)
    )


def _piece_list(listed: tuple[int, ...], pieces: int) -> bool:
    """Whether `listed` are pieces of an assembly of `pieces`, in increasing order."""
    return all(0 <= piece < pieces for piece in listed) and all(
        a < b for a, b in itertools.pairwise(listed)
    )


def _write_separation(separation: Separation | None, record: list[int]) -> None:
    if separation is None:
        record.append(0)
        return
    record += (1, len(separation.pieces), *separation.pieces)
    for at in separation.start:
        record.extend(at)
    record.append(len(separation.moves))
    for move in separation.moves:
        distance = LEAVES if move.distance is None else move.distance
        record += (len(move.pieces), *move.pieces, move.direction, distance)
    record += (len(separation.removed_pieces), *separation.removed_pieces)
    _write_separation(separation.removed, record)
    _write_separation(separation.left, record)


class _Reader:
    """Reads a record from its start on."""

    def __init__(self, record: list[int]) -> None:
        self.record = record
        self.at = 0

    def disassembly(self) -> Disassembly:
        states = self.number()
        stuck = self.numbers()
        stuck_start = self.offsets(len(stuck))
        return Disassembly(self.separation(), stuck, stuck_start, states)

    def number(self) -> int:
        self.skip(1)
        return self.record[self.at - 1]

    def numbers(self) -> tuple[int, ...]:
        """A count, then as many numbers."""
        count = self.number()
        self.skip(count)
        return tuple(self.record[self.at - count : self.at])

    def offsets(self, count: int) -> tuple[Vector, ...]:
        begin = self.at
        self.skip(3 * count)
        xs, ys, zs = (self.record[begin + k : self.at : 3] for k in range(3))
        return tuple(zip(xs, ys, zs, strict=True))

    def skip(self, count: int) -> None:
        """Pass the next `count` numbers (read from `at` on by the caller)."""
        self.at += count

    def separation(self) -> Separation | None:
        if not self.number():
            return None
        pieces = self.numbers()
        start = self.offsets(len(pieces))
        moves = tuple(self.move() for _ in range(self.number()))
        removed_pieces = self.numbers()
        removed = self.separation()
        left = self.separation()
        return Separation(pieces, start, moves, removed_pieces, removed, left)

    def move(self) -> Move:
        pieces = self.numbers()
        direction = self.number()
        distance = self.number()
        return Move(pieces, direction, None if distance == LEAVES else distance)


class _CheckedReader(_Reader):
    """A `_Reader` that refuses (`PayloadError`) to read past the record's end."""

    def __init__(self, record: list[int], name: str) -> None:
        super().__init__(record)
        self.name = name

    def skip(self, count: int) -> None:
        expect(0 <= count <= len(self.record) - self.at, f"{self.name} ends too soon")
        self.at += count

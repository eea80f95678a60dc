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
record back gives a value equal to the one written.
"""

from __future__ import annotations

from slidelab.disassembly.model import Disassembly, Move, Separation, Vector

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
    read = _Reader(record)
    states = read.number()
    stuck = read.numbers()
    stuck_start = read.offsets(len(stuck))
    return Disassembly(read.separation(), stuck, stuck_start, states)


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

    def number(self) -> int:
        self.at += 1
        return self.record[self.at - 1]

    def numbers(self) -> tuple[int, ...]:
        """A count, then as many numbers."""
        count = self.number()
        self.at += count
        return tuple(self.record[self.at - count : self.at])

    def offsets(self, count: int) -> tuple[Vector, ...]:
        begin = self.at
        self.at += 3 * count
        xs, ys, zs = (self.record[begin + k : self.at : 3] for k in range(3))
        return tuple(zip(xs, ys, zs, strict=True))

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

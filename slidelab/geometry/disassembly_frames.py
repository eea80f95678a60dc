"""What the 3D view shows while a disassembly plays, without Qt.

The moves play in the order of `separations` (a separation's moves, then the
removed part's, then the rest's), one unit of time per move.  A move slides its
pieces by its distance; the move that separates a part sends the leaving pieces
`FLY_SIZES` assembly-sizes away along its direction, after which they are gone.
While a part is being taken apart only its own pieces are shown, at the offsets
they had when it separated from the rest (a removed part that must come apart too
is shown again, alone, when its turn comes); at the end the pieces that never
left stay where they are.  So at every whole time the shown pieces stand in a
position the search reached, where no two of them overlap.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from slidelab.disassembly.model import (
    DIRECTIONS,
    Assembly,
    Disassembly,
    Move,
    Vector,
    separations,
)

FLY_SIZES = 3.0
"""How far a leaving part flies, in sizes of the assembly (its longest side)."""

Offset = tuple[float, float, float]


@dataclass(frozen=True)
class PlayedMove:
    """One move of the play and the picture just before it."""

    move: Move
    separation: int
    """The number (from 1, in `separations` order) of the separation it belongs to."""
    shown: frozenset[int]
    """The pieces shown while it is made: those of its part not yet gone."""
    before: tuple[Vector, ...]
    """Every piece's offset from its place in the assembly just before the move."""


@dataclass(frozen=True)
class DisassemblyFrame:
    """The picture `time` moves into the play."""

    offsets: tuple[Offset, ...]
    """Each piece's offset from its place in the assembly."""
    hidden: frozenset[int]
    """Pieces not drawn: gone, or waiting while another part is taken apart."""
    moving: frozenset[int]
    """The pieces of the move under way (none at a whole time)."""
    move: int
    """The move under way, or the move just made at a whole time (0 at the start)."""
    separation: int
    """The separation that move belongs to (0 at the start)."""


class DisassemblyPlay:
    """The moves of one disassembly in play order, and the frame at any time."""

    def __init__(self, assembly: Assembly, disassembly: Disassembly) -> None:
        self.assembly = assembly
        self.disassembly = disassembly
        count = len(assembly.pieces)
        offsets: list[Vector] = [(0, 0, 0)] * count
        played: list[PlayedMove] = []
        left_for_good: set[int] = set()
        shown = set(range(count))
        for number, separation in enumerate(separations(disassembly.separation), 1):
            for piece, start in zip(separation.pieces, separation.start, strict=True):
                offsets[piece] = start
            shown = set(separation.pieces)
            for move in separation.moves:
                played.append(PlayedMove(move, number, frozenset(shown), tuple(offsets)))
                if move.distance is None:
                    shown -= set(move.pieces)
                    left_for_good |= set(move.pieces)
                    continue
                dx, dy, dz = DIRECTIONS[move.direction]
                for piece in move.pieces:
                    x, y, z = offsets[piece]
                    d = move.distance
                    offsets[piece] = (x + dx * d, y + dy * d, z + dz * d)
        self.moves: tuple[PlayedMove, ...] = tuple(played)
        self._end = tuple(offsets)
        self._end_shown = frozenset(range(count)) - left_for_good
        every = [cell for piece in assembly.pieces for cell in piece.cells]
        size = max(
            (max(c[a] for c in every) - min(c[a] for c in every) + 1 for a in range(3)), default=1
        )
        self.fly = FLY_SIZES * size
        """How far a leaving part flies, in cells."""

    @property
    def count(self) -> int:
        """Moves in the whole play."""
        return len(self.moves)

    @property
    def separations(self) -> int:
        return len(self.disassembly.level)

    @property
    def verdict(self) -> str:
        """What the player says in place of playing, or "" when the assembly comes apart."""
        stuck = len(self.disassembly.stuck)
        if not stuck:
            return ""
        return (
            f"does not come apart: {stuck} {'piece stays' if stuck == 1 else 'pieces stay'} stuck"
        )

    def frame(self, time: float) -> DisassemblyFrame:
        """The picture `time` moves into the play (clamped to 0 .. `count`)."""
        time = min(max(float(time), 0.0), float(self.count))
        index = math.floor(time)
        fraction = time - index
        every = frozenset(range(len(self.assembly.pieces)))
        current = math.ceil(time)
        separation = self.moves[current - 1].separation if current else 0
        if index >= self.count:
            floats = tuple(_floats(at) for at in self._end)
            return DisassemblyFrame(
                floats, every - self._end_shown, frozenset(), current, separation
            )
        played = self.moves[index]
        offsets = [_floats(at) for at in played.before]
        moving: frozenset[int] = frozenset()
        if fraction > 0:
            move = played.move
            moving = frozenset(move.pieces)
            length = self.fly if move.distance is None else move.distance
            dx, dy, dz = DIRECTIONS[move.direction]
            step = length * fraction
            for piece in move.pieces:
                x, y, z = offsets[piece]
                offsets[piece] = (x + dx * step, y + dy * step, z + dz * step)
        return DisassemblyFrame(tuple(offsets), every - played.shown, moving, current, separation)

    def frames(self, steps_per_move: int) -> Iterator[DisassemblyFrame]:
        """`steps_per_move` frames per move from the start to the end (the GIF export's)."""
        for step in range(self.count * steps_per_move + 1):
            yield self.frame(step / steps_per_move)

    def counter(self, time: float) -> str:
        """ "move k of n (separation s)" for the frame at `time`."""
        frame = self.frame(time)
        text = f"move {frame.move} of {self.count}"
        return text + (f" (separation {frame.separation})" if frame.separation else "")


def _floats(at: Vector) -> Offset:
    return (float(at[0]), float(at[1]), float(at[2]))

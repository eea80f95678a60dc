"""Playing a sliding-block puzzle by hand: the moves made, undo and redo, and how far the goal is.

A `PlaySession` holds the puzzle, the move style and the configurations the player
went through.  A drop (some pieces shifted by some cells) is accepted exactly when it
gives one of the configurations one move of the style away, as the search's kernels
list them, so what the player may do is what the solver counts; refusals are
explained by `refusals.why_not`.  Once the distance table of the start's component
is known (`distance.to_goal`, computed in the background), the session says how far
each configuration is from the goal and which move brings it nearer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from slidelab.sliding.distance import DistanceTable
from slidelab.sliding.encoding import build_tables
from slidelab.sliding.model import Cell, Configuration, Placement, Puzzle
from slidelab.sliding.refusals import shifted, why_not
from slidelab.sliding.search import check_style, successors
from slidelab.sliding.styles import MoveStyle


@dataclass(frozen=True)
class Drop:
    """What became of one drop: a move made, or a refusal and why."""

    accepted: bool
    message: str
    """Why the drop was refused; empty for a move."""
    before: int | None = None
    """Distance to the goal before the move (None while unknown)."""
    after: int | None = None
    """Distance to the goal after the move (None while unknown)."""

    @property
    def away_from_goal(self) -> bool:
        """True for a move that leaves the goal farther than before."""
        return self.before is not None and self.after is not None and self.after > self.before


class PlaySession:
    """One game of `puzzle` in `style`: the configurations gone through and the current one."""

    def __init__(self, puzzle: Puzzle, style: MoveStyle) -> None:
        check_style(puzzle, style)
        self.puzzle = puzzle
        self.style = style
        self.table: DistanceTable | None = None
        """Distances to the goal, once computed (`use_distances`)."""
        self._tables = build_tables(puzzle)
        self._history: list[Configuration] = [puzzle.start]
        self._at = 0
        self._legal: tuple[Configuration, frozenset[bytes]] | None = None

    # State -------------------------------------------------------------------------------

    @property
    def config(self) -> Configuration:
        """The configuration on the board now."""
        return self._history[self._at]

    @property
    def moves(self) -> int:
        """Moves made from the start to the current configuration (undone ones not counted)."""
        return self._at

    @property
    def can_undo(self) -> bool:
        return self._at > 0

    @property
    def can_redo(self) -> bool:
        return self._at < len(self._history) - 1

    def undo(self) -> None:
        if self.can_undo:
            self._at -= 1

    def redo(self) -> None:
        if self.can_redo:
            self._at += 1

    def reset(self) -> None:
        """Back to the start; the moves made stay for redo until a new move replaces them."""
        self._at = 0

    @property
    def solved(self) -> bool:
        return self.puzzle.meets_goal(self.config)

    # Moves -------------------------------------------------------------------------------

    def is_move(self, after: Configuration) -> bool:
        """Whether `after` is one move of the style from the current configuration."""
        return self._fits(after) and self._key(after) in self._legal_keys()

    def allows(self, moving: Sequence[Placement], shift: Cell) -> bool:
        """Whether shifting the pieces `moving` by `shift` is one move of the style."""
        return self.is_move(shifted(self.config, moving, shift))

    def drop(self, moving: Sequence[Placement], shift: Cell) -> Drop:
        """Shift the pieces `moving` of the current configuration by `shift` if that is one
        move of the style; otherwise leave everything as it is and say why not."""
        if not self.allows(moving, shift):
            return Drop(False, why_not(self.puzzle, self.style, self.config, moving, shift))
        after = shifted(self.config, moving, shift)
        before = self.distance()
        del self._history[self._at + 1 :]
        self._history.append(after)
        self._at += 1
        return Drop(True, "", before, self.distance())

    # Distances ---------------------------------------------------------------------------

    def use_distances(self, table: DistanceTable) -> None:
        """Take the distance table of this puzzle's start component, in this style."""
        if table.style != self.style or table.tables.puzzle != self.puzzle:
            raise ValueError("the distance table belongs to another puzzle or style")
        self.table = table

    def distance(self) -> int | None:
        """Fewest moves from the current configuration to the goal; None while unknown."""
        return None if self.table is None else self.table.distance(self.config)

    def hint(self) -> Configuration | None:
        """A configuration one move away and one move nearer the goal; None when the goal
        is reached, cannot be reached or the distances are not known yet."""
        if self.table is None:
            return None
        nearer = self.table.toward_goal(self.config)
        return nearer[0] if nearer else None

    # Helpers -----------------------------------------------------------------------------

    def _fits(self, config: Configuration) -> bool:
        """Whether `config` has the start's pieces, each on the board clear of obstacles (the
        only configurations the kernels' codes can hold)."""
        puzzle = self.puzzle
        return config.kind_counts() == puzzle.start.kind_counts() and all(
            puzzle.on_board(cell) and cell not in puzzle.obstacles
            for p in config.placements
            for cell in puzzle.kind(p.kind).cells_at(p.anchor)
        )

    def _key(self, config: Configuration) -> bytes:
        return self._tables.encode(config.placements).tobytes()

    def _legal_keys(self) -> frozenset[bytes]:
        """The codes of the configurations one move away, computed once per configuration."""
        if self._legal is None or self._legal[0] != self.config:
            rows = self._tables.encode(self.config.placements).reshape(1, -1)
            found = successors(self._tables.board, self.style, rows).keys
            keys = frozenset(bytes(row) for row in np.ascontiguousarray(found))
            self._legal = (self.config, keys)
        return self._legal[1]

"""An editable, possibly invalid sliding-block puzzle: what the board editor holds.

A `Draft` is a frozen value like `Puzzle`, but it may be wrong in every way a
user can make it wrong while drawing: pieces off the board, overlapping each
other or an obstacle, a goal whose piece counts do not match the start.
`problems()` lists what stands between a draft and a `Puzzle`, each naming the
cells concerned so a view can mark them; `to_puzzle()` succeeds once that list
is empty.  Every editing operation returns a new draft, so an undo step is
just the draft before and the draft after.

Goal semantics:

* A *full* goal (`partial` False) names every piece; every cell that no named
  piece covers and that is not an obstacle must be empty.  `goal_empty` is then
  exactly those cells; it is recomputed by every operation and never needs
  setting by hand.
* A *partial* goal names some pieces.  Cells of `goal_empty` must be empty;
  every other cell that is neither covered by a named piece nor an obstacle is
  "any" (it may hold anything; `any_cells` lists them).  Cells a named goal
  piece covers, obstacles and cells off the board are dropped from `goal_empty`.
  A partial goal needs at least one "any" cell (Knuth's format could not tell it
  from a full goal otherwise); marking the last one empty makes the goal full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from slidelab.errors import SlidelabError
from slidelab.sliding.model import (
    KIND_NAMES,
    Axis,
    Cell,
    Configuration,
    Goal,
    PieceKind,
    Placement,
    Problem,
    Puzzle,
    goal_problems,
    placement_problems,
)
from slidelab.sliding.textformat import MAX_CELLS

GOAL_CELL_STATES = ("empty", "any")
"""What `Draft.with_goal_cell` can make of a goal cell."""


class DraftError(SlidelabError, ValueError):
    """An edit that cannot be made, or a draft that is not yet a puzzle."""

    def __init__(self, message: str, problems: Sequence[Problem] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.problems: tuple[Problem, ...] = tuple(problems)


def cell_name(cell: Cell) -> str:
    """A cell as messages name it."""
    return f"row {cell[0]}, column {cell[1]}"


@dataclass(frozen=True)
class Draft:
    """A puzzle being edited.  Fields are normalised on construction (sorted, frozen)."""

    rows: int
    cols: int
    title: str
    kinds: tuple[PieceKind, ...]
    """The piece kinds, sorted by name (unused kinds from a file are kept)."""
    obstacles: frozenset[Cell]
    """Permanent walls, shared by the start and the goal."""
    start: tuple[Placement, ...]
    """The starting pieces, sorted."""
    goal: tuple[Placement, ...]
    """The pieces the goal names, sorted."""
    goal_empty: frozenset[Cell]
    """Cells the goal requires empty (see the module docstring)."""
    partial: bool
    """True: cells neither named, required empty nor obstacles accept any occupant."""
    notes: tuple[str, ...] = ()
    """Comment lines kept with the puzzle."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # frozen: normalise in place once, before anyone sees it
        set_(self, "kinds", tuple(sorted(self.kinds, key=lambda kind: kind.name)))
        set_(self, "obstacles", frozenset(self.obstacles))
        set_(self, "start", tuple(sorted(self.start)))
        set_(self, "goal", tuple(sorted(self.goal)))
        set_(self, "notes", tuple(self.notes))
        open_cells = self._board_cells() - self._covered(self.goal) - self.obstacles
        empty = open_cells if not self.partial else frozenset(self.goal_empty) & open_cells
        set_(self, "goal_empty", empty)

    # Construction ------------------------------------------------------------------------

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle) -> Draft:
        """The draft of a complete puzzle; `to_puzzle()` gives the puzzle back."""
        return cls(
            rows=puzzle.rows,
            cols=puzzle.cols,
            title=puzzle.title,
            kinds=puzzle.kinds,
            obstacles=puzzle.obstacles,
            start=puzzle.start.placements,
            goal=puzzle.goal.placements,
            goal_empty=puzzle.goal.empty,
            partial=puzzle.goal.partial,
            notes=puzzle.notes,
        )

    @classmethod
    def blank(cls, rows: int, cols: int) -> Draft:
        """An empty board of the given size: no pieces, no obstacles, a full goal."""
        _check_size(rows, cols)
        return cls(rows, cols, "", (), frozenset(), (), (), frozenset(), False)

    # Queries -----------------------------------------------------------------------------

    def kind_map(self) -> dict[str, PieceKind]:
        """The kinds by name."""
        return {kind.name: kind for kind in self.kinds}

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def placements(self, goal: bool) -> tuple[Placement, ...]:
        """The goal's pieces if `goal`, else the start's."""
        return self.goal if goal else self.start

    def cells_of(self, placement: Placement) -> list[Cell]:
        """The cells `placement` covers (some may be off the board); [] for an unknown kind."""
        kind = self.kind_map().get(placement.kind)
        return kind.cells_at(placement.anchor) if kind else []

    def piece_at(self, cell: Cell, goal: bool) -> Placement | None:
        """The start (or goal) piece covering `cell`, if any."""
        kinds = self.kind_map()
        for placement in self.placements(goal):
            kind = kinds.get(placement.kind)
            if kind and cell in kind.cells_at(placement.anchor):
                return placement
        return None

    @property
    def any_cells(self) -> frozenset[Cell]:
        """Cells a partial goal leaves open ("any"); empty for a full goal."""
        if not self.partial:
            return frozenset()
        return self._board_cells() - self._covered(self.goal) - self.obstacles - self.goal_empty

    def problems(self) -> list[Problem]:
        """Everything that stops this draft from being a `Puzzle`; empty when it is one."""
        general: list[Problem] = []
        if self.rows < 1 or self.cols < 1:
            general.append(Problem("the board needs at least one row and one column"))
        elif self.rows * self.cols > MAX_CELLS:
            general.append(Problem(f"the board may have at most {MAX_CELLS} cells"))
        names = [kind.name for kind in self.kinds]
        for name in sorted(set(names)):
            if name not in KIND_NAMES:
                general.append(Problem(f"bad piece kind name '{name}': use 1-9 or a-f"))
            if names.count(name) > 1:
                general.append(Problem(f"piece kind {name} is defined twice"))
        for kind in self.kinds:
            if not kind.cells or kind.cells[0] != (0, 0) or len(set(kind.cells)) != kind.size:
                general.append(Problem(f"piece kind {kind.name} has a malformed shape"))
        for name in sorted({p.kind for p in self.start + self.goal} - set(names)):
            general.append(Problem(f"piece kind {name} is used but not defined"))
        off = sorted(cell for cell in self.obstacles if not self.on_board(cell))
        if off:
            general.append(Problem("obstacles lie off the board", tuple(off)))
        return general + self.problems_in(goal=False) + self.problems_in(goal=True)

    def problems_in(self, goal: bool) -> list[Problem]:
        """The problems of the start (or the goal) alone: what a view of it should mark."""
        where = "goal" if goal else "start"
        found = self._placement_problems(where, self.placements(goal))
        if not goal:
            if not self.start:
                found.append(Problem("the start has no pieces"))
            return found
        known = set(self.kind_map())
        start = Configuration.of([p for p in self.start if p.kind in known])
        named = tuple(p for p in self.goal if p.kind in known)
        target = Goal(named, self.goal_empty, self.partial, self.any_cells)
        by_anchor = {p.anchor: p for p in named}
        for problem in goal_problems(start, target):
            cells = {
                cell
                for anchor in problem.cells
                for cell in self.cells_of(by_anchor[anchor])
                if self.on_board(cell)
            }
            found.append(Problem(problem.message, tuple(sorted(cells))))
        if self.partial and not self.any_cells:
            found.append(Problem("a partial goal needs at least one cell marked 'any'"))
        elif self.partial:
            found += self._room_problems(start, named)
        return found

    def _room_problems(self, start: Configuration, named: tuple[Placement, ...]) -> list[Problem]:
        """Why the pieces a partial goal leaves free cannot all stand on its 'any' cells:
        too few cells in all, or a piece whose shape fits nowhere among them."""
        loose = Counter(start.kind_counts())
        loose.subtract(p.kind for p in named)
        kinds = self.kind_map()
        free = self.any_cells
        need = sum(kinds[name].size * count for name, count in loose.items() if count > 0)
        if need > len(free):
            return [
                Problem(
                    f"the goal cannot hold the pieces: those it does not place cover {need} "
                    f"cells but only {len(free)} are 'any'; mark more cells 'any'",
                    tuple(sorted(free)),
                )
            ]
        return [
            Problem(
                f"the goal cannot hold piece {name}: no place among the 'any' cells has its "
                "shape; mark more cells 'any'",
                tuple(sorted(free)),
            )
            for name in sorted(name for name, count in loose.items() if count > 0)
            if not any(set(kinds[name].cells_at(anchor)) <= free for anchor in free)
        ]

    def to_puzzle(self) -> Puzzle:
        """The puzzle this draft describes; raises `DraftError` listing its problems."""
        problems = self.problems()
        if problems:
            listed = "; ".join(problem.message for problem in problems)
            raise DraftError(f"the puzzle is not complete: {listed}", problems)
        return Puzzle(
            rows=self.rows,
            cols=self.cols,
            kinds=self.kinds,
            obstacles=self.obstacles,
            start=Configuration.of(self.start),
            goal=Goal(self.goal, self.goal_empty, self.partial, self.any_cells),
            title=self.title,
            notes=self.notes,
        )

    # Editing -----------------------------------------------------------------------------

    def resized(self, rows: int, cols: int) -> Draft:
        """The board at a new size; pieces and obstacles that no longer fit are dropped."""
        _check_size(rows, cols)
        bigger = replace(self, rows=rows, cols=cols)

        def fits(placement: Placement) -> bool:
            cells = self.cells_of(placement)
            return bool(cells) and all(bigger.on_board(cell) for cell in cells)

        resized = replace(
            bigger,
            start=tuple(p for p in self.start if fits(p)),
            goal=tuple(p for p in self.goal if fits(p)),
            obstacles=frozenset(cell for cell in self.obstacles if bigger.on_board(cell)),
        )
        lost = {p.kind for p in self.start + self.goal} - {
            p.kind for p in resized.start + resized.goal
        }
        return resized._without_kinds(lost)

    def with_piece(self, cells: Iterable[Cell], goal: bool, kind: str | None = None) -> Draft:
        """One more piece covering `cells`, in the goal if `goal` else in the start.

        With `kind` None the piece reuses a kind of the same shape, or gets the next
        free kind name.  With a `kind` that exists, the cells must have its shape (their
        topmost-leftmost cell becomes the anchor); a `kind` not yet defined is created.
        """
        cells = frozenset(cells)
        if not cells:
            raise DraftError("no cells were drawn")
        shape = PieceKind.from_cells("?", cells).cells
        kinds = self.kind_map()
        if kind is None:
            same = [name for name, known in kinds.items() if known.cells == shape]
            name = same[0] if same else self._free_name()
        elif kind not in KIND_NAMES:
            raise DraftError(f"bad piece kind '{kind}': use 1-9 or a-f")
        elif kind in kinds and kinds[kind].cells != shape:
            raise DraftError(
                f"the cells drawn do not have the shape of kind {kind} "
                f"({kinds[kind].pattern()}): draw that shape, or choose 'new kind' under Kind"
            )
        else:
            name = kind
        new_kinds = self.kinds if name in kinds else (*self.kinds, PieceKind(name, shape))
        placement = Placement(name, *min(cells))
        return self._with_placements(goal, (*self.placements(goal), placement), new_kinds)

    def without_piece(self, placement: Placement, goal: bool) -> Draft:
        """The draft without `placement`; its kind goes too if nothing else uses it."""
        pieces = list(self.placements(goal))
        if placement not in pieces:
            raise DraftError(self._missing(placement, goal))
        pieces.remove(placement)
        draft = self._with_placements(goal, tuple(pieces), self.kinds)
        return draft._without_kinds({placement.kind})

    def moved_piece(self, placement: Placement, to: Cell, goal: bool) -> Draft:
        """The draft with `placement`'s anchor moved to `to`."""
        pieces = list(self.placements(goal))
        if placement not in pieces:
            raise DraftError(self._missing(placement, goal))
        pieces[pieces.index(placement)] = Placement(placement.kind, *to)
        return self._with_placements(goal, tuple(pieces), self.kinds)

    def with_kind_axis(self, name: str, axis: Axis) -> Draft:
        """Pieces of kind `name` kept to `axis` (Rush Hour's cars), or free again with ANY."""
        kinds = self.kind_map()
        if name not in kinds:
            raise DraftError(f"there is no piece kind {name}")
        kinds[name] = replace(kinds[name], axis=axis)
        return replace(self, kinds=tuple(kinds.values()))

    def toggled_obstacle(self, cell: Cell) -> Draft:
        """An obstacle added at `cell`, or removed if one is there (start and goal alike)."""
        if not self.on_board(cell):
            raise DraftError(f"{cell_name(cell)} is not on the board")
        return replace(self, obstacles=self.obstacles ^ {cell})

    def with_goal_cell(self, cell: Cell, state: str) -> Draft:
        """Mark a goal cell "empty" (must be empty) or "any" (any occupant).

        "any" makes a full goal partial: the cell becomes the goal's only "any" cell and
        every other open cell stays required empty.  "empty" on a full goal changes
        nothing; on a partial goal's last "any" cell it makes the goal full again.
        """
        if state not in GOAL_CELL_STATES:
            raise DraftError(f"a goal cell can be 'empty' or 'any', not '{state}'")
        if not self.on_board(cell):
            raise DraftError(f"{cell_name(cell)} is not on the board")
        if cell in self.obstacles:
            raise DraftError(f"{cell_name(cell)} is an obstacle: no goal mark is needed there")
        named = self.piece_at(cell, goal=True)
        if named is not None:
            raise DraftError(f"{cell_name(cell)} holds goal piece {named.kind}; erase it first")
        if state == "any":
            return replace(self, partial=True, goal_empty=self.goal_empty - {cell})
        if not self.partial:
            return self
        draft = replace(self, goal_empty=self.goal_empty | {cell})
        return draft if draft.any_cells else replace(draft, partial=False)

    def with_goal_cells(self, cells: Iterable[Cell], state: str) -> Draft:
        """`with_goal_cell` for every cell of a stroke dragged across the board; cells that
        cannot be marked (obstacles, goal pieces) are passed over, and only a stroke with no
        markable cell is refused, with the first cell's reason."""
        draft, refusal = self, None
        for cell in cells:
            try:
                draft = draft.with_goal_cell(cell, state)
            except DraftError as error:
                refusal = refusal or error
        if draft is self and refusal is not None:
            raise refusal
        return draft

    def with_other_goal_cells_any(self) -> Draft:
        """A partial goal in which every cell not covered by a goal piece and not an obstacle
        accepts any occupant: the goal then asks only for its own pieces."""
        return replace(self, partial=True, goal_empty=frozenset())

    def goal_from_start(self) -> Draft:
        """The start copied as a full goal."""
        return replace(self, goal=self.start, partial=False)

    # Helpers -----------------------------------------------------------------------------

    def _board_cells(self) -> frozenset[Cell]:
        return frozenset((r, c) for r in range(max(self.rows, 0)) for c in range(max(self.cols, 0)))

    def _covered(self, placements: tuple[Placement, ...]) -> frozenset[Cell]:
        kinds = {kind.name: kind for kind in self.kinds}
        return frozenset(
            cell for p in placements if p.kind in kinds for cell in kinds[p.kind].cells_at(p.anchor)
        )

    def _free_name(self) -> str:
        used = {kind.name for kind in self.kinds}
        for name in KIND_NAMES:
            if name not in used:
                return name
        raise DraftError(f"all {len(KIND_NAMES)} piece kinds are in use")

    def _with_placements(
        self, goal: bool, pieces: tuple[Placement, ...], kinds: tuple[PieceKind, ...]
    ) -> Draft:
        if goal:
            return replace(self, goal=pieces, kinds=kinds)
        return replace(self, start=pieces, kinds=kinds)

    def _without_kinds(self, names: set[str]) -> Draft:
        """Drop those of `names` that no piece uses any more."""
        used = {p.kind for p in self.start + self.goal}
        dropped = names - used
        if not dropped:
            return self
        return replace(self, kinds=tuple(k for k in self.kinds if k.name not in dropped))

    def _placement_problems(self, where: str, pieces: tuple[Placement, ...]) -> list[Problem]:
        kinds = self.kind_map()
        found: list[Problem] = []
        fitting = []
        for placement in pieces:
            if placement.kind not in kinds:
                continue  # reported once, as an undefined kind
            cells = kinds[placement.kind].cells_at(placement.anchor)
            inside = tuple(cell for cell in cells if self.on_board(cell))
            if len(inside) < len(cells):
                message = (
                    f"piece {placement.kind} at {cell_name(placement.anchor)} "
                    f"does not fit on the board in the {where}"
                )
                found.append(Problem(message, inside or (placement.anchor,)))
            else:
                fitting.append(placement)
        clashes = placement_problems(
            self.rows, self.cols, kinds, self.obstacles, tuple(sorted(fitting))
        )
        found += [Problem(f"{clash.message} in the {where}", clash.cells) for clash in clashes]
        return found

    def _missing(self, placement: Placement, goal: bool) -> str:
        where = "goal" if goal else "start"
        return f"the {where} has no piece {placement.kind} at {cell_name(placement.anchor)}"


def _check_size(rows: int, cols: int) -> None:
    if rows < 1 or cols < 1:
        raise DraftError("the board needs at least one row and one column")
    if rows * cols > MAX_CELLS:
        raise DraftError(f"the board may have at most {MAX_CELLS} cells")

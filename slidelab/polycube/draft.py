"""A polycube spec being edited: a box and pieces as plain cell sets, checked on demand.

The workbench edits a `Draft` (immutable; every edit makes a new one, so undo is a
matter of keeping the old value) and turns it into a `Spec` to solve or save.
Comment lines at the top of a file are kept, so saving a library spec keeps its
sources and figures.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from slidelab.polycube.spec import DIGITS, MAX_NAME, Cell, PieceSpec, Spec, format_spec

LIMIT = len(DIGITS)
"""Coordinates run from 0 to 61 (one radix-62 digit)."""


@dataclass(frozen=True)
class DraftPiece:
    """One piece kind: its name, copies, and the cells of each of its spec lines."""

    name: str
    multiplicity: int
    shapes: tuple[frozenset[Cell], ...]

    @property
    def cells(self) -> frozenset[Cell]:
        """The cells of the first line: the shape the piece editor shows and changes."""
        return self.shapes[0]


@dataclass(frozen=True)
class Draft:
    box: frozenset[Cell]
    pieces: tuple[DraftPiece, ...]
    header: str = ""
    """The comment lines ('| ...') before the box line, kept verbatim."""

    @classmethod
    def from_spec(cls, spec: Spec, header: str = "") -> Draft:
        pieces = tuple(
            DraftPiece(p.name, p.multiplicity, tuple(frozenset(s) for s in p.shapes))
            for p in spec.pieces
        )
        return cls(frozenset(spec.box), pieces, header)

    def problems(self) -> list[str]:
        """What keeps the draft from being a valid spec, in words; empty when it is one."""
        found = []
        if not self.box:
            found.append("the box has no cells")
        names = [p.name for p in self.pieces]
        for piece in self.pieces:
            if not piece.cells:
                found.append(f"piece {piece.name} has no cells")
            if not piece.name or len(piece.name) > MAX_NAME or any(c in "|:* " for c in piece.name):
                found.append(
                    f"piece name '{piece.name}' must be 1-{MAX_NAME} characters "
                    "without blanks, '|', ':' or '*'"
                )
            as_cell = tuple(DIGITS.find(c) for c in piece.name)
            if len(as_cell) == 3 and as_cell in self.box:
                found.append(f"piece name '{piece.name}' is a cell of the box")
            if names.count(piece.name) > 1:
                found.append(f"two pieces are called {piece.name}")
            if not 1 <= piece.multiplicity < LIMIT:
                found.append(f"piece {piece.name} needs 1 to {LIMIT - 1} copies")
        return list(dict.fromkeys(found))

    def solve_problems(self) -> list[str]:
        """What keeps the draft from having any packing: `problems()`, and a box whose cell
        count differs from the cubes of every copy of every piece (a packing fills the box
        exactly, so such a search can only find none)."""
        found = self.problems()
        if self.box and self.pieces and self.filled() != len(self.box):
            found.append(
                f"the box has {len(self.box)} cells but the pieces, every copy placed, fill "
                f"{self.filled()}: no packing can exist"
            )
        return found

    def filled(self) -> int:
        """Cells the pieces cover when every copy is placed (the box needs exactly its size)."""
        return sum(len(p.cells) * p.multiplicity for p in self.pieces)

    def to_spec(self) -> Spec:
        """The spec (call only when `problems()` is empty)."""
        return Spec(
            tuple(sorted(self.box)),
            tuple(
                PieceSpec(p.name, p.multiplicity, tuple(tuple(sorted(s)) for s in p.shapes))
                for p in self.pieces
            ),
        )

    def text(self) -> str:
        """The draft in the spec format, header comments first."""
        return self.header + format_spec(self.to_spec())

    def toggled_box_cell(self, cell: Cell) -> Draft:
        return replace(self, box=self.box ^ {cell})

    def with_piece(self, index: int, piece: DraftPiece) -> Draft:
        pieces = list(self.pieces)
        pieces[index] = piece
        return replace(self, pieces=tuple(pieces))

    def toggled_piece_cell(self, index: int, cell: Cell) -> Draft:
        piece = self.pieces[index]
        shapes = (piece.cells ^ {cell}, *piece.shapes[1:])
        return self.with_piece(index, replace(piece, shapes=shapes))

    def added_piece(self) -> Draft:
        """A new one-cube piece with the first free name A, B, ... (then P1, P2, ...)."""
        taken = {p.name for p in self.pieces}
        candidates = [*DIGITS[10:36].upper(), *(f"P{n}" for n in range(1, 100))]
        name = next(c for c in candidates if c not in taken)
        piece = DraftPiece(name, 1, (frozenset({(0, 0, 0)}),))
        return replace(self, pieces=(*self.pieces, piece))

    def removed_piece(self, index: int) -> Draft:
        return replace(self, pieces=self.pieces[:index] + self.pieces[index + 1 :])


def split_header(text: str) -> str:
    """The comment lines at the top of a spec's text (up to the first other line)."""
    header = []
    for line in text.splitlines(keepends=True):
        if not line.startswith("|"):
            break
        header.append(line)
    return "".join(header)

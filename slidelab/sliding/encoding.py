"""The packed form of configurations and the lookup tables the kernels use.

Pieces are numbered by kind (in name order), then by anchor cell.  Each kind
has a list of *positions*, the anchor cells where one of its pieces fits on the
board clear of obstacles.  A configuration's code gives each kind either one
field per piece holding its position (the fields of identical pieces in
increasing order), or, when that takes no fewer bits, one bit per position (a
mask, which needs no sorting).  Fields never straddle two words; mask bits may.
On the 4 x 4 boards Knuth benchmarks, fourteen pieces take one 64-bit word.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from slidelab.sliding import kernels
from slidelab.sliding.model import Axis, Configuration, Placement, Puzzle

WORD = 64

_AXIS_DIRECTIONS = {
    Axis.ANY: kernels.ALL_DIRECTIONS,
    Axis.HORIZONTAL: kernels.ACROSS,
    Axis.VERTICAL: kernels.ACROSS << 2,
}
"""The directions (`Board.piece_dirs` bits) a piece of each axis may step in."""


@dataclass(frozen=True, eq=False)
class Tables:
    """Everything the kernels need to know about one puzzle."""

    puzzle: Puzzle
    kind_names: tuple[str, ...]
    board: kernels.Board

    @property
    def words(self) -> int:
        return self.board.words

    @property
    def n_pieces(self) -> int:
        return int(self.board.kind_of.size)

    def bytes_used(self) -> int:
        """Bytes of the board's arrays (part of what a search holds)."""
        return sum(a.nbytes for a in self.board if isinstance(a, np.ndarray))

    def encode(self, placements: tuple[Placement, ...]) -> np.ndarray:
        """Pack a configuration (its placements must match the start's piece counts)."""
        cols = self.puzzle.cols
        ordered = sorted((self.kind_names.index(p.kind), p.row * cols + p.col) for p in placements)
        anchors = np.array([cell for _, cell in ordered], dtype=np.int64)
        key = np.empty(self.words, np.uint64)
        kernels.pack(self.board, anchors, key)
        return key

    def goal_test(self) -> kernels.GoalTest:
        """The puzzle's goal as `kernels.goal_scan` tests it."""
        puzzle = self.puzzle
        kind_at = np.zeros(puzzle.cell_count, np.int64)
        masks = [0] * self.words
        values = [0] * self.words
        for p in puzzle.goal.placements:
            cell = p.row * puzzle.cols + p.col
            kind = self.kind_names.index(p.kind)
            kind_at[cell] = kind + 1
            for word, mask, value in self._required_bits(kind, cell):
                masks[word] |= mask
                values[word] |= value
        empty = np.zeros(puzzle.cell_count, np.bool_)
        for r, c in puzzle.goal.empty:
            empty[r * puzzle.cols + c] = True
        return kernels.GoalTest(
            kind_at,
            len(puzzle.goal.placements),
            empty,
            bool(empty.any()),
            np.array(masks, np.uint64),
            np.array(values, np.uint64),
        )

    def _required_bits(self, kind: int, cell: int) -> list[tuple[int, int, int]]:
        """(word, mask, value) that a code with an anchor of `kind` at `cell` holds, where
        the kind's code shows it without decoding: a mask bit, or the field of its only piece."""
        board = self.board
        pos = int(board.pos_of[kind, cell])
        if pos < 0:
            return []
        if board.mask_base[kind] >= 0:
            bit = int(board.mask_base[kind]) + pos
            return [(bit // WORD, 1 << bit % WORD, 1 << bit % WORD)]
        first = int(board.kind_first[kind])
        if board.kind_first[kind + 1] - first > 1:
            return []
        bit = int(board.field_at[first])
        field = (1 << int(board.field_bits[kind])) - 1
        return [(bit // WORD, field << bit % WORD, pos << bit % WORD)]

    def decode(self, key: np.ndarray) -> Configuration:
        anchors = np.empty(self.n_pieces, np.int64)
        kernels.unpack(self.board, key, anchors)
        cols = self.puzzle.cols
        return Configuration.of(
            [
                Placement(self.kind_names[int(k)], *divmod(int(a), cols))
                for k, a in zip(self.board.kind_of, anchors, strict=True)
            ]
        )


@dataclass(frozen=True)
class _KindCode:
    """How one kind is coded: its positions, and fields (`bits` each) or a mask."""

    count: int
    positions: list[int]
    bits: int

    @property
    def masked(self) -> bool:
        """A mask when several pieces' fields would take at least as many bits."""
        return self.count > 1 and len(self.positions) <= self.count * self.bits


def _positions(puzzle: Puzzle, name: str) -> list[int]:
    """The board cells where an anchor of kind `name` fits on the board, clear of obstacles."""
    found = []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            cells = puzzle.kind(name).cells_at((r, c))
            if all(
                0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols and (rr, cc) not in puzzle.obstacles
                for rr, cc in cells
            ):
                found.append(r * puzzle.cols + c)
    return found


def build_tables(puzzle: Puzzle) -> Tables:
    """Lay out `puzzle` for the kernels (Knuth's padded board, coded anchors)."""
    rows, cols = puzzle.rows, puzzle.cols
    width = cols + 1
    pad_of = np.array([(r + 1) * width + c for r in range(rows) for c in range(cols)], np.int64)
    cell_of = np.full((rows + 2) * width, -1, np.int64)
    cell_of[pad_of] = np.arange(rows * cols)
    base_occ = np.full(cell_of.size, -1, np.int64)
    base_occ[pad_of] = 0
    for r, c in puzzle.obstacles:
        base_occ[pad_of[r * cols + c]] = -1

    counts = puzzle.start.kind_counts()
    kind_names = tuple(kind.name for kind in puzzle.kinds if counts[kind.name])
    kind_of: list[int] = []
    kind_first = [0]
    cover_piece: list[int] = []
    cover_off: list[int] = []
    codes = []
    for index, name in enumerate(kind_names):
        kind_of += [index] * counts[name]
        kind_first.append(len(kind_of))
        for piece in range(kind_first[-2], kind_first[-1]):
            for dr, dc in puzzle.kind(name).cells:
                cover_piece.append(piece)
                cover_off.append(dr * width + dc)
        positions = _positions(puzzle, name)
        codes.append(_KindCode(counts[name], positions, max(1, (len(positions) - 1).bit_length())))

    n_kinds, n_cells = len(kind_names), rows * cols
    field_at = np.full(len(kind_of), -1, np.int64)
    field_bits = np.zeros(n_kinds, np.int64)
    mask_base = np.full(n_kinds, -1, np.int64)
    bit = 0
    for k, code in enumerate(codes):  # fields first, each within one word
        if not code.masked:
            field_bits[k] = code.bits
            for p in range(kind_first[k], kind_first[k + 1]):
                if bit % WORD + code.bits > WORD:
                    bit += WORD - bit % WORD
                field_at[p] = bit
                bit += code.bits
    for k, code in enumerate(codes):  # then the masks, bit after bit
        if code.masked:
            mask_base[k] = bit
            bit += len(code.positions)

    pos_of = np.full((n_kinds, n_cells), -1, np.int64)
    cell_at = np.zeros((n_kinds, max((len(code.positions) for code in codes), default=1)), np.int64)
    xor_word = np.zeros((n_kinds, n_cells), np.int64)
    xor_bits = np.zeros((n_kinds, n_cells), np.uint64)
    for k, code in enumerate(codes):
        for pos, cell in enumerate(code.positions):
            pos_of[k, cell] = pos
            cell_at[k, pos] = cell
            if code.masked or code.count == 1:
                at, value = (
                    (mask_base[k] + pos, 1) if code.masked else (field_at[kind_first[k]], pos)
                )
                xor_word[k, cell] = at // WORD
                xor_bits[k, cell] = np.uint64(value) << np.uint64(at % WORD)

    def arr(values: list[int]) -> np.ndarray:
        return np.array(values, np.int64)

    edge_lo: list[int] = []
    edge_hi: list[int] = []
    edges: list[int] = []
    for name in kind_names:
        cells = set(puzzle.kind(name).cells)
        for dr, dc in kernels.DIRECTIONS:
            edge_lo.append(len(edges))
            entered = sorted({(r + dr, c + dc) for r, c in cells} - cells)
            edges += [r * width + c for r, c in entered]
            edge_hi.append(len(edges))

    board = kernels.Board(
        kind_of=arr(kind_of),
        kind_first=arr(kind_first),
        cover_piece=arr(cover_piece),
        cover_off=arr(cover_off),
        pad_of=pad_of,
        cell_of=cell_of,
        base_occ=base_occ,
        width=width,
        words=max(1, -(-bit // WORD)),
        pos_of=pos_of,
        cell_at=cell_at,
        mask_base=mask_base,
        field_bits=field_bits,
        field_at=field_at,
        xor_word=xor_word,
        xor_bits=xor_bits,
        sorted_kind=np.array([code.count > 1 and not code.masked for code in codes], np.bool_),
        edge_lo=arr(edge_lo),
        edge_hi=arr(edge_hi),
        edges=arr(edges),
        piece_dirs=arr([_AXIS_DIRECTIONS[puzzle.kind(kind_names[k]).axis] for k in kind_of]),
        bitboards=cell_of.size <= WORD,
    )
    return Tables(puzzle=puzzle, kind_names=kind_names, board=board)

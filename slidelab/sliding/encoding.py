"""The packed form of configurations and the lookup tables the kernels use.

Pieces are numbered by kind (in name order); each piece's anchor cell is
stored in `bits` bits, `per_word` of them in each uint64 word.  Within a kind,
anchors are sorted, which makes identical pieces interchangeable.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from slidelab.sliding import kernels
from slidelab.sliding.model import Configuration, Placement, Puzzle


@dataclass(frozen=True, eq=False)
class Tables:
    """Everything the kernels need to know about one puzzle, as numpy arrays."""

    puzzle: Puzzle
    kind_names: tuple[str, ...]
    kind_of: np.ndarray
    seg_lo: np.ndarray
    seg_hi: np.ndarray
    off_lo: np.ndarray
    off_hi: np.ndarray
    offs: np.ndarray
    pad_of: np.ndarray
    cell_of: np.ndarray
    base_occ: np.ndarray
    width: int
    bits: int
    per_word: int
    words: int

    @property
    def n_pieces(self) -> int:
        return int(self.kind_of.size)

    @property
    def bytes_per_key(self) -> int:
        return 8 * self.words

    def bytes_used(self) -> int:
        """Bytes of the tables' arrays (part of what a search holds)."""
        arrays = (self.kind_of, self.seg_lo, self.seg_hi, self.off_lo, self.off_hi, self.offs)
        return sum(a.nbytes for a in (*arrays, self.pad_of, self.cell_of, self.base_occ))

    @property
    def layout(self) -> tuple[np.ndarray | int, ...]:
        """The board and piece arguments of `kernels.expand`, in its order."""
        return (
            self.bits,
            self.per_word,
            self.kind_of,
            self.seg_lo,
            self.seg_hi,
            self.off_lo,
            self.off_hi,
            self.offs,
            self.pad_of,
            self.cell_of,
            self.base_occ,
            self.width,
        )

    def encode(self, placements: tuple[Placement, ...]) -> np.ndarray:
        """Pack a configuration (its placements must match the start's piece counts)."""
        cols = self.puzzle.cols
        anchors = np.array(
            sorted((self.kind_names.index(p.kind), p.row * cols + p.col) for p in placements),
            dtype=np.int64,
        )[:, 1]
        key = np.empty(self.words, np.uint64)
        kernels.pack(anchors, self.bits, self.per_word, key)
        return key

    def decode(self, key: np.ndarray) -> Configuration:
        anchors = np.empty(self.n_pieces, np.int64)
        kernels.unpack(key, self.bits, self.per_word, anchors)
        cols = self.puzzle.cols
        return Configuration.of(
            [
                Placement(self.kind_names[int(k)], *divmod(int(a), cols))
                for k, a in zip(self.kind_of, anchors, strict=True)
            ]
        )


def build_tables(puzzle: Puzzle) -> Tables:
    """Lay out `puzzle` for the kernels (Knuth's padded board, packed anchors)."""
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
    seg_lo: list[int] = []
    seg_hi: list[int] = []
    off_lo: list[int] = []
    off_hi: list[int] = []
    offs: list[int] = []
    for index, name in enumerate(kind_names):
        lo = len(kind_of)
        kind_of += [index] * counts[name]
        seg_lo += [lo] * counts[name]
        seg_hi += [len(kind_of)] * counts[name]
        off_lo.append(len(offs))
        offs += [dr * width + dc for dr, dc in puzzle.kind(name).cells]
        off_hi.append(len(offs))

    bits = max(1, (rows * cols - 1).bit_length())
    per_word = 63 // bits  # the top bit of each word stays free (see kernels.USED)
    words = -(-len(kind_of) // per_word)

    def arr(values: list[int]) -> np.ndarray:
        return np.array(values, np.int64)

    return Tables(
        puzzle=puzzle,
        kind_names=kind_names,
        kind_of=arr(kind_of),
        seg_lo=arr(seg_lo),
        seg_hi=arr(seg_hi),
        off_lo=arr(off_lo),
        off_hi=arr(off_hi),
        offs=arr(offs),
        pad_of=pad_of,
        cell_of=cell_of,
        base_occ=base_occ,
        width=width,
        bits=bits,
        per_word=per_word,
        words=words,
    )

"""The packed codes of configurations: which kinds get a mask, which get fields, and that
every code decodes to the configuration it was made from."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.sliding.encoding import build_tables
from slidelab.sliding.model import Configuration, Placement
from slidelab.sliding.textformat import parse_puzzle

BIG4X4 = (
    "6 x 4\n1 = 1/1\n2 = 11\n3 = 1\n4 = 1\ne = 1\nf = 1\n"
    "12333334444400xxxxefxx\n"
    "12333334444400xxxxfexx\n"
)
"""The 1,796,256-configuration space Knuth's program is timed on (issue 17)."""

MIXED = (
    "8 x 8 (repeated kinds coded both ways, codes of two words)\n"
    "1 = 1\n2 = 11\n3 = 1/1\n" + f"3{'1' * 46}22{'0' * 12}\n" + f"3{'1' * 46}22{'0' * 12}\n"
)
"""46 unit squares (a mask beats 46 fields), two dominoes (two sorted fields beat a mask of
their 56 positions) and one vertical domino."""


def test_fourteen_pieces_of_the_benchmark_take_one_word():
    board = build_tables(parse_puzzle(BIG4X4)).board
    assert board.words == 1
    masked = [int(k) for k in np.flatnonzero(board.mask_base >= 0)]
    assert masked == [2, 3]  # the five 3s and the five 4s
    assert not board.sorted_kind.any()


def test_repeated_kinds_get_masks_or_sorted_fields_by_size():
    board = build_tables(parse_puzzle(MIXED)).board
    assert board.words == 2
    assert board.mask_base.tolist()[0] >= 0
    assert board.sorted_kind.tolist() == [False, True, False]


@st.composite
def mixed_configurations(draw: st.DrawFn) -> Configuration:
    """A random placement of MIXED's pieces on its 8 x 8 board, none overlapping."""
    free = {(r, c) for r in range(8) for c in range(8)}
    placements = []
    for kind, count, (dr, dc) in (("2", 2, (0, 1)), ("3", 1, (1, 0)), ("1", 46, (0, 0))):
        for _ in range(count):
            spots = sorted((r, c) for r, c in free if (r + dr, c + dc) in free)
            r, c = draw(st.sampled_from(spots))
            free -= {(r, c), (r + dr, c + dc)}
            placements.append(Placement(kind, r, c))
    return Configuration.of(placements)


MIXED_TABLES = build_tables(parse_puzzle(MIXED))


@settings(deadline=None, max_examples=50)
@given(config=mixed_configurations())
def test_codes_decode_to_the_configuration_they_were_made_from(config: Configuration):
    assert MIXED_TABLES.decode(MIXED_TABLES.encode(config.placements)) == config

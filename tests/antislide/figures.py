"""Golden figures: the seeds' packings and classes counted by number of blocks."""

from __future__ import annotations

SEED_3x3x3 = """\
1 1 .\t5 4 4\t5 4 4
1 1 2\t5 . 2\t5 6 6
3 3 2\t3 3 2\t. 6 6
"""

SEED_NON_EXAMPLE = """\
1 1 2\t4 4 2\t4 4 .
1 1 2\t. . 2\t. 5 5
3 3 .\t3 3 .\t. 5 5
"""

SEED_4x4x4 = """\
. 1 1 .\t5 5 6 6\t5 5 6 6\t. B B .
2 1 1 3\t2 . . 3\t9 . . A\t9 B B A
2 4 4 3\t2 . . 3\t9 . . A\t9 C C A
. 4 4 .\t7 7 8 8\t7 7 8 8\t. C C .
"""

CLASSES = {
    (2, 2, 2): {0: 1, 2: 1},
    (2, 2, 3): {0: 1, 3: 2},
    (2, 2, 4): {0: 1, 4: 5},
    (3, 3, 2): {0: 1, 4: 1},
    (3, 3, 3): {0: 1, 6: 1},
    (3, 3, 4): {0: 1, 8: 3},
}
"""2x2x1 bricks (from the issue's golden figures)."""

CLASSES_4x4x4 = {0: 1, 12: 3, 13: 1, 14: 72, 15: 21, 16: 1073}
"""Found by this search and independent of the order of the dimensions."""

CLASSES_4x4x5 = {0: 1, 15: 2, 16: 66, 17: 803, 18: 7325, 19: 3057, 20: 36149}
"""Found by this search in all three orders of the dimensions, and by an earlier
fixed-cell-order version of it."""

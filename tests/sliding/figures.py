"""Golden figures for Knuth's "silly" example (seed SLIDING, section 2; Knuth's program)."""

SILLY = """5 x 5 (a silly example)
1 = 111/01
2 = 101/111
3 = 1
1xx200000000033
000xx00033001002
"""

SILLY_MOVES = (20, 10, 4, 10, 4, 2)
"""Shortest solutions in styles 0-5."""

SILLY_LAYERS = (
    (
        1,
        4,
        10,
        13,
        26,
        43,
        71,
        89,
        107,
        129,
        174,
        218,
        262,
        245,
        259,
        215,
        207,
        149,
        128,
        67,
        33,
        5,
        2,
    ),
    (1, 6, 31, 74, 152, 248, 321, 351, 434, 452, 307, 79, 1),
    (1, 29, 184, 541, 764, 597, 270, 68, 3),
    (1, 7, 21, 42, 107, 166, 193, 240, 381, 495, 407, 225, 121, 38, 12, 1),
    (1, 11, 65, 201, 434, 689, 648, 344, 61, 3),
    (1, 41, 361, 1032, 794, 205, 23),
)
"""New configurations at each distance over the whole reachable space, styles 0-5."""

"""Golden figures for dissection, from the seed (BACK-DISSECT) and its runs (FIGURES.md)."""

from __future__ import annotations

TOY = "****\n*..*\n.***\n"
"""The seed's example shape (section 5)."""

TOY_SHIFTS = [(a, b) for a in range(-2, 3) for b in range(-2, 4) if (a, b) != (2, -2)]
"""Section 5: every (a, b) with -2 <= a <= 2 and -2 <= b <= 3 except (2, -2), in that order."""

SEED_COLOURINGS = [
    (["111", "221", "111"], ["2111", "2..1", ".111"]),
    (["211", "221", "111"], ["2211", "2..1", ".111"]),
]
"""The square's and the shape's colourings the seed shows for the toy shape with d = 2."""

RUNS = [
    ("knuth-toy.dots", 29, 3),
    ("rectangle-2x8.dots", 55, 4),
    ("strip-1x9.dots", 33, 0),
]
"""(library shape, legal shifts, solutions with d = 2) as the seed program prints them."""

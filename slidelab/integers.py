"""Whole numbers read from files, checked against what the engines can hold.

Python's `int` accepts any Unicode digit and refuses more than 4,300 digits with
a bare `ValueError`; a number that does not fit a kernel's array wraps around
silently.  Readers match ASCII digits (`DIGITS`) and convert them here, so that
a number in a file is either a value the engine can hold or a message the
reader places at its line and column.
"""

from __future__ import annotations

DIGITS = "[0-9]+"
"""Regular expression of a whole number as files write it (ASCII digits only)."""

INT32_MAX = 2**31 - 1
"""The largest value of the kernels' int32 arrays (exact-cover bounds, for one)."""

INT64_MAX = 2**63 - 1
"""The largest value of an int64 array or counter."""


def whole_number(digits: str, limit: int) -> int | None:
    """The value of `digits` (ASCII digits, at least one), or None when it exceeds `limit`.

    The length is compared first, so that a number of any length is judged without
    converting it."""
    significant = digits.lstrip("0")
    if len(significant) > len(str(limit)):
        return None
    value = int(significant or "0")
    return value if value <= limit else None

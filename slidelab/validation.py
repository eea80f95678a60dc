"""Checks of option values that argparse's types let through (nan, ranges upside down).

The commands call these before any work, so a bad value is refused in one line
naming the option, not taken for something else.
"""

from __future__ import annotations

import argparse
import math
import re

from slidelab.errors import SlidelabError
from slidelab.integers import DIGITS


class OptionValueError(SlidelabError):
    """An option's value that cannot mean anything (nan seconds, an empty range)."""


def check_seconds(option: str, seconds: float) -> None:
    """Refuse a period that is not a positive, finite number of seconds."""
    if not (math.isfinite(seconds) and seconds > 0):
        raise OptionValueError(f"{option} must be a positive number of seconds, not {seconds}")


def check_block_range(min_blocks: int, max_blocks: int | None) -> None:
    """Refuse a negative --min-blocks, or a --max-blocks below it."""
    if min_blocks < 0:
        raise OptionValueError(f"--min-blocks must be at least 0, not {min_blocks}")
    if max_blocks is not None and max_blocks < min_blocks:
        raise OptionValueError(
            f"--max-blocks {max_blocks} is below --min-blocks {min_blocks}: no packing fits"
        )


_WHOLE = re.compile(f"-?{DIGITS}")

WHOLE_DIGITS = 30
"""Most digits a whole-number option takes: more than any count holds (2^64 has 20)."""


def whole_argument(text: str) -> int:
    """argparse's type for whole-number options: ASCII digits with an optional minus sign.

    Python's `int` also takes '1_0', '٤' and blanks around the digits, which a command line
    would then read as a number the user did not write."""
    if not _WHOLE.fullmatch(text) or len(text.lstrip("-")) > WHOLE_DIGITS:
        raise argparse.ArgumentTypeError(f"not a whole number in digits 0-9: {text!r}")
    return int(text)

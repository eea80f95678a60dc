"""Checks of option values that argparse's types let through (nan, ranges upside down).

The commands call these before any work, so a bad value is refused in one line
naming the option, not taken for something else.
"""

from __future__ import annotations

import math

from slidelab.errors import SlidelabError


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

"""Numbers said with their nouns, as the command line and the window print them."""

from __future__ import annotations


def numbered(number: int, noun: str, plural: str | None = None) -> str:
    """`number` with thousands separators and `noun`, in the plural (`plural`, else the noun
    and "s") unless the number is 1: "1 solution", "11,520 solutions", "48 symmetries"."""
    if number == 1:
        return f"1 {noun}"
    return f"{number:,} {plural or noun + 's'}"

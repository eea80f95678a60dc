"""What a family's subproblem result may hold, checked when a journal gives one back.

A journal record's checksum only says that the line is whole and belongs to its problem:
anyone can recompute it, so a record's payload (counts by size, listed solutions, codes)
is checked too before it is summed or decoded.  Each family's job says what its payload
may hold (`SplitJob.check`), with the checks here: each raises `PayloadError` naming the
first value that is wrong, and the journal refuses the record with its line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class PayloadError(Exception):
    """Why a result cannot be one its family's search returns."""


def is_count(value: object) -> bool:
    """Whether `value` is a whole number from 0 (JSON's true and 1.0 are not)."""
    return type(value) is int and value >= 0


def expect(condition: bool, reason: str) -> None:
    """Raise `PayloadError(reason)` unless `condition`."""
    if not condition:
        raise PayloadError(reason)


def fields(payload: dict[str, Any], required: Sequence[str], optional: Sequence[str] = ()) -> None:
    """Check that `payload` has every field `required` and no others than `optional`."""
    names = set(payload)
    if set(required) <= names <= {*required, *optional}:
        return
    others = [name for name in optional if name not in required]
    if not required:
        raise PayloadError(f"the payload may only have the fields {', '.join(others)}")
    said = f"the payload must have the fields {', '.join(required)}"
    raise PayloadError(f"{said} (and may have {', '.join(others)})" if others else said)


def whole(value: Any, name: str, low: int = 0, high: int | None = None) -> int:
    """`value`, checked to be a whole number from `low` (to `high`)."""
    if type(value) is not int or value < low or (high is not None and value > high):
        to = "" if high is None else f" to {high}"
        raise PayloadError(f"{name} must be a whole number from {low}{to}")
    return value


def items(value: Any, name: str, length: int | None = None) -> list[Any]:
    """`value`, checked to be a list (of `length` items)."""
    if not isinstance(value, list):
        raise PayloadError(f"{name} must be a list")
    if length is not None and len(value) != length:
        raise PayloadError(f"{name} must hold {length} items, not {len(value)}")
    return value


def wholes(
    value: Any, name: str, length: int | None = None, low: int = 0, high: int | None = None
) -> list[int]:
    """`value`, checked to be a list (of `length` items) of whole numbers from `low` (to
    `high`)."""
    return [
        whole(number, f"{name}[{n}]", low, high)
        for n, number in enumerate(items(value, name, length))
    ]


def adds_up(total: int, count: int, what: str) -> None:
    """Check that `what` in the payload, `total` of them, are the record's `count`."""
    if total != count:
        raise PayloadError(f"{what} add up to {total}, not to the record's count {count}")

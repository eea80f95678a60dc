"""Knuth's DLX file formats (DLX1, DLX2 colours, DLX3 multiplicities), read and written.

    | comment lines start with '|'
    A B 2:3|C 2|D | X Y      items: primary, then '|', then secondary
    A B X:0 Y:0              one option per line
    A C X:1 Y:1              'item:colour' on secondary items

An item name is 1-8 characters other than blanks, ':' and '|'.  A primary item
may carry bounds: `u:v|name` (covered u to v times) or `v|name` (exactly v
times); v must be positive and u <= v.  Colours are names of the same kind
(Knuth's DLX2 takes one character; slidelab reads and writes up to eight).
Blank lines are ignored.  Every error names the line and column it found.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from slidelab.errors import ParseError
from slidelab.exactcover.problem import MAX_BOUND, Entry, Item, Option, Problem, ProblemError
from slidelab.integers import DIGITS, whole_number

MAX_NAME = 8
"""Longest item or colour name, as in Knuth's programs."""

_TOKEN = re.compile(r"\S+")
_BOUNDS = re.compile(f"(?:({DIGITS}):)?({DIGITS})")


def parse_problem(text: str, source: str = "<input>") -> Problem:
    """The problem described by `text`; `source` names it in error messages."""
    lines = _content_lines(text)
    first = next(lines, None)
    if first is None:
        raise ParseError(source, 1, 1, "no item line: the first line that is not a comment")
    number, line = first
    primary, secondary, bounds = _item_line(source, number, line)
    kinds = {name: True for name in primary} | {name: False for name in secondary}
    options = [_option_line(source, n, text_line, kinds) for n, text_line in lines]
    return Problem(primary, tuple(options), secondary, bounds)


def format_problem(problem: Problem, comment: str = "") -> str:
    """`problem` in Knuth's format; `comment` lines go first, each behind '| '."""
    lines = [f"| {line}".rstrip() for line in comment.splitlines()]
    primary = zip(problem.primary, problem.bounds, strict=True)
    heads = [_bounded(_name(item, "item"), bounds) for item, bounds in primary]
    if problem.secondary:
        heads += ["|", *(_name(item, "item") for item in problem.secondary)]
    lines.append(" ".join(heads))
    lines += [format_option(option) for option in problem.options]
    return "\n".join(lines) + "\n"


def format_option(option: Option) -> str:
    """One option line: its items, with ':colour' where there is one."""
    return " ".join(
        _name(item, "item")
        if colour is None
        else f"{_name(item, 'item')}:{_name(colour, 'colour')}"
        for item, colour in option
    )


def _content_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of every line that is neither blank nor a comment."""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        if stripped and not stripped.startswith("|"):
            yield number, line


def _item_line(
    source: str, number: int, line: str
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, int], ...]]:
    primary: list[str] = []
    bounds: list[tuple[int, int]] = []
    secondary: list[str] = []
    columns: dict[str, int] = {}
    for match in _TOKEN.finditer(line):
        token, column = match.group(), match.start() + 1
        if token.startswith("|"):
            if columns.get("|"):
                raise ParseError(source, number, column, "the item line has '|' twice")
            columns["|"] = column
            token, column = token[1:], column + 1
            if not token:
                continue
        bound = (1, 1)
        if columns.get("|"):
            target = secondary
            for mark in ":|":
                if mark in token:
                    raise ParseError(
                        source,
                        number,
                        column + token.index(mark),
                        f"'{mark}' is not allowed in the name of a secondary item",
                    )
        else:
            target = primary
            if "|" in token:
                prefix, token = token.split("|", 1)
                bound = _bound(source, number, column, prefix)
                column += len(prefix) + 1
            elif ":" in token:
                raise ParseError(
                    source,
                    number,
                    column + token.index(":"),
                    "':' is not allowed in an item name (bounds are written u:v|name)",
                )
        _check_name(source, number, column, token, "item")
        if token in columns:
            raise ParseError(source, number, column, f"item '{token}' is listed twice")
        columns[token] = column
        target.append(token)
        if target is primary:
            bounds.append(bound)
    if not primary:
        raise ParseError(source, number, 1, "the item line names no primary item")
    return tuple(primary), tuple(secondary), tuple(bounds)


def _bound(source: str, number: int, column: int, prefix: str) -> tuple[int, int]:
    match = _BOUNDS.fullmatch(prefix)
    if match is None:
        raise ParseError(
            source, number, column, f"bad bounds '{prefix}|': write u:v|name or v|name"
        )
    values = [
        _bound_value(source, number, column + match.start(group), match.group(group))
        for group in (1, 2)
        if match.group(group) is not None
    ]
    low, high = values[0], values[-1]
    if high == 0:
        raise ParseError(source, number, column, "the upper bound must be positive")
    if low > high:
        raise ParseError(
            source, number, column, f"the lower bound {low} exceeds the upper bound {high}"
        )
    return low, high


def _bound_value(source: str, number: int, column: int, digits: str) -> int:
    value = whole_number(digits, MAX_BOUND)
    if value is None:
        raise ParseError(
            source, number, column, f"the bound is above {MAX_BOUND}, the largest the engine holds"
        )
    return value


def _option_line(source: str, number: int, line: str, kinds: dict[str, bool]) -> Option:
    entries: list[Entry] = []
    named: set[str] = set()
    for match in _TOKEN.finditer(line):
        token, column = match.group(), match.start() + 1
        name, colon, colour = token.partition(":")
        _check_name(source, number, column, name, "item")
        primary = kinds.get(name)
        if primary is None:
            raise ParseError(source, number, column, f"unknown item '{name}'")
        if name in named:
            raise ParseError(source, number, column, f"item '{name}' appears twice in this option")
        named.add(name)
        if not colon:
            entries.append((name, None))
            continue
        if primary:
            raise ParseError(
                source, number, column + len(name), f"primary item '{name}' cannot have a colour"
            )
        _check_name(source, number, column + len(name) + 1, colour, "colour")
        entries.append((name, colour))
    return tuple(entries)


def _check_name(source: str, number: int, column: int, name: str, what: str) -> None:
    if not name:
        raise ParseError(source, number, column, f"empty {what} name")
    for offset, char in enumerate(name):
        if char in ":|" or not char.isprintable():
            article = "an" if what[0] in "aeiou" else "a"
            raise ParseError(
                source, number, column + offset, f"{char!r} is not allowed in {article} {what} name"
            )
    if len(name) > MAX_NAME:
        raise ParseError(
            source, number, column, f"{what} name '{name}' is longer than {MAX_NAME} characters"
        )


def _name(value: Item, what: str) -> str:
    """`value` if it can stand in a DLX file as an item or colour name."""
    if (
        not isinstance(value, str)
        or not 0 < len(value) <= MAX_NAME
        or any(c in ":|" or c.isspace() or not c.isprintable() for c in value)
    ):
        raise ProblemError(
            f"{what} {value!r} cannot be written in the DLX format: names are 1-{MAX_NAME} "
            "characters other than blanks, ':' and '|'"
        )
    return value


def _bounded(name: str, bounds: tuple[int, int]) -> str:
    low, high = bounds
    if (low, high) == (1, 1):
        return name
    return f"{high}|{name}" if low == high else f"{low}:{high}|{name}"

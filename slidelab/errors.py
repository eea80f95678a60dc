"""Exception classes shared by every puzzle family.

Every error a user can cause derives from `SlidelabError`, so front ends can
report it in one line instead of a traceback.
"""

from __future__ import annotations


class SlidelabError(Exception):
    """A problem caused by the user's input or request, reported without a traceback."""


class ParseError(SlidelabError, ValueError):
    """Malformed input text; knows where it is so that the message can point at it."""

    def __init__(self, source: str, line: int, column: int, message: str) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        super().__init__(f"{source}:{line}:{column}: {message}")


class SearchLimitError(SlidelabError):
    """A search would exceed a limit the user set (or the machine's memory)."""

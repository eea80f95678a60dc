"""A one-line progress display on stderr for command-line runs (only on a terminal)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator
from typing import TextIO

from slidelab.runs import FoundT, Progress, ResultT, drive


class ProgressLine:
    """Rewrites one status line as `Progress` events arrive; silent when not a terminal."""

    def __init__(self, stream: TextIO | None = None) -> None:
        """Writes to `stream`, by default the `sys.stderr` of the moment (not of import)."""
        self.stream = sys.stderr if stream is None else stream
        self.active = self.stream.isatty()
        self.width = 0

    def __call__(self, event: Progress) -> None:
        if not self.active:
            return
        parts = [f"{event.phase}: depth {event.depth}", f"{event.explored:,} explored"]
        if event.found:
            parts.append(f"{event.found:,} found")
        if event.fraction is not None:
            parts.append(f"{100 * event.fraction:.1f}% done")
        text = ", ".join([*parts, f"{event.elapsed:.1f} s"])
        self.width = max(self.width, len(text))
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()

    def clear(self) -> None:
        if self.active and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def drive_in_terminal(
    solver: Generator[Progress | FoundT, None, ResultT],
    on_found: Callable[[FoundT], None] | None = None,
    stream: TextIO | None = None,
) -> ResultT:
    """`drive` a command-line run with its progress on one line of `stream`; the line is
    wiped before each batch of results is handed to `on_found` (which may print) and when
    the run ends, however it ends."""
    line = ProgressLine(stream)

    def show(batch: FoundT) -> None:
        line.clear()
        if on_found is not None:
            on_found(batch)

    try:
        return drive(solver, line, show)
    finally:
        line.clear()

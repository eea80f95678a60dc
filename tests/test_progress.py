"""The command-line progress line."""

from __future__ import annotations

import io

from slidelab.progress import ProgressLine
from slidelab.runs import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_shows_what_the_solver_reports_and_clears_itself():
    stream = Terminal()
    line = ProgressLine(stream)
    line(Progress("exact cover", explored=1234, elapsed=2.5, depth=7, found=3, fraction=0.25))
    assert stream.getvalue() == (
        "\rexact cover: depth 7, 1,234 explored, 3 found, 25.0% done, 2.5 s"
    )
    line.clear()
    assert stream.getvalue().endswith("\r" + " " * line.width + "\r")


def test_progress_line_is_silent_when_not_on_a_terminal():
    stream = io.StringIO()
    ProgressLine(stream)(Progress("search", explored=1, elapsed=0.1))
    assert stream.getvalue() == ""

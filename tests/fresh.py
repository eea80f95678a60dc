"""Running code in a fresh interpreter, to see what a new process loads: this one has loaded
whatever the tests before it imported."""

from __future__ import annotations

import subprocess
import sys


def printed_by(code: str) -> list[str]:
    """The lines a fresh Python prints running `code`, which must succeed."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()

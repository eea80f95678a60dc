"""The command line's own duties: what a run the user stops with Ctrl-C prints and returns."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from slidelab import cli
from slidelab.exactcover import command


def test_ctrl_c_says_the_run_stopped_and_exits_with_130(monkeypatch, capsys):
    def interrupted(_args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "run", interrupted)
    assert cli.main(["dlx", "-"]) == 130
    assert capsys.readouterr().err == "slidelab: stopped\n"


def test_version_prints_the_version_and_exits(capsys):
    from slidelab import __version__

    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"slidelab {__version__}\n"


SOMA = Path(__file__).parents[1] / "resources" / "puzzles" / "polycube" / "soma.pcube"


def test_a_reader_that_leaves_early_gets_no_traceback():
    """11,520 solutions listed into `head -1`: the pipe closes early, slidelab stops quietly."""
    done = subprocess.run(
        f"{sys.executable} -m slidelab polycube {SOMA} | head -1",
        shell=True, capture_output=True, text=True, check=False,
        executable="/bin/bash",
    )  # fmt: skip
    assert done.stdout.count("\n") == 1 and done.stderr == ""

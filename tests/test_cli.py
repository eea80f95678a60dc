"""The command line's own duties: what a run the user stops with Ctrl-C prints and returns."""

from __future__ import annotations

import argparse

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

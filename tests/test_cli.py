"""The command line's own duties: what a run the user stops with Ctrl-C prints and returns."""

from __future__ import annotations

import argparse
import gc
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from slidelab import cli, registry
from slidelab.exactcover import command
from tests.fresh import printed_by


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


def test_version_loads_no_family_command():
    """`slidelab --version` answers without loading the commands, their solvers or numpy."""
    code = (
        "import sys\nfrom slidelab import cli\n"
        "try:\n    cli.main(['--version'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.endswith('.command') or m == 'numpy'))"
    )
    assert printed_by(code)[-1] == "[]"


SOMA = Path(__file__).parents[1] / "resources" / "puzzles" / "polycube" / "soma.pcube"


def test_a_reader_that_leaves_early_gets_no_traceback():
    """11,520 solutions listed into `head -1`: the pipe closes early, slidelab stops quietly."""
    done = subprocess.run(
        f"{sys.executable} -m slidelab polycube {SOMA} | head -1",
        shell=True, capture_output=True, text=True, check=False,
        executable="/bin/bash",
    )  # fmt: skip
    assert done.stdout.count("\n") == 1 and done.stderr == ""


def test_every_command_takes_the_max_memory_that_the_default_budget_names(capsys):
    """The default budget's refusal says "set it with --max-memory": every command takes it."""
    assert set(registry.subcommands()) == {"slide", "dlx", "antislide", "polycube", "dissect"}
    for name in registry.subcommands():
        with pytest.raises(SystemExit):
            cli.main([name, "--help"])
        assert "--max-memory SIZE" in capsys.readouterr().out, name


def test_max_memory_bounds_a_command_without_its_own_budget_option(capsys):
    assert cli.main(["antislide", "20", "20", "20", "--max-memory", "1M"]) == cli.EXIT_LIMITED
    assert capsys.readouterr().err == (
        "slidelab: building the tables would need 37.3 MiB, more than the limit set by "
        "--max-memory (1.0 MiB)\n"
    )
    # the next command has the default budget again
    assert cli.main(["antislide", "3", "3", "3"]) == 0


def program_status(monkeypatch: pytest.MonkeyPatch, arguments: list[str]) -> object:
    """The exit status of the `slidelab` program (`cli.console`) run here on `arguments`; what
    it froze is put back under collection (this process goes on)."""
    monkeypatch.setattr(sys, "argv", ["slidelab", *arguments])
    try:
        with pytest.raises(SystemExit) as exit_:
            cli.console()
    finally:
        gc.unfreeze()
    return exit_.value.code


def test_the_program_runs_a_command_with_its_modules_set_aside_and_exits_with_its_status(
    monkeypatch,
):
    """`slidelab` (the program, `cli.console`) loads a command's modules with the collector
    off, then leaves them out of its walks; the command itself runs with the collector on."""
    during: list[tuple[bool, int]] = []

    def command_run(_args: argparse.Namespace) -> int:
        during.append((gc.isenabled(), gc.get_freeze_count()))
        return 3

    monkeypatch.setattr(command, "run", command_run)
    assert program_status(monkeypatch, ["dlx", "-"]) == 3
    [(enabled, frozen)] = during
    assert enabled and frozen > 1000
    assert gc.isenabled()


@pytest.mark.parametrize(("stop", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_stop_the_program_as_ctrl_c_does(monkeypatch, capsys, stop, status):
    """The program's command stops as if Ctrl-C were pressed, with the signal's status; the
    handlers of the process before it are put back."""
    before = signal.getsignal(stop)

    def signalled(_args: argparse.Namespace) -> int:
        os.kill(os.getpid(), stop)
        raise AssertionError("the signal did not stop the command")

    monkeypatch.setattr(command, "run", signalled)
    assert program_status(monkeypatch, ["dlx", "-"]) == status
    assert capsys.readouterr().err == f"slidelab: stopped by {stop.name}\n"
    assert signal.getsignal(stop) is before


def test_ctrl_c_while_the_program_loads_a_command_says_the_run_stopped(monkeypatch, capsys):
    def interrupted(_command: str | None) -> argparse.ArgumentParser:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert program_status(monkeypatch, ["dlx", "-"]) == 130
    assert capsys.readouterr().err == "slidelab: stopped\n"
    assert gc.isenabled()

"""The command line's own duties: what a run the user stops with Ctrl-C, or whose output
cannot be written, prints and returns."""

from __future__ import annotations

import argparse
import gc
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from slidelab import cli, registry
from slidelab.exactcover import command
from tests.exactcover.test_dlxformat import DLX1_EXAMPLE
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


FULL = "/dev/full"
"""A device whose every write fails with ENOSPC, as a full disk's does."""
needs_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full here")


def slidelab_run(
    arguments: list[str],
    *,
    unbuffered: str = "",
    stdout: Any = subprocess.PIPE,
    stderr: Any = subprocess.PIPE,
) -> subprocess.CompletedProcess[str]:
    """`python -m slidelab arguments` in a new process writing to `stdout` and `stderr` (by
    default captured), its stdout buffered unless `unbuffered` is "1"."""
    return subprocess.run(
        [sys.executable, "-m", "slidelab", *arguments], stdout=stdout, stderr=stderr,
        text=True, check=False, env=os.environ | {"PYTHONUNBUFFERED": unbuffered},
    )  # fmt: skip


@needs_full
@pytest.mark.parametrize(
    ("arguments", "unbuffered"),
    [
        (["polycube", str(SOMA), "--count"], ""),  # "11520" waits in the buffer until main flushes
        (["polycube", str(SOMA), "--count"], "1"),  # print itself fails
        (["polycube", str(SOMA)], ""),  # 11,520 solutions fill the buffer: a write fails mid-run
        (["--version"], ""),  # argparse prints it and exits
    ],
    ids=["count", "count-unbuffered", "listing", "version"],
)
def test_output_to_a_full_disk_is_one_line_and_status_74(arguments, unbuffered):
    with open(FULL, "w") as full:
        done = slidelab_run(arguments, unbuffered=unbuffered, stdout=full)
    assert (done.returncode, done.stderr) == (
        74,
        "slidelab: cannot write the output: No space left on device\n",
    )


@needs_full
def test_a_summary_that_cannot_be_written_leaves_the_answer_on_stdout(tmp_path):
    """The summary line goes to stderr, here a full disk: the count still reaches stdout."""
    problem = tmp_path / "example.dlx"
    problem.write_text(DLX1_EXAMPLE)
    with open(FULL, "w") as full:
        done = slidelab_run(["dlx", str(problem), "--count"], stderr=full)
    assert (done.returncode, done.stdout) == (74, "1\n")


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


@pytest.mark.parametrize(
    ("arguments", "value"),
    [
        (["antislide", "1_0", "1", "1"], "1_0"),
        (["antislide", "\u0664", "4", "4"], "\u0664"),
        (["dissect", "--count", "\u0663", "toy.dots"], "\u0663"),
        (["slide", "p.slide", "--jobs", " 1"], " 1"),
        (["dlx", "p.dlx", "--limit", "1" * 31], "1" * 31),
    ],
)
def test_whole_number_options_take_ascii_digits_only(capsys, arguments, value):
    """int() would read '1_0' as 10 and Arabic-Indic digits as theirs."""
    with pytest.raises(SystemExit) as stopped:
        cli.main(arguments)
    assert stopped.value.code == 2
    assert f"not a whole number in digits 0-9: {value!r}" in capsys.readouterr().err


def test_a_file_error_no_command_reported_names_the_file(monkeypatch, capsys):
    """Only an error without a file name is the output's: one naming a file says which."""

    def failing(_args: argparse.Namespace) -> int:
        raise PermissionError(13, "Permission denied", "/root/x.journal")

    monkeypatch.setattr(command, "run", failing)
    assert cli.main(["dlx", "p.dlx"]) == cli.EXIT_BAD_INPUT
    assert capsys.readouterr().err == "slidelab: /root/x.journal: Permission denied\n"

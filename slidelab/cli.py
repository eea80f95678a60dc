"""The `slidelab` command: no arguments opens the desktop app; subcommands run solvers.

Exit status: 0 solved or analysed, 1 no solution exists, 2 bad input, 3 a run
stopped at a limit before it could decide, 74 the output could not be written (such as
to a full disk); 130 stopped with Ctrl-C, 143 with SIGTERM and 129 with SIGHUP, which stop a
command as Ctrl-C does.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from typing import NoReturn, TextIO

from slidelab import __version__, memory, registry
from slidelab.errors import ParseError, SearchLimitError, SlidelabError

EXIT_BAD_INPUT = 2
EXIT_LIMITED = 3
"""A search or its preparation stopped at a limit (memory, states)."""
EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE, what a shell reports for a command whose reader closed the pipe."""
EXIT_STOPPED = 130
"""128 + SIGINT, what a shell reports for a command stopped with Ctrl-C."""
EXIT_OUTPUT_FAILED = 74
"""EX_IOERR of sysexits.h: stdout or stderr could not be written (a full disk)."""
STOPPING_SIGNALS = ("SIGTERM", "SIGHUP")
"""Signals that stop a command as Ctrl-C does (`Terminated`), where the system has them."""


class Terminated(KeyboardInterrupt):
    """A command stopped by SIGTERM or SIGHUP: raised as Ctrl-C's `KeyboardInterrupt` is, so
    that a run stops the same way (a split run kills its workers, journals and saved searches
    keep what was done), rather than ending the process where it stands."""

    def __init__(self, number: int) -> None:
        super().__init__(signal.Signals(number).name)
        self.number = number


def build_parser(subcommand: str | None = None) -> argparse.ArgumentParser:
    """The `slidelab` parser with every family's subcommand, or with only `subcommand`'s
    families registered (none for a name no family has): a run of one subcommand loads no
    other family's modules."""
    parser = argparse.ArgumentParser(prog="slidelab", description=registry.DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"slidelab {__version__}")
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for family in registry.FAMILIES:
        if family.register_cli is not None and subcommand in (None, family.subcommand):
            family.register_cli(subcommands)
    share = f"{memory.DEFAULT_SHARE:.0%}".replace("%", "%%")  # argparse formats help with %
    for command in subcommands.choices.values():
        command.add_argument(
            "--max-memory",
            metavar="SIZE",
            help=f"stop before the work holds more than SIZE, such as 2G or 512M (default: "
            f"{share} of the available memory)",
        )
    return parser


def _families_needed(first: str, known: list[str]) -> str | None:
    """The `subcommand` whose families `build_parser` must register for arguments that begin
    with `first`: the one named, none for --version ('': it prints and exits at once, as
    soon as Python and slidelab have loaded), or every one (None: the help lists them)."""
    if first in known:
        return first
    return "" if first == "--version" else None


def console() -> NoReturn:
    """The `slidelab` program: `main`, then exit with its status.

    The modules a command loads live as long as the process, so the garbage collector is off
    while they load and leaves them out of its later walks (`main(program=True)`; parsing
    the arguments loads them), and what the process holds at its end is left out of the
    collection the interpreter makes on its way out (the modules' own clean-up still runs).
    Measured on three small commands of three families: 12-32 ms of 0.17-0.21 s each
    (docs/BENCHMARKS.md).
    """
    try:
        status = main(program=True)
    except KeyboardInterrupt as stop:  # Ctrl-C while the modules load, before a command runs
        status = _stopped(stop)
    gc.freeze()
    raise SystemExit(status)


def _stopped(stop: KeyboardInterrupt) -> int:
    """Say that the user stopped the run (Ctrl-C, or the signal of a `Terminated`); returns
    the exit status for it, 128 + the signal's number, as a shell reports it."""
    if isinstance(stop, Terminated):
        said, status = f"slidelab: stopped by {stop}", 128 + stop.number
    else:
        said, status = "slidelab: stopped", EXIT_STOPPED
    with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
        print(said, file=sys.stderr)
    return status


@contextlib.contextmanager
def _stopping_on_signals() -> Iterator[None]:
    """Within: `STOPPING_SIGNALS` raise `Terminated`, once (a second one ends the process at
    once, as their default does; a split run's workers end with it, `slidelab.parallel.local`);
    the handlers before are put back after."""

    def stop(number: int, _frame: object) -> None:
        signal.signal(number, signal.SIG_DFL)
        raise Terminated(number)

    numbers = [getattr(signal, name) for name in STOPPING_SIGNALS if hasattr(signal, name)]
    before = {number: signal.signal(number, stop) for number in numbers}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def main(argv: Sequence[str] | None = None, *, program: bool = False) -> int:
    """Run the command line; returns the exit status.

    No arguments opens the desktop app; `slidelab FILE` opens FILE in it.  `program`: this
    process is the `slidelab` program (`console`), whose collector is off while the command's
    modules load, and whose SIGTERM and SIGHUP stop the command as Ctrl-C does.  Stdout is
    flushed here, where a failure to write it can be reported (what fits in its buffer is
    otherwise only written, and found unwritable, at exit).
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    known = registry.subcommands()
    if not arguments or (
        len(arguments) == 1 and not arguments[0].startswith("-") and arguments[0] not in known
    ):
        from slidelab.gui.app import run_app  # Qt loads only for the desktop app

        return run_app(arguments[0] if arguments else None)
    try:
        status = _command(arguments, known, program)
        _flush(sys.stdout)
        return status
    except BrokenPipeError:  # the reader left (`| head`): stop quietly, as Unix tools do
        _discard(sys.stdout)
        return EXIT_BROKEN_PIPE
    except OSError as error:
        if error.filename is not None:  # a file a command did not report itself: say which
            print(f"slidelab: {error.filename}: {error.strerror or error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        return _output_failed(error)  # writing stdout or stderr failed


def _command(arguments: list[str], known: list[str], program: bool) -> int:
    """Parse `arguments` and run their command; returns the exit status, after saying why
    when the command failed."""
    if program:
        gc.disable()
    try:
        parser = build_parser(_families_needed(arguments[0], known))
        args = _parse(parser, arguments)
    finally:
        if program:
            gc.freeze()
            gc.enable()
    if args.command is None:
        parser.print_help()
        return 0
    try:
        memory.choose_limit(None if args.max_memory is None else memory.parse_size(args.max_memory))
        # The program's signals only: a caller's (tests, another thread) are its own.
        with _stopping_on_signals() if program else contextlib.nullcontext():
            status: int = args.run(args)
        return status
    except ParseError as error:
        print(error, file=sys.stderr)  # FILE:LINE:COL: message, as compilers print it
        return EXIT_BAD_INPUT
    except SearchLimitError as error:
        print(f"slidelab: {error}", file=sys.stderr)
        return EXIT_LIMITED
    except SlidelabError as error:
        print(f"slidelab: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as stop:
        return _stopped(stop)
    finally:
        memory.choose_limit(None)


def _parse(parser: argparse.ArgumentParser, arguments: list[str]) -> argparse.Namespace:
    """`parser`'s reading of `arguments`; after the help, the version or a usage error it
    printed, stdout is flushed before argparse exits, so that a failure to write is reported
    as a command's is."""
    try:
        return parser.parse_args(arguments)
    except SystemExit:
        _flush(sys.stdout)
        raise


def _output_failed(error: OSError) -> int:
    """Say that the output could not be written, on stderr if it can be, and leave neither
    stdout nor stderr holding what the final flush at exit would fail to write again (it
    would print a traceback and make the exit status 120); returns the exit status."""
    with contextlib.suppress(OSError):  # stderr may be the stream that failed
        print(f"slidelab: cannot write the output: {error.strerror or error}", file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        try:
            _flush(stream)  # what a stream that did not fail holds still reaches it
        except OSError:
            _discard(stream)
    return EXIT_OUTPUT_FAILED


def _flush(stream: TextIO | None) -> None:
    """Flush `stream`; there is none when the program started with it closed."""
    if stream is not None:
        stream.flush()


def _discard(stream: TextIO | None) -> None:
    """Point `stream`'s file descriptor at /dev/null, so that what it holds cannot fail to be
    written again."""
    if stream is not None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)

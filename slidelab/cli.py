"""The `slidelab` command: no arguments opens the desktop app; subcommands run solvers.

Exit status: 0 solved or analysed, 1 no solution exists, 2 bad input, 3 a run
stopped at a limit before it could decide.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from slidelab import __version__
from slidelab.antislide import command as antislide_command
from slidelab.dissection import command as dissect_command
from slidelab.errors import ParseError, SlidelabError
from slidelab.exactcover import command as dlx_command
from slidelab.polycube import command as polycube_command
from slidelab.sliding import command as slide_command

EXIT_BAD_INPUT = 2
SUBCOMMANDS = ("slide", "dlx", "antislide", "polycube", "dissect")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="slidelab",
        description="Explore sliding-block, antislide, polycube and dissection puzzles.",
    )
    parser.add_argument("--version", action="version", version=f"slidelab {__version__}")
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND")
    slide_command.register(subcommands)
    dlx_command.register(subcommands)
    antislide_command.register(subcommands)
    polycube_command.register(subcommands)
    dissect_command.register(subcommands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    No arguments opens the desktop app; `slidelab FILE` opens FILE in it.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not arguments or (
        len(arguments) == 1 and not arguments[0].startswith("-") and arguments[0] not in SUBCOMMANDS
    ):
        from slidelab.gui.app import run_app  # Qt loads only for the desktop app

        return run_app(arguments[0] if arguments else None)
    args = parser.parse_args(arguments)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except ParseError as error:
        print(error, file=sys.stderr)  # FILE:LINE:COL: message, as compilers print it
        return EXIT_BAD_INPUT
    except SlidelabError as error:
        print(f"slidelab: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("slidelab: stopped", file=sys.stderr)
        return 130

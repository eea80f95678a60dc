"""`slidelab dissect`: cut a square (or another shape) into d pieces that rebuild a shape."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Generator
from typing import Any, TypeVar

from slidelab.dissection.distinct import DistinctRun, only_distinct
from slidelab.dissection.model import Dissection, Solution, square_source
from slidelab.dissection.search import DissectionResult, SolutionsFound, smallest, solve
from slidelab.dissection.shape import parse_region, parse_shape
from slidelab.dissection.split import SplitDissection, solve_split
from slidelab.dissection.text import Layout, batch_bytes, colour_rows
from slidelab.errors import SlidelabError
from slidelab.family import SubParsers
from slidelab.fileio import STDIN, read_input, refuse_writing_inputs
from slidelab.parallel.options import add_parallel_arguments, jobs_of, splits, wants_split
from slidelab.progress import drive_in_terminal
from slidelab.runs import Progress
from slidelab.validation import whole_argument
from slidelab.wording import numbered

EXIT_FOUND, EXIT_NONE = 0, 1

PRINT_ROWS = 1 << 16
"""Solutions of a split search printed at a time."""

Outcome = DissectionResult | SplitDissection
"""What a dissection command's search returns: one run's result, or a split run's."""
ResultT = TypeVar("ResultT")
Search = Generator[Progress | SolutionsFound, None, Outcome]


def register(subcommands: SubParsers) -> None:
    """Add the `dissect` subcommand to the `slidelab` command line."""
    parser = subcommands.add_parser(
        "dissect",
        help="cut a square into d pieces that rebuild a shape (Knuth's BACK-DISSECT)",
        description="Cut the n x n square into D pieces that, turned and shifted, fill SHAPE "
        "(a .dots file: rows of '.' and '*' with n^2 '*'). Each solution is printed as two "
        "colourings side by side, the square's and the shape's, after a header naming each "
        "colour's map as shift~orientation. Pieces need not be connected, and a colour may "
        "be left unused, as in the seed.",
    )
    parser.add_argument(
        "pieces", type=whole_argument, metavar="D", help="the number of pieces (2-16)"
    )
    parser.add_argument("shape", metavar="SHAPE", help="the target shape (.dots; - for stdin)")
    parser.add_argument("--count", action="store_true", help="only count the solutions")
    parser.add_argument("--connected", action="store_true", help="every piece is 4-connected")
    parser.add_argument(
        "--flips", action="store_true", help="pieces may be turned over (mirrored) too"
    )
    parser.add_argument(
        "--from",
        dest="source",
        metavar="FILE",
        help="cut this shape (.dots, as many cells as SHAPE; - for stdin) instead of the square",
    )
    parser.add_argument(
        "--min-pieces",
        action="store_true",
        help="raise the number of pieces from 2 until there are solutions (D at most); "
        "searches in one process",
    )
    parser.add_argument(
        "--distinct",
        action="store_true",
        help="keep one dissection of each class up to the target's symmetries (its turns, and "
        "mirror images with --flips): the first found; with --count, count the classes",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_parallel_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Carry out one `slidelab dissect` command; returns the exit status.

    Counts are searched in subproblems on all cores unless --min-pieces is given;
    listings only when --jobs, --scheduler or --journal asks for it (see `_split`).
    """
    refuse_writing_inputs({"--journal": args.journal}, [args.shape, args.source])
    if args.min_pieces and wants_split(args):
        raise SlidelabError(
            "--min-pieces tries 2, 3, ... pieces in turn in one process and cannot be combined "
            "with --jobs, --scheduler or --journal: search each number of pieces with them instead"
        )
    dissection = _dissection(args)
    listing = not args.count
    searching = listing or args.distinct
    search: Search
    if args.min_pieces:
        search = smallest(dissection, listing=searching, most=args.pieces)
    elif splits(args, listing):
        search = _in_subproblems(dissection, searching, args)
    else:
        search = solve(dissection, listing=listing)
    classes: DistinctRun[Outcome] | None = None
    outcome: Outcome
    try:
        if args.distinct:
            merging: Generator[Progress | SolutionsFound, None, DistinctRun[Outcome]]
            merging = only_distinct(search, dissection)
            counted, found = _drive(merging, dissection, args.json, listing)
            outcome, classes = counted.result, counted
        else:
            outcome, found = _drive(search, dissection, args.json, listing)
    except BrokenPipeError:
        # The reader has gone (`| head`): stop quietly, as the seed's program does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FOUND
    if isinstance(outcome, SplitDissection):
        result = outcome.result
        split = {"subproblems": outcome.subproblems, "resumed": outcome.resumed}
    else:
        result, split = outcome, {}
    distinct = {} if classes is None else {"distinct": classes.distinct}
    if args.json:
        print(
            json.dumps(_summary(result) | distinct | ({"found": found} if listing else {}) | split)
        )
    else:
        line = _summary_line(result, args.min_pieces)
        if classes is not None:
            line += (
                f"; {classes.distinct} distinct up to the target's {classes.symmetries} symmetries"
            )
        print(line)
    return EXIT_FOUND if result.count else EXIT_NONE


def _dissection(args: argparse.Namespace) -> Dissection:
    """The problem the arguments describe, its files read and checked."""
    source = None
    if args.source is not None:
        if args.source == STDIN and args.shape == STDIN:
            raise SlidelabError("SHAPE and --from cannot both be read from standard input ('-')")
        origin, text = read_input(args.source)
        source = parse_region(text, origin)
    name, text = read_input(args.shape)
    target = parse_shape(text, name, None if source is None else len(source))
    pieces = 2 if args.min_pieces else args.pieces
    return Dissection(source or square_source(target), target, pieces, args.connected, args.flips)


def _in_subproblems(
    dissection: Dissection, listing: bool, args: argparse.Namespace
) -> Generator[Progress | SolutionsFound, None, SplitDissection]:
    """`solve_split` as `solve` runs: progress, then the solutions in batches."""
    split = yield from solve_split(
        dissection, listing=listing, jobs=jobs_of(args), scheduler=args.scheduler,
        journal=args.journal,
    )  # fmt: skip
    found = split.found
    for start in range(0, len(found), PRINT_ROWS):
        end = start + PRINT_ROWS
        yield SolutionsFound(
            found.maps[start:end], found.source_colours[start:end], found.target_colours[start:end]
        )
    return split


def _drive(
    search: Generator[Progress | SolutionsFound, None, ResultT],
    dissection: Dissection,
    as_json: bool,
    listing: bool,
) -> tuple[ResultT, list[dict[str, Any]]]:
    """Run the search, printing solutions as they come (or collecting them for JSON) when
    `listing`."""
    layout = Layout.of(dissection.source, dissection.target)
    found: list[dict[str, Any]] = []
    number = 1

    def show(batch: SolutionsFound) -> None:
        nonlocal number
        if not listing:
            return
        if as_json:
            found.extend(_as_json(s, dissection) for s in batch.solutions())
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(batch_bytes(number, batch, layout).data)
        number += len(batch)

    result = drive_in_terminal(search, show)
    sys.stdout.flush()
    return result, found


def _as_json(solution: Solution, dissection: Dissection) -> dict[str, Any]:
    return {
        "maps": [list(m) for m in solution.maps],
        "source": colour_rows(dissection.source, solution.source_colours),
        "target": colour_rows(dissection.target, solution.target_colours),
    }


def _summary(result: DissectionResult) -> dict[str, Any]:
    dissection = result.dissection
    return {
        "pieces": dissection.pieces,
        "cells": len(dissection.target),
        "shifts": result.shifts,
        "solutions": result.count,
        "connected": dissection.connected,
        "flips": dissection.flips,
        "covers": result.covers,
        "tuples": result.tuples,
        "searches": result.searches,
        "seconds": round(result.seconds, 6),
    }


def _summary_line(result: DissectionResult, min_pieces: bool) -> str:
    d = result.dissection.pieces
    shifts = f"{result.shifts} legal shifts"
    if min_pieces and not result.count:
        return f"no solutions with 2 to {d} pieces ({shifts})"
    fewest = f"{d} pieces are the fewest: " if min_pieces else ""
    return f"{fewest}{numbered(result.count, 'solution')} with {d} pieces ({shifts})"

"""`slidelab polycube`: pack polycubes into a box (Knuth's spec format): count, list, DLX."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from slidelab.errors import ParseError, SlidelabError
from slidelab.exactcover.split import search_split
from slidelab.family import SubParsers
from slidelab.fileio import read_input
from slidelab.parallel.options import add_parallel_arguments, jobs_of, wants_split
from slidelab.polycube.packing import (
    Packing,
    PieceFitsNowhereError,
    format_dlx,
    packing_steps,
    solution_numbers,
)
from slidelab.polycube.spec import cell_name, parse_spec
from slidelab.polycube.symmetry import DistinctCount, search_distinct
from slidelab.progress import drive_in_terminal
from slidelab.wording import numbered

EXIT_FOUND, EXIT_NONE = 0, 1


def register(subcommands: SubParsers) -> None:
    """Add the `polycube` subcommand to the `slidelab` command line."""
    parser = subcommands.add_parser(
        "polycube",
        help="pack polycubes into a box (Knuth's POLYCUBE-DLX spec format)",
        description="Pack the pieces of a polycube spec (usually FILE.pcube: a box line, then "
        "one line per piece, cells xyz in radix-62 digits) into its box. Solutions are printed "
        "as one line per piece (its name and cells), a blank line after each.",
    )
    parser.add_argument(
        "spec", nargs="?", default="-", help="spec file or BurrTools .xmpuzzle (default: stdin)"
    )
    parser.add_argument(
        "--dlx", action="store_true", help="print the exact-cover problem in DLX format"
    )
    parser.add_argument("--count", action="store_true", help="print only how many solutions")
    parser.add_argument(
        "--distinct",
        action="store_true",
        help="also count solutions up to the box's rotations (and reflections, when the "
        "pieces are closed under mirroring)",
    )
    parser.add_argument(
        "--mirror", action="store_true", help="pieces may be turned into their mirror images"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_parallel_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Carry out one `slidelab polycube` command on a spec; returns the exit status."""
    source, text = read_input(args.spec)
    spec = parse_spec(text, source)
    packing = drive_in_terminal(packing_steps(spec, with_mirror=args.mirror))
    if args.dlx:  # as the seed writes it, even for a piece that fits nowhere
        sys.stdout.write(format_dlx(packing, echo=text))
        return EXIT_FOUND
    try:
        packing.require_homes()
    except PieceFitsNowhereError as error:
        raise ParseError(source, max(error.piece.line, 1), 1, str(error)) from None
    summary = _summary(packing)
    if args.distinct and wants_split(args):
        raise SlidelabError(
            "--distinct runs its own searches one after another; it cannot be combined with "
            "--jobs, --scheduler or --journal"
        )
    if args.distinct:
        counted = drive_in_terminal(search_distinct(packing))
        summary |= _distinct_fields(counted)
        count = counted.solutions
        if not args.json:
            print(
                f"{numbered(counted.solutions, 'solution')}, {counted.distinct:,} distinct "
                f"up to the box's {numbered(counted.group_order, 'symmetry', 'symmetries')}"
                f" ({'rotations and reflections' if counted.reflections else 'rotations'})"
            )
    elif args.count or wants_split(args):
        outcome = drive_in_terminal(
            search_split(
                packing.problem,
                listing=not args.count,
                jobs=jobs_of(args),
                scheduler=args.scheduler,
                journal=args.journal,
                what=source,
            )
        )
        count = outcome.count
        summary |= {"subproblems": outcome.subproblems, "resumed": outcome.resumed}
        if args.count:
            if not args.json:
                print(count)
        else:
            _print_found(args, summary, [_decoded(packing, tuple(s)) for s in outcome.solutions])
    else:
        found = [_decoded(packing, s) for s in solution_numbers(packing.problem)]
        count = len(found)
        _print_found(args, summary, found)
    summary["solutions"] = count
    if args.json:
        print(json.dumps(summary))
    return EXIT_NONE if count == 0 else EXIT_FOUND


def _print_found(
    args: argparse.Namespace, summary: dict[str, Any], found: list[list[dict[str, Any]]]
) -> None:
    """Solutions as one line per piece, a blank line after each; or into the JSON summary."""
    if args.json:
        summary["found"] = found
        return
    for solution in found:
        print("\n".join(" ".join([p["piece"], *p["cells"]]) for p in solution) + "\n")


def _summary(packing: Packing) -> dict[str, Any]:
    return {
        "cells": len(packing.spec.box),
        "pieces": sum(p.multiplicity for p in packing.spec.pieces),
        "options": len(packing.placements),
        "mirror": packing.mirror,
    }


def _distinct_fields(counted: DistinctCount) -> dict[str, Any]:
    return {
        "distinct": counted.distinct,
        "symmetries": counted.group_order,
        "reflections": counted.reflections,
        "restricted_piece": counted.piece,
        "seconds": round(counted.seconds, 6),
    }


def _decoded(packing: Packing, solution: tuple[int, ...]) -> list[dict[str, Any]]:
    return [
        {"piece": p.piece, "cells": [cell_name(c) for c in p.cells]}
        for p in packing.decode(solution)
    ]

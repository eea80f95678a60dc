"""`slidelab dlx`: solve an exact-cover problem given in Knuth's DLX format."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from slidelab.errors import SlidelabError
from slidelab.exactcover.dlxformat import format_option, parse_problem
from slidelab.exactcover.problem import Problem
from slidelab.exactcover.search import ExactCoverResult, SolutionsFound, solve
from slidelab.exactcover.split import search_split
from slidelab.exactcover.state import ENGINES, load_state
from slidelab.family import SubParsers
from slidelab.fileio import read_input, refuse_writing_inputs
from slidelab.integers import INT64_MAX
from slidelab.parallel.options import add_parallel_arguments, jobs_of, splits
from slidelab.progress import drive_in_terminal
from slidelab.validation import check_seconds, whole_argument
from slidelab.wording import numbered

EXIT_FOUND, EXIT_NONE = 0, 1


def register(subcommands: SubParsers) -> None:
    parser = subcommands.add_parser(
        "dlx",
        help="exact cover (Knuth's DLX formats, with colours and multiplicities)",
        description="Find the solutions of an exact-cover problem written in Knuth's DLX "
        "format (DLX1-DLX3: secondary items, item:colour, u:v|item bounds). Solutions are "
        "printed as their option lines, one blank line after each.",
    )
    parser.add_argument("file", nargs="?", default="-", help="problem file (default: stdin)")
    parser.add_argument("--count", action="store_true", help="print only how many solutions")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--limit", type=whole_argument, metavar="N", help="stop after N solutions")
    parser.add_argument(
        "--seed", type=whole_argument, metavar="S", help="explore in a random order seeded by S"
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        help="dancing links, bitsets or dancing cells (default: the faster one)",
    )
    parser.add_argument(
        "--preprocess",
        action=argparse.BooleanOptionalAction,
        help="first remove the options no solution can contain (default: with links only)",
    )
    parser.add_argument(
        "--save", metavar="STATE", help="save the search state to STATE now and then"
    )
    parser.add_argument(
        "--save-every",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how often --save writes (default 60)",
    )
    parser.add_argument(
        "--resume", metavar="STATE", help="continue the search saved in STATE (and save there)"
    )
    add_parallel_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    outputs = {"--save": args.save, "--resume": args.resume, "--journal": args.journal}
    refuse_writing_inputs(outputs, [args.file])
    source, text = read_input(args.file)
    problem = parse_problem(text, source)
    if args.limit is not None and args.limit < 1:
        raise SlidelabError("--limit must be at least 1")
    if args.limit is not None and args.limit > INT64_MAX:
        raise SlidelabError(f"--limit must be at most {INT64_MAX}, the most a count holds")
    if args.seed is not None and args.seed < 0:
        raise SlidelabError(f"--seed must be 0 or more, not {args.seed}")
    check_seconds("--save-every", args.save_every)
    _warn_unreachable(problem)
    sequential_only = [
        name
        for name, value in (
            ("--limit", args.limit), ("--seed", args.seed), ("--engine", args.engine),
            ("--save", args.save), ("--resume", args.resume),
        )
        if value is not None
    ]  # fmt: skip
    if splits(args, listing=True) and sequential_only:
        raise SlidelabError(
            f"{sequential_only[0]} needs one sequential search; it cannot be combined with "
            "--jobs, --scheduler or --journal"
        )
    if splits(args, listing=not args.count or bool(sequential_only)):
        return _run_split(args, problem, source)
    state = load_state(args.resume, problem) if args.resume else None
    # solutions the runs before this one handed out
    before = 0 if state is None else state.count - len(state.pending)
    search = solve(
        problem,
        limit=args.limit,
        count_only=args.count,
        random_seed=args.seed,
        preprocess=args.preprocess,
        engine=args.engine,
        state=state,
        checkpoint=args.save or args.resume,
        checkpoint_seconds=args.save_every,
    )
    listed: list[list[str]] = []

    def show(batch: SolutionsFound) -> None:
        # A batch is shown in one step, so that Ctrl-C leaves it whole or not shown at all:
        # a search stopped while showing one saves it as not handed out (`solve`).
        found = [[format_option(problem.options[k]) for k in s] for s in batch.solutions]
        if args.json:
            listed.extend(found)
        else:
            sys.stdout.write("".join("\n".join(lines) + "\n\n" for lines in found))

    try:
        result = drive_in_terminal(search, show)
    except KeyboardInterrupt:
        if args.json and not args.count:  # what was found, for the run that resumes to go on
            stopped = {"solutions": before + len(listed), "complete": False, "stopped": True}
            print(json.dumps(stopped | _resumed(args, before) | {"found": listed}))
        raise
    if args.json:
        summary = _as_json(problem, result, None if args.count else listed)
        print(json.dumps(summary | _resumed(args, before)))
    elif args.count:
        print(result.count)
    if not args.json:
        print(_summary(result, before), file=sys.stderr)
    return EXIT_NONE if result.complete and result.count == 0 else EXIT_FOUND


def _resumed(args: argparse.Namespace, before: int) -> dict[str, int]:
    """The JSON field of a resumed run: how many solutions the runs before it handed out."""
    return {"solutions_before": before} if args.resume else {}


def _run_split(args: argparse.Namespace, problem: Problem, source: str) -> int:
    """Count or list in subproblems, on local processes or a Dask cluster (see --jobs)."""
    jobs = jobs_of(args)
    search = search_split(
        problem,
        listing=not args.count,
        jobs=jobs,
        scheduler=args.scheduler,
        journal=args.journal,
        what=source,
    )
    outcome = drive_in_terminal(search)
    listed = [[format_option(problem.options[k]) for k in s] for s in outcome.solutions]
    if args.scheduler:
        where = f"the cluster at {args.scheduler}"
    else:
        where = "this process" if outcome.subproblems == 1 else f"{jobs} processes"
    if args.json:
        summary = {
            "solutions": outcome.count, "nodes": outcome.nodes, **_sizes(problem),
            "seconds": round(outcome.seconds, 6), "complete": True,
            "subproblems": outcome.subproblems, "resumed": outcome.resumed, "where": where,
        }  # fmt: skip
        if not args.count:
            summary["found"] = listed
        print(json.dumps(summary))
    else:
        if args.count:
            print(outcome.count)
        for lines in listed:
            print("\n".join(lines) + "\n")
        resumed = f"; {outcome.resumed} from the journal" if outcome.resumed else ""
        print(
            f"Altogether {numbered(outcome.count, 'solution')}, {numbered(outcome.nodes, 'node')}, "
            f"in {numbered(outcome.subproblems, 'subproblem')} on {where}{resumed}.",
            file=sys.stderr,
        )
    return EXIT_NONE if outcome.count == 0 else EXIT_FOUND


def _warn_unreachable(problem: Problem) -> None:
    """Say, as Knuth's programs do, that options without a primary item play no part."""
    primary = set(problem.primary)
    idle = sum(1 for option in problem.options if not any(i in primary for i, _ in option))
    if idle:
        print(
            f"slidelab: {idle} option{'s' if idle != 1 else ''} without a primary item "
            "can never be chosen",
            file=sys.stderr,
        )


def _as_json(
    problem: Problem, result: ExactCoverResult, listed: list[list[str]] | None
) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "solutions": result.count,
        "nodes": result.nodes,
        **_sizes(problem),
        "seconds": round(result.seconds, 6),
        "complete": result.complete,
        "engine": result.engine,
        "options_removed": result.options_removed,
    }
    if listed is not None:
        summary["found"] = listed
    return summary


def _sizes(problem: Problem) -> dict[str, int]:
    return {
        "items": len(problem.items),
        "primary": len(problem.primary),
        "secondary": len(problem.secondary),
        "options": len(problem.options),
    }


def _summary(result: ExactCoverResult, before: int) -> str:
    stopped = "" if result.complete else " (stopped at the limit)"
    resumed = f" ({before:,} of them before this run resumed the search)" if before else ""
    return (
        f"Altogether {numbered(result.count, 'solution')}{stopped}{resumed}, "
        f"{numbered(result.nodes, 'node')}, "
        f"{result.seconds:.3f} s ({result.engine} engine, "
        f"{result.options_removed:,} useless options removed)."
    )

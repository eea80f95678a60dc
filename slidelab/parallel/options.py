"""The command-line options every splittable search shares: --jobs, --scheduler, --journal."""

from __future__ import annotations

import argparse
import os

from slidelab.errors import SlidelabError


def default_jobs() -> int:
    """All the cores this process may use: the default number of processes or threads."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("big searches")
    group.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help=f"search in subproblems on N local processes (default: all {default_jobs()} cores)",
    )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="search in subproblems on the Dask cluster whose scheduler is at ADDRESS "
        "(e.g. tcp://10.0.0.5:8786)",
    )
    group.add_argument(
        "--journal",
        metavar="FILE",
        help="record every finished subproblem in FILE; rerunning with it skips them",
    )


def jobs_of(args: argparse.Namespace) -> int:
    """How many local processes to use: --jobs, or all cores."""
    if args.jobs is not None and args.jobs < 1:
        raise SlidelabError("--jobs must be at least 1")
    return args.jobs or default_jobs()


def wants_split(args: argparse.Namespace) -> bool:
    """Whether one of the options asked for a search in subproblems."""
    return args.jobs is not None or args.scheduler is not None or args.journal is not None


def splits(args: argparse.Namespace, listing: bool) -> bool:
    """Whether to search in subproblems: always on a cluster or with a journal; on local
    processes when there are more than one, for a listing only if --jobs asks for them.  On
    one process the whole search runs at once: its subproblems one after another would only
    add the probing that splits it."""
    if args.scheduler is not None or args.journal is not None:
        return True
    return jobs_of(args) > 1 and (args.jobs is not None or not listing)

"""The command-line options every splittable search shares: --jobs, --scheduler, --journal.

A --scheduler address is checked as the command line is read (`scheduler_argument`), before
any work: Dask itself finds a malformed one only when it connects.
"""

from __future__ import annotations

import argparse
import os

from slidelab.errors import SlidelabError
from slidelab.validation import whole_argument


def default_jobs() -> int:
    """All the cores this process may use: the default number of processes or threads."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


JOBS_PER_CORE = 4
"""Most local processes or threads a run may ask for, per core: more only share the cores and
multiply what each holds (a process's own 40 MB or more, a sliding thread's buffers)."""


def checked_jobs(jobs: int) -> int:
    """`jobs`, refused (`SlidelabError`) below 1 or above `JOBS_PER_CORE` per core: asked for
    99,999 threads, a sliding search spent 9.5 s and 2.9 GB making their buffers."""
    if jobs < 1:
        raise SlidelabError("--jobs must be at least 1")
    cores = default_jobs()
    if jobs > JOBS_PER_CORE * cores:
        raise SlidelabError(
            f"--jobs {jobs} is more than {JOBS_PER_CORE * cores}, {JOBS_PER_CORE} for each of "
            f"the {cores} cores here"
        )
    return jobs


SCHEDULER_EXAMPLE = "tcp://10.0.0.5:8786"


def checked_scheduler(address: str) -> str:
    """`address` if Dask can connect to a scheduler there: [SCHEME://]HOST:PORT, SCHEME one of
    its transports' (tcp by default).  Otherwise `SlidelabError`, as without Dask's
    distributed package: Dask finds a malformed address only as it connects, after the search
    has begun, and then raises ValueError without closing its client, whose clean-up waits
    20 s at exit and prints a traceback."""
    try:
        from distributed.comm import get_address_host_port  # here: it takes 0.3 s to load
    except ImportError:
        raise SlidelabError(
            "Dask's distributed package is not installed: pip install 'slidelab[cluster]'"
        ) from None
    try:
        host, port = get_address_host_port(address)
    except ValueError as error:  # Dask's reason: no port, an unknown scheme, ...
        reason = str(error)
    else:
        if host and 0 < port < 65536:
            return address
        reason = f"port {port} is not from 1 to 65535" if host else "no host"
    raise SlidelabError(
        f"{address!r} is not a Dask scheduler's address (such as {SCHEDULER_EXAMPLE}): {reason}"
    )


def scheduler_argument(address: str) -> str:
    """argparse's type of --scheduler: `checked_scheduler`, whose refusal argparse reports as
    the option's (exit status 2)."""
    try:
        return checked_scheduler(address)
    except SlidelabError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("big searches")
    group.add_argument(
        "--jobs",
        type=whole_argument,
        metavar="N",
        help=f"search in subproblems on N local processes, at most {JOBS_PER_CORE} per core "
        f"(default: all {default_jobs()} cores)",
    )
    group.add_argument(
        "--scheduler",
        type=scheduler_argument,
        metavar="ADDRESS",
        help="search in subproblems on the Dask cluster whose scheduler is at ADDRESS "
        f"(e.g. {SCHEDULER_EXAMPLE})",
    )
    group.add_argument(
        "--journal",
        type=journal_argument,
        metavar="FILE",
        help="record every finished subproblem in FILE; rerunning with it skips them",
    )


def journal_argument(text: str) -> str:
    """argparse's type for --journal: a file's name (an empty one was taken for no journal,
    so a run the user meant to record went unrecorded)."""
    if not text:
        raise argparse.ArgumentTypeError("needs the name of a file")
    return text


def jobs_of(args: argparse.Namespace) -> int:
    """How many local processes to use: --jobs, or all cores."""
    return default_jobs() if args.jobs is None else checked_jobs(args.jobs)


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

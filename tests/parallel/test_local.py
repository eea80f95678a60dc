"""Split runs on this process and forked or spawned workers (`slidelab.parallel.local`)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

import pytest

from slidelab import memory
from slidelab.errors import SlidelabError
from slidelab.parallel import local, run
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress, drive


class Unpicklable(Exception):
    """An error that pickles but does not unpickle: its class needs two arguments, its
    `args` hold one."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what} {why}")


@dataclass(frozen=True)
class Branch:
    key: tuple[int, ...]


@dataclass(frozen=True)
class Tree:
    """A search tree of `width` children a level, `depth` levels deep, whose leaves count their
    key's sum; every branch is searched in `pause` seconds, in the process named by its pid,
    and what each process searched is written to a file of `log` when one is given.  Branches
    shorter than `big` levels are big when searched with a budget (the root, by default), and
    every search in a worker fails when `failing`.  Each line of the log names the branch and
    the memory budget `--max-memory` set in the process."""

    width: int = 4
    depth: int = 3
    big: int = 1
    pause: float = 0.0
    log: str | None = None
    failing: bool | str = False
    home: int = os.getpid()

    def root(self) -> Branch:
        return Branch(())

    def children(self, branch: Branch) -> list[Branch]:
        if len(branch.key) == self.depth:
            return []
        return [Branch((*branch.key, n)) for n in range(self.width)]

    def explore(
        self, branch: Branch, budget: int | None, growth: float | None = None
    ) -> Generator[Progress, None, TaskResult | None]:
        yield Progress(phase="tree", explored=0, elapsed=0.0)
        time.sleep(self.pause)
        if self.log is not None:
            with open(Path(self.log) / str(os.getpid()), "a") as log:
                log.write(f"{branch.key} {memory.chosen_limit()}\n")
        if self.failing and os.getpid() != self.home:
            if self.failing == "unpicklable":
                raise Unpicklable(f"branch {branch.key}", "cannot be searched")
            raise SlidelabError(f"branch {branch.key} cannot be searched")
        if budget is not None and len(branch.key) < self.big:
            return None
        leaves = [(*branch.key, *rest) for rest in _paths(self.width, self.depth - len(branch.key))]
        return TaskResult(branch.key, sum(map(sum, leaves)), len(leaves))

    def fingerprint(self) -> str:
        return "tree"


def _paths(width: int, depth: int) -> list[tuple[int, ...]]:
    if depth == 0:
        return [()]
    return [(n, *rest) for n in range(width) for rest in _paths(width, depth - 1)]


def whole_count(tree: Tree) -> int:
    return sum(map(sum, _paths(tree.width, tree.depth)))


@pytest.fixture(autouse=True)
def small_runs(monkeypatch):
    monkeypatch.setattr(run, "ROOT_NODES", 1)
    monkeypatch.setattr(run, "TARGET_BRANCHES", 4)
    monkeypatch.setattr(run.threading, "active_count", lambda: 1)  # fork, whatever else runs


@pytest.fixture(params=["fork", "spawn"])
def start(request, monkeypatch) -> str:
    """Workers forked, or spawned as beside other threads."""
    threads = 1 if request.param == "fork" else 2
    monkeypatch.setattr(run.threading, "active_count", lambda: threads)
    assert run._start_method() == request.param
    return str(request.param)


def progress(running: int = 0) -> Progress:
    return Progress(phase="test", explored=running, elapsed=0.0)


def searched(log: Path) -> dict[int, list[str]]:
    return {int(f.name): f.read_text().splitlines() for f in log.iterdir()}


@pytest.mark.parametrize("jobs", [2, 3])
def test_every_process_searches_and_the_results_are_the_whole_searchs(tmp_path, jobs, start):
    tree = Tree(width=40, depth=2, pause=0.02, log=str(tmp_path))
    results = drive(run.run_split(tree, jobs=jobs))
    assert sum(r.count for r in results) == whole_count(tree)
    assert [r.key for r in results] == sorted(r.key for r in results)
    by_process = searched(tmp_path)
    assert os.getpid() in by_process and len(by_process) == jobs


def test_workers_keep_the_memory_budget_of_the_command(tmp_path, start):
    memory.choose_limit(123_456_789)
    try:
        drive(run.run_split(Tree(width=40, depth=2, pause=0.02, log=str(tmp_path)), jobs=2))
    finally:
        memory.choose_limit(None)
    lines = [line for searches in searched(tmp_path).values() for line in searches]
    assert len(searched(tmp_path)) == 2 and all(line.endswith(" 123456789") for line in lines)


def test_the_children_of_a_big_branch_are_searched_before_branches_not_yet_taken():
    """One process alone takes the records in queue order: the big branches of the first
    level come back as their children, before the first split's next branches."""
    tree = Tree(width=3, depth=2, big=2)
    order: list[tuple[int, ...]] = []

    def outcome(task: run._Task, result: TaskResult | None) -> list[run._Task]:
        order.append(task.branch.key)
        if result is not None:
            return []
        return [run._Task(kid, None) for kid in tree.children(task.branch)]

    tasks = [run._Task(kid, 1) for kid in tree.children(tree.root())]
    drive(local.run_local(1, tree, tasks, outcome, progress))
    assert order == [
        (0,),
        (0, 0),
        (0, 1),
        (0, 2),
        (1,),
        (1, 0),
        (1, 1),
        (1, 2),
        (2,),
        (2, 0),
        (2, 1),
        (2, 2),
    ]


def test_a_failure_in_a_worker_is_raised_here(start):
    tree = Tree(width=40, depth=2, pause=0.02, failing=True)
    with pytest.raises(SlidelabError, match=r"^branch \([0-9, ]+\) cannot be searched$"):
        drive(run.run_split(tree, jobs=2))


def test_a_failure_that_does_not_pickle_comes_back_as_its_text(start):
    tree = Tree(width=40, depth=2, pause=0.02, failing="unpicklable")
    with pytest.raises(
        RuntimeError, match=r"^Unpicklable: branch \([0-9, ]+\) cannot be searched$"
    ):
        drive(run.run_split(tree, jobs=2))


def test_a_worker_killed_half_way_is_reported_and_the_others_are_stopped(tmp_path, start):
    tree = Tree(width=30, depth=2, pause=0.05, log=str(tmp_path))
    search = run.run_split(tree, jobs=3)
    while len(searched(tmp_path)) < 3:
        next(search)
    workers = [pid for pid in searched(tmp_path) if pid != os.getpid()]
    os.kill(workers[0], signal.SIGKILL)
    with pytest.raises(
        local.WorkerLost,
        match=r"^a worker process ended before its subproblem did \(killed by signal 9\)$",
    ):
        drive(search)
    with pytest.raises(ChildProcessError):
        os.waitpid(workers[1], os.WNOHANG)  # stopped and reaped


def test_closing_a_run_stops_its_workers(tmp_path, start):
    tree = Tree(width=30, depth=2, pause=0.05, log=str(tmp_path))
    search = run.run_split(tree, jobs=2)
    while len(searched(tmp_path)) < 2:
        next(search)
    search.close()
    for pid in searched(tmp_path):
        if pid != os.getpid():
            with pytest.raises(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)


def test_workers_end_when_the_first_process_dies(tmp_path):
    """Killed alone, the first process leaves no worker searching on: each ends its
    subproblem and takes no other, since the stop pipe has closed."""
    program = (
        "from slidelab.runs import drive; from slidelab.parallel import run; "
        "from tests.parallel.test_local import Tree; run.ROOT_NODES = 1; run.TARGET_BRANCHES = 4; "
        f"drive(run.run_split(Tree(width=50, depth=2, pause=0.05, log={str(tmp_path)!r}), jobs=3))"
    )
    first = subprocess.Popen([sys.executable, "-c", program])
    deadline = time.monotonic() + 60
    while len(searched(tmp_path)) < 3:
        assert time.monotonic() < deadline and first.poll() is None
        time.sleep(0.01)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    at_death = searched(tmp_path)
    workers = [pid for pid in at_death if pid != first.pid]
    _ended_within(workers, seconds=10)
    after = searched(tmp_path)
    assert all(len(after[pid]) <= len(at_death[pid]) + 1 for pid in workers)


@dataclass(frozen=True)
class Stuck(Tree):
    """A `Tree` whose root is big at once and whose other branches never end: each names the
    process searching it (a file of `log`), then sleeps in one long call, as a kernel does."""

    def explore(
        self, branch: Branch, budget: int | None, growth: float | None = None
    ) -> Generator[Progress, None, TaskResult | None]:
        yield Progress(phase="stuck", explored=0, elapsed=0.0)
        if branch.key:
            (Path(str(self.log)) / str(os.getpid())).write_text(f"{branch.key}\n")
            time.sleep(600)
        return None


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_stuck_in_a_subproblem_end_when_the_first_process_is_killed(tmp_path, method):
    """SIGKILL leaves the first process no last word: its workers, forked, or spawned beside
    another thread, are ended by the kernel in the middle of their subproblems."""
    beside = "threading.Thread(target=time.sleep, args=(600,), daemon=True).start(); "
    program = (
        "import threading, time; from slidelab.runs import drive; "
        "from slidelab.parallel import run; from tests.parallel.test_local import Stuck; "
        f"run.ROOT_NODES = 1; run.TARGET_BRANCHES = 4; {beside if method == 'spawn' else ''}"
        f"assert run._start_method() == {method!r}; "
        f"drive(run.run_split(Stuck(width=8, depth=2, log={str(tmp_path)!r}), jobs=3))"
    )
    first = subprocess.Popen([sys.executable, "-c", program], start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(searched(tmp_path)) < 3:  # each of the three processes in a subproblem
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.01)
        workers = [pid for pid in searched(tmp_path) if pid != first.pid]
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        _ended_within(workers, seconds=5)
    finally:
        _kill_group(first.pid)


def _ended_within(pids: list[int], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while any(_alive(pid) for pid in pids):
        assert time.monotonic() < deadline, "a worker outlived its first process"
        time.sleep(0.01)


def _kill_group(leader: int) -> None:
    """Kill whatever a test's run left in its process group."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(leader, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Whether `pid` runs (an orphan is reaped by init, so it disappears when it ends)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_ctrl_c_stops_a_split_run_and_every_worker(tmp_path):
    """Ctrl-C reaches the whole process group: the workers ignore it, and the first process
    says it stopped and kills them."""
    run_ = _split_run(["5", "5", "5", "--jobs", "3"])
    try:
        workers = _workers_of(run_, 2)
        os.killpg(run_.pid, signal.SIGINT)
        out, err = run_.communicate(timeout=10)
        assert (run_.returncode, out, err) == (130, "", "slidelab: stopped\n")
        _ended_within(workers, seconds=5)
    finally:
        _kill_group(run_.pid)


def _split_run(box_and_jobs: list[str]) -> subprocess.Popen[str]:
    """`slidelab antislide` on local workers, in a process group of its own, started as a
    terminal starts a command (Ctrl-C not ignored)."""
    return subprocess.Popen(
        [sys.executable, "-m", "slidelab", "antislide", *box_and_jobs],
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _workers_of(run_: subprocess.Popen[str], count: int) -> list[int]:
    """The pids of `run_`'s workers, once it has `count` of them (within a minute)."""
    deadline = time.monotonic() + 60
    while len(workers := _children(run_.pid)) < count:
        assert time.monotonic() < deadline and run_.poll() is None
        time.sleep(0.01)
    return workers


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    return [int(n) for task in tasks.iterdir() for n in (task / "children").read_text().split()]


@pytest.mark.parametrize(
    ("stop", "status", "said"),
    [
        (signal.SIGTERM, 143, "slidelab: stopped by SIGTERM\n"),
        (signal.SIGHUP, 129, "slidelab: stopped by SIGHUP\n"),
        (signal.SIGKILL, -signal.SIGKILL, ""),
    ],
    ids=["SIGTERM", "SIGHUP", "SIGKILL"],
)
def test_a_signal_to_the_first_process_alone_ends_every_worker(stop, status, said):
    """SIGTERM and SIGHUP sent to the first process only stop it as Ctrl-C does (it kills its
    workers); SIGKILL kills it, and the kernel its workers, deep in subproblems that take
    minutes."""
    run_ = _split_run(["5", "5", "6", "--jobs", "2"])
    try:
        workers = _workers_of(run_, 1)
        time.sleep(1)  # into its first subproblem
        run_.send_signal(stop)
        out, err = run_.communicate(timeout=10)
        assert (run_.returncode, out, err) == (status, "", said)
        _ended_within(workers, seconds=5)
    finally:
        _kill_group(run_.pid)

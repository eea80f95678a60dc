"""A split run's subproblems searched here and on `jobs - 1` worker processes.

This process searches subproblems too, instead of watching a pool of `jobs`: on two cores
a pool's threads, its polling and a second fork cost a toy d = 5 dissection of 0.8 s
about 40-60 ms (docs/BENCHMARKS.md, round ten).  Workers are forked copies of this process
when it runs no other thread (they start with its kernels loaded), and otherwise fresh
interpreters, which read the job and their pipes from a file handed to them.

Every process takes its next subproblem from two pipes of fixed-size records, the
children of branches found big first, then the subproblems of the first split.  One
record read from a pipe is never shared or cut (records are written whole, at most
`PIPE_BUF` bytes at a time), so no lock is needed.  Only this process writes records and
decides when the run is done; a worker sends each result back on its own pipe, and ends
when the stop pipe closes: when this process closes it, or dies.  A worker looks at the
stop pipe between subproblems and at every progress event of a search (about every 50 ms),
and on Linux the kernel kills it as soon as this process ends, however it ends (SIGKILL
included), even in a long kernel call.  Ctrl-C, SIGTERM and SIGHUP stop this process,
which kills its workers; they ignore them themselves.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import select
import signal
import struct
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn

from slidelab import memory
from slidelab.errors import SlidelabError
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress, RunStopped, drive, relay

if TYPE_CHECKING:
    import subprocess

RECORD = struct.Struct("<ii")
"""A subproblem: the number of a task of the first split, and -1 for that task, or the
number of one of its children, searched to its end (what a big branch is split into)."""
HEADER = struct.Struct("<Q")
"""The length of a worker's message: a pickled (record, result, error)."""
BATCH = select.PIPE_BUF // RECORD.size
"""Records written at once: a write of at most `PIPE_BUF` bytes is never interleaved."""
WAIT_SECONDS = 0.05
"""Longest wait for a worker's result when this process has nothing to search."""
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""Signals that stop a run: sent to the whole process group, they are the first process's to
act on (it kills its workers), so a worker ignores them instead of ending on its own."""
PR_SET_PDEATHSIG = 1
"""Linux's `prctl` option: the signal a process gets when the thread that started it ends."""

Record = tuple[int, int]
Outcome = Callable[[Any, TaskResult | None], list[Any]]


class WorkerLost(SlidelabError):
    """A worker process ended before it finished its subproblem."""


def run_local(
    jobs: int,
    job: Any,
    tasks: list[Any],
    outcome: Outcome,
    progress: Callable[..., Progress],
    *,
    spawn: bool = False,
) -> Generator[Progress, None, None]:
    """Search `tasks` (each with `branch` and `budget`) here and on `jobs - 1` workers,
    forked, or spawned if `spawn`, handing each one's result to `outcome`, which returns the
    follow-up tasks of a branch found big (its children, with no budget)."""
    queue = _Queue()
    workers: list[_Worker] = []
    try:
        held: dict[Record, Any] = {(n, -1): task for n, task in enumerate(tasks)}
        queue.put(list(held), first=False)
        start = _Worker.spawn if spawn else _Worker.fork
        with _stop_signals_held():
            for _ in range(jobs - 1):
                workers.append(start(job, tasks, queue, workers))
        queue.close(queue.stop_read)  # the workers hold it; this process never reads it

        def settle(record: Record, result: TaskResult | None) -> None:
            task = held.pop(record)
            follows = outcome(task, result)
            if follows:
                numbers = {kid.key: j for j, kid in enumerate(_kids(job, task.branch))}
                records = [(record[0], numbers[follow.branch.key]) for follow in follows]
                held.update(zip(records, follows, strict=True))
                queue.put(records, first=True)

        def collect(wait: float = 0.0) -> None:
            for worker in _ready(workers, wait):
                for record, result in worker.messages():
                    settle(record, result)
            queue.flush()

        def during(event: Progress) -> Progress:
            collect()
            return progress(event.explored)

        while held:
            record = queue.take()
            if record is None:
                collect(WAIT_SECONDS)
                yield progress()
                continue
            task = held[record]
            result = yield from relay(job.explore(task.branch, task.budget), report=during)
            settle(record, result)
            collect()
        queue.close(queue.stop_write)  # every subproblem is done: the workers end
        for worker in workers:
            worker.join()
    finally:
        queue.close()
        for worker in workers:
            worker.kill()


@contextlib.contextmanager
def _stop_signals_held() -> Iterator[None]:
    """Within: `STOP_SIGNALS` are held back (blocked), and come once the workers started are
    recorded, to be killed.  One that came during a fork would be raised in a hook of
    `os.fork` (logging's, threading's), which swallows it: Ctrl-C would be lost, the run going
    on; and in a new worker, before it ignores them, it would run this process's code there.
    A worker inherits the block and lifts it once it ignores them (`_live`)."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _kids(job: Any, branch: Any) -> list[Any]:
    """What a branch found big is split into: its children, or itself when it is a leaf."""
    kids: list[Any] = job.children(branch) or [branch]
    return kids


class _Queue:
    """The pipes the processes take records from, and the stop pipe."""

    def __init__(self, reading: tuple[int, int, int] | None = None) -> None:
        """New pipes, or in a spawned worker the `reading` ends it was handed."""
        if reading is None:
            self.first_read, self.first_write = os.pipe()
            self.later_read, self.later_write = os.pipe()
            self.stop_read, self.stop_write = os.pipe()
        else:
            self.first_read, self.later_read, self.stop_read = reading
            self.first_write = self.later_write = self.stop_write = -1
        self.open = {self.first_read, self.first_write, self.later_read, self.later_write}
        self.open |= {self.stop_read, self.stop_write}
        self.open.discard(-1)
        for fd in (self.first_read, self.later_read, self.first_write, self.later_write):
            if fd >= 0:
                os.set_blocking(fd, False)
        self.backlog = {
            fd: deque[Record]() for fd in (self.first_write, self.later_write) if fd >= 0
        }
        """Records not written yet, by pipe (none in a spawned worker: it only reads)."""

    @property
    def reading(self) -> tuple[int, int, int]:
        """The ends a worker reads."""
        return self.first_read, self.later_read, self.stop_read

    def put(self, records: Iterable[Record], *, first: bool) -> None:
        """Queue records, in order: children of big branches go `first`."""
        self.backlog[self.first_write if first else self.later_write].extend(records)
        self.flush()

    def flush(self) -> None:
        """Write whatever the pipes take of the records not written yet."""
        for fd, waiting in self.backlog.items():
            while waiting:
                batch = [waiting[n] for n in range(min(BATCH, len(waiting)))]
                try:
                    os.write(fd, b"".join(RECORD.pack(*record) for record in batch))
                except BlockingIOError:
                    break
                for _ in batch:
                    waiting.popleft()

    def take(self) -> Record | None:
        """The next record, or None when both pipes are empty for now."""
        for fd in (self.first_read, self.later_read):
            try:
                data = os.read(fd, RECORD.size)
            except BlockingIOError:
                continue
            if data:
                number, child = RECORD.unpack(data)
                return number, child
        return None

    def wait(self) -> Record | None:
        """The next record, waiting for one; None once the stop pipe has closed (the run is
        done, or its first process has died: the records left are nobody's work)."""
        pipes = [self.first_read, self.later_read, self.stop_read]
        while True:
            if self.stop_read in select.select(pipes, [], [])[0]:
                return None
            record = self.take()
            if record is not None:
                return record

    def stopped(self) -> bool:
        """Whether the stop pipe has closed: nobody writes to it, so it reads only its end."""
        return _readable(self.stop_read)

    def close(self, *fds: int) -> None:
        """Close these ends (all that are open if none are named)."""
        for fd in fds or tuple(self.open):
            if fd in self.open:
                self.open.remove(fd)
                os.close(fd)

    def keep_reading_only(self) -> None:
        """In a worker: close the ends only the first process uses."""
        self.close(self.first_write, self.later_write, self.stop_write)


class _Worker:
    """A worker, as the first process sees it: its pid and the pipe of its results."""

    def __init__(self, pid: int, results: int, process: subprocess.Popen[bytes] | None = None):
        self.pid = pid
        self.results = results
        self.process = process
        """The spawned worker (None for a forked one)."""
        self.buffer = bytearray()
        self.ended = False

    @classmethod
    def fork(cls, job: Any, tasks: list[Any], queue: _Queue, others: list[_Worker]) -> _Worker:
        results_read, results_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: it never returns
            os.close(results_read)
            for other in others:
                os.close(other.results)
            queue.keep_reading_only()
            _live(job, tasks, queue, results_write)
        os.close(results_write)
        return cls(pid, results_read)

    @classmethod
    def spawn(cls, job: Any, tasks: list[Any], queue: _Queue, others: list[_Worker]) -> _Worker:
        """A fresh interpreter, handed its job in a file (so that nothing here waits for it
        to start) and only the pipe ends it reads and writes (`others` are not its own)."""
        import subprocess
        import tempfile

        results_read, results_write = os.pipe()
        try:
            with tempfile.TemporaryFile() as setup:
                handed = (job, tasks, queue.reading, results_write, memory.chosen_limit())
                pickle.dump(handed, setup)
                setup.flush()
                setup.seek(0)
                process = subprocess.Popen(
                    [sys.executable, "-c", SPAWNED, str(setup.fileno())],
                    pass_fds=(setup.fileno(), results_write, *queue.reading),
                )
        except BaseException:
            os.close(results_read)
            raise
        finally:
            os.close(results_write)
        return cls(process.pid, results_read, process)

    def fileno(self) -> int:
        return self.results

    def messages(self) -> list[tuple[Record, TaskResult | None]]:
        """The results the worker has sent, reading on to the end of a message begun."""
        received = []
        while True:
            if len(self.buffer) >= HEADER.size:
                (size,) = HEADER.unpack_from(self.buffer)
                end = HEADER.size + size
                if len(self.buffer) >= end:
                    record, result, error = pickle.loads(self.buffer[HEADER.size : end])
                    del self.buffer[:end]
                    if error is not None:
                        raise error
                    received.append((record, result))
                    continue
            elif not self.buffer and not _readable(self.results):
                return received
            select.select([self.results], [], [])
            data = os.read(self.results, 1 << 16)
            if not data:
                raise WorkerLost(
                    f"a worker process ended before its subproblem did ({self._status()})"
                )
            self.buffer += data

    def join(self) -> None:
        self._wait()

    def kill(self) -> None:
        os.close(self.results)
        if not self.ended:
            os.kill(self.pid, signal.SIGKILL)
            self._wait()

    def _status(self) -> str:
        status = self._wait()
        if status < 0:
            return f"killed by signal {-status}"
        return f"exit status {status}"

    def _wait(self) -> int:
        """Wait for the worker to end; its exit code, or minus the signal that killed it."""
        self.ended = True
        if self.process is not None:
            return self.process.wait()
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def _ready(workers: list[_Worker], wait: float) -> list[_Worker]:
    """The workers with results to read, waiting at most `wait` seconds for one."""
    if not workers:
        return []
    readable, _, _ = select.select(workers, [], [], wait)
    return readable


def _readable(fd: int) -> bool:
    readable, _, _ = select.select([fd], [], [], 0)
    return bool(readable)


SPAWNED = "from slidelab.parallel.local import serve_spawned; serve_spawned()"
"""A spawned worker's program; its argument is the file descriptor of its set-up file."""


def serve_spawned() -> None:
    """A spawned worker's life: read the job, tasks, pipe ends and memory budget from the
    set-up file, then serve as a forked worker does."""
    with os.fdopen(int(sys.argv[1]), "rb") as setup:
        job, tasks, reading, results, limit = pickle.load(setup)
    memory.choose_limit(limit)
    _live(job, tasks, _Queue(reading), results)


def _live(job: Any, tasks: list[Any], queue: _Queue, results: int) -> NoReturn:
    """A worker's life, ended at once however `_serve` ends: a forked worker must run none of
    its first process's clean-up, and an orphan has nobody to tell of a broken pipe."""
    status = 1
    try:
        _end_with_parent()
        for stop in STOP_SIGNALS:
            signal.signal(stop, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # `_stop_signals_held`
        _serve(job, tasks, queue, results)
        status = 0
    finally:
        os._exit(status)


def _end_with_parent() -> None:
    """On Linux, have the kernel kill this worker when its first process ends, however it
    ends: the stop pipe is only seen between kernel calls, and one call may be long (a first
    one compiling its kernel takes a minute).  The kill comes when the *thread* that started
    the worker ends; a run is driven by one thread, which outlives its workers (a forked
    worker's is the only thread there was).  A first process that ended before this call has
    closed the stop pipe, which the worker reads before it searches anything."""
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL))


def _serve(job: Any, tasks: list[Any], queue: _Queue, results: int) -> None:
    """A worker's life: search the subproblems it takes until the stop pipe closes (even in
    the middle of one), sending back each result (or the error that ended it)."""
    kids: dict[int, list[Any]] = {}
    while (record := queue.wait()) is not None:
        number, child = record
        task = tasks[number]
        error: Exception | None = None
        try:
            if child < 0:
                branch, budget = task.branch, task.budget
            else:
                if number not in kids:
                    kids[number] = _kids(job, task.branch)
                branch, budget = kids[number][child], None
            result = drive(job.explore(branch, budget), should_stop=queue.stopped)
        except RunStopped:
            return
        except Exception as failure:
            result, error = None, failure
        message = _message(record, result, error)
        _write_all(results, HEADER.pack(len(message)) + message)
        if error is not None:
            return


def _message(record: Record, result: TaskResult | None, error: Exception | None) -> bytes:
    """A worker's message, pickled; an error that does not come back whole from pickling (its
    class needs other arguments) is sent as its text."""
    try:
        message = pickle.dumps((record, result, error))
        if error is not None:
            pickle.loads(message)
    except Exception:
        if error is None:
            raise
        message = pickle.dumps((record, None, RuntimeError(f"{type(error).__name__}: {error}")))
    return message


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]

"""A split run's subproblems searched here and on forked copies of this process.

This process searches subproblems too, beside `jobs - 1` forked workers, instead of
watching a pool of `jobs`: on two cores a pool's threads, its polling and a second fork
cost a toy d = 5 dissection of 0.8 s about 40 ms (docs/BENCHMARKS.md, round ten).

Every process takes its next subproblem from two pipes of fixed-size records, the
children of branches found big first, then the subproblems of the first split.  One
record read from a pipe is never shared or cut (records are written whole, at most
`PIPE_BUF` bytes at a time), so no lock is needed.  Only this process writes records and
decides when the run is done; a worker sends each result back on its own pipe, and ends
when the stop pipe closes: when this process closes it, or dies.  Ctrl-C stops this
process, which kills its workers; they ignore it themselves.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
from collections import deque
from collections.abc import Callable, Generator, Iterable
from typing import Any

from slidelab.errors import SlidelabError
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import Progress, drive, relay

RECORD = struct.Struct("<ii")
"""A subproblem: the number of a task of the first split, and -1 for that task, or the
number of one of its children, searched to its end (what a big branch is split into)."""
HEADER = struct.Struct("<Q")
"""The length of a worker's message: a pickled (record, result, error)."""
BATCH = select.PIPE_BUF // RECORD.size
"""Records written at once: a write of at most `PIPE_BUF` bytes is never interleaved."""
WAIT_SECONDS = 0.05
"""Longest wait for a worker's result when this process has nothing to search."""

Record = tuple[int, int]
Outcome = Callable[[Any, TaskResult | None], list[Any]]


class WorkerLost(SlidelabError):
    """A worker process ended before it finished its subproblem."""


def on_forks(
    jobs: int,
    job: Any,
    tasks: list[Any],
    outcome: Outcome,
    progress: Callable[..., Progress],
) -> Generator[Progress, None, None]:
    """Search `tasks` (each with `branch` and `budget`) here and on `jobs - 1` forked
    workers, handing each one's result to `outcome`, which returns the follow-up tasks of a
    branch found big (its children, with no budget)."""
    queue = _Queue()
    workers: list[_Worker] = []
    try:
        held: dict[Record, Any] = {(n, -1): task for n, task in enumerate(tasks)}
        queue.put(list(held), first=False)
        for _ in range(jobs - 1):
            workers.append(_Worker.fork(job, tasks, queue, workers))
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


def _kids(job: Any, branch: Any) -> list[Any]:
    """What a branch found big is split into: its children, or itself when it is a leaf."""
    kids: list[Any] = job.children(branch) or [branch]
    return kids


class _Queue:
    """The pipes the processes take records from, and the stop pipe."""

    def __init__(self) -> None:
        self.first_read, self.first_write = os.pipe()
        self.later_read, self.later_write = os.pipe()
        self.stop_read, self.stop_write = os.pipe()
        self.open = {self.first_read, self.first_write, self.later_read, self.later_write}
        self.open |= {self.stop_read, self.stop_write}
        for fd in (self.first_read, self.later_read, self.first_write, self.later_write):
            os.set_blocking(fd, False)
        self.backlog = {self.first_write: deque[Record](), self.later_write: deque[Record]()}

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
    """A forked worker, as its first process sees it: its pid and the pipe of its results."""

    def __init__(self, pid: int, results: int) -> None:
        self.pid = pid
        self.results = results
        self.buffer = bytearray()
        self.ended = False

    @classmethod
    def fork(cls, job: Any, tasks: list[Any], queue: _Queue, others: list[_Worker]) -> _Worker:
        results_read, results_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: it never returns
            status = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the first process
                os.close(results_read)
                for other in others:
                    os.close(other.results)
                queue.keep_reading_only()
                _serve(job, tasks, queue, results_write)
                status = 0
            finally:
                os._exit(status)
        os.close(results_write)
        return cls(pid, results_read)

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
        os.waitpid(self.pid, 0)
        self.ended = True

    def kill(self) -> None:
        os.close(self.results)
        if not self.ended:
            os.kill(self.pid, signal.SIGKILL)
            self.join()

    def _status(self) -> str:
        _, status = os.waitpid(self.pid, 0)
        self.ended = True
        if os.WIFSIGNALED(status):
            return f"killed by signal {os.WTERMSIG(status)}"
        return f"exit status {os.waitstatus_to_exitcode(status)}"


def _ready(workers: list[_Worker], wait: float) -> list[_Worker]:
    """The workers with results to read, waiting at most `wait` seconds for one."""
    if not workers:
        return []
    readable, _, _ = select.select(workers, [], [], wait)
    return readable


def _readable(fd: int) -> bool:
    readable, _, _ = select.select([fd], [], [], 0)
    return bool(readable)


def _serve(job: Any, tasks: list[Any], queue: _Queue, results: int) -> None:
    """A worker's life: search the subproblems it takes until the stop pipe closes, sending
    back each result (or the error that ended it)."""
    kids: dict[int, list[Any]] = {}
    while (record := queue.wait()) is not None:
        number, child = record
        task = tasks[number]
        error: Exception | None = None
        try:
            if child < 0:
                result = drive(job.explore(task.branch, task.budget))
            else:
                if number not in kids:
                    kids[number] = _kids(job, task.branch)
                result = drive(job.explore(kids[number][child], None))
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

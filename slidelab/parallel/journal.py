"""Journals: every finished subproblem appended to a file, so a killed run loses nothing.

The first line names the problem (a fingerprint of it and of the splitting rules);
each further line is one finished subproblem as JSON, written and fsync'd before
the run goes on.  Reopening the journal gives back what is done; a last line cut
short by a crash is removed (its subproblem is simply searched again).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

from slidelab.errors import SlidelabError
from slidelab.parallel.tasks import TaskResult

FORMAT = "slidelab journal 1"


class JournalError(SlidelabError):
    """A journal that belongs to another problem, or that cannot be read or written."""


class Journal:
    """An append-only record of finished subproblems of one search."""

    def __init__(self, path: str | os.PathLike[str], fingerprint: str, what: str) -> None:
        self.path = Path(path)
        self.done: dict[tuple[int, ...], TaskResult] = {}
        try:
            if self.path.exists() and self.path.stat().st_size > 0:
                self._load(fingerprint)
                self._stream: IO[str] = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
            else:
                self._stream = open(self.path, "w", encoding="utf-8")  # noqa: SIM115
                self._write({"format": FORMAT, "fingerprint": fingerprint, "what": what})
        except OSError as error:
            raise JournalError(f"{self.path}: cannot use the journal: {error.strerror}") from None

    def _load(self, fingerprint: str) -> None:
        data = self.path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1]
        if len(complete) < len(data):  # a crash cut the last line short: drop it
            with open(self.path, "r+b") as stream:
                stream.truncate(len(complete))
        lines = complete.decode("utf-8", errors="replace").splitlines()
        try:
            header = json.loads(lines[0]) if lines else {}
        except json.JSONDecodeError:
            header = {}
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise JournalError(f"{self.path}:1: not a slidelab journal")
        if header.get("fingerprint") != fingerprint:
            raise JournalError(
                f"{self.path}: this journal belongs to another problem ({header.get('what')}); "
                "give another file, or delete this one to start afresh"
            )
        for number, line in enumerate(lines[1:], 2):
            try:
                record = json.loads(line)
                result = TaskResult(
                    tuple(record["key"]), record["count"], record["nodes"], record["payload"]
                )
            except (json.JSONDecodeError, KeyError, TypeError):
                raise JournalError(f"{self.path}:{number}: damaged journal line") from None
            self.done[result.key] = result

    def _write(self, record: dict[str, object]) -> None:
        self._stream.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def record(self, result: TaskResult) -> None:
        """Append one finished subproblem, durably, before the run goes on."""
        if result.key in self.done:
            return
        self.done[result.key] = result
        try:
            self._write(
                {"key": list(result.key), "count": result.count, "nodes": result.nodes,
                 "payload": result.payload}
            )  # fmt: skip
        except OSError as error:
            raise JournalError(f"{self.path}: cannot write the journal: {error.strerror}") from None

    def close(self) -> None:
        self._stream.close()

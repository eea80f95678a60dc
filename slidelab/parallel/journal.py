"""Journals: every finished subproblem appended to a file, so a killed run loses nothing.

The first line names the problem (a fingerprint of it and of the splitting rules);
each further line is one finished subproblem as JSON, written and fsync'd before
the run goes on.  Reopening the journal gives back what is done; a last line cut
short by a crash is removed (its subproblem is simply searched again).

A journal's counts are added to the answer, so nothing in one may be taken on
trust: each record opens with a checksum of the rest of its line and of the
problem's fingerprint (a flipped bit, an edit, or a record copied from another
problem's journal does not match), its fields are checked for their types and
key shape, its payload as its family's job says (`slidelab.parallel.payload`: the
checksum is no secret, so a record may be forged), and no record may cover a
subproblem another record covers too (a key cut back to an ancestor would count its
subtree twice).  A journal failing any of these is refused with the line that failed,
never summed into a wrong count (but for a record forged to agree with itself where
nothing in it can check its count, which only a secret key would tell).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from slidelab.errors import SlidelabError
from slidelab.parallel.payload import PayloadError, is_count
from slidelab.parallel.tasks import TaskResult

FORMAT = "slidelab journal 2"
OLD_FORMATS = ("slidelab journal 1",)
"""Formats of earlier slidelab versions, whose records have no checksum."""

_CHECKED = re.compile(r'\{"check":"([0-9a-f]{16})",')
_FIELDS = ("key", "count", "nodes", "payload")


class JournalError(SlidelabError):
    """A journal that belongs to another problem, or that cannot be read or written."""


class Journal:
    """An append-only record of finished subproblems of one search."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        fingerprint: str,
        what: str,
        check: Callable[[TaskResult], None] | None = None,
    ) -> None:
        """Open the journal at `path` for the problem `fingerprint` names (`what`, in words),
        its records read back checked by `check` (which raises `PayloadError`), if given."""
        self.path = Path(path)
        self.fingerprint = fingerprint
        self.check = check
        self.done: dict[tuple[int, ...], TaskResult] = {}
        try:
            if self.path.exists() and self.path.stat().st_size > 0:
                self._load()
                self._stream: IO[str] = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
            else:
                self._stream = open(self.path, "w", encoding="utf-8")  # noqa: SIM115
                header = {"format": FORMAT, "fingerprint": fingerprint, "what": what}
                self._write(json.dumps(header, separators=(",", ":")))
        except OSError as error:
            raise JournalError(f"{self.path}: cannot use the journal: {error.strerror}") from None

    def _load(self) -> None:
        data = self.path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1]
        lines = complete.split(b"\n")[:-1]
        self._check_header(lines[0] if lines else b"")  # before touching what may be no journal
        if len(complete) < len(data):  # a crash cut the last line short: drop it
            with open(self.path, "r+b") as stream:
                stream.truncate(len(complete))
        where: dict[tuple[int, ...], int] = {}
        for number, line in enumerate(lines[1:], 2):
            try:
                result = self._parse_record(line)
            except _DamagedRecordError as error:
                raise JournalError(
                    f"{self.path}:{number}: damaged journal record ({error}); delete this line "
                    "to search its subproblem again"
                ) from None
            known = self.done.get(result.key)
            if known is not None and known != result:
                raise self._overlap(number, result.key, where[result.key])
            self.done[result.key] = result
            where.setdefault(result.key, number)
        for key, number in where.items():
            for length in range(len(key)):
                if key[:length] in where:
                    raise self._overlap(where[key[:length]], key[:length], number)

    def _check_header(self, line: bytes) -> None:
        header = _json(line)
        version = header.get("format") if isinstance(header, dict) else None
        if version in OLD_FORMATS:
            raise JournalError(
                f"{self.path}:1: a journal of an older slidelab, without checksums; delete it "
                "to start afresh"
            )
        if not isinstance(header, dict) or version != FORMAT:
            raise JournalError(f"{self.path}:1: not a slidelab journal")
        if header.get("fingerprint") != self.fingerprint:
            raise JournalError(
                f"{self.path}: this journal belongs to another problem, or to the same one split "
                f"by other rules ({header.get('what')}); "
                "give another file, or delete this one to start afresh"
            )

    def _parse_record(self, line: bytes) -> TaskResult:
        """The subproblem result on one line, after its checksum and types are checked."""
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise _DamagedRecordError("invalid UTF-8") from None
        found = _CHECKED.match(text)
        if found is None:
            raise _DamagedRecordError("no checksum")
        body = "{" + text[found.end() :]
        if found.group(1) != _checksum(self.fingerprint, body):
            raise _DamagedRecordError("checksum mismatch: changed, or from another journal")
        record = _json(body.encode("utf-8"))
        if not isinstance(record, dict) or tuple(record) != _FIELDS:
            raise _DamagedRecordError(f"a record has the fields {', '.join(_FIELDS)}")
        key, count, nodes, payload = (record[name] for name in _FIELDS)
        if not isinstance(key, list) or not all(is_count(step) for step in key):
            raise _DamagedRecordError("the key must be a list of whole numbers from 0")
        if not is_count(count) or not is_count(nodes):
            raise _DamagedRecordError("count and nodes must be whole numbers from 0")
        if not isinstance(payload, dict):
            raise _DamagedRecordError("the payload must be an object")
        result = TaskResult(tuple(key), count, nodes, payload)
        if self.check is not None:
            try:
                self.check(result)
            except PayloadError as error:
                raise _DamagedRecordError(str(error)) from None
        return result

    def _overlap(self, number: int, key: tuple[int, ...], other: int) -> JournalError:
        """The error for the record on line `number`, whose subproblem `key` another record
        (on line `other`) covers too."""
        return JournalError(
            f"{self.path}:{number}: damaged journal: subproblem {list(key)} is also covered by "
            f"line {other}; delete both lines to search it again"
        )

    def _write(self, line: str) -> None:
        """Append `line` and put it on disk before the run goes on."""
        self._stream.write(line + "\n")
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def record(self, result: TaskResult) -> None:
        """Append one finished subproblem, durably, before the run goes on."""
        if result.key in self.done:
            return
        self.done[result.key] = result
        body = json.dumps(
            {"key": list(result.key), "count": result.count, "nodes": result.nodes,
             "payload": result.payload},
            separators=(",", ":"),
        )  # fmt: skip
        try:
            self._write(f'{{"check":"{_checksum(self.fingerprint, body)}",{body[1:]}')
        except OSError as error:
            raise JournalError(f"{self.path}: cannot write the journal: {error.strerror}") from None

    def close(self) -> None:
        self._stream.close()


class _DamagedRecordError(Exception):
    """Why one journal record cannot be used (the journal turns it into a JournalError)."""


def _checksum(fingerprint: str, body: str) -> str:
    """16 hex digits of a digest of the problem's fingerprint and a record's text."""
    return hashlib.sha256(f"{fingerprint}\n{body}".encode()).hexdigest()[:16]


def _json(line: bytes) -> Any:
    """The JSON value on `line`, or None when it is not JSON (or too big or deep to read)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None

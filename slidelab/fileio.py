"""Reading and writing user files safely: text in, and atomic saves out.

Text must be UTF-8 (a leading byte-order mark is dropped); a bad byte is
reported at its line and column, where the user can find it.  A save writes a
temporary file next to the target, flushes it to disk and then renames it over
the target, so a crash or a full disk never leaves half a file; saving through
a symbolic link replaces the file it points to and keeps the link.  A command refuses
to write over a file it reads (`refuse_writing_inputs`).
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import BinaryIO

from slidelab.errors import ParseError, SlidelabError

STDIN = "-"
"""The input name that stands for standard input."""


class FileAccessError(SlidelabError):
    """A file could not be read or written."""


TEXT_LIMIT = 256 << 20
"""Most bytes a puzzle or problem file may hold: far more than any real one (Knuth's largest
DLX files are a few megabytes), and a bound on what reading a device such as /dev/zero or an
endless pipe takes before it is refused."""

_READ_CHUNK = 1 << 20


def read_bytes(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of `path`, refused past `limit` bytes (default: no limit); errors name the
    file and the reason."""
    try:
        with open(path, "rb") as stream:
            return _read_bounded(stream, limit, str(path))
    except OSError as error:
        raise FileAccessError(f"{path}: cannot read: {error.strerror}") from None


def _read_bounded(stream: BinaryIO, limit: int | None, source: str) -> bytes:
    """What `stream` holds, read a chunk at a time so that a file past `limit` bytes is
    refused once that much is read (a device never ends)."""
    if limit is None:
        return stream.read()
    chunks, size = [], 0
    while chunk := stream.read(min(_READ_CHUNK, limit + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise FileAccessError(f"{source}: cannot read: it holds more than {limit >> 20} MiB")
    return b"".join(chunks)


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of `path` (UTF-8, at most `TEXT_LIMIT` bytes); errors name the file and the
    reason."""
    return decode_text(read_bytes(path, TEXT_LIMIT), str(path))


def read_input(path: str) -> tuple[str, str]:
    """The name and the text of a command's input: the file `path`, or standard input for '-'
    (its bytes, decoded as strictly as a file's)."""
    if path == STDIN:
        data = _read_bounded(sys.stdin.buffer, TEXT_LIMIT, "<stdin>")
        return "<stdin>", decode_text(data, "<stdin>")
    return path, read_text(path)


def decode_text(data: bytes, source: str) -> str:
    """`data` decoded as UTF-8, without the byte-order mark some Windows editors put first;
    a bad byte raises `ParseError` at its line and column."""
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, start) + 1
        column = len(data[start : error.start].decode("utf-8")) + 1
        byte = data[error.start]
        raise ParseError(source, line, column, f"invalid UTF-8 (byte 0x{byte:02x})") from None


def write_bytes_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace `path` with `data` in one step: the old file stays intact until the new one is
    complete on disk; a symbolic link is kept and the file it points to replaced."""
    import tempfile  # here: its modules take 4 ms, and most commands only read files

    target = Path(os.path.realpath(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as error:
        raise FileAccessError(f"{path}: cannot write: {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if target.exists():
            os.chmod(temporary, target.stat().st_mode & 0o777)
        else:
            os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise FileAccessError(f"{path}: cannot write: {error.strerror}") from None
    _sync_directory(target.parent)


def _sync_directory(directory: Path) -> None:
    """Make the rename durable where the platform allows syncing a directory."""
    with contextlib.suppress(OSError):
        handle = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Replace `path` with `text` (UTF-8) atomically."""
    write_bytes_atomically(path, text.encode("utf-8"))


def refuse_writing_inputs(
    outputs: Mapping[str, str | None], inputs: Collection[str | None]
) -> None:
    """Raise `FileAccessError` if a file an option of `outputs` (option -> file, None when
    not given) would write is one of the `inputs` a command reads ('-': standard input):
    `--save` onto the problem file would replace it with the saved search.  Called before
    the command does anything."""
    for option, output in outputs.items():
        if output is None:
            continue
        for source in inputs:
            if source is not None and _same_file(source, output):
                read = "the file on standard input" if source == STDIN else f"the input {source}"
                raise FileAccessError(
                    f"{option} {output} is {read}: writing there would destroy it; "
                    "give another file"
                )


def _same_file(source: str, output: str) -> bool:
    """Whether writing `output` would write the file `source` names: the same file when both
    exist (through links, or other spellings of its path), else the same resolved path."""
    try:
        if source == STDIN:  # what descriptor 0 reads, as `read_input` does through sys.stdin
            return os.path.samestat(os.fstat(0), os.stat(output))
        return os.path.samefile(source, output)
    except OSError:  # one of them missing (or standard input closed)
        return source != STDIN and os.path.realpath(source) == os.path.realpath(output)

"""Reading and writing user files safely: text in, and atomic saves out.

A save writes a temporary file next to the target, flushes it to disk and then
renames it over the target, so a crash or a full disk never leaves half a file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from slidelab.errors import SlidelabError


class FileAccessError(SlidelabError):
    """A file could not be read or written."""


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of `path`; errors name the file and the reason."""
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise FileAccessError(f"{path}: cannot read: {error.strerror}") from None


def write_bytes_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace `path` with `data` in one step: the old file stays intact until the new one is
    complete on disk."""
    target = Path(path)
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

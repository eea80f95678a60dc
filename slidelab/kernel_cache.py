"""Dropping numba cache indexes that numba would fail to read, so that it recompiles instead.

numba keeps one index file per cached kernel and reuses its entries only while the kernel's
source file is unchanged, but it unpickles the whole index before it compares: when the
index names a class the new source no longer defines (a NamedTuple of arrays renamed or
moved between two versions of slidelab), the first call of the kernel dies with an
AttributeError instead of compiling afresh.  Upgrading slidelab, or pulling a new commit,
leaves such indexes behind.  Each kernels module hands its dispatchers here once they are
all defined; an index that cannot be read is deleted, and numba compiles the kernel again.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def forget_unreadable_indexes(values: Iterable[object]) -> list[Path]:
    """Delete the cache index of every cached numba dispatcher among `values` that cannot be
    loaded, and return the paths deleted.  Other values are skipped, so a module may pass
    `globals().values()`."""
    dropped = []
    for value in values:
        index = getattr(getattr(value, "_cache", None), "_cache_file", None)
        load = getattr(index, "_load_index", None)
        if load is None:
            continue
        try:
            load()
        except Exception:  # whatever stops numba reading the index, it is rebuilt
            path = Path(index._index_path)  # type: ignore[union-attr]
            path.unlink(missing_ok=True)
            dropped.append(path)
    return dropped

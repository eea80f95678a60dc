"""No transparent huge pages for the window's large arrays: a fault must not stall a turn.

numpy asks the kernel for huge pages (`madvise`) on every array of 4 MiB or more.  Where
the kernel's `transparent_hugepage/defrag` is `madvise`, as on this project's machines, a
fault in such an array may first compact memory to find a free 2 MiB page: growing the
list of 717,676 antislide packings (a 36 MB column copied into a new array) then took 81 ms
of the main thread instead of 22 ms, past the 100 ms a turn of the event loop may take.
The window's process asks for ordinary pages instead; the solvers' own processes keep
numpy's default.
"""

from __future__ import annotations

import importlib


def avoid_huge_page_stalls() -> None:
    """Stop numpy from asking for huge pages in this process (its `NUMPY_MADVISE_HUGEPAGE=0`)."""
    multiarray = importlib.import_module("numpy._core.multiarray")
    switch = getattr(multiarray, "_set_madvise_hugepage", None)
    if switch is not None:
        switch(False)

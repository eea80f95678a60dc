"""Keeping the cyclic garbage collector away from what a preparation phase builds.

Placing pieces and checking options build millions of small objects (placements, tuples
of cells, option tuples) that never form cycles.  CPython's collector still walks every
tracked object on each full pass, and full passes come as the heap grows: on a problem of
4.6 million options they stopped the run, and with the interpreter lock held the GUI too,
for up to 1.4 s each.  Reference counting frees these objects without the collector, so a
phase moves what it has built so far into the permanent generation, which passes skip.
The price: a reference cycle that was alive at that moment and dies later is not collected
(nothing slidelab builds in a phase forms one; the app's other objects rarely do, and a
run's settle moves at most what is alive then).
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Leave every object alive now out of later collections (`gc.freeze`); call it now and
    then while a phase builds many objects."""
    gc.freeze()

"""slidelab: a visual explorer for four families of combinatorial puzzles."""

import os

__version__ = "0.1.0"

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
"""slidelab multiplies no large matrices, but numpy's OpenBLAS starts a thread per core as
numpy loads, and they spend about 70 ms of CPU (measured on 2 cores): free when the other
cores idle, taken from whatever else runs when they do (a second search, the window, a test
suite).  One thread, unless the user has chosen otherwise.  Set here, before any module of
slidelab imports numpy."""

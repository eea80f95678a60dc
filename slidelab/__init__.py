"""slidelab: a visual explorer for four families of combinatorial puzzles."""

import os

__version__ = "0.1.0"

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
"""slidelab multiplies no large matrices, but numpy's OpenBLAS starts a thread per core as
numpy loads, which costs every process about 60 ms (a third of a small command's time):
one thread, unless the user has chosen otherwise.  Set here, before any module of slidelab
imports numpy."""

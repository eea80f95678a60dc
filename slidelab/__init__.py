"""slidelab: a visual explorer for four families of combinatorial puzzles."""

__version__ = "0.1.0"

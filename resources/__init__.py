"""Data files shipped with slidelab (puzzle libraries, icons); loaded with importlib.resources."""

"""`python -m slidelab` runs the `slidelab` command."""

from slidelab.cli import console

console()

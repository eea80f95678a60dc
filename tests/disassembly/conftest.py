"""BurrTools' examples for the disassembly tests too (tests/burrtools/conftest.py finds them)."""

from tests.burrtools.conftest import examples  # noqa: F401

"""Fuzzing every parser (see tests/fuzzing.py), and replaying the smallest failing inputs found.

The fuzz tests run ~200 mutated inputs per parser in the normal suite and a few
thousand under CI or SLIDELAB_FUZZ (`pytest -m slow` runs just them).
"""

from __future__ import annotations

import pytest
from hypothesis import given

from slidelab.errors import SlidelabError
from tests.fuzzing import (
    FUZZ_SETTINGS,
    PARSERS,
    SUFFIXES,
    journal_records_are_original,
    mutated,
    outcome,
    regression_files,
    seeds,
)


def fuzz(parser: str):
    """A test feeding mutated inputs of `parser` to it: each gives a value or its own error."""
    source = f"fuzzed{SUFFIXES[parser]}"

    @pytest.mark.slow
    @FUZZ_SETTINGS
    @given(data=mutated(seeds(parser)))
    def test(data: bytes) -> None:
        result = outcome(parser, data, source)
        if parser == "journal" and not isinstance(result, SlidelabError):
            assert journal_records_are_original(result), result

    return test


test_fuzz_sliding = fuzz("sliding")
test_fuzz_dlx = fuzz("dlx")
test_fuzz_polycube = fuzz("polycube")
test_fuzz_dissection = fuzz("dissection")
test_fuzz_antislide = fuzz("antislide")
test_fuzz_xmpuzzle = fuzz("xmpuzzle")
test_fuzz_journal = fuzz("journal")


@pytest.mark.parametrize(
    "path",
    [path for parser in PARSERS for path in regression_files(parser)],
    ids=lambda path: f"{path.parent.name}/{path.name}",
)
def test_smallest_failing_inputs_give_their_messages(path):
    parser = path.parent.name
    result = outcome(parser, path.read_bytes(), path.name)
    assert isinstance(result, SlidelabError), result
    expected = path.with_name(path.name + ".expected").read_text(encoding="utf-8")
    assert str(result) == expected.rstrip("\n")


@pytest.mark.parametrize("parser", list(PARSERS))
def test_the_seeds_are_valid(parser):
    """Mutations start from inputs each parser reads, so that they reach past the first line."""
    for number, data in enumerate(seeds(parser)):
        result = outcome(parser, data, f"seed{number}{SUFFIXES[parser]}")
        assert not isinstance(result, SlidelabError), result

"""`--jobs` beyond what the cores can use is refused by every command that takes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.cli import main
from slidelab.errors import SlidelabError
from slidelab.parallel import options

PUZZLES = Path(__file__).resolve().parents[2] / "resources" / "puzzles"


@pytest.mark.parametrize(
    "arguments",
    [
        ["slide", str(PUZZLES / "sliding" / "klotski.slide")],
        ["antislide", "3", "3", "3"],
        ["polycube", str(PUZZLES / "polycube" / "soma.pcube")],
        ["dissect", "4", str(PUZZLES / "dissection" / "knuth-toy.dots")],
    ],
)
def test_more_jobs_than_four_a_core_are_refused(monkeypatch, capsys, arguments):
    """Asked for 99,999 threads, the sliding search spent 9.5 s and 2.9 GB on their buffers;
    the splitting commands would have started 99,999 processes."""
    monkeypatch.setattr(options, "default_jobs", lambda: 3)
    assert main([*arguments, "--jobs", "13"]) == 2
    assert capsys.readouterr() == (
        "",
        "slidelab: --jobs 13 is more than 12, 4 for each of the 3 cores here\n",
    )


def test_four_jobs_a_core_are_taken(monkeypatch, capsys):
    monkeypatch.setattr(options, "default_jobs", lambda: 1)
    assert main(["antislide", "3", "3", "3", "--jobs", "4", "--json"]) == 0
    assert '"solutions": 2' in capsys.readouterr().out


@given(st.integers(-(10**30), 10**30))
@settings(max_examples=60, deadline=None)
def test_any_jobs_value_is_taken_or_refused_by_name(jobs):
    cores = options.default_jobs()
    try:
        assert options.checked_jobs(jobs) == jobs
        assert 1 <= jobs <= options.JOBS_PER_CORE * cores
    except SlidelabError as error:
        assert jobs < 1 or jobs > options.JOBS_PER_CORE * cores
        assert str(error).startswith("--jobs ")

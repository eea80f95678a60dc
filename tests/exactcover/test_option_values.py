"""Option values of `slidelab dlx` that argparse lets through are refused by name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab.cli import main


@pytest.mark.parametrize("seconds", ["nan", "inf", "-1", "0"])
def test_save_every_must_be_a_positive_number_of_seconds(tmp_path, capsys, seconds):
    path = tmp_path / "p.dlx"
    path.write_text("A\nA\n")
    arguments = ["dlx", str(path), "--save", str(tmp_path / "s"), f"--save-every={seconds}"]
    assert main(arguments) != 0
    value = float(seconds)
    assert capsys.readouterr().err == (
        f"slidelab: --save-every must be a positive number of seconds, not {value}\n"
    )


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (
            ["--limit", "9" * 23],
            "--limit must be at most 9223372036854775807, the most a count holds",
        ),
        (["--seed", "-1"], "--seed must be 0 or more, not -1"),
    ],
)
def test_limits_and_seeds_the_engines_cannot_take_are_refused(tmp_path, capsys, option, message):
    """A --limit beyond int64 reached the kernel as a numba typing error, a negative --seed
    numpy's 'expected non-negative integer': both as tracebacks."""
    path = tmp_path / "p.dlx"
    path.write_text("A\nA\n")
    assert main(["dlx", str(path), *option]) == 2
    assert capsys.readouterr() == ("", f"slidelab: {message}\n")


def test_the_largest_limit_is_no_limit(tmp_path, capsys):
    path = tmp_path / "p.dlx"
    path.write_text("A B\nA\nB\nA B\n")
    assert main(["dlx", str(path), "--count", "--limit", "9223372036854775807"]) == 0
    assert capsys.readouterr().out == "2\n"


@given(limit=st.integers(-(10**25), 10**25), seed=st.integers(-(10**25), 10**25))
@settings(max_examples=40, deadline=None)
def test_any_limit_and_seed_give_an_answer_or_a_refusal_by_name(tmp_path_factory, limit, seed):
    path = tmp_path_factory.mktemp("p") / "p.dlx"
    path.write_text("A B\nA\nB\nA B\n")
    status = main(["dlx", str(path), "--count", "--limit", str(limit), "--seed", str(seed)])
    usable = 1 <= limit <= 2**63 - 1 and seed >= 0
    assert status == (0 if usable else 2)

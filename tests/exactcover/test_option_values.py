"""Option values of `slidelab dlx` that argparse lets through are refused by name."""

from __future__ import annotations

import pytest

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

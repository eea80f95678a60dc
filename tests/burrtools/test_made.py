"""The project's own BurrTools files are exactly what the script that makes them writes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from .made import DATA, MADE

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_burrtools_test_data.py"


def test_the_files_in_the_repository_are_what_the_script_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("make_burrtools_test_data", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    script.main([str(tmp_path)])
    assert capsys.readouterr().out.split() == [str(tmp_path / name) for name in MADE]
    assert sorted(p.name for p in DATA.iterdir()) == sorted(MADE)
    for name in MADE:
        assert (DATA / name).read_bytes() == (tmp_path / name).read_bytes(), name
    script.main([str(tmp_path)])
    assert all((DATA / name).read_bytes() == (tmp_path / name).read_bytes() for name in MADE)

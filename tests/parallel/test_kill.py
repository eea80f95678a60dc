"""A run killed with SIGKILL half way resumes from its journal to the same count."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from slidelab.cli import main

SPEC = "resources/puzzles/polycube/solid-pentominoes-3x4x5.pcube"


def test_a_killed_run_resumes_to_the_same_count(tmp_path, capsys):
    journal = tmp_path / "box.journal"
    command = [sys.executable, "-m", "slidelab", "polycube", SPEC, "--count", "--jobs", "2"]
    killed = subprocess.Popen(
        [*command, "--journal", str(journal)],
        start_new_session=True,  # its worker processes share its process group
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 300
    while not journal.exists() or len(journal.read_text().splitlines()) < 5:
        assert killed.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait()
    assert killed.returncode == -signal.SIGKILL
    recorded = len(journal.read_text().splitlines()) - 1
    assert main(["polycube", SPEC, "--count", "--jobs", "2", "--journal", str(journal)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "31520\n"
    assert main(["polycube", SPEC, "--count", "--json", "--journal", str(journal)]) == 0
    summary = capsys.readouterr().out
    assert f'"resumed": {len(journal.read_text().splitlines()) - 1}' in summary
    assert '"solutions": 31520' in summary
    assert recorded >= 4

"""`slidelab dlx`: output forms, JSON fields, exit statuses and saved runs."""

from __future__ import annotations

import io
import json

import pytest

from slidelab.cli import main
from slidelab.exactcover import command
from slidelab.exactcover.dlxformat import format_problem
from tests.exactcover.problems import queens
from tests.exactcover.test_dlxformat import DLX1_EXAMPLE, DLX3_EXAMPLE


@pytest.fixture
def example(tmp_path):
    path = tmp_path / "example.dlx"
    path.write_text(DLX1_EXAMPLE)
    return str(path)


@pytest.fixture
def queens8(tmp_path):
    path = tmp_path / "queens8.dlx"
    path.write_text(format_problem(queens(8)))
    return str(path)


def test_solutions_print_as_option_lines(capsys, example):
    assert main(["dlx", example]) == 0
    captured = capsys.readouterr()
    assert captured.out == "A D\nC E F\nB G\n\n"
    assert captured.err.startswith("Altogether 1 solution, ")


def test_count(capsys, queens8):
    assert main(["dlx", queens8, "--count"]) == 0
    assert capsys.readouterr().out == "92\n"


def test_json_has_the_promised_fields(capsys, queens8):
    assert main(["dlx", queens8, "--count", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solutions"] == 92
    assert result["nodes"] > 0
    assert (result["items"], result["primary"], result["secondary"]) == (46, 16, 30)
    assert result["options"] == 64
    assert result["seconds"] >= 0
    assert result["complete"] is True
    assert "found" not in result


def test_json_lists_solutions_unless_counting(capsys, tmp_path):
    path = tmp_path / "m.dlx"
    path.write_text(DLX3_EXAMPLE)
    assert main(["dlx", str(path), "--json", "--engine", "links"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["found"] == [["A C X:1 Y:1", "B X:1", "C Y:1"]]
    assert result["engine"] == "links"


def test_reads_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(DLX1_EXAMPLE.encode())))
    assert main(["dlx", "--count"]) == 0
    assert capsys.readouterr().out == "1\n"


def test_bad_input_exits_2_with_file_line_column(capsys, tmp_path):
    path = tmp_path / "bad.dlx"
    path.write_text("A B\nA C\n")
    assert main(["dlx", str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"{path}:2:3: unknown item 'C'"


def test_no_solution_exits_1(capsys, tmp_path):
    path = tmp_path / "none.dlx"
    path.write_text("A B\nA\n")
    assert main(["dlx", str(path), "--count"]) == 1
    assert capsys.readouterr().out == "0\n"


def test_options_without_primary_items_are_reported(capsys, tmp_path):
    path = tmp_path / "idle.dlx"
    path.write_text("A | X\nA\nX\n")
    assert main(["dlx", str(path), "--count"]) == 0
    assert "1 option without a primary item can never be chosen" in capsys.readouterr().err


def test_limit_seed_and_bad_limit(capsys, queens8):
    assert main(["dlx", queens8, "--limit", "3", "--seed", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solutions"] == 3 and not result["complete"]
    assert len(result["found"]) == 3
    assert main(["dlx", queens8, "--limit", "0"]) == 2
    assert "--limit must be at least 1" in capsys.readouterr().err


def test_save_and_resume(capsys, tmp_path, queens8):
    state = str(tmp_path / "run.npz")
    assert main(["dlx", queens8, "--count", "--limit", "10", "--save", state]) == 0
    assert capsys.readouterr().out == "10\n"
    assert main(["dlx", queens8, "--count", "--resume", state]) == 0
    assert capsys.readouterr().out == "92\n"
    other = tmp_path / "other.dlx"
    other.write_text(DLX1_EXAMPLE)
    assert main(["dlx", str(other), "--resume", state]) == 2
    assert "belongs to another problem" in capsys.readouterr().err


def test_one_job_searches_the_whole_problem_in_this_process(capsys, queens8):
    assert main(["dlx", queens8, "--count", "--json", "--jobs", "1", "--engine", "cells"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["solutions"], summary["engine"]) == (92, "cells")
    assert "subproblems" not in summary


def test_a_small_count_on_two_jobs_runs_alone(capsys, queens8):
    assert main(["dlx", queens8, "--count", "--json", "--jobs", "2"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["solutions"], summary["subproblems"], summary["where"]) == (
        92,
        1,
        "this process",
    )
    assert main(["dlx", queens8, "--count", "--jobs", "2", "--limit", "3"]) == 2


def test_a_json_listing_stopped_and_resumed_lists_every_solution_once(
    capsys, tmp_path, monkeypatch
):
    """Stopped (Ctrl-C as the second batch is shown), --json prints what it listed; the run
    that resumes lists the rest and says how many came before."""
    path = tmp_path / "queens10.dlx"
    path.write_text(format_problem(queens(10)))
    assert main(["dlx", str(path), "--json", "--jobs", "1"]) == 0
    everything = json.loads(capsys.readouterr().out)["found"]
    real = command.drive_in_terminal

    def stopped_at_the_second_batch(search, show):
        shown = []

        def show_or_stop(batch):
            if shown:
                raise KeyboardInterrupt
            shown.append(batch)
            show(batch)

        return real(search, show_or_stop)

    state = str(tmp_path / "run.npz")
    monkeypatch.setattr(command, "drive_in_terminal", stopped_at_the_second_batch)
    assert main(["dlx", str(path), "--json", "--save", state]) == 130
    first = json.loads(capsys.readouterr().out)
    monkeypatch.undo()
    assert main(["dlx", str(path), "--json", "--resume", state]) == 0
    rest = json.loads(capsys.readouterr().out)
    assert (first["complete"], first["stopped"]) == (False, True)
    assert first["solutions"] == len(first["found"]) == rest["solutions_before"] > 0
    assert rest["solutions"] == len(everything) == 724
    assert first["found"] + rest["found"] == everything

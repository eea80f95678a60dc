"""`slidelab polycube FILE --disassemble` in chunks (--jobs, --journal): one process's output."""

from __future__ import annotations

import dataclasses

import pytest

from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.cli import main
from slidelab.disassembly import batch, split


@pytest.fixture
def split_at_once(monkeypatch):
    """One assembly is taken apart here, the rest in chunks (tests/disassembly/test_split.py)."""
    monkeypatch.setattr(batch, "FIRST_LOOK", 0.0)
    monkeypatch.setattr(split, "ALONE_SECONDS", -1.0)


def test_two_processes_and_a_journal_print_what_one_process_prints(
    examples, split_at_once, tmp_path, capsys
):
    command = ["polycube", str(examples / "CubeInCage.xmpuzzle"), "--disassemble", "--json"]
    assert main([*command, "--jobs", "1"]) == 0
    alone = capsys.readouterr()
    assert alone.err == ""
    assert '"assemblies": 1152, "disassemblable": 12, "highest_level": [4, 9, 3]' in alone.out
    assert main([*command, "--jobs", "2"]) == 0
    assert capsys.readouterr() == (
        alone.out,
        "Taken apart here (1 assembly), then in 46 chunks on 2 processes.\n",
    )
    journal = str(tmp_path / "cage.journal")
    assert main([*command, "--jobs", "2", "--journal", journal]) == 0
    assert capsys.readouterr() == (alone.out, "Taken apart in 46 chunks on 2 processes.\n")
    assert main([*command, "--journal", journal]) == 0
    assert capsys.readouterr() == (
        alone.out,
        "Taken apart in 46 chunks on 2 processes; 46 chunks from the journal.\n",
    )


def test_text_and_written_puzzle_are_those_of_one_process(
    examples, split_at_once, tmp_path, capsys
):
    command = ["polycube", str(examples / "CubeInCage.xmpuzzle"), "--disassemble"]
    written = []
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"cage-{jobs}.xmpuzzle"
        assert main([*command, "--jobs", jobs, "--export-xmpuzzle", str(out)]) == 0
        outputs.append(capsys.readouterr().out)
        (problem,) = read_xmpuzzle(out).problems
        assert (problem.assemblies, problem.solutions, len(problem.stored)) == (1152, 12, 12)
        written.append(dataclasses.replace(problem, time=None))  # seconds of the run
    assert outputs[0] == outputs[1] and outputs[0].startswith(
        "12 of 1152 assemblies in the fixed result come apart; highest level 4.9.3\n"
    )
    assert written[0] == written[1]


def test_a_damaged_journal_is_a_clear_message(examples, split_at_once, tmp_path, capsys):
    journal = tmp_path / "cage.journal"
    command = ["polycube", str(examples / "CubeInCage.xmpuzzle"), "--disassemble", "--distinct"]
    assert main([*command, "--journal", str(journal)]) == 0
    lines = journal.read_bytes().split(b"\n")
    lines[1] = lines[1][:40] + bytes([lines[1][40] ^ 1]) + lines[1][41:]  # one bit flipped
    journal.write_bytes(b"\n".join(lines))
    capsys.readouterr()
    assert main([*command, "--journal", str(journal)]) == 2
    assert capsys.readouterr() == (
        "",
        f"slidelab: {journal}:2: damaged journal record (checksum mismatch: changed, or from "
        "another journal); delete this line to search its subproblem again\n",
    )
    assert main([*command[:-1], "--journal", str(journal)]) == 2  # every assembly, not classes
    assert capsys.readouterr().err.startswith(
        f"slidelab: {journal}: this journal belongs to another problem, or to the same one split "
        "by other rules ("
    )


@pytest.mark.parametrize(
    "options",
    [["--count", "--jobs", "2"], ["--distinct", "--journal", "j"], ["--scheduler", "tcp://h:1"]],
)
def test_only_disassemble_splits_a_burrtools_file(examples, capsys, options):
    assert main(["polycube", str(examples / "CubeInCage.xmpuzzle"), *options]) == 2
    assert capsys.readouterr().err == (
        "slidelab: --jobs, --scheduler and --journal split --disassemble only, for .xmpuzzle "
        "files and --export-xmpuzzle\n"
    )

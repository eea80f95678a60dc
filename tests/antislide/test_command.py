"""`slidelab antislide`: JSON fields, listing, --check and bad input."""

from __future__ import annotations

import argparse
import hashlib
import json

import pytest

from slidelab.antislide import command, search
from slidelab.cli import main
from slidelab.errors import ParseError, SlidelabError
from tests.antislide.figures import SEED_NON_EXAMPLE, SEED_3x3x3


def run(*arguments: str) -> int:
    parser = argparse.ArgumentParser()
    command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["antislide", *arguments])
    return args.run(args)


def test_json_has_the_promised_fields(capsys):
    assert run("3", "3", "3", "--json") == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solutions"] == 2
    assert result["by_blocks"] == {"0": 1, "6": 1}
    assert (result["min_blocks"], result["max_blocks"]) == (6, 6)
    assert result["symmetries"] == 48


def test_json_of_a_non_cube(capsys):
    assert run("2", "4", "2", "--json") == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["solutions"], result["by_blocks"], result["symmetries"]) == (
        6,
        {"0": 1, "4": 5},
        16,
    )


def test_list_prints_layer_notation(capsys):
    assert run("3", "3", "3", "--list", "--min-blocks", "1") == 0
    out = capsys.readouterr().out
    assert "# 1: (6 syms, 6 blks)" in out
    assert "1 classes of antisliding packings (6 blocks: 1)" in out


def test_check_accepts_the_seeds_packing(tmp_path, capsys):
    path = tmp_path / "good.txt"
    path.write_text(SEED_3x3x3)
    assert run("--check", str(path)) == 0
    assert "antisliding" in capsys.readouterr().out


def test_check_names_the_sliding_bricks(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(SEED_NON_EXAMPLE)
    assert run("--check", str(path)) == command.EXIT_SLIDES
    lines = capsys.readouterr().out.splitlines()
    assert {line.split()[1] for line in lines} == {"2", "3", "5"}
    assert "brick 2 can slide +y" in lines


def test_check_reports_a_bad_brick_with_its_position(tmp_path):
    path = tmp_path / "odd.txt"
    path.write_text("1 1 .\t. . .\n1 . .\t. . .\n")
    with pytest.raises(ParseError) as error:
        run("--check", str(path))
    assert str(error.value) == f"{path}:1:1: brick 1 is not a 2x2x1 block"


@pytest.mark.parametrize("token", ["é", "x!", "1_0", "٤", "-1"])
def test_check_takes_only_labels_and_dots(tmp_path, token):
    path = tmp_path / "odd.txt"
    path.write_text(f". {token}\n. {token}\n")
    with pytest.raises(ParseError) as error:
        run("--check", str(path))
    message = "a cell is '.' or a brick's label (1-9, A-Z, a-z, then numbers)"
    assert str(error.value) == f"{path}:1:3: unexpected '{token}': {message}"


def test_labels_past_the_letters_are_numbers(tmp_path, capsys):
    path = tmp_path / "many.txt"
    path.write_text("# brick 1x1x1\n62 63\n")
    assert run("--check", str(path)) == 0
    assert capsys.readouterr().out == "antisliding: no brick of the 2 can slide\n"


def test_check_takes_the_brick_from_the_files_brick_line(tmp_path, capsys):
    path = tmp_path / "unit.antislide"
    path.write_text("# brick 1x1x1\n1 2\n3 4\n")
    assert run("--check", str(path)) == 0
    assert capsys.readouterr().out == "antisliding: no brick of the 4 can slide\n"
    assert run("--check", str(path), "--brick", "1", "1", "1") == 0
    with pytest.raises(SlidelabError) as error:
        run("--check", str(path), "--brick", "2", "2", "1")
    assert str(error.value) == f"{path}: its brick line says 1x1x1, but --brick says 2 2 1"


def test_missing_dimensions_are_bad_input():
    with pytest.raises(SlidelabError):
        run("3", "3")
    with pytest.raises(SlidelabError):
        run("3", "0", "3")


def test_jobs_and_journal_give_the_same_counts(capsys, tmp_path):
    journal = tmp_path / "4x4x5.journal"
    arguments = ["4", "4", "5", "--jobs", "2", "--journal", str(journal), "--json"]
    assert run(*arguments) == 0
    first = json.loads(capsys.readouterr().out)
    assert (first["solutions"], first["resumed"]) == (47403, 0)
    assert run(*arguments) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["by_blocks"] == first["by_blocks"] and again["resumed"] == first["subproblems"]


def test_jobs_must_be_positive():
    with pytest.raises(SlidelabError, match=r"^--jobs must be at least 1$"):
        run("3", "3", "3", "--jobs", "0")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("arguments", "digest"),
    [
        ("4 4 5 --list --max-blocks 17 --jobs 1", "a8d2734fa6bca46b"),
        ("4 4 5 --list --max-blocks 17 --jobs 2", "a8d2734fa6bca46b"),  # 35 subproblems
        ("4 4 5 --list --max-blocks 17 --jobs 1 --json", "1fb32bb52cd3a4ad"),
        ("4 4 4 --list --jobs 2 --json", "893387bc67bf68fd"),  # one subproblem
    ],
)
def test_listings_stay_as_they_were(capsys, arguments, digest):
    """Digests of the output before packings were printed as they are found (and the JSON
    written one packing at a time): the same packings, in the same order, byte for byte."""
    assert main(["antislide", *arguments.split()]) == 0
    out = capsys.readouterr().out
    assert _digest(out) == digest
    if "--json" in arguments:
        assert out == json.dumps(json.loads(out)) + "\n"


def test_listed_packings_are_printed_as_they_are_found(capsys, monkeypatch):
    """--list kept every packing until the search ended: 5 5 5 --list > out.txt grew past 3 GB
    without writing a byte.  Stopped after a few kernel calls, it has listed what they found."""
    assert main(["antislide", "4", "4", "5", "--list", "--jobs", "1"]) == 0
    whole = capsys.readouterr().out
    chunk, calls = search._Run.chunk, []

    def chunk_then_stop(run: search._Run) -> int:
        calls.append(run)
        if len(calls) > 5:
            raise KeyboardInterrupt
        return chunk(run)

    monkeypatch.setattr(search._Run, "chunk", chunk_then_stop)
    assert main(["antislide", "4", "4", "5", "--list", "--jobs", "1"]) == 130
    listed = capsys.readouterr().out
    assert listed.startswith("# 1: (16 syms, 0 blks)\n") and whole.startswith(listed)
    assert listed.count("# ") == int(calls[0].out.by_blocks.sum())


def test_kept_packings_are_refused_past_the_memory_budget(capsys, monkeypatch):
    """In JSON the packings come after the counts: they are kept, and counted.  (A constant
    kernel budget makes each batch the buffer's 4,096 packings, so the count stops at the
    same one every time.)"""
    monkeypatch.setattr(search, "next_budget", lambda *pace: 1 << 24)
    assert main(["antislide", "4", "4", "5", "--list", "--json", "--max-memory", "10M"]) == 3
    assert capsys.readouterr() == (
        "",
        "slidelab: keeping the listed packings would need 10.6 MiB, more than the limit set "
        "by --max-memory (10.0 MiB)\n",
    )


def test_gathered_packings_are_refused_past_the_memory_budget(capsys):
    """Split, the packings are listed in the whole search's order once every subproblem has
    ended: they are gathered, and counted (4 x 4 x 4 is searched whole, in one subproblem)."""
    assert main(["antislide", "4", "4", "4", "--list", "--jobs", "2", "--max-memory", "1.5M"]) == 3
    assert capsys.readouterr() == (
        "",
        "slidelab: gathering the subproblems' packings would need 3.5 MiB, more than the limit "
        "set by --max-memory (1.5 MiB)\n",
    )

"""`slidelab dissect`: output, JSON fields, options, exit statuses and bad input."""

from __future__ import annotations

import io
import json

import pytest

from slidelab.cli import main
from slidelab.library import shipped_text
from tests.dissection.figures import TOY


@pytest.fixture
def toy(tmp_path):
    path = tmp_path / "toy.dots"
    path.write_text(TOY)
    return str(path)


def library_file(tmp_path, name: str) -> str:
    path = tmp_path / name
    path.write_text(shipped_text("dissection", name))
    return str(path)


def test_listing_as_the_seed_prints_it(toy, capsys):
    assert main(["dissect", "2", toy]) == 0
    out = capsys.readouterr().out
    blocks = out.split("Solution ")[1:]
    assert [b.split(",")[0] for b in blocks] == ["1", "2", "3"]
    assert "Solution 3, from 13~0 15~1:\n212  1222\n212  1..2\n222  .222\n" in out
    assert out.endswith("3 solutions with 2 pieces (29 legal shifts)\n")


def test_count_and_json(toy, capsys):
    assert main(["dissect", "2", toy, "--count"]) == 0
    assert capsys.readouterr().out == "3 solutions with 2 pieces (29 legal shifts)\n"
    assert main(["dissect", "2", toy, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["solutions"], result["shifts"], result["pieces"]) == (3, 29, 2)
    assert {"maps": [[13, 0], [15, 1]], "source": ["212", "212", "222"],
            "target": ["1222", "1..2", ".222"]} in result["found"]  # fmt: skip
    assert main(["dissect", "2", toy, "--json", "--count", "--flips", "--connected"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert "found" not in result and result["flips"] and result["connected"]


def test_min_pieces(tmp_path, capsys):
    strip = library_file(tmp_path, "strip-1x9.dots")
    assert main(["dissect", "2", strip, "--count"]) == 1
    capsys.readouterr()
    assert main(["dissect", "9", strip, "--min-pieces", "--json", "--count"]) == 0
    fewest = json.loads(capsys.readouterr().out)
    assert main(["dissect", "3", strip, "--json", "--count"]) == 0
    three = json.loads(capsys.readouterr().out)
    assert fewest["pieces"] == 3 and fewest["solutions"] == three["solutions"] > 0
    assert main(["dissect", "2", strip, "--min-pieces"]) == 1
    assert capsys.readouterr().out == "no solutions with 2 to 2 pieces (33 legal shifts)\n"


def test_another_source_shape(tmp_path, capsys):
    source = tmp_path / "bar.dots"
    source.write_text("****\n")
    target = tmp_path / "square.dots"
    target.write_text("**\n**\n")
    assert main(["dissect", "2", str(target), "--from", str(source), "--connected"]) == 0
    out = capsys.readouterr().out
    assert "1122  11\n      22\n" in out
    source.write_text("***\n")
    assert main(["dissect", "2", str(target), "--from", str(source)]) == 2
    message = f"{target}:1:1: the shape has 4 cells but the source shape has 3\n"
    assert capsys.readouterr().err == message


def test_shape_from_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(TOY.encode())))
    assert main(["dissect", "2", "-", "--count"]) == 0
    assert capsys.readouterr().out.startswith("3 solutions")


def test_source_shape_from_stdin(tmp_path, monkeypatch, capsys):
    target, source = tmp_path / "square.dots", tmp_path / "bar.dots"
    target.write_text("**\n**\n")
    source.write_text("****\n")
    assert main(["dissect", "2", str(target), "--from", str(source), "--count"]) == 0
    from_file = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"****\n")))
    assert main(["dissect", "2", str(target), "--from", "-", "--count"]) == 0
    assert capsys.readouterr().out == from_file == "8 solutions with 2 pieces (20 legal shifts)\n"
    assert main(["dissect", "2", "-", "--from", "-", "--count"]) == 2
    message = "slidelab: SHAPE and --from cannot both be read from standard input ('-')\n"
    assert capsys.readouterr().err == message


@pytest.mark.parametrize(
    ("text", "arguments", "message"),
    [
        ("***\n*.*\n", [], "{}:1:1: the shape has 5 cells, which is not a perfect square"),
        ("**\n*o\n", [], "{}:2:2: unexpected character 'o' (use '.' and '*')"),
        ("....\n", [], "{}:1:1: the shape has no cells ('*')"),
        (TOY, ["--from", "{}.missing"], "slidelab: {}.missing: cannot read: No such file"),
    ],
)
def test_bad_input_is_reported_without_a_traceback(tmp_path, capsys, text, arguments, message):
    path = tmp_path / "bad.dots"
    path.write_text(text)
    arguments = [a.format(path) for a in arguments]
    assert main(["dissect", "2", str(path), *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message.format(path)) and "Traceback" not in err


def test_bad_numbers_of_pieces(toy, capsys):
    assert main(["dissect", "1", toy]) == 2
    assert "from 2 to 16, not 1" in capsys.readouterr().err
    assert main(["dissect", "17", toy, "--min-pieces"]) == 2


def test_distinct_lists_and_counts_one_dissection_per_class(tmp_path, capsys) -> None:
    square = tmp_path / "square.dots"
    square.write_text("***\n***\n***\n")
    assert main(["dissect", "2", str(square), "--connected", "--distinct", "--count"]) == 0
    summary = "221 solutions with 2 pieces (25 legal shifts); 54 distinct up to the target's 4 "
    assert capsys.readouterr().out == summary + "symmetries\n"
    assert main(["dissect", "2", str(square), "--connected", "--distinct"]) == 0
    out = capsys.readouterr().out
    assert out.count("Solution ") == 54 and out.endswith(summary + "symmetries\n")
    assert (
        main(["dissect", "2", str(square), "--connected", "--distinct", "--flips", "--json"]) == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["distinct"] == len(result["found"]) < result["solutions"]

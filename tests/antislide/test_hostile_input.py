"""Antislide files and options that used to end in a traceback or a silent misreading."""

from __future__ import annotations

import pytest

from slidelab import memory
from slidelab.antislide.document import parse_document
from slidelab.antislide.model import Placement
from slidelab.cli import main
from slidelab.errors import ParseError


def test_a_non_ascii_digit_is_not_a_label():
    """'²' passes str.isdigit but int() refuses it: labels are 1-9, A-Z, a-z, then numbers."""
    with pytest.raises(ParseError) as error:
        parse_document("# brick 2x2x1\n² ²  1 1\n² ²  1 1\n", "p.antislide")
    assert str(error.value).startswith("p.antislide:2:1: unexpected '²'")


def test_numbered_labels_keep_their_order_at_any_length():
    long_label = "1" + "0" * 5000  # beyond int()'s 4,300 digits
    text = f"# brick 1x1x1\n{long_label} 0063 63 A\n"
    document = parse_document(text)
    assert document.bricks == tuple(Placement((0, 0, k), (1, 1, 1)) for k in (3, 1, 2, 0))


@pytest.mark.parametrize(
    ("brick", "column", "message"),
    [
        ("2x2x" + "9" * 5000, 13, "brick sizes must be at most 2147483647"),
        ("2x4294967297x1", 11, "brick sizes must be at most 2147483647"),
        ("0x2x1", 9, "brick sizes must be positive"),
    ],
)
def test_brick_sizes_beyond_the_engine_are_refused(brick, column, message):
    with pytest.raises(ParseError) as caught:
        parse_document(f"# brick {brick}\n. .\n", "p.antislide")
    assert str(caught.value) == f"p.antislide:1:{column}: {message}"


def test_a_non_ascii_brick_size_is_not_a_brick_line():
    """'\u0663' (Arabic-Indic three) was read as 3; the line is a title, the brick 2x2x1."""
    document = parse_document("# brick 2x\u0663x1\n1 1  1 1\n")
    assert (document.brick, document.title) == ((2, 2, 1), "brick 2x\u0663x1")


def test_check_reports_invalid_utf8_where_it_is(tmp_path, capsys):
    path = tmp_path / "bad.antislide"
    path.write_bytes(b"1 1 .\n1 1 \xe9\n")
    assert main(["antislide", "--check", str(path)]) != 0
    assert capsys.readouterr().err == f"{path}:2:5: invalid UTF-8 (byte 0xe9)\n"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--min-blocks", "5", "--max-blocks", "2"],
         "--max-blocks 2 is below --min-blocks 5: no packing fits"),
        (["--min-blocks", "-1"], "--min-blocks must be at least 0, not -1"),
    ],
)  # fmt: skip
def test_block_ranges_that_hold_nothing_are_refused(capsys, options, message):
    assert main(["antislide", "3", "3", "3", *options]) != 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"slidelab: {message}\n")


@pytest.mark.parametrize(
    ("dims", "needed"),
    [
        ("99999999999999999999 3 3", "2,258,300,781,249,999,872.0 MiB"),
        ("2000 2000 2000", "40,977,548.6 MiB"),
    ],
)
def test_an_enormous_box_is_refused_by_the_memory_budget(capsys, dims, needed):
    """The symmetries' table was made cell by cell before the budget was asked: numpy's
    'Maximum allowed dimension exceeded' or a 59.6 GiB allocation, as a traceback."""
    assert main(["antislide", *dims.split(), "--max-memory", "1G"]) != 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (
        "",
        f"slidelab: building the tables would need {needed}, more than the limit set by "
        "--max-memory (1,024.0 MiB)\n",
    )


@pytest.mark.parametrize(
    ("arguments", "needed", "limit"),
    [
        ("1 1 1000000 --max-memory 500M", "at least 500,335.3 MiB", "500.0"),
        ("1 1 300000 --max-memory 500M", "at least 75,100.9 MiB", "500.0"),
        ("1 1 100000 --jobs 1 --max-memory 500M", "at least 6,283.6 MiB", "500.0"),
        ("2 2 20000 --jobs 1 --max-memory 500M", "at least 10,655.7 MiB", "500.0"),
        ("2 2 20000 --jobs 2 --max-memory 500M", "at least 10,655.7 MiB", "500.0"),
        # within the least a box of its size needs, refused once its tables are built
        ("1 1 2000 --brick 1 1 2 --jobs 1 --max-memory 5M", "7.4 MiB", "5.0"),
        ("1 1 2000 --brick 1 1 2 --jobs 2 --max-memory 5M", "7.4 MiB", "5.0"),
    ],
)
def test_a_search_beyond_the_memory_budget_is_refused(capsys, arguments, needed, limit):
    """The search's stacks and bitboards, which grow with the square of the cells, were made
    without asking the budget: 1 1 1000000 ended in numpy's ArrayMemoryError (488 GiB), and
    2 2 20000 --max-memory 500M held 11 GB."""
    assert main(["antislide", *arguments.split()]) == 3
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (
        "",
        f"slidelab: the search would need {needed}, more than the limit set by --max-memory "
        f"({limit} MiB)\n",
    )


def test_a_search_beyond_the_default_budget_is_refused(capsys, monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: 8 << 30)
    assert main(["antislide", "1", "1", "1000000"]) == 3
    assert capsys.readouterr().err == (
        "slidelab: the search would need at least 500,335.3 MiB, more than the default memory "
        "budget (60% of the available memory, 4,915.2 MiB; set it with --max-memory)\n"
    )


@pytest.mark.parametrize(
    ("huge", "same"),
    [
        (["--max-blocks", str(2**64)], []),
        (["--max-blocks", str(10**20), "--jobs", "2"], ["--jobs", "2"]),
        (["--min-blocks", str(10**20)], ["--min-blocks", "17"]),
        (["--min-blocks", str(2**64), "--max-blocks", str(2**64 + 1), "--jobs", "2"],
         ["--min-blocks", "17", "--jobs", "2"]),
    ],
)  # fmt: skip
def test_block_counts_beyond_the_box_mean_what_its_most_means(capsys, huge, same):
    """--max-blocks 18446744073709551616 (or 10**20) stopped numba with a TypingError ("Int
    value is too large"): a max from the most bricks the box holds up is no limit, and a min
    above it leaves no packing, as --help says."""
    assert main(["antislide", "4", "4", "4", "--json", *same]) == 0
    expected = capsys.readouterr()
    assert main(["antislide", "4", "4", "4", "--json", *huge]) == 0
    assert capsys.readouterr() == expected

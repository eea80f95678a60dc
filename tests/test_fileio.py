"""Atomic saves, file-family detection, and no file written over one a command reads."""

from __future__ import annotations

import codecs
import io
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.cli import main
from slidelab.dissection.family import DISSECTION
from slidelab.errors import ParseError
from slidelab.fileio import (
    TEXT_LIMIT,
    FileAccessError,
    decode_text,
    read_bytes,
    read_input,
    read_text,
    refuse_writing_inputs,
    write_text_atomically,
)
from slidelab.formats import UnknownFormatError, detect_family
from slidelab.polycube.family import POLYCUBE
from slidelab.sliding.family import SLIDING


def test_atomic_save_replaces_the_file_and_leaves_nothing_behind(tmp_path):
    target = tmp_path / "p.slide"
    target.write_text("old")
    os.chmod(target, 0o600)
    write_text_atomically(target, "new text\n")
    assert target.read_text() == "new text\n"
    assert os.listdir(tmp_path) == ["p.slide"]
    assert target.stat().st_mode & 0o777 == 0o600


def test_a_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "p.slide"
    target.write_text("old")

    def broken(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(FileAccessError, match="cannot write: No space left on device"):
        write_text_atomically(target, "new")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["p.slide"]


def test_reading_a_missing_file_names_it(tmp_path):
    with pytest.raises(FileAccessError) as caught:
        read_text(tmp_path / "gone.slide")
    assert str(caught.value) == f"{tmp_path / 'gone.slide'}: cannot read: No such file or directory"


@pytest.mark.parametrize("command", [["slide"], ["dlx"], ["polycube"], ["dissect", "2"]])
def test_a_device_that_never_ends_is_refused_once_the_limit_is_read(capsys, command):
    """Before the limit, `slidelab slide /dev/zero` held 18 GB after 20 s."""
    assert main([*command, "/dev/zero"]) == 2
    assert (
        capsys.readouterr().err == "slidelab: /dev/zero: cannot read: it holds more than 256 MiB\n"
    )


def test_standard_input_is_read_up_to_the_limit(monkeypatch):
    endless = io.TextIOWrapper(io.BytesIO(b"x" * (TEXT_LIMIT + 1)))
    monkeypatch.setattr("sys.stdin", endless)
    with pytest.raises(FileAccessError) as caught:
        read_input("-")
    assert str(caught.value) == "<stdin>: cannot read: it holds more than 256 MiB"


def test_a_file_at_the_limit_is_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr("slidelab.fileio._READ_CHUNK", 7)
    path = tmp_path / "p.dots"
    path.write_bytes(b"*" * 64)
    assert read_bytes(path, 64) == b"*" * 64
    with pytest.raises(FileAccessError):
        read_bytes(path, 63)


def test_family_from_extension_or_content():
    assert detect_family("a.slide", "") == SLIDING
    assert detect_family("a.txt", "# note\n5 x 4 Klotski\n1 = 1\n") == SLIDING
    assert detect_family("a.pcube", "") == POLYCUBE
    assert detect_family("soma.txt", "| Soma\n[0-2][0-2][0-2]\nV 000 100 010\n") == POLYCUBE
    assert detect_family("plate", "000 100 010 110\nD 000 100\n") == POLYCUBE
    assert detect_family("toy.dots", "") == DISSECTION
    assert detect_family("toy.txt", "****\n*..*\n.***\n") == DISSECTION
    with pytest.raises(UnknownFormatError, match=r"b\.txt: not a puzzle file slidelab knows"):
        detect_family("b.txt", "hello\n")


def test_saving_through_a_symbolic_link_keeps_the_link(tmp_path):
    target = tmp_path / "real" / "p.slide"
    target.parent.mkdir()
    target.write_text("old")
    os.chmod(target, 0o600)
    link = tmp_path / "p.slide"
    link.symlink_to(target)
    write_text_atomically(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new\n" and target.stat().st_mode & 0o777 == 0o600
    assert sorted(os.listdir(target.parent)) == ["p.slide"]


@pytest.mark.parametrize(
    ("data", "where", "byte"),
    [
        (b"\xff", "1:1", "0xff"),
        (b"A B\nA \xc3\xa9 \xc3(\n", "2:5", "0xc3"),  # columns count characters: 'é' is one
        (b"A B\nA B\n\xe2\x82", "3:1", "0xe2"),  # cut inside a character at the end
    ],
)
def test_invalid_utf8_is_reported_at_its_line_and_column(tmp_path, data, where, byte):
    path = tmp_path / "p.dlx"
    path.write_bytes(data)
    with pytest.raises(ParseError) as caught:
        read_text(path)
    assert str(caught.value) == f"{path}:{where}: invalid UTF-8 (byte {byte})"


def test_the_command_reports_invalid_utf8_not_an_unknown_item(tmp_path, capsys):
    path = tmp_path / "p.dlx"
    path.write_bytes(b"A B\xff\nA B\n")
    assert main(["dlx", str(path), "--count"]) != 0
    assert capsys.readouterr().err == f"{path}:1:4: invalid UTF-8 (byte 0xff)\n"


@pytest.mark.parametrize(
    "arguments",
    [["dlx", "-"], ["polycube", "-"], ["dissect", "2", "-"]],
)
def test_invalid_utf8_on_stdin_is_reported_where_it_is(arguments, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"A B\nA \xff\n")))
    assert main(arguments) == 2
    assert capsys.readouterr().err == "<stdin>:2:3: invalid UTF-8 (byte 0xff)\n"


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("sliding/five-puzzle-2x3.slide", ["slide"]),
        ("polycube/soma.pcube", ["polycube", "--count"]),
        ("dissection/knuth-toy.dots", ["dissect", "3", "--count"]),
        ("antislide/3x3x3-six-blocks.antislide", ["antislide", "--check"]),
    ],
)
def test_a_byte_order_mark_first_is_dropped(tmp_path, capsys, name, arguments):
    """Files saved by Windows editors may start with U+FEFF; every format refused it on line 1
    ("illegal digit", "unexpected character '\\ufeff'", "expected the board size")."""
    shipped = Path(__file__).resolve().parents[1] / "resources" / "puzzles" / name
    marked = tmp_path / shipped.name
    marked.write_bytes(codecs.BOM_UTF8 + shipped.read_bytes())
    command, options = arguments[0], arguments[1:]
    assert main([command, *options, str(shipped)]) == 0
    plain = capsys.readouterr()
    assert main([command, *options, str(marked)]) == 0
    assert capsys.readouterr() == (plain.out, plain.err.replace(str(shipped), str(marked)))
    assert decode_text(codecs.BOM_UTF8 + b"A\n", "x") == "A\n"


@given(st.binary(max_size=200))
def test_a_byte_order_mark_changes_nothing_else(data):
    """Any bytes read the same with a mark in front: the same text, or the same refusal at
    the same line and column."""
    try:
        plain: str | tuple[int, int, str] = decode_text(data, "x")
    except ParseError as error:
        plain = (error.line, error.column, str(error))
    try:
        marked: str | tuple[int, int, str] = decode_text(codecs.BOM_UTF8 + data, "x")
    except ParseError as error:
        marked = (error.line, error.column, str(error))
    assert marked == plain


TOY = str(
    Path(__file__).resolve().parents[1] / "resources" / "puzzles" / "dissection" / "knuth-toy.dots"
)


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["dlx", "IN", "--count"], "--save"),
        (["dlx", "IN", "--count"], "--resume"),
        (["dlx", "IN", "--count"], "--journal"),
        (["polycube", "IN", "--count"], "--journal"),
        (["polycube", "IN"], "--export-xmpuzzle"),
        (["dissect", "3", "IN", "--count"], "--journal"),
        (["dissect", "3", TOY, "--from", "IN", "--count"], "--journal"),
        (["antislide", "--check", "IN"], "--journal"),
        (["slide", "IN", "--hardest"], "--journal"),
    ],
)
def test_a_command_refuses_to_write_over_its_input(tmp_path, capsys, command, option):
    """`dlx my.dlx --save my.dlx` made my.dlx a saved search: now nothing is read or written."""
    precious = tmp_path / "input"
    precious.write_text("precious\n")
    arguments = [str(precious) if argument == "IN" else argument for argument in command]
    assert main([*arguments, option, str(precious)]) == 2
    assert capsys.readouterr().err == (
        f"slidelab: {option} {precious} is the input {precious}: writing there would destroy "
        "it; give another file\n"
    )
    assert os.listdir(tmp_path) == ["input"] and precious.read_text() == "precious\n"


def test_the_same_file_is_found_through_links_and_other_spellings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("input").write_text("precious\n")
    Path("symbolic").symlink_to("input")
    os.link("input", "hard")
    Path("folder").mkdir()
    for output in ("symbolic", "hard", "./input", "folder/../input", str(tmp_path / "input")):
        with pytest.raises(FileAccessError, match=f"^--save {re.escape(output)} is the input "):
            refuse_writing_inputs({"--save": output}, ["input"])
    with pytest.raises(FileAccessError, match=r"^--journal \./gone is the input gone: "):
        refuse_writing_inputs({"--journal": "./gone"}, ["gone"])  # neither exists: by path
    Path("other").write_text("precious\n")
    refuse_writing_inputs({"--save": "other", "--journal": None}, ["input", None, "-"])
    refuse_writing_inputs({"--save": "new"}, ["input"])


def test_the_file_on_standard_input_is_an_input_too(tmp_path):
    """`slidelab dlx --save my.dlx < my.dlx`: standard input reads the file to be written."""
    precious = tmp_path / "input"
    precious.write_text("precious\n")
    kept = os.dup(0)
    reading = os.open(precious, os.O_RDONLY)
    try:
        os.dup2(reading, 0)
        with pytest.raises(FileAccessError) as refused:
            refuse_writing_inputs({"--save": str(precious)}, ["-"])
    finally:
        os.dup2(kept, 0)
        os.close(kept)
        os.close(reading)
    assert str(refused.value) == (
        f"--save {precious} is the file on standard input: writing there would destroy it; "
        "give another file"
    )

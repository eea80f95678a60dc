"""Hostile inputs for the parsers: valid files mutated byte by byte, and the rule they must obey.

Every parser, given any bytes, returns a value or raises its own `SlidelabError`
whose message says where: `FILE:LINE:COL: message` (a `ParseError` on a line of
the input), `FILE: ELEMENT PATH: message` for `.xmpuzzle`, `FILE[:LINE]: message`
for journals.  `PARSERS` maps each parser's name to a function reading bytes as
the application reads a file; the fuzz tests and the replay of the smallest
failing inputs kept under `tests/data/fuzz/<parser>/` share it.
"""

from __future__ import annotations

import gzip
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from slidelab.antislide.document import parse_document
from slidelab.burrtools.convert import puzzle_from_spec
from slidelab.burrtools.model import XmpuzzleError
from slidelab.burrtools.reader import parse_xmpuzzle
from slidelab.burrtools.writer import xmpuzzle_xml
from slidelab.dissection.shape import parse_region
from slidelab.errors import ParseError, SlidelabError
from slidelab.exactcover.dlxformat import format_problem, parse_problem
from slidelab.fileio import decode_text
from slidelab.library import shipped_names, shipped_text
from slidelab.parallel.journal import Journal, JournalError
from slidelab.parallel.tasks import TaskResult
from slidelab.polycube.spec import parse_spec
from slidelab.sliding.textformat import parse_puzzle
from tests.exactcover.problems import queens

THOROUGH = bool(os.environ.get("SLIDELAB_FUZZ")) or os.environ.get("CI", "") in ("true", "1")
EXAMPLES = 3000 if THOROUGH else 200
"""Examples per parser: a quick default, a few thousand when CI or SLIDELAB_FUZZ runs them."""

FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

DATA = Path(__file__).parent / "data" / "fuzz"
"""Smallest failing inputs found, one folder per parser; each beside its `.expected` message."""

JOURNAL_FINGERPRINT = "fuzz"
JOURNAL_RECORDS = (
    TaskResult((0,), 12, 345, {"solutions": [[1, 2, 3]]}),
    TaskResult((1, 0), 3, 9, {"by_blocks": {"12": 3}}),
    TaskResult((1, 1), 31520, 123456, {"covers": 7, "searches": 2}),
)
"""What the journal seed holds: a mutated journal may give back fewer, never others."""

INSERTS = [
    b"9" * 5000,
    b"4294967296",
    b"2147483648",
    b"18446744073709551616",
    b"-9223372036854775809",
    "\u0663".encode(),  # Arabic-Indic three: a digit for int() and \d
    "\u00b2".encode(),  # superscript two: isdigit() but not int()
    "\u00e9".encode(),
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\x00",
    b" ",
    b"\t",
    b"\n",
    b"\r",
    *(bytes([c]) for c in b'|:=x*#0.-[]<>/"{},'),
]
"""Bytes a hostile user inserts: huge and non-ASCII numbers, invalid UTF-8, syntax."""


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """One of `seeds` after one to four flips, insertions, deletions or splices."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "splice"]))
        at = draw(st.integers(0, len(data)))
        if kind == "flip" and data:
            data[min(at, len(data) - 1)] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(INSERTS) | st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 32))]
        elif kind == "splice":
            other = draw(st.sampled_from(seeds))
            start = draw(st.integers(0, len(other)))
            data[at:at] = other[start : start + draw(st.integers(1, 80))]
    return bytes(data)


def _text_parser(parse: Callable[[str, str], Any]) -> Callable[[bytes, str], Any]:
    """A parser of bytes, decoded as the application decodes files."""

    def parse_bytes(data: bytes, source: str) -> Any:
        return parse(decode_text(data, source), source)

    return parse_bytes


def read_journal(data: bytes, source: str) -> dict[tuple[int, ...], TaskResult]:
    """The records a journal holding `data` gives back (opened in a scratch folder)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / source
        path.write_bytes(data)
        try:
            journal = Journal(path, JOURNAL_FINGERPRINT, "fuzz")
        except JournalError as error:  # name the journal as `source`, not the scratch path
            raise JournalError(str(error).replace(str(path), source, 1)) from None
        journal.close()
        return journal.done


PARSERS: dict[str, Callable[[bytes, str], Any]] = {
    "sliding": _text_parser(parse_puzzle),
    "dlx": _text_parser(parse_problem),
    "polycube": _text_parser(parse_spec),
    "dissection": _text_parser(parse_region),
    "antislide": _text_parser(parse_document),
    "xmpuzzle": parse_xmpuzzle,
    "journal": read_journal,
}
SUFFIXES = {
    "sliding": ".slide",
    "dlx": ".dlx",
    "polycube": ".pcube",
    "dissection": ".dots",
    "antislide": ".antislide",
    "xmpuzzle": ".xmpuzzle",
    "journal": ".journal",
}


def _library(family: str) -> list[bytes]:
    return [shipped_text(family, name).encode() for name in shipped_names(family)]


def _xmpuzzle_seeds() -> list[bytes]:
    soma = parse_spec(shipped_text("polycube", "soma.pcube"), "soma.pcube")
    exported = xmpuzzle_xml(puzzle_from_spec(soma, "soma")).encode()
    solved = (
        b'<?xml version="1.0"?>\n<puzzle version="2"><gridType type="0"/>'
        b'<colors><color red="255" green="0" blue="12"/></colors><shapes>'
        b'<voxel x="2" y="1" z="1" type="0" name="ab">#1+</voxel>'
        b'<voxel x="2" y="2" z="1" type="0" hx="1" weight="3">####</voxel></shapes>'
        b'<problems><problem name="p" state="2" assemblies="1" solutions="1" time="5">'
        b'<shapes><shape id="0" count="2" group="1"/></shapes><result id="1"/>'
        b'<bitmap><pair piece="0" result="0"/></bitmap><solutions><solution asmNum="0" solNum="0">'
        b'<assembly>0 0 0 0 0 1 0 4</assembly><separation><pieces count="2">0 1</pieces>'
        b"<state><dx>0 0</dx><dy>0 2</dy></state></separation></solution></solutions>"
        b'</problem></problems><comment popup="">notes</comment></puzzle>'
    )
    return [exported, solved, gzip.compress(solved)]


def _journal_seed() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "seed.journal"
        journal = Journal(path, JOURNAL_FINGERPRINT, "fuzz")
        for result in JOURNAL_RECORDS:
            journal.record(result)
        journal.close()
        return path.read_bytes()


def seeds(parser: str) -> list[bytes]:
    """Valid inputs of `parser` to mutate."""
    if parser == "dlx":
        bounded = b"| bounds and colours\nA 2|B 0:3|C | X Y\nA B X:1\nA C Y:2\nB C X:1 Y:2\nB\n"
        return [format_problem(queens(5)).encode(), bounded]
    if parser == "xmpuzzle":
        return _xmpuzzle_seeds()
    if parser == "journal":
        return [_journal_seed()]
    family = {"sliding": "sliding", "polycube": "polycube", "dissection": "dissection"}.get(
        parser, "antislide"
    )
    return _library(family)


def check_error(parser: str, error: SlidelabError, data: bytes, source: str) -> None:
    """Fail unless `error` is the parser's own and its message says where the problem is."""
    message = str(error)
    if parser == "xmpuzzle":
        assert isinstance(error, XmpuzzleError), repr(error)
        assert message.startswith(f"{source}: {error.where}: ") and error.message, message
    elif parser == "journal":
        assert isinstance(error, JournalError), repr(error)
        assert re.match(rf"{re.escape(source)}(:\d+)?: \S", message), message
    else:
        assert isinstance(error, ParseError), repr(error)
        assert message == f"{source}:{error.line}:{error.column}: {error.message}"
        assert 1 <= error.line <= data.count(b"\n") + 2, message
        assert error.column >= 1 and error.message, message


def outcome(parser: str, data: bytes, source: str) -> Any:
    """The parser's value for `data`, or its checked error (anything else fails the test)."""
    try:
        return PARSERS[parser](data, source)
    except SlidelabError as error:
        check_error(parser, error, data, source)
        return error


def regression_files(parser: str) -> list[Path]:
    """The inputs kept for `parser`: every file with an `.expected` message beside it."""
    folder = DATA / parser
    return sorted(p for p in folder.glob("*") if p.suffix != ".expected") if folder.is_dir() else []


def journal_records_are_original(done: dict[tuple[int, ...], TaskResult]) -> bool:
    """Whether every record a journal gave back is one that was written (never a changed one)."""
    return all(result in JOURNAL_RECORDS for result in done.values())

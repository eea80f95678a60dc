"""`options.splits`: when a command searches in subproblems; --scheduler's address, checked
before any work."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from slidelab.cli import main
from slidelab.errors import SlidelabError
from slidelab.parallel import options


def args(jobs=None, scheduler=None, journal=None):
    return argparse.Namespace(jobs=jobs, scheduler=scheduler, journal=journal)


@pytest.mark.parametrize(
    ("given", "listing", "cores", "split"),
    [
        (args(), False, 2, True),  # a count uses every core by default
        (args(), True, 2, False),  # a listing only when --jobs asks
        (args(jobs=2), True, 2, True),
        (args(jobs=1), False, 2, False),  # one process: the whole search at once
        (args(), False, 1, False),
        (args(jobs=1, journal="j"), False, 2, True),  # a journal records subproblems
        (args(jobs=1, scheduler="tcp://h:1"), True, 2, True),
    ],
)
def test_splits(monkeypatch, given, listing, cores, split):
    monkeypatch.setattr(options, "default_jobs", lambda: cores)
    assert options.splits(given, listing) is split


@pytest.mark.parametrize("address", ["tcp://h:1", "h:8786", "tls://10.0.0.5:8786", "[::1]:8786"])
def test_a_scheduler_address_dask_can_connect_to_is_taken(address):
    pytest.importorskip("distributed")
    assert options.checked_scheduler(address) == address


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("garbage", "missing port number in address 'garbage'"),
        ("tcp://localhost", "missing port number in address 'localhost'"),
        ("foo://x:1", "unknown address scheme 'foo' (known schemes: ["),
        ("tcp://[::1", "invalid address '[::1'; maybe: ipv6 needs brackets like [::1]"),
        ("", "missing port number in address ''"),
        ("tcp://h:0", "port 0 is not from 1 to 65535"),
        ("tcp://h:65536", "port 65536 is not from 1 to 65535"),
        ("tcp://:8786", "no host"),
        ("inproc://x", "don't know how to extract host and port for address 'inproc://x'"),
    ],
)
def test_a_malformed_scheduler_address_is_refused_with_dasks_reason(address, reason):
    pytest.importorskip("distributed")
    with pytest.raises(SlidelabError) as refused:
        options.checked_scheduler(address)
    assert str(refused.value).startswith(
        f"{address!r} is not a Dask scheduler's address (such as tcp://10.0.0.5:8786): {reason}"
    )


def test_without_dask_a_scheduler_is_refused_before_any_work(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed.comm", None)  # as if not installed
    with pytest.raises(SlidelabError) as refused:
        options.checked_scheduler("tcp://h:1")
    assert str(refused.value) == (
        "Dask's distributed package is not installed: pip install 'slidelab[cluster]'"
    )


PUZZLES = Path(__file__).resolve().parents[2] / "resources" / "puzzles"


@pytest.mark.parametrize(
    "command",
    [
        ["dlx", "-", "--count"],
        ["polycube", str(PUZZLES / "polycube" / "soma.pcube"), "--count"],
        ["dissect", "3", str(PUZZLES / "dissection" / "knuth-toy.dots"), "--count"],
        ["antislide", "3", "3", "3"],
        ["slide", str(PUZZLES / "sliding" / "five-puzzle-2x3.slide"), "--hardest"],
    ],
    ids=lambda command: command[0],
)
def test_every_command_refuses_a_malformed_scheduler_as_it_reads_its_arguments(command, capsys):
    """Before: the search began, and Dask failed 20 s later with two tracebacks."""
    pytest.importorskip("distributed")
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--scheduler", "garbage"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"slidelab {command[0]}: error: argument --scheduler: 'garbage' is not a Dask "
        "scheduler's address (such as tcp://10.0.0.5:8786): missing port number in address "
        "'garbage'"
    )

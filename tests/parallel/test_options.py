"""`options.splits`: when a command searches in subproblems."""

from __future__ import annotations

import argparse

import pytest

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

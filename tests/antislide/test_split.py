"""The antislide search in subproblems finds the very packings of the whole search, in order."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.antislide.model import Box
from slidelab.antislide.search import solve
from slidelab.antislide.split import solve_split
from slidelab.parallel import run
from slidelab.parallel.journal import JournalError
from slidelab.runs import drive
from tests.parallel.forging import FORGING, forged, refused_or_right


@pytest.fixture
def tiny_budgets(monkeypatch):
    monkeypatch.setattr(run, "ROOT_NODES", 40)
    monkeypatch.setattr(run, "PROBE_NODES", 25)


@pytest.mark.parametrize(
    ("dims", "brick", "low", "high"),
    [
        ((3, 3, 4), (2, 2, 1), 0, None),
        ((4, 4, 4), (2, 2, 1), 0, None),
        ((4, 4, 4), (2, 2, 1), 13, 15),
        ((2, 3, 6), (1, 2, 3), 0, None),
        ((4, 3, 4), (2, 2, 1), 0, None),
    ],
)
def test_subproblems_find_the_same_packings(tiny_budgets, dims, brick, low, high):
    whole = drive(solve(Box(dims), brick, min_blocks=low, max_blocks=high, keep=True))
    split = drive(solve_split(Box(dims), brick, min_blocks=low, max_blocks=high, keep=True))
    assert split.result.by_blocks == whole.by_blocks
    assert split.result.packings == whole.packings
    assert split.subproblems > 1 or whole.nodes < 1024  # the first chunk ends small searches


def test_two_processes_count_4x4x5(tiny_budgets):
    split = drive(solve_split(Box((4, 4, 5)), jobs=2))
    assert split.result.solutions == 47403 and split.subproblems > 2


def test_workers_fork_when_alone_and_spawn_beside_threads_with_the_same_count(
    tiny_budgets, monkeypatch
):
    """The command line's forked workers run in tests/parallel/test_kill.py (a subprocess);
    here the choice, and a real run on spawned workers."""
    monkeypatch.setattr(run.threading, "active_count", lambda: 1)
    assert run._start_method() == "fork"
    monkeypatch.setattr(run.threading, "active_count", lambda: 2)
    assert run._start_method() == "spawn"
    split = drive(solve_split(Box((4, 4, 5)), jobs=2))
    assert split.result.solutions == 47403 and split.subproblems > 2


@pytest.fixture(scope="module", params=[False, True], ids=["counting", "listing"])
def box_journal(request, tmp_path_factory):
    """An honest journal of the 3 x 4 x 4 box, split small, whether it keeps the packings; the
    search resumed from a journal, and its count."""
    keep = request.param
    path = tmp_path_factory.mktemp("antislide") / "344.journal"

    def resumed(journal: str) -> int:
        return drive(solve_split(Box((3, 4, 4)), keep=keep, journal=journal)).result.solutions

    with pytest.MonkeyPatch.context() as patch:
        budgets = {"ROOT_NODES": 40, "PROBE_NODES": 25, "GROWTH": 1, "ROOT_GROWTH": 1}
        for name, value in budgets.items():
            patch.setattr(run, name, value)
        count = resumed(str(path))
    assert count == 96 and len(path.read_text().splitlines()) > 30
    return path, resumed, count


@FORGING
@given(data=st.data())
def test_a_forged_payload_is_refused_with_its_line_or_changes_nothing(box_journal, data):
    path, resumed, count = box_journal
    refused_or_right(data, path, resumed, count, count=True)


@pytest.mark.parametrize(
    ("payload", "count", "reason"),
    [
        ({"by_blocks": {"x": 1}}, 1, "by_blocks key 'x' must be a number of blocks from 0 to 12"),
        ({"by_blocks": {"7": "a"}}, 1, "by_blocks['7'] must be a whole number from 0"),
        ({"by_blocks": []}, 0, "by_blocks must be an object"),
        ({}, 0, "the payload must have the fields by_blocks"),
        ({"by_blocks": {"7": -5}}, -5, "by_blocks['7'] must be a whole number from 0"),
        ({"by_blocks": {"7": 2}}, 3, "by_blocks add up to 2, not to the record's count 3"),
        ({"by_blocks": {}, "packings": []}, 0, "the payload must have the fields by_blocks"),
    ],
)
def test_a_forged_payload_is_refused_for_what_it_holds(tmp_path, payload, count, reason):
    """The payloads of the hostile tester's forgeries (the one with -5 reported 5 classes
    fewer), and of others."""
    journal = tmp_path / "344.journal"
    drive(solve_split(Box((3, 4, 4)), journal=str(journal)))
    lines = journal.read_text().splitlines()
    record = json.loads(lines[1])
    fingerprint = json.loads(lines[0])["fingerprint"]
    lines[1] = forged(fingerprint, record["key"], max(count, 0), record["nodes"], payload)
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError) as refused:
        drive(solve_split(Box((3, 4, 4)), journal=str(journal)))
    assert str(refused.value) == (
        f"{journal}:2: damaged journal record ({reason}); delete this line to search its "
        "subproblem again"
    )

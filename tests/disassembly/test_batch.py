"""Taking a list of assemblies apart in one run: its progress, stopping it, level keys."""

from __future__ import annotations

import pytest

from slidelab.disassembly import batch
from slidelab.disassembly import search as search_module
from slidelab.disassembly.batch import STUCK_KEY, UNTRIED_KEY, disassemble_all, level_keys
from slidelab.disassembly.model import Assembly, Disassembly, Piece
from slidelab.disassembly.search import disassemble
from slidelab.runs import Progress, RunStopped, drive
from tests.disassembly.test_search import BLOCK, CAGE, cubes

APART = Assembly((Piece(((0, 0, 0),)), Piece(((1, 0, 0),))))
STUCK = Assembly((Piece(CAGE), Piece(((1, 1, 1),))))
BENT = Assembly(
    (
        Piece(((0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 2, 0), (2, 2, 0))),
        Piece(((1, 1, 0),)),
        Piece(((1, 0, 0),)),
    )
)


def test_every_assembly_is_taken_apart_in_order_with_progress(monkeypatch):
    monkeypatch.setattr(batch, "PROGRESS_SECONDS", -1.0)  # an event after every assembly
    events: list[Progress] = []
    listed = [APART, STUCK, BENT, APART]
    taken = drive(disassemble_all(listed), on_progress=events.append)
    assert taken.assemblies is listed  # kept as given
    assert taken.disassemblies == tuple(disassemble(a) for a in listed)
    assert taken.separable == 3 and taken.highest_level == max(
        disassemble(a).level for a in (APART, BENT)
    )
    done = [(e.explored, e.found) for e in events if e.explored]
    assert done[-1] == (4, 3) and done == sorted(done)
    assert all(e.phase == "taking assemblies apart" for e in events)
    assert events[-1].fraction == 1.0


def test_the_last_event_counts_every_assembly_taken_apart():
    """Paced events come at most every 50 ms; the last one, at the end, has the totals."""
    events: list[Progress] = []
    listed = [APART, STUCK, BENT, APART] * 3
    drive(disassemble_all(listed), on_progress=events.append)
    assert (events[-1].explored, events[-1].found, events[-1].fraction) == (12, 9, 1.0)


def test_a_run_stops_between_assemblies():
    events: list[Progress] = []
    with pytest.raises(RunStopped):
        drive(
            disassemble_all([APART] * 50_000),
            on_progress=events.append,
            should_stop=lambda: bool(events),
        )
    assert len(events) == 1 and 0 < events[0].explored < 50_000


def test_a_run_within_its_time_takes_every_assembly_apart():
    listed = [APART, STUCK, BENT]
    taken = drive(disassemble_all(listed, within=1e9))
    assert taken.complete and taken.disassemblies == tuple(disassemble(a) for a in listed)


def test_a_run_whose_pace_says_the_rest_takes_too_long_keeps_what_it_took_apart(monkeypatch):
    monkeypatch.setattr(batch, "FIRST_LOOK", 0.0)  # the pace is judged from the first on
    listed = [BENT, STUCK, APART]
    taken = drive(disassemble_all(listed, within=-1.0))  # any time left is too long
    assert not taken.complete
    assert taken.assemblies is listed and taken.disassemblies == (disassemble(BENT),)
    assert taken.separable == 1


class Clock:
    """A clock for `batch` that moves on by a second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


def test_a_run_stops_within_an_assembly_that_makes_it_too_long(monkeypatch):
    """Read a second apart, the clock says: one second after the first assembly, the pace (a
    second each) leaves the other three 3 s, within 3.5 s; at the first progress event of the
    next one's search (a cube led out of a bent tunnel, two moves), two seconds went on it,
    and the two after it would take 4 s: too long, so the run stops and that one is undone."""
    monkeypatch.setattr(batch, "time", Clock())
    monkeypatch.setattr(search_module, "FIRST_BUDGET", 1)  # one position per kernel call
    monkeypatch.setattr(search_module, "PROGRESS_SECONDS", -1.0)  # an event after each call
    tunnel = Assembly((BLOCK, cubes((1, 1, 0))))
    taken = drive(disassemble_all([APART, tunnel, APART, APART], within=3.5))
    assert taken.disassemblies == (disassemble(APART),)  # had the tunnel ended, it would be kept


def test_level_keys_sort_as_levels_do_with_stuck_and_untried_last():
    found = [disassemble(a) for a in (BENT, STUCK, APART)]
    keys, texts = level_keys([*found, None, found[0]])
    assert keys.tolist()[1] == STUCK_KEY and keys.tolist()[3] == UNTRIED_KEY
    assert keys[0] == keys[4]
    assert [texts[k] for k in (keys[2], keys[0])] == sorted(
        [".".join(map(str, found[2].level)), ".".join(map(str, found[0].level))],
        key=lambda t: tuple(map(int, t.split("."))),
    )
    assert (keys[2] < keys[0]) == (found[2].level < found[0].level)
    assert level_keys([Disassembly(None, (0, 1))])[1] == []

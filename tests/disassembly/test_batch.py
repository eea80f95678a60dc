"""Taking a list of assemblies apart in one run: its progress, stopping it, level keys."""

from __future__ import annotations

import pytest

from slidelab.disassembly import batch
from slidelab.disassembly.batch import STUCK_KEY, UNTRIED_KEY, disassemble_all, level_keys
from slidelab.disassembly.model import Assembly, Disassembly, Piece
from slidelab.disassembly.search import disassemble
from slidelab.runs import Progress, RunStopped, drive
from tests.disassembly.test_search import CAGE

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
    assert taken.assemblies == tuple(listed)
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

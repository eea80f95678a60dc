"""Disassemblies written as JSON records read back as the same values."""

from __future__ import annotations

import json

from hypothesis import given, settings

from slidelab.burrtools.disassemblies import search_disassemblies
from slidelab.burrtools.packing import build_packing
from slidelab.burrtools.reader import read_xmpuzzle
from slidelab.disassembly.model import Disassembly
from slidelab.disassembly.records import disassembly_from_record, disassembly_record
from slidelab.disassembly.search import disassemble
from slidelab.runs import drive
from tests.disassembly.test_search import assemblies


def read_back(disassembly: Disassembly) -> Disassembly:
    """The disassembly after its record went through JSON text, as a journal keeps it."""
    return disassembly_from_record(json.loads(json.dumps(disassembly_record(disassembly))))


@settings(max_examples=60, deadline=None)
@given(assemblies(), assemblies())
def test_a_record_reads_back_as_the_disassembly_written(assembly, other):
    for found in (disassemble(assembly), disassemble(other, unit_steps=True)):
        assert read_back(found) == found


def test_cube_in_cage_s_assemblies_read_back(examples):
    """1,152 assemblies, 12 of which come apart in three separations (4.9.3), the rest stuck
    with the pieces and places of their stuck part."""
    puzzle = read_xmpuzzle(examples / "CubeInCage.xmpuzzle")
    counted = drive(search_disassemblies(build_packing(puzzle, 0), distinct=False))
    found = [taken.disassembly for taken in counted.results]
    assert sum(d.separable for d in found) == 12
    assert {d.level for d in found if d.separable} == {(4, 9, 3)}
    assert all(d.stuck and d.stuck_start for d in found if not d.separable)
    assert [read_back(d) for d in found] == found

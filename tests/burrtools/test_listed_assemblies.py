"""The assemblies of a listed solution list, made one at a time as the GUI takes them apart."""

from __future__ import annotations

import pytest

from slidelab.burrtools.disassemblies import ListedAssemblies, listed_assembly
from slidelab.disassembly.batch import disassemble_all
from slidelab.library import shipped_text
from slidelab.polycube.packing import build_packing, solution_numbers
from slidelab.polycube.spec import parse_spec
from slidelab.runs import drive


@pytest.fixture(scope="module")
def soma():
    """The Soma cube's packing and its first 40 solutions."""
    packing = build_packing(parse_spec(shipped_text("polycube", "soma.pcube")))
    return packing, tuple(solution_numbers(packing.problem, limit=40))


def test_each_assembly_is_the_listed_one_made_when_asked_for(soma):
    packing, solutions = soma
    lazy = ListedAssemblies(packing, solutions)
    made = [listed_assembly(packing, s) for s in solutions]
    assert len(lazy) == 40 and list(lazy) == made
    assert lazy[-1] == made[-1] and list(lazy[5:9]) == made[5:9]
    assert lazy[0] is not lazy[0]  # not kept: made anew on each request
    with pytest.raises(IndexError):
        lazy[40]


def test_taking_them_apart_gives_what_the_made_list_gives_and_stays_lazy(soma):
    packing, solutions = soma
    lazy = ListedAssemblies(packing, solutions)
    taken = drive(disassemble_all(lazy))
    made = drive(disassemble_all([listed_assembly(packing, s) for s in solutions]))
    assert taken.assemblies is lazy and taken.complete
    assert taken.disassemblies == made.disassemblies and taken.separable == made.separable
    assert taken.separable > 0

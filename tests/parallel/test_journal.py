"""Journals: a stopped run resumes where it was, and a journal of another problem is refused."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.exactcover import split
from slidelab.exactcover.split import search_split
from slidelab.parallel import journal as journal_module
from slidelab.parallel import run
from slidelab.parallel.journal import Journal, JournalError
from slidelab.parallel.tasks import TaskResult
from slidelab.runs import drive
from tests.exactcover.problems import queens
from tests.parallel.forging import FORGING, forged, refused_or_right


def tiny(patch: pytest.MonkeyPatch) -> None:
    """Budgets so small that every search is split and split again."""
    patch.setattr(run, "ROOT_NODES", 1)
    patch.setattr(run, "PROBE_NODES", 2)
    patch.setattr(run, "GROWTH", 1)
    patch.setattr(run, "ROOT_GROWTH", 1)


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch):
    tiny(monkeypatch)


def lines(path) -> int:
    return len(path.read_text().splitlines())


def test_a_stopped_run_resumes_from_its_journal(tmp_path):
    journal = tmp_path / "queens9.journal"
    search = search_split(queens(9), journal=str(journal))
    while not journal.exists() or lines(journal) < 6:
        next(search)
    search.close()  # as if the run were cancelled half way
    recorded = lines(journal) - 1
    outcome = drive(search_split(queens(9), journal=str(journal)))
    assert outcome.count == 352
    assert outcome.resumed == recorded >= 5
    assert lines(journal) - 1 == outcome.subproblems  # every subproblem recorded once
    again = drive(search_split(queens(9), journal=str(journal)))
    assert (again.count, again.resumed, again.nodes) == (352, outcome.subproblems, outcome.nodes)


def test_a_journal_of_another_problem_is_refused(tmp_path):
    journal = tmp_path / "run.journal"
    drive(search_split(queens(6), journal=str(journal), what="six queens"))
    with pytest.raises(JournalError) as caught:
        drive(search_split(queens(7), journal=str(journal)))
    assert str(caught.value) == (
        f"{journal}: this journal belongs to another problem, or to the same one split by other "
        "rules (six queens); give another file, or delete this one to start afresh"
    )


def test_a_journal_of_other_splitting_rules_is_refused(tmp_path, monkeypatch):
    """Other rules cut other subproblems: an older version's journal cannot be resumed."""
    journal = tmp_path / "run.journal"
    drive(search_split(queens(6), journal=str(journal), what="six queens"))
    monkeypatch.setattr(split, "SPLIT_RULES", split.SPLIT_RULES.replace("root=", "root=1"))
    with pytest.raises(JournalError, match=r"split by other rules \(six queens\)"):
        drive(search_split(queens(6), journal=str(journal)))


def test_a_line_cut_short_by_a_crash_is_dropped(tmp_path):
    path = tmp_path / "j"
    first = Journal(path, "abc", "test")
    first.record(TaskResult((0,), 3, 10, {}))
    first.close()
    with open(path, "a") as stream:
        stream.write('{"key":[1],"cou')
    second = Journal(path, "abc", "test")
    assert list(second.done) == [(0,)]
    second.record(TaskResult((1,), 4, 5, {}))
    second.close()
    assert set(Journal(path, "abc", "test").done) == {(0,), (1,)}


def test_damage_inside_a_journal_is_reported_with_its_line(tmp_path):
    path = tmp_path / "j"
    Journal(path, "abc", "test").close()
    with open(path, "a") as stream:
        stream.write("nonsense\n")
    with pytest.raises(
        JournalError,
        match=r"j:2: damaged journal record \(no checksum\); delete this line to search its "
        "subproblem again$",
    ):
        Journal(path, "abc", "test")
    path.write_text("hello\n")
    with pytest.raises(JournalError, match=r"j:1: not a slidelab journal$"):
        Journal(path, "abc", "test")


# Integrity: a journal's counts go into the answer, so every damage is refused, never summed.


def nine_queens_journal(tmp_path):
    """A complete journal of the 9-queens search (352 solutions) and its lines."""
    journal = tmp_path / "q9.journal"
    assert drive(search_split(queens(9), journal=str(journal))).count == 352
    return journal, journal.read_text().splitlines()


def fingerprint_of(lines) -> str:
    return json.loads(lines[0])["fingerprint"]


def refusal(journal) -> str:
    with pytest.raises(JournalError) as caught:
        drive(search_split(queens(9), journal=str(journal)))
    return str(caught.value).removeprefix(f"{journal}:")


def test_a_flipped_bit_in_a_count_is_refused_with_its_line(tmp_path):
    journal, lines = nine_queens_journal(tmp_path)
    number = next(n for n, line in enumerate(lines[1:], 2) if '"count":4' in line)
    lines[number - 1] = lines[number - 1].replace('"count":4', '"count":0', 1)  # '4' ^ 0x04
    journal.write_text("\n".join(lines) + "\n")
    assert refusal(journal) == (
        f"{number}: damaged journal record (checksum mismatch: changed, or from another "
        "journal); delete this line to search its subproblem again"
    )


def test_records_of_another_problem_under_this_header_are_refused(tmp_path):
    journal, lines = nine_queens_journal(tmp_path)
    other = tmp_path / "q8.journal"
    drive(search_split(queens(8), journal=str(other)))
    journal.write_text("\n".join([lines[0], *other.read_text().splitlines()[1:]]) + "\n")
    assert refusal(journal) == (
        "2: damaged journal record (checksum mismatch: changed, or from another journal); "
        "delete this line to search its subproblem again"
    )


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"count": 1000.5}, "count and nodes must be whole numbers from 0"),
        ({"count": "5"}, "count and nodes must be whole numbers from 0"),
        ({"count": None}, "count and nodes must be whole numbers from 0"),
        ({"count": True}, "count and nodes must be whole numbers from 0"),
        ({"nodes": -1}, "count and nodes must be whole numbers from 0"),
        ({"payload": None}, "the payload must be an object"),
        ({"key": "0"}, "the key must be a list of whole numbers from 0"),
        ({"key": [0, None]}, "the key must be a list of whole numbers from 0"),
        ({"extra": 1}, "a record has the fields key, count, nodes, payload"),
    ],
)
def test_records_of_the_wrong_types_are_refused(tmp_path, fields, reason):
    journal, lines = nine_queens_journal(tmp_path)
    record = json.loads(lines[1])
    values = {name: record[name] for name in ("key", "count", "nodes", "payload")} | fields
    lines[1] = forged(fingerprint_of(lines), **values)
    journal.write_text("\n".join(lines) + "\n")
    assert refusal(journal) == (
        f"2: damaged journal record ({reason}); delete this line to search its subproblem again"
    )


def test_a_record_without_its_fields_is_refused(tmp_path):
    journal, lines = nine_queens_journal(tmp_path)
    body = '{"key":[0]}'
    lines[1] = f'{{"check":"{journal_module._checksum(fingerprint_of(lines), body)}",{body[1:]}'
    journal.write_text("\n".join(lines) + "\n")
    assert refusal(journal) == (
        "2: damaged journal record (a record has the fields key, count, nodes, payload); "
        "delete this line to search its subproblem again"
    )


@pytest.mark.parametrize("cut", [1, None])
def test_a_key_cut_back_to_an_ancestor_is_refused(tmp_path, cut):
    """A record of a subproblem and one of its ancestor would count the subtree twice; the
    empty key (the root) is everyone's ancestor."""
    journal, lines = nine_queens_journal(tmp_path)
    deep = max(range(1, len(lines)), key=lambda n: len(json.loads(lines[n])["key"]))
    record = json.loads(lines[deep])
    ancestor = record["key"][:cut] if cut else []
    assert len(record["key"]) > len(ancestor)
    lines[deep] = forged(fingerprint_of(lines), ancestor, record["count"], record["nodes"], {})
    journal.write_text("\n".join(lines) + "\n")
    message = refusal(journal)
    assert re.fullmatch(
        rf"{deep + 1}: damaged journal: subproblem {re.escape(str(ancestor))} is also covered "
        r"by line \d+; delete both lines to search it again",
        message,
    ), message


def test_a_key_outside_the_split_does_not_count(tmp_path):
    journal, lines = nine_queens_journal(tmp_path)
    recorded = json.loads(lines[1])["key"]
    stray = [[99], [98, 1], [*recorded[:-1], 99]]  # no child 99 anywhere: 9 queens, 9 rows
    lines += [forged(fingerprint_of(lines), key, 1000, 1, {}) for key in stray]
    journal.write_text("\n".join(lines) + "\n")
    assert drive(search_split(queens(9), journal=str(journal))).count == 352


def test_a_journal_of_an_older_slidelab_is_refused(tmp_path):
    path = tmp_path / "j"
    path.write_text('{"format":"slidelab journal 1","fingerprint":"abc","what":"t"}\n')
    with pytest.raises(JournalError) as caught:
        Journal(path, "abc", "test")
    assert str(caught.value) == (
        f"{path}:1: a journal of an older slidelab, without checksums; delete it to start afresh"
    )


def test_a_file_that_is_no_journal_is_left_as_it_was(tmp_path):
    path = tmp_path / "puzzle.slide"
    path.write_text("4 x 4\n1 = 1\n1\n01")  # no newline at the end, like a cut-short record
    with pytest.raises(JournalError, match=r"puzzle\.slide:1: not a slidelab journal$"):
        Journal(path, "abc", "test")
    assert path.read_text() == "4 x 4\n1 = 1\n1\n01"


@pytest.fixture(scope="module", params=[False, True], ids=["counting", "listing"])
def queens_journal(request, tmp_path_factory):
    """An honest journal of the 8-queens search, split small, whether it lists; the search
    resumed from a journal, and its answer (the count, and the number of solutions listed)."""
    listing = request.param
    path = tmp_path_factory.mktemp("queens") / "q8.journal"

    def resumed(journal: str) -> tuple[int, int]:
        outcome = drive(search_split(queens(8), listing=listing, journal=journal))
        return outcome.count, len(outcome.solutions)

    with pytest.MonkeyPatch.context() as patch:
        tiny(patch)
        answer = resumed(str(path))
    assert answer == (92, 92 if listing else 0) and lines(path) > 20
    return path, resumed, answer, listing


@FORGING
@given(data=st.data())
def test_a_forged_payload_is_refused_with_its_line_or_changes_nothing(queens_journal, data):
    """Listed solutions must be as many as counted, and of the problem's options; a count
    alone has nothing to check it by (its checksum is all), so only a listing's is forged."""
    path, resumed, answer, listing = queens_journal
    refused_or_right(data, path, resumed, answer, count=listing)


@pytest.mark.parametrize(
    ("listing", "payload", "count", "reason"),
    [
        (True, {}, 1, "the payload must have the fields solutions"),
        (True, {"solutions": [[3, 999]]}, 1, "solutions[0][1] must be a whole number from 0 to 63"),
        (True, {"solutions": [[3, 7]]}, 2, "solutions must hold 2 items, not 1"),
        (False, {"solutions": [[3]]}, 1, "solutions must hold 0 items, not 1"),
        (
            False,
            {"by_blocks": {}},
            1,
            "the payload may only have the fields solutions",
        ),
    ],
)
def test_a_forged_payload_is_refused_for_what_it_holds(tmp_path, listing, payload, count, reason):
    journal = tmp_path / "q8.journal"
    drive(search_split(queens(8), listing=listing, journal=str(journal)))
    lines = journal.read_text().splitlines()
    record = json.loads(lines[1])
    lines[1] = forged(fingerprint_of(lines), record["key"], count, record["nodes"], payload)
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError) as refused:
        drive(search_split(queens(8), listing=listing, journal=str(journal)))
    assert str(refused.value) == (
        f"{journal}:2: damaged journal record ({reason}); delete this line to search its "
        "subproblem again"
    )

"""The editable spec: edits, problems in words, and the text it saves."""

from __future__ import annotations

from dataclasses import replace

from slidelab.library import load_shipped, shipped_text
from slidelab.polycube.draft import Draft, split_header
from slidelab.polycube.spec import parse_spec


def test_a_library_spec_round_trips_with_its_comments():
    text = shipped_text("polycube", "soma.pcube")
    draft = Draft.from_spec(load_shipped("polycube", "soma.pcube", parse_spec), split_header(text))
    assert draft.header.startswith("| The Soma cube")
    assert parse_spec(draft.text()) == load_shipped("polycube", "soma.pcube", parse_spec)
    assert draft.text().startswith(draft.header)
    assert draft.filled() == 27 == len(draft.box)


def test_edits_make_new_drafts():
    draft = Draft(frozenset({(0, 0, 0), (1, 0, 0)}), ())
    grown = draft.added_piece().toggled_piece_cell(0, (1, 0, 0))
    assert [p.name for p in grown.pieces] == ["A"]
    assert grown.pieces[0].cells == {(0, 0, 0), (1, 0, 0)}
    assert grown.added_piece().pieces[1].name == "B"
    assert grown.toggled_box_cell((1, 0, 0)).box == {(0, 0, 0)}
    assert grown.removed_piece(0).pieces == ()
    assert draft.pieces == ()  # the original is untouched
    assert parse_spec(grown.text()).pieces[0].shapes == (((0, 0, 0), (1, 0, 0)),)


def test_problems_are_named():
    draft = Draft(frozenset(), ()).added_piece().added_piece()
    draft = draft.toggled_piece_cell(1, (0, 0, 0))
    piece = draft.pieces[0]
    draft = draft.with_piece(0, type(piece)("B", 0, piece.shapes))
    assert draft.problems() == [
        "the box has no cells",
        "two pieces are called B",
        "piece B needs 1 to 61 copies",
        "piece B has no cells",
    ]
    cell_named = Draft(frozenset({(0, 0, 1)}), ()).added_piece()
    cell_named = cell_named.with_piece(0, type(piece)("001", 1, piece.shapes))
    assert cell_named.problems() == ["piece name '001' is a cell of the box"]


def test_a_box_the_pieces_cannot_fill_is_a_problem_for_solving_only() -> None:
    soma = Draft.from_spec(load_shipped("polycube", "soma.pcube", parse_spec))
    assert soma.solve_problems() == []
    grown = soma.added_piece()
    assert grown.problems() == []  # still a spec that saves
    assert grown.solve_problems() == [
        "the box has 27 cells but the pieces, every copy placed, fill 28: no packing can exist"
    ]
    doubled = soma.with_piece(0, replace(soma.pieces[0], multiplicity=2))
    assert "fill 30" in doubled.solve_problems()[0]
    assert soma.toggled_box_cell((0, 0, 0)).solve_problems()[0].startswith("the box has 26 cells")

"""Packing files: the brick line, the title, round trips and the shipped examples."""

from __future__ import annotations

import pytest

from slidelab.antislide.document import PackingDocument, format_document, parse_document
from slidelab.antislide.family import ANTISLIDE
from slidelab.antislide.model import Box, Placement, sliding_faces
from slidelab.errors import ParseError
from slidelab.formats import detect_family
from slidelab.library import shipped_names, shipped_text


def test_round_trip_keeps_box_brick_bricks_and_title():
    document = PackingDocument(
        Box((2, 3, 4)),
        (1, 2, 3),
        (Placement((0, 0, 0), (1, 2, 3)), Placement((1, 1, 1), (1, 2, 3))),
        "two bricks",
    )
    text = format_document(document)
    assert text.splitlines()[:2] == ["# two bricks", "# brick 1x2x3"]
    assert parse_document(text) == document


def test_without_a_brick_line_bricks_are_2x2x1():
    document = parse_document("1 1  1 1\n")
    assert document.brick == (2, 2, 1) and document.box == Box((2, 1, 2))


def test_a_zero_brick_size_is_pointed_at():
    with pytest.raises(ParseError) as caught:
        parse_document("# brick 2x0x1\n. .\n", "p.antislide")
    assert str(caught.value) == "p.antislide:1:11: brick sizes must be positive"


def test_empty_packing_round_trips():
    document = PackingDocument(Box((2, 2, 2)), (2, 2, 1), ())
    assert parse_document(format_document(document)) == document


@pytest.mark.parametrize("name", shipped_names(ANTISLIDE))
def test_shipped_packings_are_antisliding_and_detected(name):
    text = shipped_text(ANTISLIDE, name)
    document = parse_document(text, name)
    assert document.title and document.bricks
    assert not sliding_faces(document.box, list(document.bricks))
    assert detect_family("packing.txt", text) == ANTISLIDE


def test_the_library_has_the_seeds_packings():
    assert shipped_names(ANTISLIDE) == [
        "3x3x3-six-blocks.antislide",
        "4x4x4-twelve-blocks.antislide",
    ]


def test_bricks_are_numbered_by_their_labels():
    document = parse_document(shipped_text(ANTISLIDE, "3x3x3-six-blocks.antislide"))
    assert format_document(document).splitlines()[2:] == [
        line.replace("\t", "  ")
        for line in shipped_text(ANTISLIDE, "3x3x3-six-blocks.antislide").splitlines()[2:]
    ]

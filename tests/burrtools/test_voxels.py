"""Voxel strings: BurrTools' order (x fastest), states, colour digits, and every refusal."""

from __future__ import annotations

import pytest

from slidelab.burrtools.model import FIXED, VARIABLE, Voxel, XmpuzzleError
from slidelab.burrtools.voxels import format_voxels, parse_voxels


def parse(text: str, size: tuple[int, int, int]) -> tuple[Voxel, ...]:
    return parse_voxels(text, size, "f.xmpuzzle", "puzzle/shapes/voxel[1]")


def test_order_states_and_colours():
    voxels = parse("#_+12#3", (2, 2, 1))
    assert voxels == (
        Voxel((0, 0, 0), FIXED),
        Voxel((0, 1, 0), VARIABLE, 12),
        Voxel((1, 1, 0), FIXED, 3),
    )
    assert format_voxels((2, 2, 1), voxels) == "#_+12#3"
    assert parse("_#", (1, 1, 2)) == (Voxel((0, 0, 1), FIXED),)


def test_neutral_colour_written_as_zero_reads_as_neutral():
    assert parse("#0#", (2, 1, 1)) == (Voxel((0, 0, 0), FIXED), Voxel((1, 0, 0), FIXED))
    assert format_voxels((2, 1, 1), parse("#0#", (2, 1, 1))) == "##"


def test_an_empty_space():
    assert parse("", (0, 3, 1)) == ()
    assert format_voxels((0, 3, 1), ()) == ""


ERRORS = [
    ("#a", (2, 1, 1), "unrecognised character 'a' at position 2 of the voxel string (expected "
     "'_', '#', '+' or a colour digit)"),
    ("# #", (3, 1, 1), "unrecognised character ' ' at position 2 of the voxel string (expected "
     "'_', '#', '+' or a colour digit)"),
    ("##", (2, 2, 1), "the voxel string has 2 voxels, the 2x2x1 space needs 4"),
    ("", (1, 1, 1), "the voxel string has 0 voxels, the 1x1x1 space needs 1"),
    ("##", (1, 1, 1), "the voxel string has more than the 1x1x1 voxels of the space"),
    ("#_1", (2, 1, 1), "colour digit '1' at position 3 does not follow '#' or '+'"),
    ("1##", (2, 1, 1), "colour digit '1' at position 1 does not follow '#' or '+'"),
    ("#64#", (2, 1, 1), "colour 64 at position 3 is above 63"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "size", "message"), ERRORS)
def test_errors(text, size, message):
    with pytest.raises(XmpuzzleError) as caught:
        parse(text, size)
    assert str(caught.value) == f"f.xmpuzzle: puzzle/shapes/voxel[1]: {message}"

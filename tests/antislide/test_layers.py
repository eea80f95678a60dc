"""Layer notation: parse, format and round trip."""

from __future__ import annotations

import pytest

from slidelab.antislide.layers import format_packing, label, parse_packing
from slidelab.antislide.model import locks, sliding_faces
from slidelab.errors import ParseError
from tests.antislide.figures import SEED_NON_EXAMPLE, SEED_3x3x3, SEED_4x4x4


def test_seed_packings_parse():
    box, bricks = parse_packing(SEED_4x4x4, (2, 2, 1))
    assert box.dims == (4, 4, 4)
    assert len(bricks) == 12
    assert not sliding_faces(box, list(bricks.values()))


def test_format_round_trips():
    box, bricks = parse_packing(SEED_3x3x3, (2, 2, 1))
    text = format_packing(box, list(bricks.values()))
    assert text.splitlines()[0] == "1 1 .  2 3 3  2 3 3"  # relabelled in reading order
    again_box, again = parse_packing(text, (2, 2, 1))
    assert again_box == box and list(again.values()) == list(bricks.values())
    assert format_packing(again_box, list(again.values())) == text


def test_non_example_slides():
    box, bricks = parse_packing(SEED_NON_EXAMPLE, (2, 2, 1))
    labels = list(bricks)
    slides = sorted((labels[n], d) for n, d in sliding_faces(box, list(bricks.values())))
    assert slides == [("2", "+y"), ("3", "+z"), ("5", "-z")]


def test_labels():
    assert [label(n) for n in (0, 8, 9, 11, 35)] == ["1", "9", "A", "C", "a"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("1 1 .\t. .\n", (1, 7)),
        ("1 1\n1 1\n. .\t. .\n", (3, 1)),
        ("", (1, 1)),
    ],
)
def test_errors_name_line_and_column(text, where):
    with pytest.raises(ParseError) as error:
        parse_packing(text, (2, 2, 1), "f.txt")
    assert (error.value.line, error.value.column) == where


def test_locks_name_what_stops_each_face():
    box, bricks = parse_packing(SEED_3x3x3, (2, 2, 1))
    labels = list(bricks)
    faces = locks(box, list(bricks.values()))[labels.index("1")]
    described = {
        lock.direction: "wall" if lock.wall else "".join(sorted(labels[k] for k in lock.blockers))
        for lock in faces
    }
    assert described == {"-x": "wall", "+x": "45", "-y": "wall", "+y": "3", "-z": "wall", "+z": "2"}
    assert not any(lock.slides for lock in faces)


def test_a_lock_with_nothing_beyond_slides():
    box, bricks = parse_packing(SEED_NON_EXAMPLE, (2, 2, 1))
    labels = list(bricks)
    faces = locks(box, list(bricks.values()))[labels.index("2")]
    assert [lock.direction for lock in faces if lock.slides] == ["+y"]

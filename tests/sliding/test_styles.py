"""The move style value: Knuth's numbers, the two fields, and refusal of other numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.errors import SlidelabError
from slidelab.sliding.styles import Mover, MoveStyle, Reach, UnknownStyleError

KNUTH = [
    (MoveStyle.STEP, 0, Mover.PIECE, Reach.STEP),
    (MoveStyle.SLIDE, 1, Mover.PIECE, Reach.LINE),
    (MoveStyle.PATH, 2, Mover.PIECE, Reach.PATH),
    (MoveStyle.SUPER_STEP, 3, Mover.SUPERPIECE, Reach.STEP),
    (MoveStyle.SUPER_SLIDE, 4, Mover.SUPERPIECE, Reach.LINE),
    (MoveStyle.SUPER_PATH, 5, Mover.SUPERPIECE, Reach.PATH),
]
"""Each named style with Knuth's number and its fields."""


@pytest.mark.parametrize(("style", "number", "mover", "reach"), KNUTH)
def test_each_style_has_knuths_number_and_its_fields(
    style: MoveStyle, number: int, mover: Mover, reach: Reach
) -> None:
    assert style == MoveStyle(mover, reach)
    assert (style.number, style.mover, style.reach) == (number, mover, reach)
    assert MoveStyle.from_number(number) is style
    assert style.superpieces == (mover is Mover.SUPERPIECE)
    assert style.label == f"Style {number}"


def test_all_lists_every_pair_once_in_knuths_order() -> None:
    assert tuple(style for style, *_ in KNUTH) == MoveStyle.ALL
    assert {(s.mover, s.reach) for s in MoveStyle.ALL} == {(m, r) for m in Mover for r in Reach}
    assert [s.number for s in MoveStyle.ALL] == list(range(len(KNUTH)))


@given(st.sampled_from(MoveStyle.ALL))
def test_number_and_style_round_trip(style: MoveStyle) -> None:
    assert MoveStyle.from_number(style.number) == style


@given(st.integers().filter(lambda n: not 0 <= n <= 5))
def test_other_numbers_are_refused(number: int) -> None:
    with pytest.raises(UnknownStyleError):
        MoveStyle.from_number(number)


@pytest.mark.parametrize("number", [6, -1])
def test_refusal_names_the_range_and_the_number(number: int) -> None:
    with pytest.raises(SlidelabError) as refused:
        MoveStyle.from_number(number)
    assert isinstance(refused.value, ValueError)
    assert str(refused.value) == f"the style must be between 0 and 5, not {number}"


def test_explanations_are_knuths_words() -> None:
    assert [s.explanation for s in MoveStyle.ALL] == [
        "one piece moves one cell left, right, up or down",
        "one piece slides one or more cells in a straight line",
        "one piece moves any number of cells along any path",
        "a group of pieces moves together one cell left, right, up or down",
        "a group of pieces slides together one or more cells in a straight line",
        "a group of pieces moves together any number of cells along any path",
    ]

"""The time-left estimate shown beside long runs."""

from __future__ import annotations

import pytest

from slidelab.timeleft import TimeLeft, describe_time_left


def test_no_estimate_without_a_fraction_or_too_early():
    estimate = TimeLeft()
    assert estimate.update(5.0, None) is None
    assert estimate.update(0.5, 0.2) is None
    assert estimate.update(5.0, 0.0) is None


def test_a_steady_run_is_estimated_from_its_rate():
    estimate = TimeLeft()
    assert estimate.update(10.0, 0.25) == pytest.approx(30.0)
    assert estimate.update(20.0, 0.5) == pytest.approx(20.0)


def test_a_jump_in_the_raw_estimate_is_smoothed_and_counted_down():
    estimate = TimeLeft()
    estimate.update(10.0, 0.5)  # 10 s left
    jumped = estimate.update(11.0, 0.1)  # raw: 99 s left
    assert jumped is not None
    assert 9.0 < jumped < 99.0 * 0.5


def test_the_estimate_counts_down_when_the_raw_figure_agrees():
    estimate = TimeLeft()
    first = estimate.update(60.0, 0.5)
    second = estimate.update(90.0, 0.75)
    assert first is not None and second is not None and second < first


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (3, "a few seconds left"),
        (42, "about 40 s left"),
        (130, "about 2 min left"),
        (3600, "about 1 h left"),
        (5000, "about 1 h 23 min left"),
    ],
)
def test_times_left_are_said_roundly(seconds, words):
    assert describe_time_left(seconds) == words

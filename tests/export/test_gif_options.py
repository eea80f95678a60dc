"""The choices of a GIF export."""

from __future__ import annotations

import pytest

from slidelab.export.gif import GifError
from slidelab.export.gif_options import GifOptions


def test_the_frame_delay_spreads_a_step_over_its_frames():
    assert GifOptions(360, 0.48, 8).frame_delay_ms == 60
    assert GifOptions(360, 3.6, 36).frame_delay_ms == 100


def test_the_frame_delay_is_never_shorter_than_a_gif_stores():
    assert GifOptions(360, 0.1, 60).frame_delay_ms == 20


@pytest.mark.parametrize(("size", "seconds", "frames"), [(10, 1.0, 8), (360, 0.0, 8), (360, 1, 0)])
def test_impossible_choices_are_refused(size, seconds, frames):
    with pytest.raises(GifError):
        GifOptions(size, seconds, frames)

"""What a person chooses when exporting an animated GIF: size, speed and smoothness."""

from __future__ import annotations

from dataclasses import dataclass

from slidelab.export.gif import MIN_DELAY_CS, GifError

MIN_SIZE = 64
MAX_SIZE = 2048
MAX_FRAMES_PER_STEP = 60


@dataclass(frozen=True)
class GifOptions:
    """An export's choices; a *step* is one move of a solution or one turn of a turntable."""

    size: int
    """Pixels of the picture's longer side."""
    seconds_per_step: float
    """How long one step lasts when the GIF plays."""
    frames_per_step: int
    """Frames drawn for each step (more: smoother and bigger)."""

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise GifError(f"a GIF is {MIN_SIZE} to {MAX_SIZE} pixels wide, not {self.size}")
        if not 1 <= self.frames_per_step <= MAX_FRAMES_PER_STEP:
            raise GifError(
                f"1 to {MAX_FRAMES_PER_STEP} frames per step, not {self.frames_per_step}"
            )
        if self.seconds_per_step <= 0:
            raise GifError(f"a step lasts more than 0 s, not {self.seconds_per_step}")

    @property
    def frame_delay_ms(self) -> int:
        """Milliseconds each frame shows, no shorter than a GIF can store."""
        return max(10 * MIN_DELAY_CS, round(1000 * self.seconds_per_step / self.frames_per_step))

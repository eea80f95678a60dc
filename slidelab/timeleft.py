"""How long a run has left, estimated from the fraction done its solver reports.

The raw estimate (time so far times work left over work done) jumps about as the search
moves between parts of different sizes; `TimeLeft` smooths it, counting down between
reports, so the figure a person reads moves steadily.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_FRACTION = 0.001
"""Below this fraction done an estimate is mostly noise: none is given."""
MIN_ELAPSED = 1.0
"""Seconds of run before the first estimate: the start of a search says little."""
SMOOTHING = 0.3
"""Weight of each new raw estimate against the running (counted-down) one."""


@dataclass
class TimeLeft:
    """A smoothed estimate of the seconds a run has left; feed it `update(elapsed, fraction)`."""

    seconds: float | None = None
    """The current estimate, None until there is one."""
    _at: float = 0.0

    def update(self, elapsed: float, fraction: float | None) -> float | None:
        """Take a report (seconds since the start, fraction of the work done or None) and
        return the estimate of the seconds left, or None when there is none to give."""
        if fraction is None or fraction < MIN_FRACTION or elapsed < MIN_ELAPSED:
            return self.seconds
        raw = elapsed * (1.0 - min(fraction, 1.0)) / fraction
        if self.seconds is None:
            self.seconds = raw
        else:
            counted_down = max(0.0, self.seconds - (elapsed - self._at))
            self.seconds = SMOOTHING * raw + (1.0 - SMOOTHING) * counted_down
        self._at = elapsed
        return self.seconds


def describe_time_left(seconds: float) -> str:
    """Words for a time left, as round as it is uncertain: "about 2 min left"."""
    if seconds < 10:
        return "a few seconds left"
    if seconds < 60:
        return f"about {round(seconds / 10) * 10} s left"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"about {minutes} min left"
    hours, minutes = divmod(minutes, 60)
    return f"about {hours} h {minutes} min left" if minutes else f"about {hours} h left"

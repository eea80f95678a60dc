"""Whether a tab's list fills while its run is still going, not only when it ends."""

from __future__ import annotations

from collections.abc import Callable

from slidelab.gui.main_window import MainWindow


def rows_while_busy(window: MainWindow, rows: Callable[[], int]) -> list[int]:
    """A list that, from now on, gets `rows()` each time a batch of results arrives while the
    run is still busy (batches after the run's end are not counted)."""
    seen: list[int] = []
    window.runner.found.connect(lambda _batch: seen.append(rows()) if window.runner.busy else None)
    return seen

"""Play mode's game and its distance run, for the sliding workbench.

Entering the Play page plays the puzzle as drawn in the chosen style: the game goes on
where it was left unless the puzzle or the style changed.  The distance table of a new
game is computed on the shared solver thread as soon as it is free; leaving the page
cancels that run, and coming back starts it again.  A run that ends for a game already
replaced (the style changed meanwhile) is not used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer

from slidelab.errors import SlidelabError
from slidelab.gui.sliding.play_page import PlayPage
from slidelab.gui.worker import SolverRunner
from slidelab.runs import Solver
from slidelab.sliding.distance import GoalDistances, to_goal
from slidelab.sliding.draft import Draft
from slidelab.sliding.model import Puzzle
from slidelab.sliding.play import PlaySession
from slidelab.sliding.styles import MoveStyle
from slidelab.wording import numbered

StartRun = Callable[
    [str, Callable[[Puzzle], Solver[Any]], Callable[[Puzzle, Any], str], Puzzle], None
]
"""The workbench's way to start a run: (phase, search, show the result, puzzle)."""


class PlayControl(QObject):
    """Makes the `PlaySession` the Play page shows and gets its distances computed."""

    def __init__(
        self, page: PlayPage, runner: SolverRunner, start_run: StartRun, parent: QObject
    ) -> None:
        super().__init__(parent)
        self.page = page
        self.runner = runner
        self.session: PlaySession | None = None
        self.active = False
        """True while the Play page is shown."""
        self._start_run = start_run
        self._distance_run: PlaySession | None = None
        self._wanted = False
        runner.busyChanged.connect(self._runner_busy)

    def enter(self, draft: Draft, style: MoveStyle) -> None:
        """Show the game of `draft` in `style` (a new one unless it is the current game)."""
        self.active = True
        problems = draft.problems()
        if problems:
            self._end_game(f"Fix the puzzle before playing it (Edit page): {problems[0].message}.")
            return
        puzzle = draft.to_puzzle()
        session = self.session
        if session is None or (session.puzzle, session.style) != (puzzle, style):
            try:
                session = PlaySession(puzzle, style)
            except SlidelabError as error:
                self._end_game(f"Cannot play in style {style.number}: {error}.")
                return
            self._cancel_distances()
            self.session = session
            self.page.start(session)
        self._wanted = session.table is None
        self._compute_distances()
        self.page.view.setFocus()

    def leave(self) -> None:
        """The Play page is hidden: its distance run stops."""
        self.active = False
        self._cancel_distances()

    def run_stopped(self) -> None:
        """The workbench's run was stopped; if it was the game's distance run, say so."""
        stopped, self._distance_run = self._distance_run, None
        if stopped is not None and stopped is self.session:
            self._wanted = False
            self.page.distances_stopped()

    def _end_game(self, why: str) -> None:
        self.session = None
        self._cancel_distances()
        self.page.show_unavailable(why)

    def _cancel_distances(self) -> None:
        if self._distance_run is not None:
            self.runner.cancel()

    def _compute_distances(self) -> None:
        """Start the distance table of the game being played, once the solver thread is free."""
        session = self.session
        if session is None or not self._wanted or self._distance_run is not None:
            return
        if self.runner.busy:
            self.page.distances_waiting()
            return
        self._distance_run = session
        self.page.distances_computing()
        self._start_run(
            f"computing distances to the goal, style {session.style.number}",
            lambda p: to_goal(p, session.style),
            self._show_distances,
            session.puzzle,
        )

    def _runner_busy(self, busy: bool) -> None:
        """Once the solver thread is free, start the distances a game waits for (after the run
        that ended has been shown: its `finished` follows `busyChanged`)."""
        if not busy and self.active:
            QTimer.singleShot(0, self, self._compute_distances)

    def _show_distances(self, _puzzle: Puzzle, result: GoalDistances) -> str:
        session, self._distance_run = self._distance_run, None
        if session is not self.session:  # the game changed meanwhile: its own run comes next
            return "distances of an earlier game: not used"
        self._wanted = False
        self.page.distances_known(result)
        if result.start_distance is None:
            return f"the goal cannot be reached · {result.component:,} configurations"
        return (
            f"distances known: the start is {numbered(result.start_distance, 'move')} "
            "from the goal · "
            f"{result.component:,} configurations"
        )

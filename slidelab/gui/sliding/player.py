"""Playback of a solution: pieces glide between configurations on a BoardView."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from slidelab.geometry.sliding_frames import current_move, solution_frame
from slidelab.gui.sliding.board_view import BoardView
from slidelab.gui.transport import Transport
from slidelab.sliding.model import Configuration, Puzzle


class SolutionPlayer(Transport):
    """The transport controls (`gui.transport`) driving a `BoardView` through a solution.

    `position` counts moves from the start (0) to the goal (number of moves).
    """

    def __init__(self, view: BoardView, parent: QWidget | None = None) -> None:
        super().__init__(view, parent)
        self.view = view
        self.puzzle: Puzzle | None = None
        self.path: tuple[Configuration, ...] = ()
        self.end_button.setToolTip("Go to the goal (End)")
        self.set_solution(None, ())

    def set_solution(self, puzzle: Puzzle | None, path: tuple[Configuration, ...]) -> None:
        """Show a new solution from its start (an empty path clears the player)."""
        self.puzzle, self.path = puzzle, path
        self.set_moves(max(len(path) - 1, 0), enabled=bool(path))

    def show_position(self, position: float) -> None:
        if self.puzzle is not None and self.path:
            self.view.set_frame(solution_frame(self.puzzle, self.path, position))

    def counter_text(self, position: float) -> str:
        return f"{current_move(position)} / {self.moves}" if self.path else ""

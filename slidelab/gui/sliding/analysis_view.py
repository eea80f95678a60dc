"""The analysis of a whole reachable space: a distance histogram and the farthest positions."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from slidelab.sliding.hardest import HardestStarts
from slidelab.sliding.model import Configuration, Puzzle
from slidelab.sliding.search import Analysis
from slidelab.sliding.textformat import format_configuration
from slidelab.wording import numbered

LIST_HEIGHT = 110
"""Pixels of the list under the histogram."""

QWIDGETSIZE_MAX = (1 << 24) - 1
"""Qt's largest widget size: no limit."""


class AnalysisView(QWidget):
    """Histogram of configurations by distance, with a list of the farthest ones.

    Clicking a farthest configuration emits `configurationChosen(Configuration)`.
    """

    configurationChosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("Analyse to see how far every configuration lies from the start.")
        self.summary.setWordWrap(True)
        self.plot = pg.PlotWidget(background="w")
        self.plot.setLabel("bottom", "distance from the start (moves)")
        self.plot.setLabel("left", "new configurations")
        self.plot.showGrid(x=False, y=True, alpha=0.3)
        self.plot.setMouseEnabled(x=True, y=False)
        self.bars: pg.BarGraphItem | None = None
        self.farthest = QListWidget()
        self.farthest.setMaximumHeight(LIST_HEIGHT)
        self.farthest.itemClicked.connect(self._chosen)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.plot, 1)
        self.list_title = QLabel()
        layout.addWidget(self.list_title)
        layout.addWidget(self.farthest)

    def show_analysis(self, puzzle: Puzzle, analysis: Analysis) -> None:
        self.list_title.setText("Farthest configurations (click one to show it):")
        self.plot.setVisible(True)
        self.farthest.setMaximumHeight(LIST_HEIGHT)
        self.summary.setText(
            f"{analysis.style.label}: {analysis.reachable:,} reachable configurations; the "
            f"farthest lie {numbered(analysis.farthest_distance, 'move')} away "
            f"({analysis.farthest_count:,} of them); {analysis.goal_count:,} meet the goal."
            + (f"\n{analysis.limit_message}" if analysis.limit_message else "")
        )
        if self.bars is not None:
            self.plot.removeItem(self.bars)
        self.bars = pg.BarGraphItem(
            x=list(range(len(analysis.layers))),
            height=list(analysis.layers),
            width=0.8,
            brush=pg.mkBrush(0, 114, 178),
            pen=pg.mkPen(None),
        )
        self.plot.addItem(self.bars)
        self.plot.autoRange()
        self._list(puzzle, analysis.farthest_examples)

    def show_hardest(self, puzzle: Puzzle, found: HardestStarts) -> None:
        """The placements farthest from the goal, of every placement of the pieces (there
        is no histogram: the distances belong to many components)."""
        self.list_title.setText("Hardest starts (click one to show it):")
        counts = (
            f"{found.style.label}: {found.placements:,} placements of the pieces in "
            f"{found.components:,} components; {found.can_reach:,} can reach the goal"
        )
        hardest = (
            f"; the hardest lie {numbered(found.hardest_distance, 'move')} from it "
            f"({found.hardest_count:,} of them)."
            if found.hardest_distance is not None
            else "."
        )
        stopped = f"{found.style.label}: {found.limit_message}"  # it then counted nothing
        self.summary.setText(stopped if found.limit_message else counts + hardest)
        self.plot.setVisible(False)  # its distances are from one start: the list takes its room
        self.farthest.setMaximumHeight(QWIDGETSIZE_MAX)
        self._list(puzzle, found.hardest)

    def chosen(self) -> Configuration | None:
        """The configuration selected in the list, if any."""
        item = self.farthest.currentItem()
        config = item.data(256) if item is not None else None
        return config if isinstance(config, Configuration) else None

    def _list(self, puzzle: Puzzle, configs: tuple[Configuration, ...]) -> None:
        self.farthest.clear()
        for config in configs:
            item = QListWidgetItem(format_configuration(puzzle, config.placements))
            item.setData(256, config)
            self.farthest.addItem(item)
        if configs:
            self.farthest.setCurrentRow(0)

    def _chosen(self, item: QListWidgetItem) -> None:
        config = item.data(256)
        if isinstance(config, Configuration):
            self.configurationChosen.emit(config)

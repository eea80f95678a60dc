"""Which workbench tab opens each puzzle family's files, one line each, in tab order.

Several families may share a workbench class (BurrTools files open in the polycube tab);
the main window makes one tab per class.
"""

from __future__ import annotations

from collections.abc import Callable

from slidelab.antislide.family import ANTISLIDE
from slidelab.burrtools.family import BURRTOOLS
from slidelab.dissection.family import DISSECTION
from slidelab.gui.antislide.workbench import AntislideWorkbench
from slidelab.gui.dissection.workbench import DissectionWorkbench
from slidelab.gui.polycube.workbench import PolycubeWorkbench
from slidelab.gui.sliding.workbench import SlidingWorkbench
from slidelab.gui.status import StatusPanel
from slidelab.gui.workbench import Workbench
from slidelab.gui.worker import SolverRunner
from slidelab.polycube.family import POLYCUBE
from slidelab.sliding.family import SLIDING

MakeWorkbench = Callable[[SolverRunner, StatusPanel], Workbench]
"""A workbench class: built with the window's solver runner and the tab's own status line."""

WORKBENCHES: dict[str, MakeWorkbench] = {
    SLIDING: SlidingWorkbench,
    ANTISLIDE: AntislideWorkbench,
    POLYCUBE: PolycubeWorkbench,
    BURRTOOLS: PolycubeWorkbench,
    DISSECTION: DissectionWorkbench,
}


def build_workbenches(runner: SolverRunner) -> dict[str, Workbench]:
    """One workbench per class in `WORKBENCHES`, each with its own status line, keyed by
    every family it opens."""
    made: dict[MakeWorkbench, Workbench] = {}
    for make in WORKBENCHES.values():
        if make not in made:
            made[make] = make(runner, StatusPanel())
    return {family: made[make] for family, make in WORKBENCHES.items()}

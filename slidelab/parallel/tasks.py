"""What a split search records of each finished subproblem."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TaskResult:
    """What one subproblem's search found."""

    key: tuple[int, ...]
    """The subproblem's name: child numbers on its path from the root of the search tree."""
    count: int
    """Solutions (or classes) found in the subproblem."""
    nodes: int
    """Search nodes it took."""
    payload: dict[str, Any] = field(default_factory=dict)
    """Whatever else the family keeps (listed solutions, counts by size), JSON-compatible."""

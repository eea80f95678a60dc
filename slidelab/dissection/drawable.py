"""Solutions paired with the tables whose placements they name, for front ends that draw.

A solution names placements by number; drawing it (colours, motions, turned pieces) needs
the shift tables of its shapes.  Building them can take seconds on big shapes, so a front
end does not build them itself: `with_tables` makes them the first phase of the search it
runs (the search then finds them kept) and hands each batch out with them.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TypeVar

from slidelab.dissection.model import Dissection, Solution
from slidelab.dissection.search import SolutionsFound, table_steps
from slidelab.dissection.shifts import Tables
from slidelab.runs import Found, Progress, translate

ResultT = TypeVar("ResultT")


@dataclass(frozen=True, eq=False)
class DrawableSolutions(Found):
    """A batch of solutions and the tables of the shapes they cut."""

    batch: SolutionsFound
    tables: Tables

    def __len__(self) -> int:
        return len(self.batch)

    def solutions(self) -> list[Solution]:
        return self.batch.solutions()


def with_tables(
    dissection: Dissection, search: Generator[Progress | SolutionsFound, None, ResultT]
) -> Generator[Progress | DrawableSolutions, None, ResultT]:
    """`search` (a search of `dissection`'s shapes) after building their tables, each batch
    paired with them."""
    tables = yield from table_steps(dissection)
    return (yield from translate(search, lambda batch: DrawableSolutions(batch, tables)))

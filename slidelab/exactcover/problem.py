"""Exact-cover problems as plain Python values, checked, and as the flat arrays the kernels read.

A problem has *primary* items, each covered between `low` and `high` times by a
solution (exactly once unless bounds say otherwise), and *secondary* items,
covered at most once, or by any number of options that give them the same
colour.  Items and colours are any hashable values; the DLX file format
(`slidelab.exactcover.dlxformat`) restricts them to short names.

An option is a tuple of entries `(item, colour)`, with colour None when the
entry has none (primary items never have one).  As in Knuth's programs, an
option without a primary item can never be chosen: the search reaches options
only through primary items.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Generator, Hashable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from slidelab.errors import SlidelabError
from slidelab.heap import settle
from slidelab.integers import INT32_MAX
from slidelab.memory import MemoryBudget
from slidelab.runs import Progress, drive

Item = Hashable
Colour = Hashable
Entry = tuple[Item, Colour | None]
Option = tuple[Entry, ...]

MAX_BOUND = INT32_MAX
"""The largest bound the kernels hold (their item arrays are int32)."""

MATRIX_ENTRY_BYTES = 2 * 8 + 2 * 4
"""Bytes one entry of an option holds while the matrix is built: two list slots, then two
int32 array cells."""
PROGRESS_SECONDS = 0.05
"""Most time between two progress events while the matrix is built."""
CHECK_EVERY = 1024
"""Options read between two looks at the clock."""


class ProblemError(SlidelabError, ValueError):
    """A problem that breaks the rules of exact cover (unknown or repeated items, bad bounds...)."""


class BoundTooLargeError(ProblemError):
    """A bound above `MAX_BOUND`, which the kernels' arrays would wrap around."""


@dataclass(frozen=True)
class Problem:
    """Items, bounds and options of one exact-cover problem (Knuth's DLX1-DLX3 model)."""

    primary: tuple[Item, ...]
    """Items every solution must cover (between their bounds)."""
    options: tuple[Option, ...]
    """The options a solution picks from, each a tuple of (item, colour or None)."""
    secondary: tuple[Item, ...] = ()
    """Items covered at most once, or by options that agree on their colour."""
    bounds: tuple[tuple[int, int], ...] = field(default=())
    """(low, high) for each primary item, in the order of `primary`; () means all (1, 1)."""

    def __post_init__(self) -> None:
        checker = self._checked_head()
        object.__setattr__(
            self, "options", tuple(checker.checked(k, o) for k, o in enumerate(self.options))
        )

    def _checked_head(self) -> _OptionChecker:
        """Normalise and check items and bounds; the checker of this problem's options."""
        object.__setattr__(self, "primary", tuple(self.primary))
        object.__setattr__(self, "secondary", tuple(self.secondary))
        bounds = tuple((int(lo), int(hi)) for lo, hi in self.bounds)
        if not bounds:
            bounds = ((1, 1),) * len(self.primary)
        object.__setattr__(self, "bounds", bounds)
        _check_items(self)
        return self._option_checker()

    def _option_checker(self) -> _OptionChecker:
        """A checker of options against this problem's items."""
        return _OptionChecker(set(self.items), set(self.primary))

    @classmethod
    def steps(
        cls,
        primary: Iterable[Item],
        options: Iterable[Iterable[Entry]],
        secondary: Iterable[Item] = (),
        bounds: Iterable[tuple[int, int]] = (),
        started: float | None = None,
    ) -> Generator[Progress, None, Problem]:
        """The problem, checked as a solver's phase: `Progress` about every 50 ms on long
        option lists (closing it stops the work).  `options` may be lazy: each is read once,
        when it is checked.  `started` is when the run began."""
        started = time.perf_counter() if started is None else started
        problem = cls(tuple(primary), (), tuple(secondary), tuple(bounds))  # items checked
        checker = problem._option_checker()
        checked: list[Option] = []
        tick = time.perf_counter()
        for number, option in enumerate(options):
            checked.append(checker.checked(number, option))
            if number % CHECK_EVERY == 0 and time.perf_counter() - tick > PROGRESS_SECONDS:
                settle()
                tick = time.perf_counter()
                yield Progress("checking the options", number + 1, tick - started)
        # Nobody else holds `problem` yet: its options are set as __post_init__ sets them.
        object.__setattr__(problem, "options", tuple(checked))
        return problem

    @classmethod
    def of_sets(
        cls,
        primary: Iterable[Item],
        options: Iterable[Iterable[Item]],
        secondary: Iterable[Item] = (),
        bounds: Mapping[Item, tuple[int, int]] | None = None,
    ) -> Problem:
        """A problem whose options are plain collections of items (no colours).

        `bounds` maps some primary items to (low, high); the others get (1, 1).
        """
        return drive(cls.of_sets_steps(primary, options, secondary, bounds))

    @classmethod
    def of_sets_steps(
        cls,
        primary: Iterable[Item],
        options: Iterable[Iterable[Item]],
        secondary: Iterable[Item] = (),
        bounds: Mapping[Item, tuple[int, int]] | None = None,
        started: float | None = None,
    ) -> Generator[Progress, None, Problem]:
        """`of_sets` as a solver's phase (see `steps`)."""
        primary = tuple(primary)
        bounds = dict(bounds or {})
        unknown = [item for item in bounds if item not in set(primary)]
        if unknown:
            raise ProblemError(f"bounds given for {unknown[0]!r}, which is not a primary item")
        return (
            yield from cls.steps(
                primary,
                (((item, None) for item in option) for option in options),
                secondary,
                tuple(bounds.get(item, (1, 1)) for item in primary),
                started,
            )
        )

    @property
    def items(self) -> tuple[Item, ...]:
        """Primary items, then secondary ones."""
        return self.primary + self.secondary

    @property
    def has_multiplicities(self) -> bool:
        """Whether some primary item has bounds other than (1, 1)."""
        return any(b != (1, 1) for b in self.bounds)

    def without_options(self, removed: Iterable[int]) -> Problem:
        """The same problem less the options numbered in `removed` (for symmetry breaking)."""
        gone = set(removed)
        kept = tuple(o for k, o in enumerate(self.options) if k not in gone)
        return Problem(self.primary, kept, self.secondary, self.bounds)

    def matrix(self) -> Matrix:
        """The flat integer form the kernels work on."""
        return drive(self.matrix_steps())

    def matrix_steps(
        self, budget: MemoryBudget | None = None, started: float | None = None
    ) -> Generator[Progress, None, Matrix]:
        """`matrix` as a solver's first phase: `Progress` about every 50 ms on long option
        lists (closing it stops the work), refused (`MemoryBudgetError`) when the lists it
        builds would pass `budget` (default: `MemoryBudget.of(None)`).  `started` is when
        the run began (its progress counts from there)."""
        started = time.perf_counter() if started is None else started
        budget = MemoryBudget.of(None) if budget is None else budget
        count = len(self.options)
        number = {item: k + 1 for k, item in enumerate(self.items)}
        colour_ids: dict[Colour, int] = {}
        items: list[int] = []
        colours: list[int] = []
        item_parts: list[np.ndarray] = []
        colour_parts: list[np.ndarray] = []
        starts = np.zeros(count + 1, np.int64)
        entries = 0
        tick = time.perf_counter()
        for k, option in enumerate(self.options, 1):
            for item, colour in option:
                items.append(number[item])
                colours.append(
                    0 if colour is None else colour_ids.setdefault(colour, 1 + len(colour_ids))
                )
            entries += len(option)
            starts[k] = entries
            if k == 1 or k % CHECK_EVERY == 0:
                # The lists become arrays a part at a time (one conversion at the end would
                # take seconds on big problems), and the whole is foreseen from the part.
                item_parts.append(np.array(items, np.int32))
                colour_parts.append(np.array(colours, np.int32))
                items.clear()
                colours.clear()
                foreseen = entries * count // k * MATRIX_ENTRY_BYTES
                budget.check(foreseen, "reading the options")
                if time.perf_counter() - tick > PROGRESS_SECONDS:
                    tick = time.perf_counter()
                    yield Progress("reading the options", k, tick - started, fraction=k / count)
        item_parts.append(np.array(items, np.int32))
        colour_parts.append(np.array(colours, np.int32))
        return Matrix(
            n_primary=len(self.primary),
            n_items=len(self.primary) + len(self.secondary),
            option_items=np.concatenate(item_parts),
            option_starts=starts,
            option_colours=np.concatenate(colour_parts),
            low=np.array([lo for lo, _ in self.bounds], np.int64),
            high=np.array([hi for _, hi in self.bounds], np.int64),
        )


@dataclass(frozen=True, eq=False)
class Matrix:
    """A problem as integer arrays: items are numbered 1..n_items, primary ones first."""

    n_primary: int
    n_items: int
    option_items: np.ndarray
    """Item numbers of every option, one option after another (int32)."""
    option_starts: np.ndarray
    """Where each option starts in `option_items`; one more entry than there are options."""
    option_colours: np.ndarray
    """Colour number of each entry of `option_items`; 0 means no colour (int32)."""
    low: np.ndarray
    """Lower bound of each primary item (index item - 1)."""
    high: np.ndarray
    """Upper bound of each primary item."""

    @property
    def n_options(self) -> int:
        return len(self.option_starts) - 1

    def option(self, k: int) -> np.ndarray:
        """Item numbers of option k."""
        return self.option_items[self.option_starts[k] : self.option_starts[k + 1]]

    def fingerprint(self) -> str:
        """A digest of the whole matrix, to tell whether a saved search belongs to it."""
        digest = hashlib.sha256()
        digest.update(np.array([self.n_primary, self.n_items], np.int64).tobytes())
        for array in (
            self.option_items,
            self.option_starts,
            self.option_colours,
            self.low,
            self.high,
        ):
            digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
        return digest.hexdigest()


def _check_items(problem: Problem) -> None:
    """Raise ProblemError unless `problem`'s items and bounds follow the rules of Knuth's DLX
    programs."""
    if len(problem.bounds) != len(problem.primary):
        raise ProblemError(
            f"{len(problem.bounds)} bounds given for {len(problem.primary)} primary items"
        )
    seen: set[Item] = set()
    for item in problem.items:
        if item in seen:
            raise ProblemError(f"item {item!r} is listed twice")
        seen.add(item)
    for item, (low, high) in zip(problem.primary, problem.bounds, strict=True):
        if high <= 0:
            raise ProblemError(f"item {item!r}: the upper bound must be positive, not {high}")
        if not 0 <= low <= high:
            raise ProblemError(f"item {item!r}: bounds {low}:{high} need 0 <= low <= high")
        if high > MAX_BOUND:
            raise BoundTooLargeError(
                f"item {item!r}: the upper bound {high} is above {MAX_BOUND}, the largest the "
                "engine holds"
            )


class _OptionChecker:
    """Checks options one by one against a problem's items; equal entries of different
    options become one tuple (big problems repeat each entry many times)."""

    def __init__(self, known: set[Item], primary: set[Item]) -> None:
        self.known = known
        self.primary = primary
        self.entries: dict[Entry, Entry] = {}

    def checked(self, number: int, option: Iterable[Entry]) -> Option:
        """Option `number` as a tuple of shared entries; ProblemError if it breaks a rule."""
        found: list[Entry] = []
        named: set[Item] = set()
        for entry in option:
            item, colour = entry[0], entry[1]
            if item not in self.known:
                raise ProblemError(f"option {number} names unknown item {item!r}")
            if item in named:
                raise ProblemError(f"option {number} names item {item!r} twice")
            if colour is not None and item in self.primary:
                raise ProblemError(f"option {number} gives primary item {item!r} a colour")
            named.add(item)
            pair = (item, colour)
            found.append(self.entries.setdefault(pair, pair))
        if not found:
            raise ProblemError(f"option {number} is empty")
        return tuple(found)

"""A slow, obviously correct oracle for exact cover, for tests.

It shares nothing with the kernels but the `Problem`: it decides for each option
in turn whether to take it, keeps the coverage of every item in dictionaries, and
checks the rules directly — a primary item covered between its bounds, a
secondary item by at most one option or by options that agree on its colour.
Options without a primary item are never taken, as in Knuth's programs.  Use it
only on small problems.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from slidelab.exactcover.problem import Colour, Item, Problem

_UNCOLOURED = object()
"""What a secondary item records when an option without a colour covers it."""


def reference_solutions(problem: Problem) -> set[tuple[int, ...]]:
    """Every solution of `problem`, as sorted tuples of option numbers."""
    return set(_solutions(problem))


def _solutions(problem: Problem) -> Iterator[tuple[int, ...]]:
    primary = set(problem.primary)
    bounds = dict(zip(problem.primary, problem.bounds, strict=True))
    usable = [k for k, option in enumerate(problem.options) if any(i in primary for i, _ in option)]
    # still_coverable[n][i]: how many of usable[n:] contain primary item i
    still_coverable: list[Counter[Item]] = [Counter()]
    for k in reversed(usable):
        following = still_coverable[0].copy()
        following.update(item for item, _ in problem.options[k] if item in primary)
        still_coverable.insert(0, following)
    counts: Counter[Item] = Counter()
    colours: dict[Item, object] = {}
    chosen: list[int] = []

    def fits(k: int) -> bool:
        for item, colour in problem.options[k]:
            if item in primary:
                if counts[item] + 1 > bounds[item][1]:
                    return False
            elif item in colours and (colour is None or colours[item] != colour):
                return False
        return True

    def search(n: int) -> Iterator[tuple[int, ...]]:
        if any(counts[i] + still_coverable[n][i] < bounds[i][0] for i in problem.primary):
            return
        if n == len(usable):
            yield tuple(chosen)
            return
        k = usable[n]
        if fits(k):
            taken = _take(problem.options[k], primary, counts, colours)
            chosen.append(k)
            yield from search(n + 1)
            chosen.pop()
            _give_back(problem.options[k], primary, counts, colours, taken)
        yield from search(n + 1)

    return search(0)


def _take(
    option: tuple[tuple[Item, Colour | None], ...],
    primary: set[Item],
    counts: Counter[Item],
    colours: dict[Item, object],
) -> list[Item]:
    """Record `option` as chosen; returns the secondary items it claimed first."""
    claimed = []
    for item, colour in option:
        if item in primary:
            counts[item] += 1
        elif item not in colours:
            colours[item] = _UNCOLOURED if colour is None else colour
            claimed.append(item)
    return claimed


def _give_back(
    option: tuple[tuple[Item, Colour | None], ...],
    primary: set[Item],
    counts: Counter[Item],
    colours: dict[Item, object],
    claimed: list[Item],
) -> None:
    for item, _ in option:
        if item in primary:
            counts[item] -= 1
    for item in claimed:
        del colours[item]

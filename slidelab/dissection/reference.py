"""Slow, obviously correct oracle: try every colouring of the source and every map of each colour.

A solution is a colouring of the source with colours 0..d-1 and, for each colour,
a rigid map (orientation t, shift) that sends its cells onto the target, the
images together filling the target.  The search counts these exactly as Knuth's
program does, and so does this oracle, by the definition alone:

- a map is legal when it moves the whole source to overlap the target (an
  unused colour still has a legal map);
- the maps are sorted by placement: stance (the oriented source, in order of the
  first orientation giving it), then row shift, then column shift;
- the first colour takes its stance's first orientation;
- without `connected`, a colour never repeats the map of the colour before it;
  with it, every colour class is 4-connected and colours sharing a map are both
  used, the lower colour's first cell coming first.

Only for tiny shapes: it visits all d^n colourings.
"""

from __future__ import annotations

from itertools import product

from slidelab.dissection.model import Dissection
from slidelab.dissection.shape import Cell

Motion = tuple[int, Cell]
"""(orientation t, (row shift, column shift))."""

Found = tuple[tuple[Motion, ...], tuple[int, ...]]
"""The maps of colours 0..d-1 and the colour of each source cell."""


def turn(cell: Cell, t: int) -> Cell:
    """Cell under orientation t before normalising: mirrored when t >= 4, then t % 4 quarter
    turns counterclockwise (on the page, rows going down)."""
    r, c = cell
    if t >= 4:
        c = -c
    for _ in range(t % 4):
        r, c = -c, r
    return r, c


def frame(cells: tuple[Cell, ...], t: int) -> tuple[Cell, ...]:
    """`cells` under orientation t, shifted so that the top row and left column are 0."""
    turned = [turn(cell, t) for cell in cells]
    top = min(r for r, _ in turned)
    left = min(c for _, c in turned)
    return tuple((r - top, c - left) for r, c in turned)


def reference_solutions(dissection: Dissection) -> list[Found]:
    """Every solution by brute force, sorted."""
    source = dissection.source.cells
    target = set(dissection.target.cells)
    d = dissection.pieces
    turns = range(8 if dissection.flips else 4)
    frames = {t: frame(source, t) for t in turns}
    stance_of: dict[int, int] = {}
    firsts: list[frozenset[Cell]] = []
    for t in turns:
        stance = frozenset(frames[t])
        if stance not in firsts:
            firsts.append(stance)
        stance_of[t] = firsts.index(stance)
    rank = {t: sum(1 for u in turns if u < t and stance_of[u] == stance_of[t]) for t in turns}
    legal = sorted(
        {(t, (ty - fr, tx - fc)) for t in turns for fr, fc in frames[t] for ty, tx in target}
    )

    def image(cells: list[int], motion: Motion) -> list[Cell]:
        t, (a, b) = motion
        return [(frames[t][x][0] + a, frames[t][x][1] + b) for x in cells]

    def key(motion: Motion) -> tuple[int, int, int]:
        t, (a, b) = motion
        return stance_of[t], a, b

    def candidates(cells: list[int]) -> list[Motion]:
        if not cells:
            return legal
        return [m for m in legal if all(cell in target for cell in image(cells, m))]

    found: list[Found] = []
    for colouring in product(range(d), repeat=len(source)):
        classes = [[x for x, k in enumerate(colouring) if k == colour] for colour in range(d)]
        if dissection.connected and not all(_connected(source, c) for c in classes):
            continue
        for motions in product(*(candidates(c) for c in classes)):
            if rank[motions[0][0]] != 0:
                continue
            if any(key(motions[k - 1]) > key(motions[k]) for k in range(1, d)):
                continue
            if not _distinct_enough(motions, classes, dissection.connected):
                continue
            covered = [cell for k in range(d) for cell in image(classes[k], motions[k])]
            if len(set(covered)) == len(covered):
                found.append((motions, colouring))
    return sorted(found)


def _distinct_enough(
    motions: tuple[Motion, ...], classes: list[list[int]], connected: bool
) -> bool:
    """The rule on colours with equal maps (see the module's docstring)."""
    if not connected:
        return all(motions[k - 1] != motions[k] for k in range(1, len(motions)))
    for j in range(len(motions)):
        for k in range(j + 1, len(motions)):
            same = motions[j] == motions[k]
            if same and (not classes[j] or not classes[k] or classes[j][0] > classes[k][0]):
                return False
    return True


def _connected(source: tuple[Cell, ...], cells: list[int]) -> bool:
    """Whether the source cells numbered in `cells` form a 4-connected set (the empty set does)."""
    if not cells:
        return True
    members = {source[x] for x in cells}
    seen = {source[cells[0]]}
    todo = [source[cells[0]]]
    while todo:
        r, c = todo.pop()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in members and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(members)

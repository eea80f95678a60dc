"""A slow, obviously correct oracle for the sliding-block search, for tests.

It recomputes in plain Python what `slidelab.sliding.search` computes with
packed states and numba kernels: the configurations one move away, the
breadth-first layers of the reachable space and the length of a shortest
solution.  It shares only the model and the move styles with the fast search,
and none of its cleverness: superpiece styles (3-5) try every nonempty subset
of pieces instead of the ideals of a blocking digraph, and path styles (2, 5)
flood-fill the displacements of the moving set one unit step at a time.  Use
it only on small puzzles.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterator
from itertools import combinations, product

from slidelab.sliding.model import Cell, Configuration, Placement, Puzzle
from slidelab.sliding.styles import MoveStyle, Reach

UNIT_STEPS: tuple[Cell, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))
"""Right, left, down, up, as (drow, dcol)."""

_Fits = Callable[[Cell], bool]
"""Whether the moving set may stand shifted by a displacement."""


def successors(puzzle: Puzzle, config: Configuration, style: MoveStyle) -> set[Configuration]:
    """Every configuration one move of `style` away from `config`, other than `config` itself.

    A move picks one piece, or for superpiece styles any nonempty set of pieces, and
    shifts all of its cells by one displacement of the style's reach that the set can
    make by unit steps with every other piece, obstacle and the board edge held fixed,
    each step along an axis that every piece of the set may move on.
    """
    placements = config.placements
    covered = [puzzle.kind(p.kind).cells_at(p.anchor) for p in placements]
    open_cells = {(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)}
    open_cells -= puzzle.obstacles
    found: set[Configuration] = set()
    for chosen in _moving_sets(len(placements), superpieces=style.superpieces):
        fits = _fitter(open_cells, covered, chosen)
        axes = {puzzle.kind(placements[i].kind).axis for i in chosen}
        steps = tuple(step for step in UNIT_STEPS if all(axis.allows(step) for axis in axes))
        for shift in _displacements(fits, style.reach, steps):
            found.add(_shifted(placements, chosen, shift))
    found.discard(config)
    return found


def breadth_first_layers(puzzle: Puzzle, style: MoveStyle) -> Iterator[list[Configuration]]:
    """The configurations at distance 0, 1, 2, ... from the start, one list per distance."""
    seen = {puzzle.start}
    layer = [puzzle.start]
    while layer:
        yield layer
        following = []
        for config in layer:
            for after in successors(puzzle, config, style):
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        layer = following


def reference_layers(puzzle: Puzzle, style: MoveStyle) -> tuple[int, ...]:
    """How many configurations lie at each distance 0, 1, 2, ... from the start."""
    return tuple(len(layer) for layer in breadth_first_layers(puzzle, style))


def reference_moves(puzzle: Puzzle, style: MoveStyle) -> int | None:
    """The length of a shortest solution, or None when no reachable configuration meets the goal."""
    for distance, layer in enumerate(breadth_first_layers(puzzle, style)):
        if any(puzzle.meets_goal(config) for config in layer):
            return distance
    return None


def reference_to_goal(
    puzzle: Puzzle, style: MoveStyle
) -> tuple[int | None, int, tuple[int, ...], int]:
    """Over the start's component: (the start's distance to the goal or None, the number of
    shortest solutions, how many configurations lie at each distance to the goal, how many
    cannot reach it), from the whole graph held in a dictionary."""
    component = [config for layer in breadth_first_layers(puzzle, style) for config in layer]
    graph = {config: successors(puzzle, config, style) for config in component}
    to_goal = _distances_to_goal(puzzle, graph)
    ways: dict[Configuration, int] = {}
    for config in sorted(to_goal, key=to_goal.__getitem__):
        nearer = [after for after in graph[config] if to_goal.get(after) == to_goal[config] - 1]
        ways[config] = 1 if to_goal[config] == 0 else sum(ways[after] for after in nearer)
    layers = Counter(to_goal.values())
    return (
        to_goal.get(puzzle.start),
        ways.get(puzzle.start, 0),
        tuple(layers[d] for d in range(len(layers))),
        len(component) - len(to_goal),
    )


def reference_hardest(
    puzzle: Puzzle, style: MoveStyle
) -> tuple[int | None, set[Configuration], int, int]:
    """Over every placement of the start's pieces: (the largest distance to the goal among
    placements that reach it, or None; the placements at that distance; the number of
    components; the number of placements), from the whole graph held in a dictionary."""
    everything = _all_placements(puzzle)
    graph = {config: successors(puzzle, config, style) for config in everything}
    components = 0
    seen: set[Configuration] = set()
    for config in everything:
        if config not in seen:
            components += 1
            seen.add(config)
            stack = [config]
            while stack:
                for after in graph[stack.pop()]:
                    if after not in seen:
                        seen.add(after)
                        stack.append(after)
    to_goal = _distances_to_goal(puzzle, graph)
    farthest = max(to_goal.values(), default=None)
    hardest = {config for config, distance in to_goal.items() if distance == farthest}
    return farthest, hardest, components, len(everything)


def _distances_to_goal(
    puzzle: Puzzle, graph: dict[Configuration, set[Configuration]]
) -> dict[Configuration, int]:
    """The distance to the goal of every configuration of `graph` that can reach it: a
    breadth-first search from all that meet it, since every move can be undone."""
    frontier = [config for config in graph if puzzle.meets_goal(config)]
    to_goal = dict.fromkeys(frontier, 0)
    while frontier:
        following = []
        for config in frontier:
            for before in graph[config]:
                if before not in to_goal:
                    to_goal[before] = to_goal[config] + 1
                    following.append(before)
        frontier = following
    return to_goal


def _all_placements(puzzle: Puzzle) -> list[Configuration]:
    """Every way to put the start's pieces on the board clear of obstacles and each other."""
    cells = {(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)} - puzzle.obstacles
    per_kind = []
    for name, count in sorted(puzzle.start.kind_counts().items()):
        kind = puzzle.kind(name)
        anchors = sorted(a for a in cells if set(kind.cells_at(a)) <= cells)
        per_kind.append(
            [[Placement(name, *a) for a in chosen] for chosen in combinations(anchors, count)]
        )
    found = []
    for choice in product(*per_kind):
        placements = [p for group in choice for p in group]
        covered = [cell for p in placements for cell in puzzle.kind(p.kind).cells_at(p.anchor)]
        if len(covered) == len(set(covered)):
            found.append(Configuration.of(placements))
    return found


def _moving_sets(pieces: int, *, superpieces: bool) -> Iterator[tuple[int, ...]]:
    """Indices of the pieces that may move together: single pieces, or every nonempty subset."""
    sizes = range(1, pieces + 1) if superpieces else (1,)
    for size in sizes:
        yield from combinations(range(pieces), size)


def _fitter(open_cells: set[Cell], covered: list[list[Cell]], chosen: tuple[int, ...]) -> _Fits:
    """Whether the `chosen` pieces, shifted, land only on cells no other piece or obstacle holds."""
    moving = [cell for i in chosen for cell in covered[i]]
    free = open_cells - {
        cell for i, cells in enumerate(covered) if i not in chosen for cell in cells
    }

    def fits(shift: Cell) -> bool:
        dr, dc = shift
        return all((r + dr, c + dc) in free for r, c in moving)

    return fits


def _displacements(fits: _Fits, reach: Reach, steps: tuple[Cell, ...]) -> set[Cell]:
    """The nonzero shifts a moving set can make in one move of `reach` by unit `steps`,
    given where it `fits`."""
    if reach is Reach.STEP:
        return {step for step in steps if fits(step)}
    if reach is Reach.LINE:
        return _straight_slides(fits, steps)
    return _flood(fits, steps)


def _straight_slides(fits: _Fits, steps: tuple[Cell, ...]) -> set[Cell]:
    """Shifts k * step (k >= 1) along one of `steps` with every shorter shift also fitting."""
    shifts: set[Cell] = set()
    for dr, dc in steps:
        k = 1
        while fits((k * dr, k * dc)):
            shifts.add((k * dr, k * dc))
            k += 1
    return shifts


def _flood(fits: _Fits, steps: tuple[Cell, ...]) -> set[Cell]:
    """Every nonzero shift reachable from (0, 0) by `steps` through fitting shifts."""
    seen = {(0, 0)}
    queue = deque(seen)
    while queue:
        r, c = queue.popleft()
        for dr, dc in steps:
            shift = (r + dr, c + dc)
            if shift not in seen and fits(shift):
                seen.add(shift)
                queue.append(shift)
    seen.discard((0, 0))
    return seen


def _shifted(
    placements: tuple[Placement, ...], chosen: tuple[int, ...], shift: Cell
) -> Configuration:
    """The configuration with the `chosen` pieces' anchors moved by `shift`."""
    dr, dc = shift
    return Configuration.of(
        [
            Placement(p.kind, p.row + dr, p.col + dc) if i in chosen else p
            for i, p in enumerate(placements)
        ]
    )

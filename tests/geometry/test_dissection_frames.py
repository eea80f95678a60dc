"""Pieces in motion: at the start they are the source cells, at the end their target cells."""

from __future__ import annotations

import pytest

from slidelab.dissection.model import Dissection, square_source
from slidelab.dissection.search import find_solutions
from slidelab.dissection.shape import parse_shape
from slidelab.dissection.shifts import Tables
from slidelab.geometry.dissection_frames import Layout, PieceMotion, piece_motions, piece_quads
from slidelab.library import load_shipped


def cells_under(quads, origin) -> set[tuple[int, int]]:
    """The grid cells the (axis-aligned) quads cover, as (row, column) from `origin`."""
    found = set()
    for quad in quads:
        xs = [x for x, _ in quad]
        ys = [y for _, y in quad]
        assert max(xs) - min(xs) == pytest.approx(1) and max(ys) - min(ys) == pytest.approx(1)
        found.add((round(min(ys) - origin[1]), round(min(xs) - origin[0])))
    return found


@pytest.mark.parametrize("flips", [False, True])
def test_every_piece_starts_on_its_source_cells_and_ends_on_its_target_cells(flips):
    target = load_shipped("dissection", "knuth-toy.dots", parse_shape)
    source = square_source(target)
    tables = Tables.build(source, target, flips)
    layout = Layout.of(source, target)
    solutions = find_solutions(Dissection(source, target, 3, flips=flips))
    assert solutions
    for solution in solutions[:: max(1, len(solutions) // 60)]:
        for motion in piece_motions(tables, solution):
            colour = motion.colour
            wanted_source = {
                c for c, k in zip(source.cells, solution.source_colours, strict=True) if k == colour
            }
            wanted_target = {
                c for c, k in zip(target.cells, solution.target_colours, strict=True) if k == colour
            }
            assert cells_under(piece_quads(motion, 0.0), layout.source_origin) == wanted_source
            assert cells_under(piece_quads(motion, 1.0), layout.target_origin) == wanted_target


@pytest.mark.parametrize("turn", [1, 3])
def test_half_way_a_quarter_turn_is_an_eighth_turned(turn):
    domino = PieceMotion(1, ((0, 0), (0, 1)), turn, False, start=(1.0, 0.5), end=(6.0, 1.0))
    quad = piece_quads(domino, 0.5)[0]
    (x0, y0), (x1, y1) = quad[0], quad[1]
    assert abs(x1 - x0) == pytest.approx(abs(y1 - y0))  # an edge at 45 degrees
    assert (y1 - y0 < 0) == (turn == 1)  # one quarter turn goes counterclockwise on the page
    centre = [sum(x for x, _ in q) / 4 for q in piece_quads(domino, 0.5)]
    assert sum(centre) / 2 == pytest.approx(3.5)  # the centre is half way


def test_a_flip_squashes_the_piece_flat_half_way():
    domino = PieceMotion(1, ((0, 0), (0, 1)), 0, True, start=(1.0, 0.5), end=(1.0, 0.5))
    xs = [x for q in piece_quads(domino, 0.5) for x, _ in q]
    assert max(xs) - min(xs) == pytest.approx(0, abs=1e-9)

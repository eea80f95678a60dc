"""A dissection as an SVG drawing: the source and the target side by side, pieces in colour.

Plain text, no library: one square per cell filled with its piece's colour, then
the cuts and outlines as dark lines, so the file opens in any browser or editor.
"""

from __future__ import annotations

import os

from slidelab.dissection.model import Solution
from slidelab.fileio import write_text_atomically
from slidelab.geometry.dissection_frames import Layout, Panels, panel_cells, piece_outlines
from slidelab.geometry.palettes import EMPTY_COLOUR, HALO_COLOUR, RGB, piece_colour

CELL = 32
"""Pixels per cell."""
MARGIN = 8


def _hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def dissection_svg(panels: Panels, solution: Solution | None) -> str:
    """The SVG text of both panels, pieces coloured as in the app."""
    layout = Layout.of(panels.source, panels.target)
    width = round(layout.width * CELL + 2 * MARGIN)
    height = round(layout.height * CELL + 2 * MARGIN)
    cells = panel_cells(panels, solution)
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for (x, y), colour, _ in cells:
        fill = _hex(piece_colour(colour - 1) if colour else EMPTY_COLOUR)
        lines.append(
            f'<rect x="{MARGIN + x * CELL:g}" y="{MARGIN + y * CELL:g}" width="{CELL}" '
            f'height="{CELL}" fill="{fill}" stroke="#c8c4bc" stroke-width="1"/>'
        )
    stroke = _hex(HALO_COLOUR)
    for (x0, y0), (x1, y1) in piece_outlines(cells):
        lines.append(
            f'<line x1="{MARGIN + x0 * CELL:g}" y1="{MARGIN + y0 * CELL:g}" '
            f'x2="{MARGIN + x1 * CELL:g}" y2="{MARGIN + y1 * CELL:g}" stroke="{stroke}" '
            'stroke-width="3" stroke-linecap="square"/>'
        )
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def write_dissection_svg(
    path: str | os.PathLike[str], panels: Panels, solution: Solution | None
) -> None:
    write_text_atomically(path, dissection_svg(panels, solution))

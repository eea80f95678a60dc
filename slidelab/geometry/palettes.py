"""Colours shared by every view and export, as (red, green, blue) tuples of 0-255.

Piece kinds '1'-'f' need fifteen colours, more than any colour-blind-safe palette
offers.  The first seven are the Okabe-Ito palette (Okabe & Ito, "Color Universal
Design", 2008) without its black, which is kept for obstacles; the other eight come
from Paul Tol's "muted", "light" and "bright" schemes (personal.sron.nl/~pault).
They were picked greedily, each maximising its smallest CIELAB distance to the
colours already chosen as seen with normal vision, deuteranopia and protanopia
(Machado et al. 2009 simulation), and kept well away from the empty and obstacle
colours.  Kinds are also labelled with their name, so colour is never the only cue.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

KIND_COLOURS: dict[str, RGB] = {
    "1": (230, 159, 0),  # Okabe-Ito orange
    "2": (86, 180, 233),  # Okabe-Ito sky blue
    "3": (0, 158, 115),  # Okabe-Ito bluish green
    "4": (240, 228, 66),  # Okabe-Ito yellow
    "5": (0, 114, 178),  # Okabe-Ito blue
    "6": (213, 94, 0),  # Okabe-Ito vermillion
    "7": (204, 121, 167),  # Okabe-Ito reddish purple
    "8": (51, 34, 136),  # Tol muted indigo
    "9": (238, 221, 136),  # Tol light yellow
    "a": (136, 34, 85),  # Tol muted wine
    "b": (255, 170, 187),  # Tol light pink
    "c": (153, 221, 255),  # Tol light cyan
    "d": (17, 119, 51),  # Tol muted green
    "e": (238, 102, 119),  # Tol bright red
    "f": (153, 153, 51),  # Tol muted olive
}
"""One colour per piece kind name."""

EMPTY_COLOUR: RGB = (246, 244, 238)
"""An empty board cell: a warm off-white."""

OBSTACLE_COLOUR: RGB = (58, 58, 64)
"""A permanent obstacle: near black (drawn hatched with `OBSTACLE_HATCH_COLOUR`)."""

OBSTACLE_HATCH_COLOUR: RGB = (96, 96, 104)

GRID_COLOUR: RGB = (200, 196, 188)
"""Lines between board cells."""

ANY_HATCH_COLOUR: RGB = (178, 174, 166)
"""Light hatching of the "any occupant" cells of a partial goal."""

EMPTY_DOT_COLOUR: RGB = (150, 146, 140)
"""The faint dot of a goal cell that must be empty."""

HIGHLIGHT_COLOUR: RGB = (255, 255, 255)
"""Outline of a moving piece: white, drawn over a dark halo so it shows on every colour."""

HALO_COLOUR: RGB = (20, 20, 24)

PROBLEM_COLOUR: RGB = (220, 20, 40)
"""Outline of cells with a problem (drawn over a white halo)."""


def text_colour(background: RGB) -> RGB:
    """Black or white, whichever reads better on `background` (by relative luminance)."""

    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in background)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (0, 0, 0) if luminance > 0.18 else (255, 255, 255)


_PIECE_CYCLE: tuple[RGB, ...] = tuple(KIND_COLOURS.values())


def piece_colour(index: int) -> RGB:
    """The colour of the `index`-th piece of a 3D scene: the kind colours in order, cycling, so
    neighbouring pieces keep the colour-blind-safe contrast the kind palette was chosen for."""
    return _PIECE_CYCLE[index % len(_PIECE_CYCLE)]

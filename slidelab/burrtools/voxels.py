"""BurrTools' voxel strings: one character per voxel, x fastest, then y, then z.

`_` is an empty voxel, `#` a fixed one, `+` a variable one; decimal digits
right after `#` or `+` give that voxel a colour (1-63, 0 or none is neutral).
So a 2 x 1 x 1 space with a red-ish fixed voxel and an empty one is `#1_`.
The rules are BurrTools' own (voxel_c's loader and saver): every voxel of the
space is written, no blanks, no other characters.
"""

from __future__ import annotations

from slidelab.burrtools.model import EMPTY, FIXED, VARIABLE, Voxel, XmpuzzleError

MAX_COLOUR = 63
"""BurrTools keeps at most 63 colours besides the neutral one."""


def parse_voxels(
    text: str, size: tuple[int, int, int], source: str, where: str
) -> tuple[Voxel, ...]:
    """The non-empty voxels of a voxel string for a space of `size`; errors name `where`."""
    sx, sy, sz = size
    voxels: list[Voxel] = []
    index = 0  # voxels read so far
    colour_of: int | None = None  # index in `voxels` of the voxel that digits would colour
    for position, char in enumerate(text, 1):
        if char in (EMPTY, FIXED, VARIABLE):
            if index >= sx * sy * sz:
                raise XmpuzzleError(
                    source, where, f"the voxel string has more than the {sx}x{sy}x{sz} voxels "
                    "of the space",
                )  # fmt: skip
            x, y, z = index % sx, index // sx % sy, index // (sx * sy)
            index += 1
            colour_of = None
            if char != EMPTY:
                colour_of = len(voxels)
                voxels.append(Voxel((x, y, z), char))
        elif char.isdigit() and char.isascii():
            if colour_of is None:
                raise XmpuzzleError(
                    source, where,
                    f"colour digit {char!r} at position {position} does not follow '#' or '+'",
                )  # fmt: skip
            voxel = voxels[colour_of]
            colour = voxel.colour * 10 + int(char)
            if colour > MAX_COLOUR:
                raise XmpuzzleError(
                    source, where, f"colour {colour} at position {position} is above {MAX_COLOUR}"
                )
            voxels[colour_of] = Voxel(voxel.cell, voxel.state, colour)
        else:
            raise XmpuzzleError(
                source, where, f"unrecognised character {char!r} at position {position} of the "
                "voxel string (expected '_', '#', '+' or a colour digit)",
            )  # fmt: skip
    if index < sx * sy * sz:
        raise XmpuzzleError(
            source, where, f"the voxel string has {index} voxels, the {sx}x{sy}x{sz} space needs "
            f"{sx * sy * sz}",
        )  # fmt: skip
    return tuple(voxels)


def format_voxels(size: tuple[int, int, int], voxels: tuple[Voxel, ...]) -> str:
    """The voxel string of a space of `size` holding `voxels`."""
    sx, sy, sz = size
    chars = [EMPTY] * (sx * sy * sz)
    for voxel in voxels:
        x, y, z = voxel.cell
        chars[x + sx * (y + sy * z)] = voxel.state + (str(voxel.colour) if voxel.colour else "")
    return "".join(chars)

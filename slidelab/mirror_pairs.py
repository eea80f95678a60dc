"""Which piece a reflection of the whole turns each piece into, for counting up to symmetry.

A reflection maps a solution to another solution only when every piece is renamed to a piece
of the mirrored shape, and the renaming must be one-to-one and its own inverse: reflecting
twice is a rotation, which renames nothing.  A piece that is its own mirror image stays
itself (renaming it to another piece of the same shape would merge solutions that differ in
where the two stand).  Chiral pieces are paired with pieces of the mirrored shape; which of
several such pieces a piece is paired with changes no count, since swapping two pieces of
the same shape maps the problem to itself.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def mirror_pairs(forms: Sequence[Hashable], images: Sequence[Hashable]) -> dict[int, int]:
    """Piece k's partner for the pieces that have one: k itself when `images[k] == forms[k]`
    (a piece and its mirror image, each in some normal form that rotations do not change),
    else the first piece not yet paired whose form is `images[k]`, paired both ways."""
    partners: dict[int, int] = {}
    for k, image in enumerate(images):
        if k in partners:
            continue
        if image == forms[k]:
            partners[k] = k
            continue
        match = next(
            (j for j, form in enumerate(forms) if j not in partners and j != k and form == image),
            None,
        )
        if match is not None:
            partners[k], partners[match] = match, k
    return partners

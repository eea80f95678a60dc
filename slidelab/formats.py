"""Which puzzle family a file belongs to, from its extension or, failing that, its content.

The families describe their own files (`slidelab.family.Family`); this module only asks
them, in a fixed order: a family that recognises the file itself (binary data, whatever
the file's name), then the extension, then the text signatures by rank.
"""

from __future__ import annotations

from slidelab import registry
from slidelab.errors import SlidelabError
from slidelab.fileio import read_text


class UnknownFormatError(SlidelabError):
    """A file no workbench recognises."""


def family_of_file(path: str) -> str:
    """The family of the puzzle file at `path`, which may be binary data rather than text."""
    for family in registry.FAMILIES:
        if family.recognises_file is not None and family.recognises_file(path):
            return family.name
    return detect_family(path, read_text(path))


def detect_family(path: str, text: str) -> str:
    """The family of the puzzle in `path`: by extension when it has a known one, else by content."""
    family = registry.family_of_extension(path)
    if family is not None:
        return family.name
    signed = [(f.signature, f.name) for f in registry.FAMILIES if f.signature is not None]
    for signature, name in sorted(signed, key=lambda pair: pair[0].rank):
        if signature.matches(text):
            return name
    expected = [signature.expected for signature, _ in signed]
    raise UnknownFormatError(
        f"{path}: not a puzzle file slidelab knows "
        f"(expected {'; '.join([*expected[:-1], f'or {expected[-1]}'])})"
    )

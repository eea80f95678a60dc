"""The dissection family as the registry sees it: `slidelab dissect`, `.dots` shapes."""

from __future__ import annotations

from slidelab.family import Family, Library, TextSignature, lazily

DISSECTION = "dissection"


def _warm_up() -> None:
    """Cutting the 2 x 2 square into the 1 x 4 strip compiles the search kernel."""
    from slidelab.dissection.model import Dissection
    from slidelab.dissection.search import find_solutions
    from slidelab.dissection.shape import parse_region, square

    find_solutions(Dissection(square(2), parse_region("****\n"), 2))


def _matches(text: str) -> bool:
    """A shape drawn with '.' and '*' only, and at least one '*'."""
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(set(line.rstrip()) <= set(".*") for line in lines) and "*" in text


FAMILY = Family(
    name=DISSECTION,
    title="Dissection",
    subcommand="dissect",
    register_cli=lazily("slidelab.dissection.command", "register"),
    extensions=(".dots",),
    signature=TextSignature(
        _matches, rank=20, expected="a dissection shape drawn with '.' and '*'"
    ),
    library=Library(DISSECTION, ".dots"),
    kernels="slidelab.dissection.kernels",
    warm_up=(_warm_up,),
)

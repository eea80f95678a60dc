"""The exact-cover family as the registry sees it: `slidelab dlx` and the shared kernels."""

from __future__ import annotations

from slidelab.family import Family, SubParsers

EXACT_COVER = "exactcover"


def _register(subcommands: SubParsers) -> None:
    from slidelab.exactcover import command

    command.register(subcommands)


def _warm_up() -> None:
    from slidelab.exactcover.search import warm_up

    warm_up()


FAMILY = Family(
    name=EXACT_COVER,
    title="Exact cover",
    subcommand="dlx",
    register_cli=_register,
    warm_up=_warm_up,
)

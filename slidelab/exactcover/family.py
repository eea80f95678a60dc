"""The exact-cover family as the registry sees it: `slidelab dlx` and the shared kernels."""

from __future__ import annotations

from functools import partial

from slidelab.family import Family, SubParsers

EXACT_COVER = "exactcover"


def _register(subcommands: SubParsers) -> None:
    from slidelab.exactcover import command

    command.register(subcommands)


def _warm_up(bounded: bool) -> None:
    from slidelab.exactcover.search import warm_up_kind

    warm_up_kind(bounded)


FAMILY = Family(
    name=EXACT_COVER,
    title="Exact cover",
    subcommand="dlx",
    register_cli=_register,
    warm_up=(partial(_warm_up, False), partial(_warm_up, True)),
)

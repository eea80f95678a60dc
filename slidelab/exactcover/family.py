"""The exact-cover family as the registry sees it: `slidelab dlx` and the shared kernels."""

from __future__ import annotations

from functools import partial

from slidelab.family import Family, lazily

EXACT_COVER = "exactcover"

_warm_up_kind = lazily("slidelab.exactcover.search", "warm_up_kind")

FAMILY = Family(
    name=EXACT_COVER,
    title="Exact cover",
    subcommand="dlx",
    register_cli=lazily("slidelab.exactcover.command", "register"),
    kernels="slidelab.exactcover.kernels",
    warm_up=(partial(_warm_up_kind, False), partial(_warm_up_kind, True)),
)

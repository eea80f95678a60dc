"""The disassembly family as the registry sees it: no files or command of its own, it takes
apart the assemblies that BurrTools files and polycube specs give (`slidelab polycube
--disassemble`)."""

from __future__ import annotations

from slidelab.family import Family, lazily

DISASSEMBLY = "disassembly"

FAMILY = Family(
    name=DISASSEMBLY,
    title="Disassembly",
    kernels="slidelab.disassembly.kernels",
    warm_up=(lazily("slidelab.disassembly.search", "warm_up"),),
)

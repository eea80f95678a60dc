"""Each kernel compiles once: a literal argument (`f(x, 0)`, `f(x, False)`) makes numba
compile a second specialisation for `Literal[int](0)` or `Literal[bool](False)`, which costs
compile time on every first launch."""

from __future__ import annotations

import json
import os
import subprocess
import sys

COMPILE = """
import json
from slidelab import registry
from slidelab.antislide import kernels as antislide
from slidelab.dissection import kernels as dissection
from slidelab.exactcover import kernels as exactcover
from slidelab.kernels import Kernel
from slidelab.sliding import kernels as sliding
for name in ("sliding", "exactcover", "dissection", "antislide"):
    for step in registry.family_named(name).warm_up:
        step()
print(json.dumps({
    f"{module.__name__}.{name}": [str(signature) for signature in kernel.compiled.signatures]
    for module in (sliding, dissection, exactcover, antislide)
    for name, kernel in vars(module).items()
    if isinstance(kernel, Kernel) and kernel.compiled.signatures
}))
"""


def test_every_kernel_compiles_one_specialisation(tmp_path):
    # an empty cache: a kernel loaded from the cache does not type the kernels it calls;
    # numba only: a native solver would leave its kernel uncompiled
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), SLIDELAB_NATIVE="0")
    out = subprocess.run(
        [sys.executable, "-c", COMPILE], env=env, check=True, capture_output=True, text=True
    ).stdout
    compiled = json.loads(out)
    assert {
        "slidelab.sliding.kernels._blocking",
        "slidelab.exactcover.kernels.search_m",
        "slidelab.antislide.kernels.search",
    } <= set(compiled)
    assert {name: sigs for name, sigs in compiled.items() if len(sigs) > 1} == {}

"""Each sliding kernel compiles once: a literal argument (`f(x, 0)`) makes numba compile a
second specialisation for `Literal[int](0)`, which costs compile time on every first launch."""

from __future__ import annotations

import json
import os
import subprocess
import sys

COMPILE = """
import json
from slidelab.sliding import kernels
from slidelab.sliding.search import warm_up
warm_up()
print(json.dumps({
    name: [str(signature) for signature in kernel.signatures]
    for name, kernel in vars(kernels).items()
    if hasattr(kernel, "signatures") and kernel.signatures
}))
"""


def test_every_kernel_compiles_one_specialisation(tmp_path):
    # an empty cache: loading a kernel from the cache would not type the kernels it calls
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", COMPILE], env=env, check=True, capture_output=True, text=True
    ).stdout
    compiled = json.loads(out)
    assert "_fits" in compiled and "expand" in compiled
    assert {name: sigs for name, sigs in compiled.items() if len(sigs) > 1} == {}

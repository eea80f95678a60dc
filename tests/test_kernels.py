"""Kernels compile on first call, with the kernels they call; their `python` needs no numba."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.fresh import printed_by

MODULE = """
from slidelab.kernels import kernel, trailing_zeros

@kernel(cache=False)
def double(x):
    return 2 * x

@kernel(cache=False)
def double_plus_one(x):
    return double(x) + 1

@kernel(cache=False)
def lowest_bits(words, out):
    for i in range(words.size):
        out[i] = trailing_zeros(words[i])
"""

CHECK = """
import sys
import twice
from slidelab.kernels import Kernel
interpreted = twice.double_plus_one.python(20)
numba_then = "numba" in sys.modules
compiled = twice.double_plus_one(20)
print(interpreted, numba_then, compiled, "numba" in sys.modules)
print(isinstance(twice.double, Kernel), sorted(map(str, twice.double.compiled.signatures)))
import numpy as np
words = np.array([1, 2, 12, 1 << 40, (1 << 63) | (1 << 7), (1 << 64) - 1], np.uint64)
interpreted, compiled = np.zeros(6, np.int64), np.zeros(6, np.int64)
twice.lowest_bits.python(words, interpreted)
twice.lowest_bits(words, compiled)
print(interpreted.tolist(), compiled.tolist())
"""


def test_python_runs_without_numba_and_a_call_compiles_the_kernels_it_calls(tmp_path):
    """Also: numba's trailing_zeros and its stand-in agree."""
    (tmp_path / "twice.py").write_text(textwrap.dedent(MODULE))
    done = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == [
        "41 False 41 True",
        "True ['(int64,)']",
        "[0, 1, 2, 40, 7, 0] [0, 1, 2, 40, 7, 0]",
    ]


def test_a_small_antislide_command_loads_no_numba():
    code = (
        "import sys\nfrom slidelab.cli import main\n"
        "main(['antislide', '3', '3', '3', '--json'])\n"
        "print('numba' in sys.modules)\n"
    )
    counts, loaded = printed_by(code)
    assert '"solutions": 2' in counts
    assert loaded == "False"

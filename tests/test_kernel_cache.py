"""numba cache indexes left by an older source are dropped, not fatal (slidelab.kernel_cache)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "slidelab"

STAGED = """
from typing import NamedTuple

import numba
import numpy as np

from slidelab.kernel_cache import forget_unreadable_indexes


class {name}(NamedTuple):
    cells: np.ndarray


@numba.njit(cache=True)
def total(arrays):
    return arrays.cells.sum()


DROPPED = forget_unreadable_indexes(list(globals().values()))
"""


def run_staged(folder: Path, name: str) -> str:
    """Run `staged.total` on a `name` of four cells in a fresh process: its sum and drops."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(folder), str(PACKAGE.parent)]),
        "NUMBA_CACHE_DIR": str(folder / "cache"),
        # the module is rewritten within a second at the same size: a .pyc of the old text
        # would pass Python's check (time in seconds and size) and be run instead
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    code = (
        "import numpy as np, staged\n"
        f"print(staged.total(staged.{name}(np.arange(4))), len(staged.DROPPED))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_an_index_naming_a_class_the_new_source_lacks_is_dropped_and_the_kernel_rebuilt(tmp_path):
    staged = tmp_path / "staged.py"
    staged.write_text(STAGED.format(name="Tables"))
    assert run_staged(tmp_path, "Tables") == "6 0"
    staged.write_text(STAGED.format(name="Arrays"))
    assert run_staged(tmp_path, "Arrays") == "6 1"
    assert run_staged(tmp_path, "Arrays") == "6 0"


def test_a_damaged_index_is_dropped(tmp_path):
    (tmp_path / "staged.py").write_text(STAGED.format(name="Tables"))
    assert run_staged(tmp_path, "Tables") == "6 0"
    (index,) = (tmp_path / "cache").rglob("*.nbi")
    index.write_bytes(b"not a pickle")
    assert run_staged(tmp_path, "Tables") == "6 1"


def calls_forget(path: Path) -> bool:
    tree = ast.parse(path.read_text())
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "forget_unreadable_indexes"
        for node in ast.walk(tree)
    )


def test_every_module_that_makes_numba_dispatchers_checks_their_indexes():
    makers = [path for path in PACKAGE.rglob("kernels.py") if "njit" in path.read_text()]
    assert makers
    assert [path for path in makers if not calls_forget(path)] == []

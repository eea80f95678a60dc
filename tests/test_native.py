"""Kernels compiled ahead of time (`slidelab.native`, `slidelab.native_build`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab import native
from slidelab.kernels_warmup import native_modules
from slidelab.native_build import NativeBuildError, build, type_key

DATA = Path(__file__).parents[1] / "resources" / "puzzles"


class Pair(NamedTuple):
    left: object
    right: object


DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64, np.float64]
DTYPES += [np.bool_]


@st.composite
def arrays(draw: st.DrawFn) -> np.ndarray:
    """Arrays as kernels get them: contiguous, transposed, sliced with a step, read-only."""
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    array = np.zeros(shape, dtype)
    view = draw(st.sampled_from(["plain", "transposed", "stepped"]))
    if view == "transposed":
        array = array.T
    elif view == "stepped":
        array = array[..., ::2]
    if draw(st.booleans()):
        array.flags.writeable = False
    return array


SCALARS = st.one_of(
    st.integers(-(1 << 63), (1 << 64) - 1),
    st.booleans(),
    st.floats(allow_nan=False),
    st.sampled_from([np.int32(3), np.uint64(5), np.int64(-1), np.float64(0.5), np.bool_(True)]),
    st.none(),
)
VALUES = st.recursive(
    st.one_of(SCALARS, arrays()),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda pair: Pair(*pair)),
        st.lists(inner, min_size=1, max_size=3).map(tuple),
    ),
    max_leaves=6,
)


@given(VALUES)
def test_a_value_s_key_is_the_key_of_the_type_numba_gives_it(value):
    assert native.argument_key(value) == type_key(numba.typeof(value))


def test_values_numba_cannot_type_as_kernel_arguments_have_no_key():
    assert native.argument_key(1 << 64) is None
    assert native.argument_key(-(1 << 63) - 1) is None
    assert native.argument_key((1, [2])) is None
    assert native.argument_key("text") is None


def test_the_digest_changes_with_the_kernel_source(tmp_path, monkeypatch):
    module = tmp_path / "some_kernels.py"
    module.write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    first = native.digest("some_kernels")
    native.digest.cache_clear()
    module.write_text("X = 2\n")
    assert native.digest("some_kernels") != first
    native.digest.cache_clear()


def test_kernels_modules_take_code_from_no_other_slidelab_module():
    """The digest covers the kernels module, slidelab.kernels and slidelab.intrinsics: a
    kernels module that imported more of slidelab could change without a new digest."""
    package = Path(native.__file__).parent
    for path in package.glob("*/kernels.py"):
        lines = path.read_text().splitlines()
        imports = [line for line in lines if line.startswith(("from slidelab", "import slidelab"))]
        assert all(line.startswith("from slidelab.kernels import ") for line in imports), path


def test_a_module_whose_kernels_never_ran_is_not_built(tmp_path, monkeypatch):
    monkeypatch.setenv("SLIDELAB_NATIVE_DIR", str(tmp_path))
    (tmp_path / "idle_kernels.py").write_text(
        "from slidelab.kernels import kernel\n\n@kernel(cache=False)\ndef twice(x):\n"
        "    return 2 * x\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(NativeBuildError) as raised:
        build("idle_kernels")
    assert str(raised.value) == (
        "cannot compile idle_kernels ahead of time: numba has compiled none of its kernels in"
        " this process (run its warm-up first)"
    )
    native.digest.cache_clear()


COMMANDS = {
    "sliding": ["slide", str(DATA / "sliding" / "klotski.slide"), "--style", "3", "--json"],
    "exactcover": ["polycube", str(DATA / "polycube" / "soma.pcube"), "--count", "--json"],
    "dissection": ["dissect", "4", str(DATA / "dissection" / "knuth-toy.dots"), "--count"],
    "antislide": ["antislide", "4", "4", "5", "--json"],
}
"""One command per family with kernels, each running its compiled kernels."""

RUN = """
import contextlib, io, json, sys
from slidelab.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(json.loads(sys.argv[1]))
print(json.dumps([status, out.getvalue(), "numba" in sys.modules]))
"""


def _run(arguments: list[str], **environment: str) -> tuple[int, str, bool]:
    env = dict(os.environ, **environment)
    done = subprocess.run(
        [sys.executable, "-c", RUN, json.dumps(arguments)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    status, out, numba_loaded = json.loads(done.stdout)
    return status, _without_times(out), numba_loaded


def _without_times(out: str) -> str:
    """The output with its measured seconds left out."""
    try:
        found = json.loads(out)
    except json.JSONDecodeError:
        return "\n".join(line for line in out.splitlines() if "second" not in line)
    return json.dumps({key: value for key, value in found.items() if "second" not in key})


def test_the_warm_up_builds_extensions_that_answer_like_numba_without_loading_it(tmp_path):
    env = {"SLIDELAB_NATIVE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "slidelab.kernels_warmup"],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stderr == ""
    assert done.stdout.endswith("building native solvers: 4/4 …\n")
    assert len(list(tmp_path.glob("*.json"))) == 4
    for module in native_modules():  # the kernels are nogil: so are their exports
        assert b"PyEval_SaveThread" in native.extension_path(tmp_path, module).read_bytes()
    for family, arguments in COMMANDS.items():
        status, out, numba_loaded = _run(arguments, **env)
        assert (status, numba_loaded) == (0, False), family
        assert (status, out, True) == _run(arguments, SLIDELAB_NATIVE="0", **env), family


def test_a_damaged_extension_is_dropped_and_numba_runs_instead(tmp_path):
    env = {"SLIDELAB_NATIVE_DIR": str(tmp_path)}
    module = "slidelab.antislide.kernels"
    table = native.table_path(tmp_path, module)
    table.write_text(json.dumps({"module": module, "kernels": {"search": {}}}))
    native.extension_path(tmp_path, module).write_bytes(b"not a shared library")
    status, out, numba_loaded = _run(COMMANDS["antislide"], **env)
    assert (status, numba_loaded) == (0, True)
    assert json.loads(out)["solutions"] == 47403
    assert not table.exists()

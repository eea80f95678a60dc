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

from slidelab import kernels_warmup, native, native_build
from slidelab.kernels import Kernel
from slidelab.kernels_warmup import native_modules
from slidelab.native_build import NativeBuildError, build, export_flags, type_key

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


def test_kernels_modules_take_code_only_from_what_the_digest_covers():
    """The digest covers the kernels module, the kernels modules it takes kernels from,
    slidelab.kernels and slidelab.intrinsics: a kernels module that imported more of
    slidelab could change without a new digest."""
    package = Path(native.__file__).parent
    for path in package.glob("*/kernels.py"):
        lines = path.read_text().splitlines()
        imports = [line for line in lines if line.startswith(("from slidelab", "import slidelab"))]
        assert all(native.KERNELS_IMPORT.match(line) for line in imports), path


def test_the_digest_covers_the_kernels_a_module_takes_from_another():
    sources = native.kernel_sources("slidelab.disassembly.kernels")
    names = [path.relative_to(Path(native.__file__).parent).as_posix() for path in sources]
    assert names == ["disassembly/kernels.py", "sliding/kernels.py"]


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


def _marked(name: str, **options: object) -> Kernel:
    def function() -> None:
        """A kernel with these options."""

    function.__name__ = name
    return Kernel(function, options)


def test_exports_get_their_kernels_nogil_and_error_model():
    kernels = [
        _marked("a", cache=True, nogil=True, error_model="numpy"),
        _marked("b", nogil=True, error_model="numpy"),
    ]
    assert export_flags("m", kernels) == {"release_gil": True, "error_model": "numpy"}


def test_kernels_asking_for_flags_pycc_cannot_give_are_not_built():
    with pytest.raises(NativeBuildError) as raised:
        export_flags("m", [_marked("fast", nogil=True, fastmath=True)])
    assert str(raised.value) == (
        "cannot compile m ahead of time: option fastmath of fast has no pycc flag here"
    )
    with pytest.raises(NativeBuildError) as raised:
        export_flags("m", [_marked("a", nogil=True), _marked("b", nogil=False)])
    assert str(raised.value) == (
        "cannot compile m ahead of time: its public kernels differ in nogil or error_model,"
        " and pycc compiles them all with the same flags"
    )


def test_a_failed_build_is_one_line_and_the_warm_up_still_succeeds(monkeypatch, capsys):
    def fail(module: str) -> None:
        raise NativeBuildError(f"cannot compile {module} ahead of time: no C compiler\ndetails")

    monkeypatch.setattr(kernels_warmup, "warm_up_steps", lambda: [])
    monkeypatch.setattr(kernels_warmup, "native_modules", lambda: ["a.kernels"])
    monkeypatch.setattr(native_build, "build", fail)
    assert kernels_warmup.main() == 0
    assert capsys.readouterr().err == (
        "cannot compile a.kernels ahead of time: no C compiler; numba's kernels will run"
        " instead (slower to start)\n"
    )


COMMANDS = {
    "sliding": ["slide", str(DATA / "sliding" / "klotski.slide"), "--style", "3", "--json"],
    "exactcover": ["polycube", str(DATA / "polycube" / "soma.pcube"), "--count", "--json"],
    "dissection": ["dissect", "4", str(DATA / "dissection" / "knuth-toy.dots"), "--count"],
    "antislide": ["antislide", "4", "4", "5", "--json"],
    "disassembly": [
        "polycube",
        str(DATA / "polycube" / "soma.pcube"),
        "--disassemble",
        "--distinct",
        "--json",
    ],
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
    assert done.stdout.endswith("building native solvers: 5/5 …\n")
    assert len(list(tmp_path.glob("*.json"))) == 5
    for module in native_modules():  # the kernels are nogil: so are their exports
        assert b"PyEval_SaveThread" in native.extension_path(tmp_path, module).read_bytes()
    for family, arguments in COMMANDS.items():
        status, out, numba_loaded = _run(arguments, **env)
        assert (status, numba_loaded) == (0, False), family
        assert (status, out, True) == _run(arguments, SLIDELAB_NATIVE="0", **env), family


@pytest.mark.parametrize(
    ("table_text", "extension_bytes"),
    [
        (json.dumps({"module": "slidelab.antislide.kernels", "kernels": {}}), b"\x7fELF\0cut"),
        ('{"module": "slidelab.antislide.ker', b"not read"),
        (json.dumps({"kernels": {"search": {"key": "no_such_export"}}}), b"\0" * 64),
    ],
    ids=["damaged extension", "damaged table", "table naming no export"],
)
def test_a_damaged_build_is_dropped_and_numba_runs_instead(tmp_path, table_text, extension_bytes):
    env = {"SLIDELAB_NATIVE_DIR": str(tmp_path)}
    module = "slidelab.antislide.kernels"
    table = native.table_path(tmp_path, module)
    table.write_text(table_text)
    native.extension_path(tmp_path, module).write_bytes(extension_bytes)
    status, out, numba_loaded = _run(COMMANDS["antislide"], **env)
    assert (status, numba_loaded) == (0, True)
    assert json.loads(out)["solutions"] == 47403
    assert not table.exists()

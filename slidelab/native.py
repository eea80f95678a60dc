"""Kernels compiled ahead of time: found, checked and called without importing numba.

Importing numba and loading a kernel from its cache costs about half a second per process,
more than many whole searches take.  `slidelab.native_build` compiles each kernels module's
public kernels, for the argument types they were compiled for, into one Python extension
module (numba's `pycc`), which runs without numba.  This module finds that extension for a
kernels module, checks that it was built from the same sources for this machine's processor,
and picks the compiled function whose argument types are exactly those of a call, the way
numba's dispatcher types them (`argument_key`).  A call it has no function for is left to numba.

The extension and a JSON table of its functions live in a folder beside numba's own cache,
named by a digest of everything that shapes the compiled code: a changed kernel, another
numba or Python, or another processor makes a new name, so a stale build is never loaded.
`SLIDELAB_NATIVE=0` turns the extensions off; `SLIDELAB_NATIVE_DIR` names their folder.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import platform
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = 1
"""Version of the table's layout and of `argument_key`; part of the digest."""

SHARED_SOURCES = ("kernels.py", "intrinsics.py", "native_build.py")
"""Modules of slidelab (besides the kernels module) whose text shapes the compiled code."""

Key = tuple[Any, ...]
"""A hashable description of one argument's numba type."""


C_CONTIGUOUS, F_CONTIGUOUS, ALIGNED, WRITEABLE = 0x1, 0x2, 0x100, 0x400
"""numpy's array flag bits (NPY_ARRAY_*), as `ndarray.flags.num` holds them."""

_dtype_texts: dict[np.dtype[Any], str] = {}
"""`dtype.str` of the dtypes met (it makes its text anew at each call)."""


def argument_key(value: object) -> Key | None:
    """The key of the numba type that numba's dispatcher gives `value`, or None for a value
    this module does not describe (its call is left to numba).  The types kernels take most
    are looked up by exact type first: a call's key is made anew at every call."""
    kind = type(value)
    if kind is np.ndarray:
        return _array_key(value)  # type: ignore[arg-type]
    if kind is int:
        return _integer_key(value)  # type: ignore[arg-type]
    known = _EXACT_SCALARS.get(kind)
    if known is not None:
        return known
    if kind is tuple:
        fields = tuple([argument_key(field) for field in value])  # type: ignore[attr-defined]
        return None if None in fields else ("tuple", fields)
    known_tuple = _named_keys.get(id(value))
    if known_tuple is not None and known_tuple[0] is value:
        return known_tuple[1]
    return _other_key(value)


def _array_key(value: np.ndarray) -> Key:
    flags = value.flags.num  # one bit field: cheaper than four flag lookups
    layout = "C" if flags & C_CONTIGUOUS else "F" if flags & F_CONTIGUOUS else "A"
    dtype = value.dtype
    text = _dtype_texts.get(dtype)
    if text is None:
        text = _dtype_texts[dtype] = dtype.str
    return ("array", text, value.ndim, layout, not flags & WRITEABLE, bool(flags & ALIGNED))


def _integer_key(value: int) -> Key | None:
    if -(1 << 63) <= value < 1 << 63:
        return _INT64
    return ("scalar", "<u8") if 0 <= value < 1 << 64 else None


_INT64: Key = ("scalar", "<i8")
_EXACT_SCALARS: dict[type, Key] = {
    bool: ("scalar", "|b1"),
    np.bool_: ("scalar", "|b1"),
    float: ("scalar", "<f8"),
    type(None): ("none",),
}
"""Keys of the scalar types a kernel call meets most, by exact type."""


def _other_key(value: object) -> Key | None:
    """`argument_key` of subclasses, numpy scalars and named tuples."""
    if isinstance(value, np.ndarray):
        return _array_key(value)
    if isinstance(value, bool | np.bool_):
        return ("scalar", "|b1")
    if isinstance(value, int):
        return _integer_key(value)
    if isinstance(value, float):
        return ("scalar", "<f8")
    if isinstance(value, np.integer | np.floating):
        return ("scalar", value.dtype.str)
    if isinstance(value, tuple):
        kind = type(value)
        fields = tuple([argument_key(field) for field in value])
        if None in fields:
            return None
        if hasattr(kind, "_fields"):
            key = ("namedtuple", kind.__module__, kind.__qualname__, fields)
            _remember(value, key)
            return key
        return ("tuple", fields)
    return None


_named_keys: dict[int, tuple[object, Key]] = {}
"""The keys of the named tuples of arrays that kernels took lately, by identity: a kernel
called many times on the same state (a search's `Space`) types it once.  A named tuple
cannot change its fields, nor an array its type; each entry holds its tuple, so the
identity is not reused while it is here."""
NAMED_KEYS = 64


def _remember(value: tuple[object, ...], key: Key) -> None:
    if len(_named_keys) >= NAMED_KEYS:
        _named_keys.pop(next(iter(_named_keys)), None)
    _named_keys[id(value)] = (value, key)


def call_key(arguments: tuple[object, ...]) -> str | None:
    """The text under which the table lists the function for these arguments."""
    key = argument_key(arguments)
    if key is None:
        return None
    text = _key_texts.get(key)
    if text is None:
        if len(_key_texts) >= KEY_TEXTS:
            _key_texts.clear()
        text = _key_texts[key] = repr(key)
    return text


_key_texts: dict[Key, str] = {}
"""The table's text of the keys met lately: a key's text is long, its hash is cheaper."""
KEY_TEXTS = 1024


def processor() -> str:
    """What identifies this machine's processor for compiled code: its model and features."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return f"{platform.machine()} {platform.processor()}"
    first = text.split("\n\n", 1)[0]
    wanted = ("model name", "flags", "Features", "CPU part")
    return "\n".join(line for line in first.splitlines() if line.startswith(wanted))


def _numba_stamp() -> str:
    """numba's install (its path, size and time), found without importing it."""
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return "no numba"
    status = os.stat(spec.origin)
    return f"{spec.origin} {status.st_size} {status.st_mtime_ns}"


KERNELS_IMPORT = re.compile(r"^from (slidelab(?:\.\w+)*\.kernels) import ", re.MULTILINE)
"""How a kernels module takes kernels from another kernels module (the only other slidelab
code it may use besides `SHARED_SOURCES`)."""


def kernel_sources(module_name: str) -> list[Path]:
    """The source of kernels module `module_name` and of every kernels module it takes
    kernels from, directly or through others."""
    sources: list[Path] = []
    waiting = [module_name]
    while waiting:
        name = waiting.pop()
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise ModuleNotFoundError(name)
        path = Path(spec.origin)
        if path in sources:
            continue
        sources.append(path)
        waiting += [
            found
            for found in KERNELS_IMPORT.findall(path.read_text())
            if found != "slidelab.kernels"
        ]
    return sources


@cache
def digest(module_name: str) -> str:
    """A digest of what the compiled code of kernels module `module_name` depends on."""
    sha = hashlib.sha1()
    package = Path(__file__).parent
    for path in (*kernel_sources(module_name), *(package / name for name in SHARED_SOURCES)):
        sha.update(path.read_bytes())
    for part in (str(FORMAT), sys.version, _numba_stamp(), processor()):
        sha.update(part.encode())
    return sha.hexdigest()[:16]


def extension_name(module_name: str) -> str:
    """The name the extension of `module_name` is built and imported under."""
    return f"{module_name.replace('.', '_')}_{digest(module_name)}"


def folders() -> list[Path]:
    """Where extensions are looked for, the first writable one being where they are built:
    `SLIDELAB_NATIVE_DIR` if set, beside numba's cache when `NUMBA_CACHE_DIR` is set, else in
    the package's `__pycache__`, else in the user's cache folder."""
    chosen = os.environ.get("SLIDELAB_NATIVE_DIR")
    if chosen:
        return [Path(chosen)]
    root = os.environ.get("NUMBA_CACHE_DIR")
    if root:
        return [Path(root) / "slidelab_native"]
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return [Path(__file__).parent / "__pycache__" / "native", user / "slidelab" / "native"]


def table_path(folder: Path, module_name: str) -> Path:
    """The JSON table of the extension of `module_name` in `folder`."""
    return folder / f"{extension_name(module_name)}.json"


def extension_path(folder: Path, module_name: str) -> Path:
    """The extension module of `module_name` in `folder`."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return folder / f"{extension_name(module_name)}{suffix}"


@dataclass(frozen=True)
class Functions:
    """The compiled functions of one kernels module: kernel name -> call key -> function."""

    by_kernel: dict[str, dict[str, Callable[..., Any]]]

    def find(self, kernel: str, arguments: tuple[object, ...]) -> Callable[..., Any] | None:
        """The function compiled for `kernel` with exactly these argument types, if any."""
        compiled = self.by_kernel.get(kernel)
        if not compiled:
            return None
        key = call_key(arguments)
        return None if key is None else compiled.get(key)


NONE = Functions({})

_loaded: dict[str, Functions] = {}
_loading = threading.Lock()
_switched_off = False


@contextmanager
def switched_off() -> Iterator[None]:
    """Use no extension in this process while inside: a warm-up that builds them
    must run numba's kernels, which learn their argument types from its calls."""
    global _switched_off
    before, _switched_off = _switched_off, True
    try:
        yield
    finally:
        _switched_off = before


def enabled() -> bool:
    """Whether compiled extensions may be used (`SLIDELAB_NATIVE=0` says no)."""
    return not _switched_off and _environment_allows()


@cache
def _environment_allows() -> bool:
    """`SLIDELAB_NATIVE` is not 0 (read once: every kernel call asks)."""
    return os.environ.get("SLIDELAB_NATIVE", "1") != "0"


def functions(module_name: str) -> Functions:
    """The compiled functions of kernels module `module_name` (none when no fresh extension
    was built, or it cannot be loaded), looked up once per process."""
    if not enabled():
        return NONE
    found = _loaded.get(module_name)
    if found is not None:
        return found
    with _loading:
        if module_name not in _loaded:
            _loaded[module_name] = _load(module_name)
        return _loaded[module_name]


def _load(module_name: str) -> Functions:
    for folder in folders():
        table, extension = table_path(folder, module_name), extension_path(folder, module_name)
        if table.is_file() and extension.is_file():
            try:
                return _import(module_name, table, extension)
            except Exception:  # a damaged or foreign file: numba compiles as if it were absent
                table.unlink(missing_ok=True)
    return NONE


def _import(module_name: str, table: Path, extension: Path) -> Functions:
    listed = json.loads(table.read_text())
    name = extension_name(module_name)
    spec = importlib.util.spec_from_file_location(name, extension)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {extension}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Functions(
        {
            kernel: {key: getattr(module, export) for key, export in exports.items()}
            for kernel, exports in listed["kernels"].items()
        }
    )

"""Compiling a kernels module's public kernels ahead of time into one extension (numba.pycc).

The kernels are compiled for the argument types numba's dispatchers have seen, so a module's
warm-up runs first; each (kernel, types) pair becomes one exported function, listed in a JSON
table under the key `slidelab.native.call_key` gives a call with those types.  Both files are
written under temporary names and renamed into place, the table last: a reader that finds the
table finds a whole extension.  Building needs a C compiler and Python's headers; without
them `NativeBuildError` says so, and the kernels keep running through numba.
"""

from __future__ import annotations

import importlib
import json
import os
import tempfile
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from slidelab.errors import SlidelabError
from slidelab.kernels import Kernel
from slidelab.native import Key, extension_name, extension_path, folders, table_path


class NativeBuildError(SlidelabError):
    """An extension could not be built (no compiler, no Python headers, no writable folder)."""


class UnsupportedType(Exception):
    """A numba type that `slidelab.native.argument_key` has no key for."""


def type_key(kind: Any) -> Key:
    """The key `slidelab.native.argument_key` gives a value numba types as `kind`."""
    from numba.core import types as numba_types
    from numba.np.numpy_support import as_dtype

    types: Any = numba_types

    if isinstance(kind, types.Literal):
        raise UnsupportedType(kind)
    if isinstance(kind, types.Array):
        layout = (as_dtype(kind.dtype).str, kind.ndim, kind.layout)
        return ("array", *layout, not kind.mutable, kind.aligned)
    if isinstance(kind, types.Boolean | types.Integer | types.Float):
        return ("scalar", as_dtype(kind).str)
    if isinstance(kind, types.NoneType):
        return ("none",)
    if isinstance(kind, types.BaseNamedTuple):
        named = kind.instance_class
        return ("namedtuple", named.__module__, named.__qualname__, _fields(kind))
    if isinstance(kind, types.BaseTuple):
        return ("tuple", _fields(kind))
    raise UnsupportedType(kind)


def _fields(kind: Any) -> Key:
    return tuple(type_key(field) for field in kind)


def public_kernels(module: object) -> dict[str, Kernel]:
    """The kernels a module defines whose names do not start with `_`: those called from
    Python, which the extension exports."""
    name = getattr(module, "__name__", "")
    return {
        attribute: value
        for attribute, value in vars(module).items()
        if isinstance(value, Kernel)
        and not attribute.startswith("_")
        and value.function.__module__ == name
    }


FLAG_OF_OPTION = {"nogil": "release_gil", "error_model": "error_model"}
"""The `numba.njit` options of a kernel that shape its exported function, and the compiler
flags pycc would otherwise leave at their defaults (holding the GIL, Python's error model)."""

IGNORED_OPTIONS = {"cache", "inline"}
"""Options with no meaning for an exported function."""


def export_flags(module_name: str, kernels: Iterable[Kernel]) -> dict[str, Any]:
    """The compiler flags the options of `kernels` ask for, the same for all of them."""
    wanted = set()
    for marked in kernels:
        unknown = set(marked.options) - set(FLAG_OF_OPTION) - IGNORED_OPTIONS
        if unknown:
            raise NativeBuildError(
                f"cannot compile {module_name} ahead of time: option {sorted(unknown)[0]}"
                f" of {marked.function.__name__} has no pycc flag here"
            )
        options = marked.options.items()
        wanted.add(tuple(sorted((FLAG_OF_OPTION[o], v) for o, v in options if o in FLAG_OF_OPTION)))
    if len(wanted) > 1:
        raise NativeBuildError(
            f"cannot compile {module_name} ahead of time: its public kernels differ in"
            " nogil or error_model, and pycc compiles them all with the same flags"
        )
    return dict(wanted.pop()) if wanted else {}


@contextmanager
def _entry_flags(module_name: str, kernels: Iterable[Kernel]) -> Iterator[None]:
    """Compile the exported functions with the flags their kernels' options ask for.

    pycc compiles every export with one default `Flags()`, so an export would hold the GIL
    (the GUI freezes during a search, threads run one at a time) and check divisions the
    Python way; kernels called from the exports keep their own options.  The flags are set
    by a subclass put in pycc's place while it compiles.
    """
    settings = export_flags(module_name, kernels)
    from numba.pycc import compiler as pycc_compiler

    default = pycc_compiler.Flags

    class EntryFlags(default):  # type: ignore[misc, valid-type]
        def __init__(self, *arguments: Any, **keywords: Any) -> None:
            super().__init__(*arguments, **keywords)
            for name, value in settings.items():
                setattr(self, name, value)

    pycc_compiler.Flags = EntryFlags
    try:
        yield
    finally:
        pycc_compiler.Flags = default


def _writable_folder() -> Path:
    for folder in folders():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=folder):
                return folder
        except OSError:
            continue
    raise NativeBuildError(
        "no writable folder for compiled solvers: " + ", ".join(map(str, folders()))
    )


def build(module_name: str) -> Path:
    """Compile the public kernels of `module_name` for every argument type numba has compiled
    them for, and return the path of the extension's table."""
    module = importlib.import_module(module_name)
    folder = _writable_folder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from llvmlite import binding
        from numba.pycc import CC

    compiler = CC(extension_name(module_name), source_module=module)
    compiler.target_cpu = binding.get_host_cpu_name()
    listed: dict[str, dict[str, str]] = {}
    for name, marked in sorted(public_kernels(module).items()):
        dispatcher: Any = marked.compiled
        for number, signature in enumerate(dispatcher.nopython_signatures):
            try:
                key = repr(("tuple", tuple(type_key(kind) for kind in signature.args)))
            except UnsupportedType:
                continue
            export = f"{name}__{number}"
            compiler.export(export, signature)(dispatcher.py_func)
            listed.setdefault(name, {})[key] = export
    if not listed:
        raise NativeBuildError(
            f"cannot compile {module_name} ahead of time: numba has compiled none of its"
            " kernels in this process (run its warm-up first)"
        )
    table = table_path(folder, module_name)
    extension = extension_path(folder, module_name)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        compiler.output_dir = scratch
        try:
            with _entry_flags(module_name, public_kernels(module).values()):
                compiler.compile()
        except NativeBuildError:
            raise
        except Exception as error:  # setuptools and the C compiler fail in many ways
            raise NativeBuildError(
                f"cannot compile {module_name} ahead of time: {error}"
            ) from error
        os.replace(Path(scratch) / compiler.output_file, extension)
        staged = Path(scratch) / table.name
        staged.write_text(json.dumps({"module": module_name, "kernels": listed}, indent=1))
        os.replace(staged, table)
    _drop_older_builds(folder, module_name)
    return table


def _drop_older_builds(folder: Path, module_name: str) -> None:
    """Delete the extensions of `module_name` built from other sources or for another
    processor: no digest of this install can name them again."""
    current = extension_name(module_name)
    for path in folder.glob(f"{module_name.replace('.', '_')}_*"):
        if not path.name.startswith(current):
            path.unlink(missing_ok=True)

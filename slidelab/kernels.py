"""numba kernels compiled on first call, so that a command which runs none never loads numba.

`kernel(**options)` marks a function of a kernels module.  Calling the marked function runs
the version compiled ahead of time for its argument types when `slidelab.native` has one
(no numba at all); otherwise it compiles it with `numba.njit(**options)` (or loads it from
numba's cache), together with the other marked functions of its module, which it may call,
as it may call the kernels it imports from other kernels modules.
Its `python` attribute is the same
function run by the interpreter, calling the interpreted versions of the others: one source,
for work so small that importing numba and loading compiled code (about half a second) would
cost more than the work itself.  numba's own intrinsics that kernels call are named here as
`Intrinsic`s, with a plain function doing the same for the interpreted versions.
"""

from __future__ import annotations

import functools
import importlib
import sys
import threading
import types
from collections.abc import Callable
from typing import Any

from slidelab.kernel_cache import forget_unreadable_indexes
from slidelab.native import functions

_making = threading.RLock()
"""Held while a module's kernels get their versions, so two threads never do it twice
(re-entered when they call kernels of another module, which get theirs first)."""


class Kernel:
    """A kernel function, run compiled (numba compiles it when first called) or interpreted."""

    def __init__(self, function: Callable[..., Any], options: dict[str, Any]) -> None:
        self.function = function
        self.options = options
        self._compiled: Callable[..., Any] | None = None
        self._python: Callable[..., Any] | None = None
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any) -> Any:
        """Run the function compiled ahead of time for these argument types if there is one
        (`slidelab.native`), else numba's dispatcher."""
        native = functions(self.function.__module__).find(self.function.__name__, args)
        if native is not None:
            return native(*args)
        return self.compiled(*args)

    @property
    def compiled(self) -> Callable[..., Any]:
        """numba's dispatcher for the function (made on first use)."""
        if self._compiled is None:
            _make_versions(self.function.__module__, compiled=True)
        assert self._compiled is not None
        return self._compiled

    @property
    def python(self) -> Callable[..., Any]:
        """The function run by the interpreter, calling the other kernels interpreted too."""
        if self._python is None:
            _make_versions(self.function.__module__, compiled=False)
        assert self._python is not None
        return self._python


class Intrinsic:
    """A function numba provides for compiled code, stood in for by `python` when interpreted."""

    def __init__(self, module: str, name: str, python: Callable[..., Any]) -> None:
        self.module = module
        self.name = name
        self.python = python

    def compiled(self) -> Callable[..., Any]:
        function: Callable[..., Any] = getattr(importlib.import_module(self.module), self.name)
        return function


def _python_trailing_zeros(word: Any) -> int:
    value = int(word)
    return (value & -value).bit_length() - 1


trailing_zeros = Intrinsic("numba.cpython.unsafe.numbers", "trailing_zeros", _python_trailing_zeros)
"""The index of the lowest set bit of a nonzero integer."""


def _python_popcount(word: Any) -> int:
    return int(word).bit_count()


popcount = Intrinsic("slidelab.intrinsics", "popcount", _python_popcount)
"""The number of 1 bits of a uint64."""


def kernel(**options: Any) -> Callable[[Callable[..., Any]], Kernel]:
    """Mark a function as a kernel that `numba.njit(**options)` compiles on first call."""

    def mark(function: Callable[..., Any]) -> Kernel:
        return Kernel(function, options)

    return mark


def _make_versions(module_name: str, *, compiled: bool) -> None:
    """Give every kernel of a module its compiled (numba's dispatcher) or interpreted version.
    Each is a twin of the function whose globals name the other kernels' versions of the same
    kind, since compiled code can only call compiled code and interpreted code must not load
    numba; the module itself keeps its `Kernel` objects."""
    with _making:
        namespace = vars(sys.modules[module_name])
        marked = [
            value
            for value in namespace.values()
            if isinstance(value, Kernel) and value.function.__module__ == module_name
        ]
        if all((mark._compiled if compiled else mark._python) is not None for mark in marked):
            return
        if compiled:
            from numba import njit
        scope = {name: _version(value, module_name, compiled) for name, value in namespace.items()}
        for mark in marked:
            version = _twin(mark.function, scope)
            if compiled:
                version = njit(**mark.options)(version)
                mark._compiled = version
            else:
                mark._python = version
            scope[mark.function.__name__] = version
        if compiled:
            forget_unreadable_indexes(mark._compiled for mark in marked)


def _version(value: Any, module_name: str, compiled: bool) -> Any:
    """What a kernel of `module_name` calls under a global's name: an intrinsic's or another
    module's kernel's version of the same kind; anything else (the module's own kernels get
    their versions next) as it is."""
    if isinstance(value, Intrinsic):
        return value.compiled() if compiled else value.python
    if isinstance(value, Kernel) and value.function.__module__ != module_name:
        return value.compiled if compiled else value.python
    return value


def _twin(function: Callable[..., Any], scope: dict[str, Any]) -> Callable[..., Any]:
    """The function with `scope` as its globals."""
    twin = types.FunctionType(function.__code__, scope, function.__name__, function.__defaults__)
    twin.__qualname__ = function.__qualname__
    twin.__module__ = function.__module__
    return twin

"""LLVM instructions that numba does not offer as functions, for compiled kernels.

`slidelab.kernels` names each of these as an `Intrinsic` with a plain-Python stand-in, so this
module (which imports numba) is loaded only when a kernel is compiled.
"""

from __future__ import annotations

from typing import Any

from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx: Any, word: Any) -> Any:
    """The number of 1 bits in a uint64 (LLVM's ctpop: one instruction where the CPU has it)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen

"""Memory budgets: how many bytes a search may hold, and who said so.

A search counts the arrays it holds, a growth's old and new arrays side by
side, and stops before the count would pass its budget; its message names what
set the budget (`--max-memory`, or the default share of the available memory),
so the user knows which knob to turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

try:
    import resource
except ImportError:  # not on Unix: no address-space limit to read
    resource = None  # type: ignore[assignment]

from slidelab.errors import SearchLimitError
from slidelab.validation import OptionValueError

DEFAULT_SHARE = 0.6
"""Share of the available memory a search may hold when no --max-memory is given."""
FALLBACK_AVAILABLE = 4 << 30
"""Available memory assumed where /proc/meminfo cannot tell."""
_chosen_limit: int | None = None
"""The budget `--max-memory` set for this process's command, which `MemoryBudget.of(None)`
gives every solver (and forked worker) that is not handed one."""
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SIZE = re.compile(r"([0-9]{1,15}(?:\.[0-9]{1,6})?)([KMGT]?)(?:i?B)?", re.IGNORECASE)


@dataclass(frozen=True)
class MemoryBudget:
    """At most `limit` bytes; `source` names what set it, for the stop message."""

    limit: int
    source: str

    @classmethod
    def of(cls, max_memory: int | None) -> MemoryBudget:
        """The budget `max_memory` gives, else the one `--max-memory` set for the command
        (`choose_limit`), else the default share of the available memory."""
        if max_memory is None:
            max_memory = _chosen_limit
        if max_memory is not None:
            return cls(max_memory, f"the limit set by --max-memory ({mebibytes(max_memory)})")
        limit = int(DEFAULT_SHARE * available_memory())
        return cls(
            limit,
            f"the default memory budget ({DEFAULT_SHARE:.0%} of the available memory, "
            f"{mebibytes(limit)}; set it with --max-memory)",
        )

    def shared(self, processes: int) -> MemoryBudget:
        """An even share of this budget for each of `processes` processes (this one if one)."""
        if processes == 1:
            return self
        share = self.limit // processes
        return MemoryBudget(
            share,
            f"{mebibytes(share)}, the share of each of {processes} processes in {self.source}",
        )

    def check(self, needed: int, what: str, *, least: bool = False) -> None:
        """Refuse (`MemoryBudgetError`) to go on with `what` when it needs more than the budget;
        `least`: `needed` is only the least it can need, known before the work is planned."""
        if needed > self.limit:
            at_least = "at least " if least else ""
            raise MemoryBudgetError(
                f"{what} would need {at_least}{mebibytes(needed)}, more than {self.source}"
            )


class MemoryBudgetError(SearchLimitError):
    """Work that would hold more memory than its budget allows."""


def choose_limit(max_memory: int | None) -> None:
    """Make `max_memory` (bytes; None: the default share) the budget of this process's
    solvers, as a command's `--max-memory` asks."""
    global _chosen_limit
    _chosen_limit = max_memory


def chosen_limit() -> int | None:
    """The budget `choose_limit` set (None: the default share), for a spawned worker to set
    in its turn."""
    return _chosen_limit


def mebibytes(size: int) -> str:
    """`size` bytes, said in MiB."""
    return f"{size / 2**20:,.1f} MiB"


def parse_size(text: str) -> int:
    """Bytes from a size such as `2G`, `512M`, `1.5GiB` or `1000000` (units are powers of 1024)."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise OptionValueError(f"--max-memory takes a size such as 2G or 512M, not {text!r}")
    size = int(float(match.group(1)) * _UNITS[match.group(2).upper()])
    if size < 1 << 20:
        raise OptionValueError(f"--max-memory must be at least 1M, not {text!r}")
    return size


def available_memory() -> int:
    """Bytes of memory available to this process: the system's (MemAvailable on Linux), and
    no more than its address-space limit (`ulimit -v`) leaves it, past which allocations
    fail however much memory is free."""
    available = FALLBACK_AVAILABLE
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    left = _address_space_left()
    return available if left is None else min(available, left)


def _address_space_left() -> int | None:
    """Bytes this process may still map under its soft RLIMIT_AS (less what it maps now,
    its VmSize on Linux), or None when it has no such limit."""
    if resource is None:
        return None
    limit, _ = resource.getrlimit(resource.RLIMIT_AS)
    if limit == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return max(0, limit - int(line.split()[1]) * 1024)
    except OSError:
        pass
    return limit

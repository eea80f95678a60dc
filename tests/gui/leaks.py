"""What a GUI test leaves running: QThreads, QTimers and SolverRunners it started.

A thread, timer or solver run that outlives its test keeps working while the next
test runs: it fires into widgets being torn down, or holds a kernel run that makes
the next test's waits time out, and the failure shows up far from its cause.
While a `LeakWatch` is installed, every QThread and QTimer started and every
SolverRunner run started is remembered (weakly) with the place in the project
that started it; `check` fails when one of them still runs, names it, and stops
it so the tests after it start clean.
"""

from __future__ import annotations

import functools
import sys
import traceback
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QObject, QThread, QTimer

from slidelab.gui.worker import SolverRunner

ROOT = Path(__file__).resolve().parents[2]
"""The repository: frames in its files say where a leak started."""
STOP_SECONDS = 5
"""How long `check` waits for a leaked thread to stop."""


@dataclass(frozen=True)
class Leak:
    """One object still running after its test."""

    kind: str
    """QThread, QTimer or SolverRunner (the class whose `start` was called)."""
    cls: str
    """The object's own class (a subclass of `kind`, or `kind`)."""
    name: str
    """Its Qt object name ('' when it has none)."""
    state: str
    where: str
    """Where it was (last) started."""

    def __str__(self) -> str:
        cls = "" if self.cls == self.kind else f" ({self.cls})"
        name = f" {self.name!r}" if self.name else ""
        return f"{self.kind}{cls}{name} is still {self.state}; started at {self.where}"


@dataclass
class _Started:
    """An object started while watching, and where."""

    ref: weakref.ref[QObject]
    where: str


def started_at(stack: Sequence[traceback.FrameSummary]) -> str:
    """The innermost frame in the repository, and the innermost test or fixture frame that led
    there (the innermost frame of all when none is in the repository)."""
    ours = [f for f in stack if _in(ROOT, f) and Path(f.filename) != Path(__file__)]
    if not ours:
        return _frame(stack[-1])
    text = _frame(ours[-1])
    tests = [f for f in ours if _in(ROOT / "tests", f)]
    if tests and tests[-1] is not ours[-1]:
        text += f", from {_frame(tests[-1])}"
    return text


@functools.cache
def _resolved(filename: str) -> Path:
    """A frame's file as an absolute path (resolved once: every start of a thread or timer
    walks the stack, and the window's own work is timed around some of them)."""
    return Path(filename).resolve()


def _in(folder: Path, frame: traceback.FrameSummary) -> bool:
    path = _resolved(frame.filename)
    return path.is_relative_to(folder) and ".venv" not in path.parts


def _frame(frame: traceback.FrameSummary) -> str:
    """'file:line in function', the file relative to the repository when it is in it."""
    path = _resolved(frame.filename)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return f"{shown}:{frame.lineno} in {frame.name}"


def _stack() -> traceback.StackSummary:
    """The caller's stack without its source lines (reading them is most of the cost)."""
    frames = traceback.walk_stack(sys._getframe(1))
    summary = traceback.StackSummary.extract(frames, lookup_lines=False)
    summary.reverse()
    return summary


@dataclass
class LeakWatch:
    """Remembers the QThreads, QTimers and SolverRunner runs started while installed."""

    started: dict[type[QObject], dict[int, _Started]] = field(default_factory=dict)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Wrap the `start` methods (`monkeypatch` restores them after the test)."""
        for kind in (QThread, QTimer, SolverRunner):
            self.started[kind] = {}
            monkeypatch.setattr(kind, "start", self._recording(kind.start, self.started[kind]))

    @staticmethod
    def _recording(start: Callable[..., Any], seen: dict[int, _Started]) -> Callable[..., Any]:
        def recorded(obj: QObject, *args: Any, **kwargs: Any) -> Any:
            seen.pop(id(obj), None)  # the latest start comes last
            seen[id(obj)] = _Started(weakref.ref(obj), started_at(_stack()[:-1]))
            return start(obj, *args, **kwargs)

        return recorded

    def leaks(self) -> list[Leak]:
        """What is still running: threads, active timers, busy runners."""
        found = []
        for kind, seen in self.started.items():
            for entry in seen.values():
                obj = entry.ref()
                state = "" if obj is None or not shiboken6.isValid(obj) else _state(obj)
                if obj is not None and state:
                    name = obj.objectName()
                    found.append(Leak(kind.__name__, type(obj).__name__, name, state, entry.where))
        return found

    def stop(self) -> None:
        """Stop whatever still runs: runners first (their threads with them), timers, threads."""
        for kind in (SolverRunner, QTimer, QThread):
            for entry in self.started.get(kind, {}).values():
                obj = entry.ref()
                if obj is not None and shiboken6.isValid(obj):
                    _stop(obj)

    def check(self) -> None:
        """Fail, naming every leak, when something still runs (and stop it first)."""
        found = self.leaks()
        if found:
            self.stop()
            lines = "\n".join(f"  {leak}" for leak in found)
            pytest.fail(f"the test left running (close or stop them):\n{lines}", pytrace=False)


def _state(obj: QObject) -> str:
    """'busy', 'active' or 'running' when `obj` still works, else ''."""
    if isinstance(obj, SolverRunner):
        return "busy" if obj.busy else ""
    if isinstance(obj, QTimer):
        return "active" if obj.isActive() else ""
    if isinstance(obj, QThread):
        return "running" if obj.isRunning() else ""
    return ""


def _stop(obj: QObject) -> None:
    if isinstance(obj, SolverRunner):
        obj.shutdown()
    elif isinstance(obj, QTimer):
        obj.stop()
    elif isinstance(obj, QThread):
        obj.requestInterruption()
        obj.quit()
        obj.wait(STOP_SECONDS * 1000)

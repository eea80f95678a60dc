"""The kernels' warm-up: its steps, their count, their order and the family asked for first."""

from __future__ import annotations

import importlib.util

import pytest

from slidelab import kernels_warmup, registry
from slidelab.family import Family
from slidelab.kernels_warmup import WarmUpQueue, WarmUpStep, kernel_families, warm_up_steps
from slidelab.runs import drive


def _steps(ran: list[str], *families: str) -> list[WarmUpStep]:
    return [WarmUpStep(name, lambda name=name: ran.append(name)) for name in families]


def test_the_queue_reports_the_fraction_before_each_step_and_at_the_end():
    ran: list[str] = []
    queue = WarmUpQueue(_steps(ran, "one", "two", "two"), phase="compiling")
    seen = []
    for event in queue.compiling():
        seen.append((event.phase, event.fraction, len(ran)))
    assert seen == [
        ("compiling: 0/3", 0.0, 0),
        ("compiling: 1/3", pytest.approx(1 / 3), 1),
        ("compiling: 2/3", pytest.approx(2 / 3), 2),
        ("compiling: 3/3", 1.0, 3),
    ]
    assert ran == ["one", "two", "two"] and queue.finished


def test_the_family_asked_for_goes_first_and_the_rest_keep_their_order():
    ran: list[str] = []
    queue = WarmUpQueue(_steps(ran, "sliding", "exactcover", "antislide", "dissection"))
    events = queue.compiling()
    next(events)  # the first step, sliding, is about to run
    queue.prioritise(["dissection", "exactcover"])
    assert queue.order() == ["exactcover", "dissection", "antislide"]
    assert queue.waiting(["sliding"])  # running now
    drive(events)
    assert ran == ["sliding", "exactcover", "dissection", "antislide"]
    assert not queue.waiting(["sliding", "dissection"])


def test_a_polycube_run_waits_for_the_exact_cover_kernels():
    assert kernel_families("polycube") == ("polycube", "exactcover")
    assert kernel_families("burrtools") == ("burrtools", "exactcover", "disassembly")
    assert kernel_families("sliding") == ("sliding",)


def test_every_family_with_kernels_has_steps_and_its_package_holds_them():
    steps = warm_up_steps()
    counts = {f.name: sum(s.family == f.name for s in steps) for f in registry.FAMILIES}
    assert counts == {
        "sliding": 8,
        "exactcover": 2,
        "antislide": 1,
        "polycube": 0,
        "dissection": 1,
        "disassembly": 1,
        "burrtools": 0,
    }
    for family in registry.FAMILIES:  # cache_is_warm looks for numba's files by package
        if family.warm_up:
            assert importlib.util.find_spec(f"slidelab.{family.name}.kernels") is not None


def test_an_empty_numba_cache_is_cold_and_a_filled_one_warm(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    families = (Family("sliding", "S", warm_up=(print,)), Family("bare", "B"))
    assert not kernels_warmup.cache_is_warm(families)
    (tmp_path / "sliding_0123").mkdir()
    (tmp_path / "sliding_0123" / "kernels.pack-54.py311.nbi").write_bytes(b"")
    assert kernels_warmup.cache_is_warm(families)


def test_the_console_warm_up_prints_a_progress_line(monkeypatch, capsys):
    ran: list[str] = []
    monkeypatch.setattr(kernels_warmup, "warm_up_steps", lambda: _steps(ran, "a", "b"))
    monkeypatch.setattr(kernels_warmup, "native_modules", lambda: [])
    assert kernels_warmup.main() == 0
    out = capsys.readouterr().out
    assert out == "\rcompiling solvers: 0/2 …\rcompiling solvers: 1/2 …\rcompiling solvers: 2/2 …\n"
    assert ran == ["a", "b"]

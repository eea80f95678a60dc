"""The architecture's dependency rules, checked on the source tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from slidelab import registry
from tests.fresh import printed_by

PACKAGE = Path(__file__).parents[1] / "slidelab"

SHARED = {
    "errors", "runs", "progress", "fileio", "family", "parallel", "integers", "validation",
    "memory", "heap", "kernels", "kernel_cache", "native", "native_build", "intrinsics",
    "wording", "mirror_pairs",
}  # fmt: skip
"""The layers under the families: any family may import them, they import no family."""

FAMILY_IMPORTS = {
    "sliding": set(),
    "exactcover": set(),
    "antislide": set(),
    "polycube": {"exactcover"},
    "dissection": {"exactcover"},
    "disassembly": {"sliding"},
    "burrtools": {"exactcover", "polycube", "disassembly"},
}
"""The other families each family package may import: downward only, so never burrtools."""

NUMBA_HELPERS = {"intrinsics.py", "native_build.py"}
"""The modules besides the kernels that import numba: LLVM intrinsics for the kernels, and the
builder of the kernels compiled ahead of time."""

FRONT_ENDS = ["cli.py", "formats.py", "gui/main_window.py"]
"""Modules that loop over the registries and must not name a family."""


def modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def slidelab_units(path: Path) -> set[str]:
    """The top-level parts of slidelab (packages or modules) that `path` imports, anywhere
    in it (imports inside functions count)."""
    units = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "slidelab" and len(parts) > 1:
                units.add(parts[1])
            elif name == "slidelab" and isinstance(node, ast.ImportFrom):
                units |= {alias.name for alias in node.names}
    return units


def unit_of(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def test_every_family_package_is_registered_and_has_import_rules():
    packages = {path.parent.name for path in PACKAGE.glob("*/family.py")}
    assert packages == {family.name for family in registry.FAMILIES} == set(FAMILY_IMPORTS)


@pytest.mark.parametrize("family", sorted(FAMILY_IMPORTS))
def test_a_family_imports_only_shared_layers_and_the_families_below_it(family):
    allowed = SHARED | {family} | FAMILY_IMPORTS[family]
    wrong = {
        path.relative_to(PACKAGE).as_posix(): sorted(slidelab_units(path) - allowed)
        for path in sorted((PACKAGE / family).rglob("*.py"))
    }
    assert {name: units for name, units in wrong.items() if units} == {}


def test_shared_layers_import_no_family_and_nothing_above_them():
    wrong = {
        path.relative_to(PACKAGE).as_posix(): sorted(slidelab_units(path) - SHARED)
        for path in sorted(PACKAGE.rglob("*.py"))
        if unit_of(path) in SHARED
    }
    assert {name: units for name, units in wrong.items() if units} == {}


def test_imports_are_absolute_so_the_rules_see_them():
    relative = [
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.level > 0
    ]
    assert relative == []


def family_words() -> set[str]:
    """Family names, subcommands and extensions: what a module naming a family would say."""
    words = set()
    for family in registry.FAMILIES:
        words.add(family.name)
        words |= {family.subcommand} if family.subcommand else set()
        words |= {extension.lstrip(".") for extension in family.extensions}
    return words


@pytest.mark.parametrize("name", FRONT_ENDS)
def test_front_ends_name_no_family(name):
    path = PACKAGE / name
    words = family_words()
    assert not slidelab_units(path) & set(FAMILY_IMPORTS)
    said = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            said += re.findall(r"[A-Za-z]+", node.value)
        elif isinstance(node, ast.Name):
            said += node.id.split("_")
        elif isinstance(node, ast.Attribute):
            said += node.attr.split("_")
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            said += node.name.split("_")
        elif isinstance(node, ast.arg):
            said += node.arg.split("_")
    assert sorted({word.lower() for word in said} & words) == []


def test_non_gui_modules_load_no_qt():
    non_gui = [m for m in modules() if not m.startswith("slidelab.gui")]
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in non_gui)
        + "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'pyqtgraph', 'OpenGL')]\nprint(bad)\n"
    )
    assert printed_by(code) == ["[]"]


def test_only_kernel_modules_import_numba():
    importers = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "numba" in imported_roots(path)
    }
    assert importers
    assert all(name.endswith("kernels.py") or name in NUMBA_HELPERS for name in importers), (
        importers
    )


def test_only_runs_iterates_solvers_by_hand():
    """Solvers are driven through `slidelab.runs` (`drive`, `relay`), never by their own loops."""
    by_hand = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "StopIteration" in path.read_text()
    }
    assert by_hand == {"runs.py"}

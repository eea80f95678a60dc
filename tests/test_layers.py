"""The architecture's dependency rules, checked on the source tree."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "slidelab"


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


def test_non_gui_modules_load_no_qt():
    non_gui = [m for m in modules() if not m.startswith("slidelab.gui")]
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in non_gui)
        + "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'pyqtgraph', 'OpenGL')]\nprint(bad)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_only_kernel_modules_import_numba():
    importers = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "numba" in imported_roots(path)
    }
    assert importers
    assert all(name.endswith("kernels.py") for name in importers), importers


def test_only_runs_iterates_solvers_by_hand():
    """Solvers are driven through `slidelab.runs` (`drive`, `relay`), never by their own loops."""
    by_hand = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "StopIteration" in path.read_text()
    }
    assert by_hand == {"runs.py"}

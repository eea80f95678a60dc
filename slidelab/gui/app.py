"""Start the desktop app: one QApplication, one main window, a file or a built-in puzzle."""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication

from slidelab.gui.errors import install_error_dialogs
from slidelab.gui.huge_pages import avoid_huge_page_stalls
from slidelab.gui.main_thread_gc import collect_in_main_thread, set_aside
from slidelab.gui.main_window import MainWindow
from slidelab.sliding.family import SLIDING

STARTING_PUZZLE = (SLIDING, "klotski.slide")
"""Shown when slidelab starts without a file, so the first click on Solve does something."""


def create_application() -> QApplication:
    """The QApplication, created once with the attributes the OpenGL views need, and with
    garbage collected on its thread only (`slidelab.gui.main_thread_gc`)."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    app = QApplication(sys.argv[:1])
    app.setOrganizationName("slidelab")
    app.setApplicationName("slidelab")
    collect_in_main_thread(app)
    avoid_huge_page_stalls()
    return app


def open_main_window(path: str | None = None) -> MainWindow:
    """A shown main window with `path` open, or the starting puzzle."""
    window = MainWindow()
    if path is None or not window.open_path(path):
        family, name = STARTING_PUZZLE
        window.open_library(window.by_family[family], name)
    window.show()
    set_aside()
    return window


def run_app(path: str | None = None) -> int:
    """Run the desktop app until its window closes; returns the exit status."""
    app = create_application()
    install_error_dialogs(app)
    window = open_main_window(path)
    status = app.exec()
    del window
    return status

"""GUI tests run on a real X server (pytest-xvfb starts Xvfb), through pytest-qt's `qapp`.

The Qt settings below must be made before any QApplication exists, so they happen
when this file is imported, before pytest-qt creates the application: contexts are
shared (the OpenGL views need that) and the platform is `xcb`, not `offscreen`,
because the OpenGL views need a real (virtual) display.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from slidelab.gui.huge_pages import avoid_huge_page_stalls
from slidelab.gui.main_thread_gc import bring_back, collect_in_main_thread, set_aside
from tests.gui.leaks import LeakWatch

# pytest may import this file before pytest-xvfb has started Xvfb and set DISPLAY (for a
# path given on the command line), so DISPLAY is checked later, in the fixture below.
os.environ["QT_QPA_PLATFORM"] = "xcb"
if QCoreApplication.instance() is None:
    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)


@pytest.fixture(scope="session", autouse=True)
def _x_display():
    """Skip every GUI test when there is no X display (session scoped, so that it runs
    before pytest-qt's session `qapp` would abort on a missing display)."""
    if not os.environ.get("DISPLAY"):
        pytest.skip(
            "no X display: the GUI tests need pytest-xvfb (pip install pytest-xvfb, and the "
            "Xvfb program) or a DISPLAY"
        )


@pytest.fixture(scope="session", autouse=True)
def _collect_in_main_thread(_x_display, qapp) -> Iterator[None]:
    """Collect garbage on the main thread only, as the app does (`create_application`): the
    widgets of earlier tests collected on a solver thread would deadlock it with the main one."""
    collector = collect_in_main_thread(qapp)
    avoid_huge_page_stalls()  # as `create_application` does
    yield
    collector.stop()


@pytest.fixture(autouse=True)
def _earlier_tests_set_aside(_collect_in_main_thread) -> Iterator[None]:
    """What earlier tests left alive is set aside during a test, as the app sets aside what
    lives as long as its window: a full collection in a test walks that test's objects only
    (with the whole session's, one pass stalled the window 118 ms in CI)."""
    set_aside()
    yield
    bring_back()


@pytest.fixture(autouse=True)
def _no_unexpected_dialogs(monkeypatch):
    """A modal message box would wait for a click that never comes and hang the suite; fail
    instead, saying what it asked.  Tests that expect a dialog patch it again themselves."""

    def unexpected(*args, **kwargs):
        texts = [a for a in args if isinstance(a, str)]
        raise AssertionError(f"unexpected dialog: {texts}")

    for name in ("question", "critical", "warning", "information"):
        monkeypatch.setattr(QMessageBox, name, unexpected)


@pytest.fixture(autouse=True)
def _nothing_left_running(monkeypatch: pytest.MonkeyPatch) -> Iterator[LeakWatch]:
    """Fail a test that leaves a QThread, a QTimer or a SolverRunner run going once its widgets
    are closed (pytest-qt closes them before fixtures are torn down); see tests/gui/leaks.py."""
    watch = LeakWatch()
    watch.install(monkeypatch)
    yield watch
    watch.check()


@pytest.fixture
def window(qtbot, tmp_path):
    """The main window, shown and active, its solver kernels warmed up, settings in tmp_path."""
    from slidelab.gui.main_window import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    main = MainWindow(settings)
    # pytest-qt closes the window after the test; edits a test made are not to be saved
    qtbot.addWidget(
        main, before_close_func=lambda w: [b.undo_stack.setClean() for b in w.workbenches]
    )
    main.show()
    main.activateWindow()
    qtbot.waitActive(main)
    qtbot.waitUntil(lambda: not main.warm_runner.busy, timeout=120_000)
    assert main.status_panel.phase.text() == "ready"
    return main

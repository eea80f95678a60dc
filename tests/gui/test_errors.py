"""An exception in a slot is shown in a dialog, and the app goes on working."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from slidelab.errors import SlidelabError
from slidelab.gui.errors import ErrorReporter


@pytest.fixture
def reporter(qapp) -> Iterator[ErrorReporter]:
    """An installed reporter (pytest-qt's own capture is off in these tests), removed after."""
    reporter = ErrorReporter()
    reporter.install()
    yield reporter
    reporter.uninstall()
    if reporter.dialog is not None:
        reporter.dialog.close()


def buttons(qtbot, slot) -> tuple[QPushButton, QPushButton, list[str]]:
    """A button running `slot`, and one that works and records its clicks."""
    failing, working, clicks = QPushButton("fail"), QPushButton("work"), []
    failing.clicked.connect(slot)
    working.clicked.connect(lambda: clicks.append("worked"))
    for button in (failing, working):
        qtbot.addWidget(button)
        button.show()
    return failing, working, clicks


def raise_bug() -> None:
    raise KeyError("no such piece")


def raise_bad_file() -> None:
    raise SlidelabError("box.slide:3:4: unexpected character")


@pytest.mark.qt_no_exception_capture
def test_a_slot_that_raises_shows_a_dialog_and_the_app_goes_on(qtbot, reporter, capsys):
    failing, working, clicks = buttons(qtbot, raise_bug)
    with qtbot.waitSignal(reporter.reported) as shown:
        qtbot.mouseClick(failing, Qt.MouseButton.LeftButton)
    assert shown.args == [
        "Something went wrong (KeyError: 'no such piece'). "
        "slidelab goes on; the details below help to report it."
    ]
    assert reporter.dialog is not None and reporter.dialog.isVisible()
    assert "raise KeyError" in reporter.dialog.detailedText()
    assert "KeyError: 'no such piece'" in capsys.readouterr().err
    qtbot.mouseClick(working, Qt.MouseButton.LeftButton)
    assert clicks == ["worked"]


@pytest.mark.qt_no_exception_capture
def test_a_slidelab_error_is_shown_as_its_message(qtbot, reporter):
    failing, _, _ = buttons(qtbot, raise_bad_file)
    with qtbot.waitSignal(reporter.reported) as shown:
        qtbot.mouseClick(failing, Qt.MouseButton.LeftButton)
    assert shown.args == ["box.slide:3:4: unexpected character"]


def test_uninstall_gives_the_hook_back(qapp):
    before = sys.excepthook
    reporter = ErrorReporter()
    reporter.install()
    assert sys.excepthook == reporter.report
    reporter.uninstall()
    assert sys.excepthook is before

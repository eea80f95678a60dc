"""Errors nobody caught: an exception raised in a slot is shown in a dialog and the app goes on.

Qt calls slots from its event loop, where an exception has nowhere to go but
`sys.excepthook`; the default hook prints it and PySide6 may then abort.  The
reporter installed here shows it instead, in a window-modal (not blocking)
message box, so a bad file or a bug in one action never takes the app and the
user's unsaved work with it.  Its `reported` signal and `dialog` let tests see it.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from types import TracebackType

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QMessageBox

from slidelab.errors import SlidelabError

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]


class ErrorReporter(QObject):
    """Replaces `sys.excepthook` while installed; shows each exception in a message box."""

    reported = Signal(str)
    """The message shown, once the dialog is open."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dialog: QMessageBox | None = None
        self._previous: ExceptHook | None = None

    def install(self) -> None:
        """Take over `sys.excepthook` (the previous hook comes back with `uninstall`)."""
        if self._previous is None:
            self._previous = sys.excepthook
            sys.excepthook = self.report

    def uninstall(self) -> None:
        """Give `sys.excepthook` back to the hook installed before."""
        if self._previous is not None:
            sys.excepthook = self._previous
            self._previous = None

    def report(
        self,
        kind: type[BaseException],
        error: BaseException,
        trace: TracebackType | None,
    ) -> None:
        """The hook: print the traceback (for bug reports) and show the error; an interrupt
        (Ctrl+C) goes to the previous hook, which ends the app as the user asked."""
        if not issubclass(kind, Exception) and self._previous is not None:
            self._previous(kind, error, trace)
            return
        details = "".join(traceback.format_exception(kind, error, trace))
        sys.stderr.write(details)
        message = error_message(error)
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            "slidelab",
            message,
            QMessageBox.StandardButton.Ok,
            QApplication.activeWindow(),
        )
        box.setDetailedText(details)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.destroyed.connect(self._forget)
        box.open()
        self.dialog = box
        self.reported.emit(message)

    def _forget(self) -> None:
        self.dialog = None


def error_message(error: BaseException) -> str:
    """What the user reads: a slidelab error says it all; anything else is a bug, said so."""
    if isinstance(error, SlidelabError):
        return str(error)
    return (
        f"Something went wrong ({type(error).__name__}: {error}). "
        "slidelab goes on; the details below help to report it."
    )


def install_error_dialogs(app: QApplication) -> ErrorReporter:
    """An installed reporter owned by `app`, so it lives as long as the app."""
    reporter = ErrorReporter(app)
    reporter.install()
    return reporter

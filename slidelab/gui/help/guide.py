"""The user guide: an illustrated HTML page shipped in resources/guide, shown in the app."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from slidelab.errors import SlidelabError

GUIDE_PAGE = "guide.html"


class GuideMissingError(SlidelabError):
    """The shipped guide (or one of its pictures) cannot be read."""


def guide_folder() -> Traversable:
    """Where the guide's page and pictures are shipped."""
    return files("slidelab.resources").joinpath("guide")


class GuideWindow(QWidget):
    """A window with the guide in a browser; its pictures are loaded from the package (no
    files needed on disk), and outside links open in the system browser."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("slidelab user guide")
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        folder = guide_folder()
        document = self.browser.document()
        for entry in folder.iterdir():
            if entry.name.endswith(".png"):
                image = QImage.fromData(entry.read_bytes())
                if image.isNull():
                    raise GuideMissingError(f"the guide's picture {entry.name} is not a PNG")
                document.addResource(
                    QTextDocument.ResourceType.ImageResource, QUrl(entry.name), image
                )
        self.browser.setHtml(folder.joinpath(GUIDE_PAGE).read_text("utf-8"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        self.resize(720, 640)

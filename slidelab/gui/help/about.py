"""About slidelab: its version and the libraries it runs on, with their licences."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

import slidelab
from slidelab.credits import credits


class AboutDialog(QDialog):
    """A non-modal dialog with the version and a table of libraries, versions and licences."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About slidelab")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        rows = "".join(
            f"<tr><td>{escape(c.name)}</td><td>{escape(c.version)}</td>"
            f"<td>{escape(c.licence)}</td></tr>"
            for c in credits()
        )
        self.text = QLabel(
            f"<h3>slidelab {escape(slidelab.__version__)}</h3>"
            "<p>A visual explorer for sliding-block, antislide, polycube and dissection "
            "puzzles. MIT licence.</p>"
            "<p>Built on these libraries:</p>"
            "<table cellspacing=6><tr><th align=left>Library</th><th align=left>Version</th>"
            f"<th align=left>Licence</th></tr>{rows}</table>"
        )
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)

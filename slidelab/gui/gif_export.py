"""Exporting an animation as a GIF: a dialog for size, speed and frames per step, frames drawn
with a cancellable progress dialog, encoded on a worker thread, and a message saying where
the file was saved."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from PySide6.QtCore import Qt, QThread, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QMessageBox,
    QProgressDialog,
    QSpinBox,
    QWidget,
)

from slidelab.errors import SlidelabError
from slidelab.export.gif import write_gif
from slidelab.export.gif_options import MAX_FRAMES_PER_STEP, MAX_SIZE, MIN_SIZE, GifOptions
from slidelab.gui.images import image_to_rgb

Frames = Callable[[GifOptions], Iterable[QImage]]
"""Draws the animation's frames for the chosen options."""


class GifOptionsDialog(QDialog):
    """Size, speed and frames per step (a step: `step`, "move" or "turn")."""

    def __init__(self, parent: QWidget | None, step: str, defaults: GifOptions) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export animated GIF")
        self.size_spin = QSpinBox()
        self.size_spin.setRange(MIN_SIZE, MAX_SIZE)
        self.size_spin.setSuffix(" px")
        self.size_spin.setValue(defaults.size)
        self.size_spin.setToolTip("Width of the picture (its longer side)")
        self.seconds_spin = QDoubleSpinBox()
        self.seconds_spin.setRange(0.05, 30.0)
        self.seconds_spin.setSingleStep(0.1)
        self.seconds_spin.setSuffix(" s")
        self.seconds_spin.setValue(defaults.seconds_per_step)
        self.seconds_spin.setToolTip(f"How long each {step} lasts: lower is faster")
        self.frames_spin = QSpinBox()
        self.frames_spin.setRange(1, MAX_FRAMES_PER_STEP)
        self.frames_spin.setValue(defaults.frames_per_step)
        self.frames_spin.setToolTip(f"Frames drawn per {step}: more is smoother and bigger")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Size", self.size_spin)
        form.addRow(f"Time per {step}", self.seconds_spin)
        form.addRow(f"Frames per {step}", self.frames_spin)
        form.addRow(buttons)

    def options(self) -> GifOptions:
        return GifOptions(
            self.size_spin.value(), self.seconds_spin.value(), self.frames_spin.value()
        )


def ask_options(parent: QWidget | None, step: str, defaults: GifOptions) -> GifOptions | None:
    """The options a person chose, None if they cancelled."""
    dialog = GifOptionsDialog(parent, step, defaults)
    return dialog.options() if dialog.exec() == QDialog.DialogCode.Accepted else None


class _Writer(QThread):
    """Encodes and saves the frames off the GUI thread."""

    failed = Signal(str)

    def __init__(self, path: str, frames: list[np.ndarray], delays: list[int]) -> None:
        super().__init__()
        self.path, self.frames, self.delays = path, frames, delays

    def run(self) -> None:
        try:
            write_gif(self.path, self.frames, self.delays)
        except SlidelabError as error:
            self.failed.emit(str(error))


class GifExport:
    """One export: ask the options and the path, draw with progress, save, say where.

    `frames(options)` draws the frames, `count(options)` says how many for the progress bar;
    the last frame is held `hold_last_ms` (the goal reached, say).
    """

    def __init__(
        self,
        parent: QWidget,
        step: str,
        defaults: GifOptions,
        frames: Frames,
        count: Callable[[GifOptions], int],
        hold_last_ms: int | None = None,
    ) -> None:
        self.parent, self.step, self.defaults = parent, step, defaults
        self.frames, self.count, self.hold_last_ms = frames, count, hold_last_ms
        self.progress: QProgressDialog | None = None
        self.writer: _Writer | None = None
        self.message: QMessageBox | None = None

    def run(self, default_name: str) -> None:
        """Ask, then draw and save (the saving finishes on a worker thread)."""
        options = ask_options(self.parent, self.step, self.defaults)
        if options is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self.parent, "Export animated GIF", default_name, "GIF images (*.gif)"
        )
        if path:
            self.export(path, options)

    def export(self, path: str, options: GifOptions) -> None:
        """Draw the frames showing progress (Cancel stops), then save them on a worker."""
        self.message = None
        total = self.count(options)
        self.progress = QProgressDialog("Drawing frames…", "Cancel", 0, total + 1, self.parent)
        self.progress.setWindowTitle("Export animated GIF")
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)  # repaints, takes Cancel
        self.progress.setMinimumDuration(0)
        self.progress.setValue(0)
        images: list[np.ndarray] = []
        for index, image in enumerate(self.frames(options), 1):
            if self.progress.wasCanceled():
                self._close_progress()
                return
            images.append(image_to_rgb(image))
            self.progress.setValue(min(index, total))
        self.progress.setLabelText(f"Encoding {len(images)} frames…")
        self.progress.setCancelButton(None)
        delays = [options.frame_delay_ms] * len(images)
        if self.hold_last_ms is not None and delays:
            delays[-1] = self.hold_last_ms
        self.writer = _Writer(path, images, delays)
        self.writer.failed.connect(self._failed)
        self.writer.finished.connect(lambda: self._saved(path, len(images)))
        self.writer.start()

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.reset()
            self.progress.deleteLater()
            self.progress = None

    def _failed(self, message: str) -> None:
        self._say(f"Not saved: {message}", QMessageBox.Icon.Warning)

    def _saved(self, path: str, count: int) -> None:
        self._close_progress()
        writer, self.writer = self.writer, None
        if writer is not None:
            writer.wait()
            writer.deleteLater()
        if self.message is None:
            self._say(f"Saved {count} frames as\n{path}", QMessageBox.Icon.Information)

    def _say(self, text: str, icon: QMessageBox.Icon) -> None:
        """A non-modal message (the window stays usable)."""
        self.message = QMessageBox(icon, "Export animated GIF", text, parent=self.parent)
        self.message.setWindowModality(Qt.WindowModality.NonModal)
        self.message.show()

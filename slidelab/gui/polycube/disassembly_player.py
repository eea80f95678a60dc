"""The polycube tab's Disassemble page: plays how the chosen assembly comes apart in 3D.

`DisassemblyPlayer` is the shared transport (`gui.transport`) driving the tab's
`VoxelView` from Qt-free frames (`geometry.disassembly_frames`): each frame's offsets
go to `set_offsets`, its gone or waiting pieces to `set_hidden`, and the moving pieces
are highlighted.  The page adds a line saying what is shown (or why nothing plays) and
PNG export of the current frame and GIF export of the whole play.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from slidelab.disassembly.model import Assembly, Disassembly, level_text
from slidelab.errors import SlidelabError
from slidelab.export.gif_options import GifOptions
from slidelab.geometry.disassembly_frames import DisassemblyFrame, DisassemblyPlay
from slidelab.gui.gif_export import GifExport
from slidelab.gui.transport import Transport
from slidelab.gui.view3d import VoxelView
from slidelab.wording import numbered

GIF_DEFAULTS = GifOptions(360, 0.6, 8)
HOLD_LAST_MS = 1500


class DisassemblyPlayer(Transport):
    """Transport controls playing one disassembly on a `VoxelView` whose scene holds the
    assembly's pieces under `keys` (in the assembly's order)."""

    def __init__(self, view: VoxelView, shortcuts_on: QWidget) -> None:
        super().__init__(shortcuts_on, stacked=True)
        self.view = view
        self.play_data: DisassemblyPlay | None = None
        self.keys: tuple[str, ...] = ()
        self.set_disassembly(None, None, ())

    def set_disassembly(
        self, assembly: Assembly | None, disassembly: Disassembly | None, keys: Sequence[str]
    ) -> None:
        """Play this disassembly from its start (None: nothing to play)."""
        if assembly is None or disassembly is None:
            self.play_data, self.keys = None, ()
        else:
            self.play_data, self.keys = DisassemblyPlay(assembly, disassembly), tuple(keys)
        self.set_moves(self.play_data.count if self.play_data else 0)

    def show_position(self, position: float) -> None:
        if self.play_data is not None:
            self.show_frame(self.play_data.frame(position))

    def show_frame(self, frame: DisassemblyFrame) -> None:
        """Put the view's pieces where `frame` has them."""
        self.view.set_offsets(dict(zip(self.keys, frame.offsets, strict=True)))
        self.view.set_hidden(self.keys[k] for k in frame.hidden)
        self.view.set_highlighted(self.keys[k] for k in frame.moving)

    def counter_text(self, position: float) -> str:
        if self.play_data is None or not self.play_data.count:
            return ""
        return self.play_data.counter(position)

    def gif_frames(self, options: GifOptions) -> Iterator[QImage]:
        """The play rendered `options.frames_per_step` times a move, `options.size` wide;
        the view shows the current position again afterwards."""
        assert self.play_data is not None
        width, height = max(self.view.width(), 1), max(self.view.height(), 1)
        scale = options.size / max(width, height)
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        try:
            for frame in self.play_data.frames(options.frames_per_step):
                self.show_frame(frame)
                yield self.view.render_image(size)
        finally:
            self.seek(self.position)


class DisassemblyPage(QWidget):
    """The player, a line on what it shows, and the PNG and GIF exports."""

    def __init__(self, view: VoxelView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.about = QLabel()
        self.about.setWordWrap(True)
        self.player = DisassemblyPlayer(view, self)
        self.png_button = QPushButton("PNG…")
        self.png_button.setToolTip("Save the frame shown as a PNG image")
        self.png_button.clicked.connect(self._ask_png)
        self.gif_button = QPushButton("GIF…")
        self.gif_button.setToolTip("Save the whole disassembly as an animated GIF")
        self.gif_button.clicked.connect(self._ask_gif)
        self.gif_export: GifExport | None = None
        exports = QHBoxLayout()
        exports.addWidget(self.png_button)
        exports.addWidget(self.gif_button)
        exports.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.about)
        layout.addWidget(self.player)
        layout.addLayout(exports)
        layout.addStretch(1)
        self.show_nothing(
            "Choose an assembly on the Solve page and take the list apart (Take apart)."
        )

    def show_nothing(self, why: str) -> None:
        """No disassembly to play, and why."""
        self.player.set_disassembly(None, None, ())
        self.about.setText(why)
        self._update_exports()

    def show_disassembly(
        self, title: str, assembly: Assembly, disassembly: Disassembly, keys: Sequence[str]
    ) -> None:
        """Play how `assembly` comes apart (or say that it does not)."""
        self.player.set_disassembly(assembly, disassembly, keys)
        play = self.player.play_data
        assert play is not None
        if play.verdict:
            self.about.setText(f"{title} {play.verdict}.")
        else:
            self.about.setText(
                f"{title} comes apart in {numbered(play.count, 'move')}, "
                f"level {level_text(disassembly.level)}"
                f" ({numbered(play.separations, 'separation')})."
            )
        self._update_exports()

    def _update_exports(self) -> None:
        playing = self.player.play_data is not None and self.player.play_data.count > 0
        self.gif_button.setEnabled(playing)
        self.png_button.setEnabled(self.player.play_data is not None)

    def export_png(self, path: str) -> None:
        """Save the frame shown as a PNG image."""
        self.view.export_png(path)

    def export_gif(self, path: str, options: GifOptions = GIF_DEFAULTS) -> GifExport:
        """Draw and save the play as a GIF (saved on a worker thread: see `GifExport`)."""
        self.gif_export = self._gif_export()
        self.gif_export.export(path, options)
        return self.gif_export

    def _gif_export(self) -> GifExport:
        play = self.player.play_data
        moves = play.count if play is not None else 0
        return GifExport(
            self,
            "move",
            GIF_DEFAULTS,
            self.player.gif_frames,
            lambda o: moves * o.frames_per_step + 1,
            hold_last_ms=HOLD_LAST_MS,
        )

    def _ask_png(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Save frame", "disassembly.png", "PNG images (*.png)"
        )
        if path:
            try:
                self.export_png(path)
            except SlidelabError as error:
                QMessageBox.warning(self, "slidelab", str(error))

    def _ask_gif(self) -> None:
        self.player.pause()
        self.gif_export = self._gif_export()
        self.gif_export.run("disassembly.gif")

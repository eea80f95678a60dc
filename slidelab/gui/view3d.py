"""The shared 3D view of voxel pieces (bricks, polycubes), for the antislide and polycube
workbenches.

`VoxelView` is a toolbar row over a pyqtgraph.opengl view.  Each piece is one merged mesh
(`geometry.meshes`) with flat faces shaded by `geometry.scene.lambert` under a fixed light,
and its outline as dark lines; the arithmetic (explode, slice, pick) lives in
`geometry.scene`, so this module only turns its answers into GL items.  Workbenches hand
over whole scenes and sets of keys to highlight, mark, fade or hide; they hear back which
piece is hovered or clicked.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from pyqtgraph import Vector
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QImage, QSurfaceFormat
from PySide6.QtOpenGL import QOpenGLFramebufferObject, QOpenGLFramebufferObjectFormat
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QLabel,
    QMessageBox,
    QSlider,
    QSpinBox,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from slidelab.errors import SlidelabError
from slidelab.export.gif import write_gif
from slidelab.export.gif_options import GifOptions
from slidelab.geometry.meshes import Mesh, voxel_mesh
from slidelab.geometry.palettes import PROBLEM_COLOUR, RGB
from slidelab.geometry.scene import ScenePiece, explode_offsets, lambert, pick, sliced
from slidelab.gui.gif_export import GifExport
from slidelab.gui.images import image_to_rgb, save_png

BACKGROUND: RGB = (246, 246, 243)
EDGE_COLOUR: RGB = (32, 32, 38)
BOX_COLOUR: RGB = (120, 120, 132)
FADED_GREY: RGB = (200, 200, 200)
BOX_INSET = 0.02
"""How far the box outline is drawn inside the box, in cells."""

EDGE_WIDTH = 1.5
BOLD_EDGE_WIDTH = 4.0
"""Edges of highlighted and marked pieces, in pixels."""
HIGHLIGHT_LIFT = 0.35
"""How far a highlighted piece's face colours move towards white."""
FADED_ALPHA = 0.18

FIELD_OF_VIEW = 40.0
"""Horizontal, in degrees: narrow enough that boxes do not look distorted."""
FIT_MARGIN = 1.08
MAX_EXPLODE = 1.5
"""The explode factor at the right end of the slider."""
TURNTABLE_DELAY_MS = 100

STANDARD_VIEWS: dict[str, tuple[float, float]] = {
    "front": (0.0, -90.0),
    "top": (90.0, -90.0),
    "side": (0.0, 0.0),
    "iso": (35.26, -45.0),
}
"""(elevation, azimuth) in degrees.  The front looks along +y with z up, the top looks down
with x to the right and y up, the side looks along -x, and iso sees top, front and side."""

_BLEND = {
    GL.GL_BLEND: True,
    "glBlendFuncSeparate": (GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA, GL.GL_ONE, GL.GL_ONE),
}
# Faces are pushed back a little in depth so that the edge lines on them always win.
_SOLID_FACES = {
    GL.GL_DEPTH_TEST: True,
    GL.GL_BLEND: False,
    GL.GL_CULL_FACE: False,
    GL.GL_POLYGON_OFFSET_FILL: True,
    "glPolygonOffset": (1.0, 1.0),
    "glDepthMask": (True,),
}
# Faded faces blend and leave the depth buffer alone, so what is behind them still shows.
_GLASS_FACES = {**_SOLID_FACES, **_BLEND, "glDepthMask": (False,)}
_LINES = {GL.GL_DEPTH_TEST: True, GL.GL_CULL_FACE: False, **_BLEND, "glDepthMask": (True,)}
# Items draw in depth-value order: faded faces after every solid item, and the faded edges
# last, which also turns depth writes back on before the next frame clears the depth buffer.
_SOLID_DEPTH, _GLASS_DEPTH, _GLASS_EDGE_DEPTH = 0, 10, 11


def _rgba(rgb: RGB, alpha: float = 1.0) -> tuple[float, float, float, float]:
    return (rgb[0] / 255, rgb[1] / 255, rgb[2] / 255, alpha)


@dataclass
class _Drawn:
    """A piece on screen: its (possibly sliced) cells, mesh, and the two GL items drawing it."""

    piece: ScenePiece
    mesh: Mesh
    faces: gl.GLMeshItem
    edges: gl.GLLinePlotItem


class _GLView(gl.GLViewWidget):
    """pyqtgraph's view, which already rotates on left-drag, pans on Ctrl+left-drag and
    middle-drag and zooms on the wheel, plus hovering and clicking: a press and release with
    less than the drag distance between them is a click and does not rotate."""

    pointed = Signal(object)
    """The mouse moved over the view with no button held: a QPointF, or None when it left."""
    clicked = Signal(QPointF)
    resized = Signal()

    def __init__(self) -> None:
        super().__init__()
        surface = QSurfaceFormat()
        surface.setSamples(4)
        self.setFormat(surface)
        self.setMouseTracking(True)
        self._press: QPointF | None = None
        self._dragging = False

    def mousePressEvent(self, event) -> None:
        super().mousePressEvent(event)
        left = event.button() == Qt.MouseButton.LeftButton
        self._press = event.position() if left else None
        self._dragging = False

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() == Qt.MouseButton.NoButton:
            self.pointed.emit(event.position())
            return
        if not self._dragging:
            if self._press is not None:
                moved = (event.position() - self._press).manhattanLength()
                if moved < QApplication.startDragDistance():
                    return
            self._dragging = True
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._press is not None:
            if not self._dragging:
                self.clicked.emit(event.position())
            self._press = None
        self._dragging = False

    def leaveEvent(self, event) -> None:
        self.pointed.emit(None)
        super().leaveEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.resized.emit()


class _LayerSpin(QSpinBox):
    """How many layers to show along the slicing axis; the maximum reads "all"."""

    def textFromValue(self, value: int) -> str:
        return "all" if value == self.maximum() else str(value)

    def valueFromText(self, text: str) -> int:
        return self.maximum() if text.strip() == "all" else int(text)


class VoxelView(QWidget):
    """A toolbar and an OpenGL view of voxel pieces in an optional box."""

    pieceHovered = Signal(str)
    """The key of the piece under the mouse, "" when there is none."""
    pieceClicked = Signal(str)
    """The key of the piece clicked (pressed and released without dragging), "" for none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._box: tuple[int, int, int] | None = None
        self._pieces: list[ScenePiece] = []
        self._drawn: dict[str, _Drawn] = {}
        self._pool: list[tuple[gl.GLMeshItem, gl.GLLinePlotItem]] = []
        self._highlighted: frozenset[str] = frozenset()
        self._marked: frozenset[str] = frozenset()
        self._faded: frozenset[str] = frozenset()
        self._hidden: frozenset[str] = frozenset()
        self._hovered = ""
        self._offsets: dict[str, np.ndarray] = {}
        self._explode = 0.0
        self._slice_axis = 2
        self._slice_upto: int | None = None
        self._fitted: tuple[float, float, float, float] | None = None

        self._gl = _GLView()
        self._gl.setBackgroundColor(BACKGROUND)
        self._gl.opts["fov"] = FIELD_OF_VIEW
        self._gl.pointed.connect(self._point)
        self._gl.clicked.connect(self._click)
        self._gl.resized.connect(self._refit_if_untouched)
        self._box_item = gl.GLLinePlotItem(
            mode="lines", color=_rgba(BOX_COLOUR), width=1.0, antialias=True, glOptions=_LINES
        )
        self._box_item.setVisible(False)
        self._gl.addItem(self._box_item)

        self.hover_label = QLabel()
        self.hover_label.setTextFormat(Qt.TextFormat.PlainText)
        self.hover_label.setMinimumWidth(1)  # a long name is cut, rather than widen the view
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self._camera_bar())
        layout.addWidget(self._scene_bar())
        layout.addWidget(self._gl, 1)
        layout.addWidget(self.hover_label)
        self._show_hover_text()
        self.set_standard_view("iso")

    # Toolbar ----------------------------------------------------------------------------

    def _camera_bar(self) -> QToolBar:
        """The first toolbar row: standard views and exports.  Two short rows fit a view a
        third of a 1024-pixel window wide, so no button hides behind an overflow arrow."""
        bar = QToolBar()
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for name, tip in (
            ("front", "Look at the front (along +y, z up)"),
            ("top", "Look down from above (x right, y up)"),
            ("side", "Look at the right side (along -x, z up)"),
            ("iso", "Isometric view: top, front and right side at once"),
        ):
            bar.addAction(name.title(), partial(self.set_standard_view, name)).setToolTip(tip)
        bar.addAction("Reset", self.reset_camera).setToolTip("Isometric view, fitted and centred")
        bar.addSeparator()
        bar.addAction("PNG…", self._ask_png).setToolTip("Save the view as a PNG image")
        bar.addAction("GIF…", self._ask_gif).setToolTip(
            "Save a full turn round the scene as an animated GIF (a turntable)"
        )
        return bar

    def _scene_bar(self) -> QToolBar:
        """The second toolbar row: what of the scene is shown (explode, layers, box)."""
        bar = QToolBar()
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        bar.addWidget(QLabel("Explode "))
        self.explode_slider = QSlider(Qt.Orientation.Horizontal)
        self.explode_slider.setRange(0, 100)
        self.explode_slider.setFixedWidth(90)
        self.explode_slider.setToolTip("Move the pieces apart from the centre")
        self.explode_slider.valueChanged.connect(
            lambda value: self.set_explode(value / 100 * MAX_EXPLODE)
        )
        bar.addWidget(self.explode_slider)

        bar.addSeparator()
        bar.addWidget(QLabel("Layers "))
        self.axis_combo = QComboBox()
        self.axis_combo.addItems(["x", "y", "z"])
        self.axis_combo.setCurrentIndex(self._slice_axis)
        self.axis_combo.setToolTip("The axis along which layers are sliced off")
        self.axis_combo.currentIndexChanged.connect(lambda axis: self.set_slice(axis, None))
        bar.addWidget(self.axis_combo)
        self.layer_spin = _LayerSpin()
        self.layer_spin.setToolTip("Show only this many layers along the axis, from 0 up")
        self.layer_spin.valueChanged.connect(self._layer_spin_changed)
        bar.addWidget(self.layer_spin)

        bar.addSeparator()
        self.box_outline_action = bar.addAction("Box outline")
        self.box_outline_action.setToolTip("Draw the box as a wire frame")
        self.box_outline_action.setCheckable(True)
        self.box_outline_action.setChecked(True)
        self.box_outline_action.toggled.connect(self._update_box)
        return bar

    def _layer_spin_changed(self, value: int) -> None:
        self.set_slice(self._slice_axis, None if value == self.layer_spin.maximum() else value)

    # Scene ------------------------------------------------------------------------------

    def set_scene(
        self,
        box: tuple[int, int, int] | None,
        pieces: Sequence[ScenePiece],
        keep_camera: bool = False,
    ) -> None:
        """Show `pieces`, in the box [0, L] x [0, M] x [0, N] when one is given.  Highlighted,
        marked, faded and hidden keys, offsets, explode and slice carry over; unless
        `keep_camera`, the camera is centred on the scene and backs off to fit it."""
        keys = [piece.key for piece in pieces]
        if len(set(keys)) != len(keys):
            raise ValueError(f"piece keys must be unique: {keys}")
        self._box = box
        self._pieces = list(pieces)
        if self._hovered not in keys:
            self._hover("")
        self._update_layer_spin()
        self._update_box()
        self._rebuild()
        if not keep_camera:
            self._fit()

    def set_highlighted(self, keys: Iterable[str]) -> None:
        """Draw these pieces brighter with bold dark edges (as the hovered piece is)."""
        self._highlighted = frozenset(keys)
        self._restyle()

    def set_marked(self, keys: Iterable[str]) -> None:
        """Draw these pieces with bold red edges: a warning, e.g. bricks that can slide."""
        self._marked = frozenset(keys)
        self._restyle()

    def marked_keys(self) -> frozenset[str]:
        """The pieces drawn with the warning mark."""
        return self._marked

    def set_faded(self, keys: Iterable[str]) -> None:
        """Draw these pieces as faint grey glass, to bring the others forward."""
        self._faded = frozenset(keys)
        self._restyle()

    def set_hidden(self, keys: Iterable[str]) -> None:
        """Leave these pieces out of the picture (and out of picking)."""
        self._hidden = frozenset(keys)
        self._restyle()

    def highlighted_keys(self) -> frozenset[str]:
        """The pieces drawn highlighted."""
        return self._highlighted

    def hidden_keys(self) -> frozenset[str]:
        """The pieces left out of the picture."""
        return self._hidden

    def offset_of(self, key: str) -> tuple[float, float, float]:
        """The extra (dx, dy, dz) a piece is moved by (`set_offsets`)."""
        x, y, z = (float(c) for c in self._offsets.get(key, (0.0, 0.0, 0.0)))
        return (x, y, z)

    def set_offsets(self, offsets: Mapping[str, Sequence[float]]) -> None:
        """Move pieces by these extra (dx, dy, dz), on top of the explode offsets."""
        self._offsets = {key: np.asarray(value, float) for key, value in offsets.items()}
        self._place()

    def set_explode(self, factor: float) -> None:
        """Move every piece away from the scene's centre by `factor` (0 to 1.5) times its
        distance from it."""
        untouched = self._camera_untouched()
        self._explode = min(max(float(factor), 0.0), MAX_EXPLODE)
        self.explode_slider.blockSignals(True)
        self.explode_slider.setValue(round(self._explode / MAX_EXPLODE * 100))
        self.explode_slider.blockSignals(False)
        self._place()
        if untouched:
            self._fit()

    def set_slice(self, axis: int, upto: int | None) -> None:
        """Show only the cells whose coordinate `axis` (0, 1, 2 for x, y, z) is below `upto`;
        None shows them all."""
        if axis not in (0, 1, 2):
            raise ValueError(f"axis must be 0, 1 or 2, not {axis}")
        self._slice_axis, self._slice_upto = axis, upto
        self.axis_combo.blockSignals(True)
        self.axis_combo.setCurrentIndex(axis)
        self.axis_combo.blockSignals(False)
        self._update_layer_spin()
        self._rebuild()

    def _extent(self, axis: int) -> int:
        """How many layers the scene has along `axis`."""
        if self._box is not None:
            return max(self._box[axis], 1)
        return max((cell[axis] + 1 for piece in self._pieces for cell in piece.cells), default=1)

    def _update_layer_spin(self) -> None:
        """The spin counts layers from 1 to the scene's extent, which reads "all"."""
        extent = self._extent(self._slice_axis)
        shown = extent if self._slice_upto is None else min(self._slice_upto, extent)
        self.layer_spin.blockSignals(True)
        self.layer_spin.setRange(min(1, shown), extent)
        self.layer_spin.setValue(shown)
        self.layer_spin.blockSignals(False)

    def _update_box(self) -> None:
        box = self._box
        self._box_item.setVisible(box is not None and self.box_outline_action.isChecked())
        if box is None:
            return
        # Just inside the box: where an edge of the box runs along a piece, the piece's own
        # dark edge shows rather than the two lines fighting over the same depth.
        low, high = BOX_INSET, np.asarray(box, np.float32) - BOX_INSET
        corners = np.array(
            [[x, y, z] for x in (low, high[0]) for y in (low, high[1]) for z in (low, high[2])],
            np.float32,
        )
        # Corners i and j share an edge when their indices differ in exactly one bit.
        pairs = [(i, i | bit) for i in range(8) for bit in (1, 2, 4) if not i & bit]
        self._box_item.setData(pos=corners[np.array(pairs).ravel()])

    def _rebuild(self) -> None:
        """Give each piece that survives the slice its mesh and a pair of GL items."""
        shown = self._pieces
        if self._slice_upto is not None:
            shown = sliced(shown, self._slice_axis, self._slice_upto)
        while len(self._pool) < len(shown):
            faces = gl.GLMeshItem(smooth=False, computeNormals=False, glOptions=_SOLID_FACES)
            edges = gl.GLLinePlotItem(mode="lines", antialias=True, glOptions=_LINES)
            self._gl.addItem(faces)
            self._gl.addItem(edges)
            self._pool.append((faces, edges))
        self._drawn = {}
        for piece, (faces, edges) in zip(shown, self._pool, strict=False):
            mesh = voxel_mesh(piece.cells)
            edges.setData(pos=mesh.outline.reshape(-1, 3))
            self._drawn[piece.key] = _Drawn(piece, mesh, faces, edges)
        for faces, edges in self._pool[len(shown) :]:
            faces.setVisible(False)
            edges.setVisible(False)
        self._restyle()
        self._place()

    def _restyle(self) -> None:
        """Colours, edge widths and visibility from the highlighted, marked, faded and hidden
        keys and the hovered piece."""
        for key, drawn in self._drawn.items():
            visible = key not in self._hidden
            drawn.faces.setVisible(visible)
            drawn.edges.setVisible(visible)
            if not visible:
                continue
            bold = key in self._highlighted or key == self._hovered
            if key in self._faded:
                (r, g, b), (gr, gg, gb) = drawn.piece.colour, FADED_GREY
                grey = ((r + gr) // 2, (g + gg) // 2, (b + gb) // 2)
                colours = lambert(drawn.mesh.normals, grey, alpha=FADED_ALPHA)
                edge, width = _rgba(EDGE_COLOUR, FADED_ALPHA), EDGE_WIDTH
                options, depth = _GLASS_FACES, (_GLASS_DEPTH, _GLASS_EDGE_DEPTH)
            else:
                colours = lambert(drawn.mesh.normals, drawn.piece.colour)
                edge, width = _rgba(EDGE_COLOUR), BOLD_EDGE_WIDTH if bold else EDGE_WIDTH
                options, depth = _SOLID_FACES, (_SOLID_DEPTH, _SOLID_DEPTH)
            if bold:
                colours[:, :3] += (1 - colours[:, :3]) * HIGHLIGHT_LIFT
            if key in self._marked:
                edge, width = _rgba(PROBLEM_COLOUR), BOLD_EDGE_WIDTH
            drawn.faces.setGLOptions(options)
            drawn.faces.setDepthValue(depth[0])
            drawn.edges.setDepthValue(depth[1])
            drawn.faces.setMeshData(
                vertexes=drawn.mesh.vertices, faces=drawn.mesh.faces, faceColors=colours
            )
            drawn.edges.setData(color=edge, width=width)

    def _total_offsets(self) -> dict[str, np.ndarray]:
        offsets = explode_offsets(self._pieces, self._explode)
        for key, extra in self._offsets.items():
            if key in offsets:
                offsets[key] = offsets[key] + extra
        return offsets

    def _place(self) -> None:
        offsets = self._total_offsets()
        for key, drawn in self._drawn.items():
            dx, dy, dz = (float(v) for v in offsets[key])
            for item in (drawn.faces, drawn.edges):
                item.resetTransform()
                item.translate(dx, dy, dz)

    def _visible_pieces(self) -> list[ScenePiece]:
        return [d.piece for key, d in self._drawn.items() if key not in self._hidden]

    # Camera -----------------------------------------------------------------------------

    def camera(self) -> tuple[float, float, float]:
        """(distance, elevation, azimuth), the angles in degrees."""
        opts = self._gl.opts
        return float(opts["distance"]), float(opts["elevation"]), float(opts["azimuth"])

    def orbit(self, d_azimuth: float, d_elevation: float) -> None:
        """Turn the camera round the centre by these angles, in degrees."""
        self._gl.orbit(d_azimuth, d_elevation)

    def set_standard_view(self, name: str) -> None:
        """Look from "front", "top", "side" or "iso", centred and fitted."""
        if name not in STANDARD_VIEWS:
            raise ValueError(f"unknown view {name!r}; choose from {', '.join(STANDARD_VIEWS)}")
        elevation, azimuth = STANDARD_VIEWS[name]
        self._gl.setCameraPosition(elevation=elevation, azimuth=azimuth)
        self._fit()

    def reset_camera(self) -> None:
        """The isometric view, centred and fitted."""
        self.set_standard_view("iso")

    def _fit(self) -> None:
        """Aim at the centre of the box and the pieces (as they are drawn, exploded and offset)
        and move back until their bounding sphere fits the narrower field of view."""
        low, high = np.zeros(3), np.zeros(3)
        boxes = [] if self._box is None else [(np.zeros(3), np.asarray(self._box, float))]
        offsets = self._total_offsets()
        for piece in self._visible_pieces():
            cells = np.asarray(piece.cells, float) + offsets[piece.key]
            boxes.append((cells.min(axis=0), cells.max(axis=0) + 1))
        if boxes:
            low = np.min([b[0] for b in boxes], axis=0)
            high = np.max([b[1] for b in boxes], axis=0)
        radius = max(float(np.linalg.norm(high - low)) / 2, 0.5)
        half = np.radians(FIELD_OF_VIEW / 2)
        aspect = max(self._gl.height(), 1) / max(self._gl.width(), 1)
        narrowest = min(half, np.arctan(np.tan(half) * aspect))
        distance = radius * FIT_MARGIN / np.sin(narrowest)
        centre = (low + high) / 2
        self._gl.setCameraPosition(pos=Vector(*(float(c) for c in centre)), distance=distance)
        self._fitted = self._camera_place()

    def _camera_untouched(self) -> bool:
        """Whether the camera is still where the last fit put it (nobody zoomed or panned)."""
        return self._fitted == self._camera_place()

    def _camera_place(self) -> tuple[float, float, float, float]:
        centre = self._gl.opts["center"]
        return (float(self._gl.opts["distance"]), centre.x(), centre.y(), centre.z())

    def _refit_if_untouched(self) -> None:
        """Keep the scene fitted as the view is resized, unless the user has zoomed or panned."""
        if self._camera_untouched():
            self._fit()

    def _matrix(self) -> np.ndarray:
        """Projection times view: world coordinates to clip coordinates."""
        viewport = (0, 0, self._gl.width(), self._gl.height())
        product = self._gl.projectionMatrix(viewport, viewport) * self._gl.viewMatrix()
        # QMatrix4x4.data() lists the entries column by column.
        return np.array(product.data(), float).reshape(4, 4).T

    def screen_point(self, point: Sequence[float]) -> QPointF:
        """Where the world `point` appears, in the GL view's widget coordinates."""
        clip = self._matrix() @ np.array([*point, 1.0])
        x, y = clip[:2] / clip[3]
        return QPointF((x + 1) / 2 * self._gl.width(), (1 - y) / 2 * self._gl.height())

    def gl_widget(self) -> QWidget:
        """The OpenGL view itself, the widget that takes mouse events."""
        return self._gl

    def piece_at(self, position: QPointF) -> str:
        """The key of the visible piece drawn at `position` in the GL view, "" for none."""
        width, height = max(self._gl.width(), 1), max(self._gl.height(), 1)
        ndc_x = 2 * position.x() / width - 1
        ndc_y = 1 - 2 * position.y() / height
        inverse = np.linalg.inv(self._matrix())
        near = inverse @ (ndc_x, ndc_y, -1.0, 1.0)
        middle = inverse @ (ndc_x, ndc_y, 0.0, 1.0)
        origin = near[:3] / near[3]
        direction = middle[:3] / middle[3] - origin
        return pick(self._visible_pieces(), self._total_offsets(), origin, direction) or ""

    # Mouse ------------------------------------------------------------------------------

    def _point(self, position: QPointF | None) -> None:
        self._hover("" if position is None else self.piece_at(position))

    def _hover(self, key: str) -> None:
        if key == self._hovered:
            return
        self._hovered = key
        self._restyle()
        self._show_hover_text()
        self.pieceHovered.emit(key)

    def _show_hover_text(self) -> None:
        drawn = self._drawn.get(self._hovered)
        if drawn is not None:
            self.hover_label.setText(drawn.piece.label)
        else:
            self.hover_label.setText(
                "Drag to rotate, wheel to zoom, Ctrl+drag or middle-drag to pan"
            )

    def _click(self, position: QPointF) -> None:
        self.pieceClicked.emit(self.piece_at(position))

    # Images -----------------------------------------------------------------------------

    def grab_image(self) -> QImage:
        """The view as it is drawn now, at the widget's size."""
        return self._gl.grabFramebuffer()

    def _render(self, size: tuple[int, int] | None) -> QImage:
        """The view rendered at `size` (width, height) pixels, or as shown when None."""
        if size is None:
            return self.grab_image()
        width, height = size
        if not self._gl.isValid():
            self.grab_image()  # creates the GL context of a view never shown
        self._gl.makeCurrent()
        try:
            target = QOpenGLFramebufferObjectFormat()
            target.setAttachment(QOpenGLFramebufferObject.Attachment.CombinedDepthStencil)
            target.setSamples(4)
            frame = QOpenGLFramebufferObject(width, height, target)
            try:
                frame.bind()
                GL.glViewport(0, 0, width, height)
                self._gl.paint(region=(0, 0, width, height), viewport=(0, 0, width, height))
                frame.release()
                return frame.toImage()
            finally:
                del frame  # its GL objects go while the context is still current
        finally:
            self._gl.doneCurrent()

    def render_image(self, size: tuple[int, int] | None = None) -> QImage:
        """The view rendered at `size` (width, height) pixels, or as shown when None (also
        when the view is hidden: animation exports draw frames this way)."""
        return self._render(size)

    def export_png(self, path: str) -> None:
        """Save the view as a PNG image, atomically."""
        save_png(self.grab_image(), path)

    def export_turntable_gif(
        self, path: str, frames: int = 36, size: tuple[int, int] | None = None
    ) -> None:
        """Save a full turn of the camera round the scene, in `frames` steps, as a looping GIF
        of `size` (width, height) pixels (the view's size when None)."""
        images = [image_to_rgb(image) for image in self._turntable(frames, size)]
        write_gif(path, images, TURNTABLE_DELAY_MS)

    def _turntable(self, frames: int, size: tuple[int, int] | None) -> Iterator[QImage]:
        """A full turn of the camera round the scene in `frames` steps, rendered at `size`."""
        if frames < 1:
            raise ValueError(f"a turntable needs at least one frame, not {frames}")
        azimuth = self._gl.opts["azimuth"]
        try:
            for step in range(frames):
                self._gl.setCameraPosition(azimuth=azimuth + 360 * step / frames)
                yield self._render(size)
        finally:
            self._gl.setCameraPosition(azimuth=azimuth)

    def _ask_png(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save view", "view.png", "PNG images (*.png)")
        if path:
            self._report(lambda: self.export_png(path))

    def _ask_gif(self) -> None:
        self.gif_export = GifExport(
            self,
            "turn",
            GifOptions(max(64, min(self.width(), 2048)), 3.6, 36),
            self._turntable_frames,
            lambda o: o.frames_per_step,
        )
        self.gif_export.run("turntable.gif")

    def _turntable_frames(self, options: GifOptions) -> Iterator[QImage]:
        """The turntable for a GIF export: the view's shape scaled to `options.size` wide."""
        scale = options.size / max(1, self.width(), self.height())
        size = (max(1, round(self.width() * scale)), max(1, round(self.height() * scale)))
        return self._turntable(options.frames_per_step, size)

    def _report(self, action) -> None:
        try:
            action()
        except SlidelabError as error:
            QMessageBox.warning(self, "slidelab", str(error))

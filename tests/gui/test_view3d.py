"""The shared 3D view: rendered pixels, camera, explode, slicing, styles, picking, exports."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage, QImageReader
from PySide6.QtTest import QTest

from slidelab.geometry.palettes import PROBLEM_COLOUR
from slidelab.geometry.scene import ScenePiece
from slidelab.gui.images import image_to_rgb
from slidelab.gui.view3d import BACKGROUND, VoxelView

LEFT = Qt.MouseButton.LeftButton
ORANGE = (230, 159, 0)
BLUE = (86, 180, 233)

# An L of three cubes and a bar of two beside it, in a 2 x 2 x 2 box with room above.
ELL = ScenePiece("A", "piece A (L)", ((0, 0, 0), (0, 1, 0), (1, 1, 0)), ORANGE)
BAR = ScenePiece("B", "piece B (bar)", ((1, 0, 0), (1, 0, 1)), BLUE)


@pytest.fixture
def view(qtbot) -> VoxelView:
    widget = VoxelView()
    qtbot.addWidget(widget)
    widget.resize(420, 360)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_scene((2, 2, 2), [ELL, BAR])
    return widget


def frame(view: VoxelView) -> np.ndarray:
    return image_to_rgb(view.grab_image())


def shaded_like(pixels: np.ndarray, colour) -> np.ndarray:
    """Pixels that are `colour` dimmed by shading: a multiple k of it (0.3 <= k <= 1.05)."""
    c = np.asarray(colour, float)
    p = pixels.astype(float)
    k = p @ c / (c @ c)
    off = np.linalg.norm(p - k[..., None] * c, axis=-1)
    return (off < 10) & (k > 0.3) & (k < 1.05)


def share(pixels: np.ndarray, colour) -> float:
    return float(shaded_like(pixels, colour).mean())


def test_each_piece_shows_in_its_colour_with_shaded_faces_on_a_light_background(view):
    pixels = frame(view)
    assert share(pixels, ORANGE) > 0.02
    assert share(pixels, BLUE) > 0.02
    assert tuple(pixels[0, 0]) == BACKGROUND
    # the iso view sees three sides of the L, each in its own shade, the brightest near full
    orange = pixels[shaded_like(pixels, ORANGE)].astype(float)
    levels, counts = np.unique(np.round(orange[:, 0] / ORANGE[0], 1), return_counts=True)
    assert (counts > 200).sum() >= 3
    assert levels[counts > 200].max() >= 0.8
    # dark edges are drawn
    assert (pixels.sum(axis=2) < 200).sum() > 200


def test_orbiting_turns_the_camera_and_changes_the_picture(view):
    before = frame(view)
    distance, elevation, azimuth = view.camera()
    view.orbit(40, -10)
    assert view.camera() == pytest.approx((distance, elevation - 10, azimuth + 40))
    assert (frame(view) != before).any(axis=2).mean() > 0.05


def test_standard_views_and_reset(view):
    view.set_standard_view("top")
    assert view.camera()[1:] == pytest.approx((90, -90))
    top = frame(view)
    # from above, each piece shows one face only, so one shade
    orange = top[shaded_like(top, ORANGE)].astype(float)
    assert np.ptp(orange[:, 0]) < 6
    view.orbit(30, -40)
    view.reset_camera()
    assert view.camera()[1:] == pytest.approx((35.26, -45))
    with pytest.raises(ValueError, match="unknown view"):
        view.set_standard_view("back")


def test_exploding_moves_the_pieces_apart(view):
    before = frame(view)
    view.explode_slider.setValue(50)
    assert view.explode_slider.value() == 50
    assert (frame(view) != before).any(axis=2).mean() > 0.02
    view.set_explode(0)
    assert view.explode_slider.value() == 0
    assert (frame(view) == before).all()


def test_a_hidden_piece_disappears_and_comes_back(view):
    view.set_hidden(["B"])
    pixels = frame(view)
    assert share(pixels, BLUE) == 0
    assert share(pixels, ORANGE) > 0.02
    view.set_hidden([])
    assert share(frame(view), BLUE) > 0.02


def test_slicing_shows_only_the_lower_layers(view):
    view.set_slice(0, 1)  # x < 1: the bar at x = 1 goes, and one cube of the L
    pixels = frame(view)
    assert share(pixels, BLUE) == 0
    assert share(pixels, ORANGE) > 0.01
    assert view.axis_combo.currentText() == "x" and view.layer_spin.text() == "1"
    view.layer_spin.setValue(2)
    assert view.layer_spin.text() == "all"
    assert share(frame(view), BLUE) > 0.02
    view.axis_combo.setCurrentIndex(2)
    view.layer_spin.setValue(1)  # z < 1: the bar loses its top cube
    assert 0 < share(frame(view), BLUE) < share(pixels, ORANGE)


def test_highlighted_marked_and_faded_pieces_look_different(view):
    plain = frame(view)
    orange = shaded_like(plain, ORANGE)
    view.set_highlighted(["A"])
    lit = frame(view)
    assert lit[orange].mean() > plain[orange].mean() + 10
    view.set_highlighted([])
    view.set_marked(["B"])
    assert share(frame(view), PROBLEM_COLOUR) > 0.002
    view.set_marked([])
    view.set_faded(["B"])
    assert share(frame(view), BLUE) < 0.002
    view.set_faded([])
    assert (frame(view) == plain).all()


def test_box_outline_can_be_switched_off(view):
    with_box = frame(view)
    view.box_outline_action.setChecked(False)
    assert (frame(view) != with_box).any()
    view.box_outline_action.setChecked(True)
    assert (frame(view) == with_box).all()


def test_offsets_move_a_piece_and_picking_follows_it(qtbot, view):
    view.set_offsets({"B": (0, 0, 3)})
    target = view.screen_point((1.5, 0.5, 5.0)).toPoint()  # top of the lifted bar
    with qtbot.waitSignal(view.pieceClicked) as clicked:
        qtbot.mouseClick(view.gl_widget(), LEFT, pos=target)
    assert clicked.args == ["B"]


def test_clicking_a_piece_names_it_and_the_background_names_none(qtbot, view):
    for key, point in (("A", (0.3, 0.0, 0.5)), ("B", (1.5, 0.5, 2.0))):
        target = view.screen_point(point).toPoint()
        with qtbot.waitSignal(view.pieceClicked) as clicked:
            qtbot.mouseClick(view.gl_widget(), LEFT, pos=target)
        assert clicked.args == [key]
    with qtbot.waitSignal(view.pieceClicked) as clicked:
        qtbot.mouseClick(view.gl_widget(), LEFT, pos=QPoint(3, 3))
    assert clicked.args == [""]


def test_hovering_highlights_and_names_a_piece(qtbot, view):
    gl = view.gl_widget()
    plain = frame(view)
    with qtbot.waitSignal(view.pieceHovered) as hovered:
        QTest.mouseMove(gl, view.screen_point((0.3, 0.0, 0.5)).toPoint())
    assert hovered.args == ["A"]
    assert view.hover_label.text() == "piece A (L)"
    assert (frame(view) != plain).any()
    with qtbot.waitSignal(view.pieceHovered) as hovered:
        QTest.mouseMove(gl, QPoint(3, 3))
    assert hovered.args == [""]


def test_dragging_rotates_and_is_no_click(qtbot, view):
    gl = view.gl_widget()
    clicks = []
    view.pieceClicked.connect(clicks.append)
    azimuth = view.camera()[2]
    start = view.screen_point((0.3, 0.0, 0.5)).toPoint()
    QTest.mousePress(gl, LEFT, pos=start)
    QTest.mouseMove(gl, start + QPoint(20, 0))
    QTest.mouseMove(gl, start + QPoint(40, 0))
    QTest.mouseRelease(gl, LEFT, pos=start + QPoint(40, 0))
    assert view.camera()[2] == pytest.approx(azimuth - 40)
    assert clicks == []


def test_a_new_scene_refits_the_camera_unless_asked_to_keep_it(view):
    view.orbit(20, 5)
    view.set_scene((6, 6, 6), [ELL], keep_camera=True)
    kept = view.camera()
    view.set_scene((6, 6, 6), [ELL])
    distance, elevation, azimuth = view.camera()
    assert (elevation, azimuth) == pytest.approx(kept[1:])
    assert distance != pytest.approx(kept[0])
    with pytest.raises(ValueError, match="unique"):
        view.set_scene(None, [ELL, ELL])


def test_png_export_writes_the_view(tmp_path, view):
    path = tmp_path / "view.png"
    view.export_png(str(path))
    image = QImage(str(path))
    assert not image.isNull()
    assert image.size() == view.grab_image().size()
    assert share(image_to_rgb(image), ORANGE) > 0.02


def test_turntable_gif_has_one_frame_per_step_and_keeps_the_camera(tmp_path, view):
    path = tmp_path / "turn.gif"
    camera = view.camera()
    view.export_turntable_gif(str(path), frames=4, size=(96, 72))
    assert view.camera() == pytest.approx(camera)
    reader = QImageReader(str(path))
    assert reader.imageCount() == 4
    first = reader.read()
    assert (first.width(), first.height()) == (96, 72)
    assert share(image_to_rgb(first), ORANGE) > 0.01
    view.export_turntable_gif(str(path), frames=2)
    reader = QImageReader(str(path))
    assert reader.imageCount() == 2
    assert reader.read().size() == view.grab_image().size()

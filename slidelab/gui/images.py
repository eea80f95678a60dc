"""Conversions between QImage and numpy arrays, for exports and pixel tests; PNG saving."""

from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage

from slidelab.errors import SlidelabError
from slidelab.fileio import write_bytes_atomically


def image_to_rgb(image: QImage) -> np.ndarray:
    """An H x W x 3 uint8 copy of `image`."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    height, width, stride = rgb.height(), rgb.width(), rgb.bytesPerLine()
    raw = np.frombuffer(rgb.constBits(), np.uint8, count=stride * height)
    return raw.reshape(height, stride)[:, : width * 3].reshape(height, width, 3).copy()


def save_png(image: QImage, path: str | os.PathLike[str]) -> None:
    """Write `image` as a PNG file atomically (a half-written file never replaces a good one)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6's stubs ask for bytes here, but the binding takes only a str.
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise SlidelabError(f"{path}: cannot encode the image as PNG")
    buffer.close()
    write_bytes_atomically(path, bytes(data.data()))

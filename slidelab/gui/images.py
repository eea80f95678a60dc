"""Conversions between QImage and numpy arrays, for exports and pixel tests."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage


def image_to_rgb(image: QImage) -> np.ndarray:
    """An H x W x 3 uint8 copy of `image`."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    height, width, stride = rgb.height(), rgb.width(), rgb.bytesPerLine()
    raw = np.frombuffer(rgb.constBits(), np.uint8, count=stride * height)
    return raw.reshape(height, stride)[:, : width * 3].reshape(height, width, 3).copy()

"""The GIF encoder, checked by decoding its output with Qt's own GIF reader.

A small independent parser and LZW decoder below also check the block structure (sub-blocks of
at most 255 bytes, code table resets) that a lenient reader would not notice.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage, QImageReader

from slidelab.errors import SlidelabError
from slidelab.export.gif import GifError, encode_gif, write_gif
from slidelab.fileio import FileAccessError


def decode(data: bytes) -> tuple[list[np.ndarray], list[int], int]:
    """Frames (H x W x 3 uint8), per-frame delays in ms and loop count, as Qt reads them."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    assert buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer, b"gif")
    assert reader.canRead(), reader.errorString()
    count = reader.imageCount()
    loops = reader.loopCount()
    frames, delays = [], []
    for _ in range(count):
        image = reader.read()
        assert not image.isNull(), reader.errorString()
        delays.append(reader.nextImageDelay())
        image = image.convertToFormat(QImage.Format.Format_RGB888)
        rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(
            image.height(), image.bytesPerLine()
        )
        frames.append(rows[:, : 3 * image.width()].reshape(image.height(), image.width(), 3).copy())
    assert reader.read().isNull()  # nothing after the announced frames
    return frames, delays, loops


def parse(data: bytes) -> dict:
    """Split a GIF into its blocks: header fields, extensions and (descriptor, LZW data) pairs."""
    assert data[:6] == b"GIF89a"
    width, height, packed = int.from_bytes(data[6:8], "little"), data[8] | data[9] << 8, data[10]
    assert packed & 0x80
    table_size = 2 << (packed & 7)
    position = 13 + 3 * table_size
    result: dict = {"size": (width, height), "table_size": table_size, "images": [], "gce": []}
    result["applications"] = []

    def sub_blocks() -> bytes:
        nonlocal position
        chunks = []
        while (length := data[position]) != 0:
            assert length <= 255
            chunks.append(data[position + 1 : position + 1 + length])
            position += 1 + length
        position += 1
        return b"".join(chunks)

    while True:
        introducer = data[position]
        if introducer == 0x3B:
            assert position == len(data) - 1
            return result
        if introducer == 0x21:
            label = data[position + 1]
            position += 2
            body = sub_blocks()
            if label == 0xF9:
                result["gce"].append(body)
            elif label == 0xFF:
                result["applications"].append(body)
        else:
            assert introducer == 0x2C
            left, top, w, h = np.frombuffer(data[position + 1 : position + 9], "<u2").tolist()
            assert data[position + 9] == 0  # no local table, not interlaced
            min_code_size = data[position + 10]
            position += 11
            result["images"].append(((left, top, w, h), min_code_size, sub_blocks()))


def lzw_decode(data: bytes, min_code_size: int) -> tuple[list[int], int]:
    """Reference GIF LZW decoder: the indices and how many clear codes the stream holds."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    stream = iter(data)
    buffer = buffered = clears = 0
    output: list[int] = []
    table: list[list[int]] = []
    previous: list[int] | None = None
    width = min_code_size + 1
    while True:
        while buffered < width:
            buffer |= next(stream) << buffered  # StopIteration: no end code
            buffered += 8
        code = buffer & ((1 << width) - 1)
        buffer >>= width
        buffered -= width
        if code == clear:
            clears += 1
            table = [[i] for i in range(clear)] + [[], []]
            width, previous = min_code_size + 1, None
            continue
        if code == end:
            return output, clears
        if previous is None:
            entry = table[code]
        else:
            entry = table[code] if code < len(table) else previous + previous[:1]
            assert code <= len(table)
            if len(table) < 4096:
                table.append(previous + entry[:1])
        if len(table) == 1 << width and width < 12:
            width += 1
        output.extend(entry)
        previous = entry


def flat_frames(rng: np.random.Generator, count: int, height: int, width: int) -> list:
    """Frames of random flat-colour rectangles drawn from a few dozen colours."""
    colours = rng.integers(0, 256, (40, 3), dtype=np.uint8)
    frame = np.empty((height, width, 3), dtype=np.uint8)
    frame[:] = colours[0]
    frames = []
    for _ in range(count):
        frame = frame.copy()
        for _ in range(int(rng.integers(1, 6))):
            top, bottom = sorted(rng.integers(0, height + 1, 2))
            left, right = sorted(rng.integers(0, width + 1, 2))
            frame[top:bottom, left:right] = colours[rng.integers(0, len(colours))]
        frames.append(frame)
    return frames


def test_flat_colour_frames_round_trip_exactly():
    rng = np.random.default_rng(2024)
    frames = flat_frames(rng, 6, 71, 123)
    frames.insert(3, frames[2].copy())  # an unchanged frame becomes a 1-pixel update
    delays = [100, 40, 250, 1000, 70, 30, 500]
    decoded, decoded_delays, loops = decode(encode_gif(frames, delays))
    assert len(decoded) == len(frames)
    for expected, actual in zip(frames, decoded, strict=True):
        np.testing.assert_array_equal(actual, expected)
    assert decoded_delays == delays
    assert loops == -1  # Qt's "forever"


def test_many_random_flat_animations_round_trip():
    rng = np.random.default_rng(7)
    for _ in range(20):
        height, width = (int(n) for n in rng.integers(1, 60, 2))
        frames = flat_frames(rng, int(rng.integers(1, 5)), height, width)
        decoded, _, _ = decode(encode_gif(frames, 50))
        for expected, actual in zip(frames, decoded, strict=True):
            np.testing.assert_array_equal(actual, expected)


def test_only_changed_rectangles_are_stored():
    frame = np.zeros((50, 80, 3), dtype=np.uint8)
    moved = frame.copy()
    moved[10:20, 30:45] = (250, 10, 10)
    blocks = parse(encode_gif([frame, moved, moved], 100))
    assert [image[0] for image in blocks["images"]] == [
        (0, 0, 80, 50),
        (30, 10, 15, 10),
        (0, 0, 1, 1),
    ]
    assert all(gce[0] >> 2 & 7 == 1 for gce in blocks["gce"])  # disposal: leave in place


def test_delays_are_rounded_to_hundredths_with_a_minimum():
    frames = flat_frames(np.random.default_rng(1), 6, 8, 8)
    data = encode_gif(frames, [0, 14, 15, 25, 1234, 655_350])
    hundredths = [int.from_bytes(gce[1:3], "little") for gce in parse(data)["gce"]]
    assert hundredths == [2, 2, 2, 3, 123, 65535]
    assert decode(data)[1] == [20, 20, 20, 30, 1230, 655_350]


def test_a_single_delay_applies_to_every_frame():
    frames = flat_frames(np.random.default_rng(3), 3, 10, 12)
    assert decode(encode_gif(frames, 80))[1] == [80, 80, 80]


def test_looping_is_optional():
    frames = flat_frames(np.random.default_rng(4), 2, 10, 10)
    looping = parse(encode_gif(frames, 100, loop=True))
    assert looping["applications"] == [b"NETSCAPE2.0\x01\x00\x00"]
    once = encode_gif(frames, 100, loop=False)
    assert parse(once)["applications"] == []
    assert decode(once)[2] == 0  # Qt: no looping


def test_more_than_256_colours_are_approximated_closely():
    # A smooth gradient (4096 colours) next to big flat areas in colours outside the cube.
    y, x = np.mgrid[0:64, 0:64]
    frame = np.empty((64, 128, 3), dtype=np.uint8)
    frame[:, :64, 0] = x * 4
    frame[:, :64, 1] = y * 4
    frame[:, :64, 2] = 255 - x * 2
    flat = [(17, 99, 201), (240, 233, 5), (123, 45, 67)]
    for band, colour in enumerate(flat):
        frame[band * 20 : band * 20 + 20, 64:] = colour
    frame[60:, 64:] = (1, 2, 3)
    noisy = np.random.default_rng(5).integers(0, 256, frame.shape, dtype=np.uint8)
    decoded, _, _ = decode(encode_gif([frame, noisy], 100))
    for expected, actual in zip([frame, noisy], decoded, strict=True):
        distance = np.linalg.norm(actual.astype(float) - expected, axis=2)
        # Never worse than the nearest point of the 6x6x6 cube (25 per channel).
        assert distance.max() <= np.sqrt(3 * 25**2)
    error = np.abs(decoded[0].astype(int) - frame)
    assert error.mean() < 8
    np.testing.assert_array_equal(decoded[0][:, 64:], frame[:, 64:])  # frequent colours exact


def test_a_single_colour_image():
    frame = np.full((5, 7, 3), (12, 200, 99), dtype=np.uint8)
    data = encode_gif([frame], 100)
    blocks = parse(data)
    assert blocks["table_size"] == 2
    assert blocks["images"][0][1] == 2  # GIF's smallest LZW minimum code size
    decoded, delays, _ = decode(data)
    np.testing.assert_array_equal(decoded[0], frame)
    assert delays == [100]
    pixel = np.zeros((1, 1, 3), dtype=np.uint8)
    np.testing.assert_array_equal(decode(encode_gif([pixel], 100))[0][0], pixel)


def test_alpha_is_ignored():
    rgba = np.random.default_rng(6).integers(0, 4, (9, 11, 4), dtype=np.uint8) * 60
    decoded, _, _ = decode(encode_gif([rgba], 100))
    np.testing.assert_array_equal(decoded[0], rgba[..., :3])


def test_code_table_resets_when_full():
    # 256 colours of noise: nearly every pixel adds a code, so 4096 codes fill many times.
    rng = np.random.default_rng(8)
    palette = rng.permutation(np.arange(256 * 3, dtype=np.uint16).reshape(256, 3) % 256)
    palette = palette.astype(np.uint8)
    palette[:, 0] = np.arange(256)  # distinct colours
    indices = rng.integers(0, 256, (200, 300))
    indices[:40] = indices[:40, :1]  # some long runs too, for long table strings
    frame = palette[indices]
    data = encode_gif([frame], 100)
    ((box, min_code_size, lzw),) = parse(data)["images"]
    assert box == (0, 0, 300, 200)
    assert min_code_size == 8
    decoded_indices, clears = lzw_decode(lzw, min_code_size)
    assert clears > 5  # the start plus several resets
    assert len(decoded_indices) == frame.shape[0] * frame.shape[1]
    decoded, _, _ = decode(data)
    np.testing.assert_array_equal(decoded[0], frame)


def test_code_widths_grow_at_every_size():
    # Images with 2, 3, ..., 256 colours, long enough for the codes to reach 12 bits.
    rng = np.random.default_rng(9)
    for colours in (2, 3, 5, 17, 100, 256):
        palette = np.zeros((colours, 3), dtype=np.uint8)
        palette[:, 1] = np.arange(colours)
        frame = palette[rng.integers(0, colours, (120, 150))]
        data = encode_gif([frame], 100)
        ((_, min_code_size, lzw),) = parse(data)["images"]
        assert (
            lzw_decode(lzw, min_code_size)[0]
            == np.unique(frame[..., 1], return_inverse=True)[1].ravel().tolist()
        )
        np.testing.assert_array_equal(decode(data)[0][0], frame)


@pytest.mark.parametrize(
    ("frames", "delays", "message"),
    [
        ([], 100, "cannot write a GIF without frames"),
        ([[[0, 0, 0]]], 100, "frame 0 is a list, not a numpy array"),
        (
            [np.zeros((4, 4, 3), np.uint8), np.zeros((4, 4, 3), np.float32)],
            100,
            "frame 1 must be a uint8 array of shape (height, width, 3) or (height, width, 4), "
            "not a float32 array of shape (4, 4, 3)",
        ),
        (
            [np.zeros((4, 4), np.uint8)],
            100,
            "frame 0 must be a uint8 array of shape (height, width, 3) or (height, width, 4), "
            "not a uint8 array of shape (4, 4)",
        ),
        (
            [np.zeros((4, 4, 2), np.uint8)],
            100,
            "frame 0 must be a uint8 array of shape (height, width, 3) or (height, width, 4), "
            "not a uint8 array of shape (4, 4, 2)",
        ),
        (
            [np.zeros((0, 4, 3), np.uint8)],
            100,
            "frames are 4x0 pixels; GIF needs 1 to 65535 pixels on each side",
        ),
        (
            [np.zeros((4, 6, 3), np.uint8), np.zeros((4, 6, 4), np.uint8), np.zeros((6, 4, 3))],
            100,
            "frame 2 must be a uint8 array of shape (height, width, 3) or (height, width, 4), "
            "not a float64 array of shape (6, 4, 3)",
        ),
        (
            [np.zeros((4, 6, 3), np.uint8), np.zeros((6, 4, 3), np.uint8)],
            100,
            "frame 1 is 4x6 pixels but frame 0 is 6x4; all frames must have the same size",
        ),
        (
            [np.zeros((4, 6, 3), np.uint8)] * 3,
            [100, 100],
            "got 2 delays for 3 frames; give one per frame",
        ),
        (
            [np.zeros((4, 6, 3), np.uint8)] * 2,
            [100, -10],
            "delay 1 is -10 ms; GIF delays must be from 0 to 655350 ms",
        ),
        (
            [np.zeros((4, 6, 3), np.uint8)],
            655_351,
            "delay 0 is 655351 ms; GIF delays must be from 0 to 655350 ms",
        ),
    ],
)
def test_errors(frames, delays, message):
    with pytest.raises(GifError) as caught:
        encode_gif(frames, delays)
    assert str(caught.value) == message
    assert isinstance(caught.value, SlidelabError)


def test_write_gif_replaces_atomically(tmp_path):
    frames = flat_frames(np.random.default_rng(10), 3, 20, 30)
    target = tmp_path / "solution.gif"
    target.write_bytes(b"old contents")
    write_gif(target, frames, [100, 200, 300])
    assert target.read_bytes() == encode_gif(frames, [100, 200, 300])
    assert os.listdir(tmp_path) == ["solution.gif"]
    write_gif(str(target), frames[:1], 50, loop=False)
    assert target.read_bytes() == encode_gif(frames[:1], 50, loop=False)
    assert os.listdir(tmp_path) == ["solution.gif"]


def test_write_gif_relative_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_gif("plain.gif", [np.zeros((2, 2, 3), np.uint8)], 100)
    assert os.listdir(tmp_path) == ["plain.gif"]
    assert decode((tmp_path / "plain.gif").read_bytes())[0][0].shape == (2, 2, 3)


def test_write_gif_cleans_up_after_a_failure(tmp_path):
    (tmp_path / "taken.gif").mkdir()  # a directory cannot be replaced by a file
    with pytest.raises(FileAccessError, match=r"taken\.gif: cannot write: Is a directory"):
        write_gif(tmp_path / "taken.gif", [np.zeros((2, 2, 3), np.uint8)], 100)
    assert os.listdir(tmp_path) == ["taken.gif"]
    with pytest.raises(GifError):
        write_gif(tmp_path / "bad.gif", [], 100)
    assert os.listdir(tmp_path) == ["taken.gif"]

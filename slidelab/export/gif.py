"""Animated GIF (GIF89a) encoder in pure Python and numpy, for exporting solution animations.

Pillow is deliberately not a dependency, so this module writes the format itself:

* one global palette of at most 256 colours for the whole animation. If the frames use at most
  256 distinct colours the palette holds exactly those, so flat-colour drawings round-trip
  pixel-exactly. Otherwise the palette is a fixed 6x6x6 colour cube plus the (up to 40) most
  frequent colours that are not in the cube, and every pixel maps to its nearest palette entry;
  the dominant flat colours of a drawing thus stay exact while anti-aliased edges and gradients
  are approximated, never further (in RGB distance) than the nearest cube colour, which is at
  most 25 per channel away. There is no dithering, as it would speckle flat areas;
* the NETSCAPE2.0 application extension (loop forever) when looping;
* per frame a Graphic Control Extension with the delay, and only the rectangle that changed
  since the previous frame (disposal "do not dispose"), which keeps solution animations, where
  one block moves at a time, small;
* variable-width LZW (codes of min code size + 1 up to 12 bits, clear code at the start and
  whenever the code table fills at 4096 entries, end-of-information code), in data sub-blocks
  of at most 255 bytes.
"""

from __future__ import annotations

import numbers
import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice

import numpy as np

from slidelab.errors import SlidelabError
from slidelab.fileio import write_bytes_atomically

__all__ = ["GifError", "encode_gif", "write_gif"]

MAX_CODES = 4096
"""GIF LZW codes are at most 12 bits wide."""

MIN_DELAY_CS = 2
"""Browsers replace delays of 0 or 1 hundredths of a second by a slow default, so use 2 at least."""

MAX_DELAY_MS = 655_350
"""The GIF delay field is 16 bits of hundredths of a second."""

CUBE_LEVELS = 6
"""Levels per channel of the fixed colour cube used when there are more than 256 colours."""

_CUBE_STEP = 255 / (CUBE_LEVELS - 1)


class GifError(SlidelabError):
    """The frames or delays given to the GIF encoder cannot be encoded."""


@dataclass(frozen=True)
class _Palette:
    """The global colour table and how to map packed 0xRRGGBB keys onto it."""

    colours: np.ndarray
    """P x 3 uint8 palette, 1 <= P <= 256."""

    keys: np.ndarray
    """Sorted distinct uint32 colour keys occurring in any frame."""

    lut: np.ndarray
    """uint8 palette index for each entry of `keys`."""

    def indices(self, keys: np.ndarray) -> np.ndarray:
        """Palette indices (uint8, same shape) for an array of colour keys from the frames."""
        return self.lut[np.searchsorted(self.keys, keys)]


def write_gif(
    path: str | os.PathLike[str],
    frames: Sequence[np.ndarray],
    delays_ms: int | Sequence[int],
    loop: bool = True,
) -> None:
    """Encode `frames` as an animated GIF and write it to `path` atomically (see
    `slidelab.fileio.write_bytes_atomically`)."""
    write_bytes_atomically(path, encode_gif(frames, delays_ms, loop=loop))


def encode_gif(
    frames: Sequence[np.ndarray],
    delays_ms: int | Sequence[int],
    loop: bool = True,
) -> bytes:
    """Return the bytes of an animated GIF showing `frames` with the given delays.

    Each frame is an H x W x 3 (or x 4, alpha ignored) uint8 RGB array; all frames must have the
    same size. `delays_ms` is one delay for every frame or one per frame, in milliseconds; GIF
    stores hundredths of a second, so delays are rounded (half up) with a minimum of 2. With
    `loop` the animation repeats forever, otherwise it plays once.
    """
    frames = list(frames)
    height, width = _check_frames(frames)
    delays_cs = _delays_cs(delays_ms, len(frames))
    palette = _build_palette(frames)
    table_bits = max(1, (len(palette.colours) - 1).bit_length())
    min_code_size = max(2, table_bits)

    out = bytearray(b"GIF89a")
    # Logical screen descriptor: global colour table present, 8 bits per primary, not sorted.
    out += struct.pack("<HHBBB", width, height, 0x80 | 0x70 | (table_bits - 1), 0, 0)
    table = np.zeros((1 << table_bits, 3), dtype=np.uint8)
    table[: len(palette.colours)] = palette.colours
    out += table.tobytes()
    if loop:
        # Application extension NETSCAPE2.0, sub-block 1: loop count 0 = forever.
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"

    previous: np.ndarray | None = None
    for frame, delay in zip(frames, delays_cs, strict=True):
        indices = palette.indices(_colour_keys(frame))
        top, left, bottom, right = _changed_box(previous, indices)
        previous = indices
        # Graphic control extension: disposal 1 (leave the frame in place), no transparency.
        out += struct.pack("<BBBBHBB", 0x21, 0xF9, 4, 1 << 2, delay, 0, 0)
        # Image descriptor: no local colour table, not interlaced.
        out += struct.pack("<BHHHHB", 0x2C, left, top, right - left, bottom - top, 0)
        out.append(min_code_size)
        data = _lzw_compress(indices[top:bottom, left:right], min_code_size)
        for start in range(0, len(data), 255):
            block = data[start : start + 255]
            out.append(len(block))
            out += block
        out.append(0)
    out.append(0x3B)
    return bytes(out)


def _check_frames(frames: list[np.ndarray]) -> tuple[int, int]:
    """Validate the frames and return their common (height, width)."""
    if not frames:
        raise GifError("cannot write a GIF without frames")
    for number, frame in enumerate(frames):
        if not isinstance(frame, np.ndarray):
            raise GifError(f"frame {number} is a {type(frame).__name__}, not a numpy array")
        if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] not in (3, 4):
            raise GifError(
                f"frame {number} must be a uint8 array of shape (height, width, 3) or "
                f"(height, width, 4), not a {frame.dtype} array of shape {frame.shape}"
            )
    height, width = frames[0].shape[:2]
    if not (1 <= height <= 0xFFFF and 1 <= width <= 0xFFFF):
        raise GifError(
            f"frames are {width}x{height} pixels; GIF needs 1 to 65535 pixels on each side"
        )
    for number, frame in enumerate(frames):
        if frame.shape[:2] != (height, width):
            raise GifError(
                f"frame {number} is {frame.shape[1]}x{frame.shape[0]} pixels but frame 0 is "
                f"{width}x{height}; all frames must have the same size"
            )
    return height, width


def _delays_cs(delays_ms: int | Sequence[int], count: int) -> list[int]:
    """Per-frame delays in hundredths of a second (rounded half up, at least `MIN_DELAY_CS`)."""
    if isinstance(delays_ms, int | numbers.Real):
        delays = [float(delays_ms)] * count
    else:
        delays = [float(delay) for delay in delays_ms]
        if len(delays) != count:
            raise GifError(f"got {len(delays)} delays for {count} frames; give one per frame")
    result = []
    for number, delay in enumerate(delays):
        if not 0 <= delay <= MAX_DELAY_MS:
            raise GifError(
                f"delay {number} is {delay:g} ms; GIF delays must be from 0 to {MAX_DELAY_MS} ms"
            )
        result.append(max(MIN_DELAY_CS, int(delay + 5) // 10))
    return result


def _colour_keys(frame: np.ndarray) -> np.ndarray:
    """Pack the RGB channels of an H x W x (3|4) uint8 frame into uint32 keys 0xRRGGBB."""
    keys = frame[..., 0].astype(np.uint32) << 16
    keys |= frame[..., 1].astype(np.uint32) << 8
    keys |= frame[..., 2]
    return keys


def _unpack_keys(keys: np.ndarray) -> np.ndarray:
    """Inverse of `_colour_keys`: N uint32 keys to an N x 3 uint8 array."""
    shifts = np.array([16, 8, 0], dtype=np.uint32)
    return ((keys[:, None] >> shifts) & 0xFF).astype(np.uint8)


def _build_palette(frames: list[np.ndarray]) -> _Palette:
    """The global palette: the exact colours if there are at most 256, else cube + frequent."""
    uniques = [np.unique(_colour_keys(frame), return_counts=True) for frame in frames]
    keys, inverse = np.unique(np.concatenate([k for k, _ in uniques]), return_inverse=True)
    if len(keys) <= 256:
        lut = np.arange(len(keys), dtype=np.uint8)
        return _Palette(_unpack_keys(keys), keys, lut)
    counts = np.bincount(inverse, weights=np.concatenate([c for _, c in uniques]))

    levels = np.round(np.arange(CUBE_LEVELS) * _CUBE_STEP).astype(np.uint32)
    cube = levels[:, None, None] << 16 | levels[None, :, None] << 8 | levels[None, None, :]
    cube_keys = cube.ravel()
    spare = 256 - len(cube_keys)
    # Most frequent first, ties by key so that the palette does not depend on anything else.
    order = np.lexsort((keys, -counts))
    in_cube = set(cube_keys.tolist())
    extra = [key for key in keys[order].tolist() if key not in in_cube][:spare]
    extra_keys = np.array(extra, dtype=np.uint32)
    colours = np.concatenate([_unpack_keys(cube_keys), _unpack_keys(extra_keys)])

    rgb = _unpack_keys(keys).astype(np.int32)
    # The nearest cube colour is found channel by channel; its index is r * 36 + g * 6 + b.
    steps = np.rint(rgb / _CUBE_STEP).astype(np.int32)
    nearest = (steps[:, 0] * CUBE_LEVELS + steps[:, 1]) * CUBE_LEVELS + steps[:, 2]
    if len(extra_keys):
        # Squared distances |x - p|^2 = |x|^2 - 2 x.p + |p|^2 as one matrix product; float64
        # holds these integers (< 2^18) exactly, so ties and comparisons are exact.
        x = rgb.astype(np.float64)
        p = colours[len(cube_keys) :].astype(np.float64)
        cube_error = ((rgb - levels[steps].astype(np.int32)) ** 2).sum(axis=1)
        for start in range(0, len(x), 1 << 16):
            chunk = slice(start, start + (1 << 16))
            error = (p * p).sum(axis=1) - 2 * (x[chunk] @ p.T)
            error += (x[chunk] * x[chunk]).sum(axis=1)[:, None]
            best = error.argmin(axis=1)
            closer = error[np.arange(len(best)), best] < cube_error[chunk]
            nearest[chunk][closer] = len(cube_keys) + best[closer]
    return _Palette(colours, keys, nearest.astype(np.uint8))


def _changed_box(previous: np.ndarray | None, current: np.ndarray) -> tuple[int, int, int, int]:
    """(top, left, bottom, right) of the pixels that differ from the previous frame.

    The whole frame for the first one, and a single pixel when nothing changed (GIF has no
    empty image rectangle).
    """
    if previous is None:
        return 0, 0, current.shape[0], current.shape[1]
    changed = previous != current
    rows = np.flatnonzero(changed.any(axis=1))
    if len(rows) == 0:
        return 0, 0, 1, 1
    columns = np.flatnonzero(changed.any(axis=0))
    return int(rows[0]), int(columns[0]), int(rows[-1]) + 1, int(columns[-1]) + 1


def _lzw_compress(indices: np.ndarray, min_code_size: int) -> bytes:
    """GIF-flavoured LZW of a 2-D array of palette indices (each < 2 ** min_code_size).

    The string table is a dict from (prefix code << 8 | next index) to code: one lookup per
    pixel in a plain loop over a Python list, which is far faster than indexing numpy arrays
    element by element. Codes and their widths are packed into bytes with numpy afterwards.
    """
    clear = 1 << min_code_size
    end = clear + 1
    first_free = end + 1
    codes: list[int] = [clear]
    widths: list[int] = [min_code_size + 1]
    emit_code = codes.append
    emit_width = widths.append
    table: dict[int, int] = {}
    lookup = table.get
    next_code = first_free
    width = min_code_size + 1
    limit = 1 << width

    pixels = indices.ravel().tolist()
    prefix = pixels[0]
    for pixel in islice(pixels, 1, None):
        key = prefix << 8 | pixel
        code = lookup(key)
        if code is not None:
            prefix = code
            continue
        emit_code(prefix)
        emit_width(width)
        if next_code < MAX_CODES:
            table[key] = next_code
            next_code += 1
            # The decoder adds each entry one code later than we do, so it widens its codes
            # once its table reaches 2**width entries, i.e. when ours exceeds that.
            if next_code > limit:
                width += 1
                limit <<= 1
        else:
            emit_code(clear)
            emit_width(width)
            table.clear()
            next_code = first_free
            width = min_code_size + 1
            limit = 1 << width
        prefix = pixel
    emit_code(prefix)
    emit_width(width)
    emit_code(end)
    emit_width(width)
    return _pack_codes(codes, widths)


def _pack_codes(codes: list[int], widths: list[int]) -> bytes:
    """Concatenate variable-width codes least significant bit first, as GIF requires."""
    code_array = np.array(codes, dtype=np.int64)
    width_array = np.array(widths, dtype=np.int64)
    starts = np.cumsum(width_array) - width_array
    total_bits = int(starts[-1] + width_array[-1])
    positions = starts >> 3
    shifted = code_array << (starts & 7)  # at most 12 + 7 bits: spans up to 3 bytes
    size = (total_bits + 7) // 8
    # Codes occupy disjoint bits, so summing their parts per byte equals OR-ing them.
    packed = np.zeros(size + 2, dtype=np.int64)
    for byte in range(3):
        parts = (shifted >> (8 * byte)) & 0xFF
        packed += np.bincount(positions + byte, weights=parts, minlength=size + 2).astype(np.int64)
    return packed[:size].astype(np.uint8).tobytes()

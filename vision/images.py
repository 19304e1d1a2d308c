"""Image files in, pixels out, for every front end: nothing is decoded before its size is known.

A photo's format is sniffed from its first bytes and its pixel count read from its header
(JPEG, PNG, WebP, BMP, TIFF, GIF), so a small file that claims a gigapixel image is refused before
OpenCV allocates anything; formats that cannot be sniffed are refused, not handed to OpenCV to
guess. Large JPEGs decode reduced (DCT scaling, nearly free). Every failure is a
:class:`PhotoError` with a ``reason`` the front end turns into its own answer (a one-line CLI
error, an HTTP status).
"""

from __future__ import annotations

import os
import re
import stat
import struct
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from mahjong_camera_scorer.scoring.output_paths import what_is

#: File names the photo commands take as photos.
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
#: Largest image decoded (pixels): a 200-megapixel phone photo is the biggest real one. Decoded,
#: it takes 3 bytes a pixel (630 MB at the cap).
MAX_PIXELS = 210_000_000
#: Largest photo file read (bytes): an uncompressed image at the pixel cap, and some room.
MAX_FILE_BYTES = 3 * MAX_PIXELS + (16 << 20)
#: Pictures smaller than this (pixels, either side) cannot show a hand.
MIN_SIDE = 8
#: Photos are decoded at a reduced scale (JPEG DCT scaling, nearly free) while the long side
#: stays at least this long: a 12-megapixel photo decodes at 2000 px, where a tile of a hand
#: spanning the frame is still ~90 px wide, more than the reader's 96 px crop needs.
DECODE_MIN_SIDE = 1600
#: Most memory one decode may take at its peak (bytes, from the header). A JPEG decodes reduced
#: (its buffer is a quarter or less of its pixels, so the pixel cap is its limit); a PNG, TIFF,
#: WebP or BMP decodes whole and OpenCV holds the decoded image twice while it does (measured by
#: scripts/bench_upload_memory.py: 575 MB for a 100 MP PNG), a progressive JPEG keeps every
#: coefficient (2 bytes a sample), a 16-bit image 6 bytes a pixel: their limit is this, about
#: 50 MP for an 8-bit whole decode.
MAX_DECODE_BYTES = 300 << 20
#: what a whole (unreduced) decode holds at its peak, in decoded images
WHOLE_DECODE_PEAK = 2
_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def max_decode_bytes(max_pixels: int) -> int:
    """:data:`MAX_DECODE_BYTES`, lower with a lower pixel cap (a crop's: 256x256 at 3 bytes)."""
    if max_pixels >= MAX_PIXELS:
        return MAX_DECODE_BYTES
    return min(MAX_DECODE_BYTES, WHOLE_DECODE_PEAK * 3 * max_pixels)


class PhotoError(ValueError):
    """The photo cannot be read. ``reason``: ``missing``, ``not_a_file``, ``empty``,
    ``not_image``, ``unsupported`` (HEIC/AVIF), ``too_large``, ``too_small`` or ``corrupt``."""

    def __init__(self, message: str, reason: str = "corrupt") -> None:
        super().__init__(message)
        self.reason = reason


def sniff(data: bytes) -> str | None:
    """The image format from its magic bytes (``jpeg``, ``png``, …), ``heic``, or None."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:2] == b"BM":
        return "bmp"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"heis", b"avif"):
        return "heic"
    return None


#: the most markers (segments, stray bytes) read before a JPEG's frame header: a camera's JPEG has
#: a few dozen (APP0/APP1 EXIF, ICC chunks, tables); a header of tens of thousands of tiny segments
#: is refused rather than walked (each step is a Python loop turn)
MAX_JPEG_SEGMENTS = 10_000
_FF, _NOT_FF = re.compile(rb"\xff"), re.compile(rb"[^\xff]")
_FRAME_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # SOFn; not DHT, JPG, DAC


def _view(data: bytes | np.ndarray) -> memoryview:
    """The file's bytes where they are (a photo may be hundreds of megabytes: never copied)."""
    if isinstance(data, np.ndarray):
        return np.ascontiguousarray(data, dtype=np.uint8).data.cast("B")
    return memoryview(data)


@dataclass(frozen=True)
class JpegFrame:
    """What a JPEG's frame header (SOFn) says: the size, and whether the decoder must keep every
    coefficient of the whole image (progressive, lossless or arithmetic frames: all but SOF0/SOF1)."""

    width: int
    height: int
    progressive: bool


def jpeg_frame(data: np.ndarray | bytes) -> JpegFrame | None:
    """The frame header as libjpeg finds it: markers read from the start of the file through every
    segment, however long (comments and APP segments of 64 KB each may come before the frame),
    skipping fill bytes and stray bytes between markers as libjpeg does; None when the file is no
    JPEG, when a scan or the end comes before any frame header (libjpeg refuses those), or after
    :data:`MAX_JPEG_SEGMENTS` segments. Reads the buffer in place, whatever its size."""
    b = _view(data)
    n = len(b)
    if n < 4 or b[0] != 0xFF or b[1] != 0xD8:
        return None
    i, steps = 2, 0
    while i + 1 < n and steps < MAX_JPEG_SEGMENTS:
        steps += 1
        if b[i] != 0xFF:  # stray bytes before a marker ("extraneous bytes" to libjpeg): skipped
            found = _FF.search(b, i)
            if found is None:
                return None
            i = found.start()
            continue
        fill = _NOT_FF.search(b, i + 1)  # 0xFF fill bytes: the marker is the first other byte
        if fill is None:
            return None
        i = fill.start() - 1
        marker = b[i + 1]
        if marker in (0x00, 0x01, 0xD8) or 0xD0 <= marker <= 0xD7:  # FF00 (skipped), TEM, SOI, RSTn
            i += 2
            continue
        if marker in (0xD9, 0xDA) or i + 4 > n:  # the end, or a scan, before any frame: no image
            return None
        length = int.from_bytes(b[i + 2 : i + 4], "big")
        if marker in _FRAME_MARKERS:
            if i + 9 > n:
                return None
            height = int.from_bytes(b[i + 5 : i + 7], "big")
            width = int.from_bytes(b[i + 7 : i + 9], "big")
            return JpegFrame(width, height, marker not in (0xC0, 0xC1))
        if length < 2:
            return None
        i += 2 + length
    return None


def jpeg_size(data: np.ndarray | bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header without decoding (:func:`jpeg_frame`); None if
    not a JPEG or none is found."""
    frame = jpeg_frame(data)
    return None if frame is None else (frame.width, frame.height)


def _tiff_fields(data: bytes | np.ndarray) -> dict[int, int]:
    """The first IFD's numeric fields (the image OpenCV decodes): each tag's first value. A tag the
    directory lists twice counts as libtiff counts it: its first entry (libtiff ignores the later
    ones); one that cannot be read here is left out, never taken from a later entry."""
    b = _view(data)
    order = "<" if bytes(b[:2]) == b"II" else ">"
    (offset,) = struct.unpack_from(order + "I", b, 4)
    (count,) = struct.unpack_from(order + "H", b, offset)
    widths = {1: 1, 3: 2, 4: 4, 16: 8}  # BYTE, SHORT, LONG, LONG8
    fields: dict[int, int] = {}
    seen: set[int] = set()
    for k in range(min(count, 4096)):
        tag, kind, n = struct.unpack_from(order + "HHI", b, offset + 2 + 12 * k)
        if tag in seen:
            continue
        seen.add(tag)
        width = widths.get(kind)
        if width is None or n == 0:
            continue
        # the value sits in the entry when it fits, else at the offset the entry gives
        at = offset + 2 + 12 * k + 8
        if width * n > 4:
            (at,) = struct.unpack_from(order + "I", b, at)
        raw = b[at : at + width]
        if len(raw) == width:
            fields[tag] = int.from_bytes(raw, "little" if order == "<" else "big")
    return fields


def _tiff_size(data: bytes | np.ndarray) -> tuple[int, int] | None:
    """ImageWidth (256) and ImageLength (257) from the first IFD (the image OpenCV decodes)."""
    fields = _tiff_fields(data)
    return (fields[256], fields[257]) if 256 in fields and 257 in fields else None


def decoded_bytes(data: bytes | np.ndarray, kind: str, w: int, h: int, factor: int = 1) -> int:
    """The most memory the codec takes for this image (bytes), from its header: each pixel's
    samples at the file's bit depth (a 16-bit PNG decodes through 16-bit rows), a progressive
    JPEG's coefficient buffer (two bytes a sample, whatever the reduction; progressive is read
    from the frame header wherever it is, :func:`jpeg_frame`), and for a TIFF its largest tile or
    strip (a 100x100 TIFF may claim one 16000x16000 tile: 1.15 GB to refuse); a whole decode
    counts :data:`WHOLE_DECODE_PEAK` images, as OpenCV holds them at its peak."""
    head = bytes(data[:26])
    channels, depth = 3, 8
    if kind == "png" and len(head) >= 26:
        depth = max(8, head[24])
        channels = max(3, {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(head[25], 4))
    elif kind == "tiff":
        fields = _tiff_fields(data)
        depth = max(8, fields.get(258, 8))
        channels = max(3, fields.get(277, 1))
        tile = fields.get(322, 0) * fields.get(323, 0)
        strip = w * min(fields.get(278, h), h)
        return max(tile, strip, WHOLE_DECODE_PEAK * w * h) * channels * depth // 8
    elif kind == "jpeg":
        frame = jpeg_frame(data)
        if frame is None or frame.progressive:  # no frame found here: counted at the most
            return w * h * 3 * 2 + (w // factor) * (h // factor) * 3
    peak = WHOLE_DECODE_PEAK if factor == 1 else 1
    return peak * (w // factor) * (h // factor) * channels * depth // 8


def pixel_size(data: bytes | np.ndarray, kind: str) -> tuple[int, int] | None:
    """(width, height) from the header, without decoding; None where the header does not say."""
    head = bytes(data[:30])
    try:
        if kind == "png" and len(head) >= 24 and head[12:16] == b"IHDR":
            return struct.unpack(">II", head[16:24])
        if kind == "bmp" and len(head) >= 26:
            if int.from_bytes(head[14:18], "little") == 12:  # OS/2 header: 16-bit sizes
                return struct.unpack("<HH", head[18:22])
            w, h = struct.unpack("<ii", head[18:26])
            return abs(w), abs(h)
        if kind == "webp" and len(head) >= 30:
            chunk = head[12:16]
            if chunk == b"VP8X":
                return 1 + int.from_bytes(head[24:27], "little"), 1 + int.from_bytes(head[27:30], "little")
            if chunk == b"VP8L":
                b = int.from_bytes(head[21:25], "little")
                return (b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1
            if chunk == b"VP8 ":
                w, h = struct.unpack("<HH", head[26:30])
                return w & 0x3FFF, h & 0x3FFF
        if kind == "gif" and len(head) >= 10:
            return struct.unpack("<HH", head[6:10])
        if kind == "tiff":
            return _tiff_size(data)
        if kind == "jpeg":
            return jpeg_size(data)
    except (struct.error, IndexError):
        return None
    return None


def decode_image(
    data: bytes | np.ndarray, max_pixels: int = MAX_PIXELS, min_side: int = DECODE_MIN_SIDE
) -> tuple[np.ndarray, float]:
    """BGR pixels from an image file's bytes, and the factor back to the photo's own pixels (a
    large JPEG decodes reduced by 2, 4 or 8 while its long side stays ``min_side`` or more).

    The format and the size come from the header first: unknown formats, HEIC, images over
    ``max_pixels`` and headers that give no size are refused before decoding."""
    buf = np.frombuffer(data, np.uint8) if isinstance(data, bytes | bytearray) else data
    if buf.size == 0:
        raise PhotoError("the upload is empty: choose a photo", "empty")
    kind = sniff(bytes(buf[:16]))
    if kind == "heic":
        raise PhotoError(
            "HEIC/AVIF photos cannot be read here: set the camera to 'Most compatible' (JPEG) "
            "or share the photo as JPEG",
            "unsupported",
        )
    if kind is None:
        raise PhotoError("this file is not an image (send a JPEG, PNG, WebP, BMP or TIFF photo)", "not_image")
    size = pixel_size(buf, kind)
    if size is None:
        raise PhotoError(f"the {kind.upper()} image is corrupt (its header gives no size)")
    w, h = size
    if w * h > max_pixels:
        limit = f"{max_pixels // 1_000_000} MP" if max_pixels >= 1_000_000 else f"{max_pixels:,} pixels"
        raise PhotoError(f"the image is too large: {w}×{h} pixels (limit {limit})", "too_large")
    if w == 0 or h == 0:
        raise PhotoError(f"the {kind.upper()} image is corrupt (it says it is {w}×{h})")
    factor = 1
    if kind == "jpeg":
        while factor < 8 and max(size) / (factor * 2) >= min_side:
            factor *= 2
    try:
        need = decoded_bytes(buf, kind, w, h, factor)
    except (struct.error, IndexError):
        raise PhotoError(f"the {kind.upper()} image is corrupt (its header cannot be read)") from None
    budget = max_decode_bytes(max_pixels)
    if need > budget:
        raise PhotoError(
            f"the {kind.upper()} image would take {need >> 20} MB to decode (limit {budget >> 20} MB): "
            "a progressive JPEG, a 16-bit image or a PNG/TIFF this large cannot be read; save it as a "
            "(baseline) JPEG",
            "too_large",
        )
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # the error is ours to say
    try:
        image = cv2.imdecode(buf, _REDUCED[factor] if factor > 1 else cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    finally:
        cv2.utils.logging.setLogLevel(level)
    if image is None or image.size == 0:
        raise PhotoError(f"the {kind.upper()} image is corrupt or truncated and cannot be decoded")
    if min(image.shape[:2]) < MIN_SIDE:
        raise PhotoError(
            f"the image is too small to show a hand ({image.shape[1]}×{image.shape[0]} pixels)", "too_small"
        )
    return image, float(max(size)) / max(image.shape[:2]) if factor > 1 else 1.0


def read_photo_file(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> np.ndarray:
    """The bytes of a regular file (never a FIFO, a device or a folder), at most ``max_bytes``."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise PhotoError(f"no such file: {p}", "missing") from None
    except IsADirectoryError:
        raise PhotoError(f"{p} is a folder, not a photo file", "not_a_file") from None
    except OSError as exc:
        raise PhotoError(f"cannot read {p}: {exc.strerror or exc}", "missing") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise PhotoError(f"{p} is {what_is(p) or 'not a regular file'}, not a photo file", "not_a_file")
        if st.st_size > max_bytes:
            raise PhotoError(
                f"the file is too large ({st.st_size >> 20} MB; limit {max_bytes >> 20} MB): {p}", "too_large"
            )
        if st.st_size == 0:
            raise PhotoError(f"empty file: {p}", "empty")
        with os.fdopen(os.dup(fd), "rb") as fh:
            # the size the file has (read(max_bytes) would reserve max_bytes first: 646 MB a photo)
            return np.frombuffer(fh.read(st.st_size)[:max_bytes], np.uint8)
    except OSError as exc:
        raise PhotoError(f"cannot read {p}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


_stderr_lock = threading.Lock()


@contextmanager
def codec_messages_off() -> Iterator[None]:
    """The codec libraries' own messages off while a photo file decodes: libpng, libjpeg and
    libtiff write "libpng error: IDAT: incorrect data check", "Corrupt JPEG data: ..." straight to
    the process's stderr, where a command's one-line error (and a batch's progress bar) would
    drown in them. Only the command line's road (a file) does this: the server's decodes run in
    threads, and the server's stderr is its log."""
    with _stderr_lock:
        try:
            sys.stderr.flush()
            saved = os.dup(2)
        except (OSError, ValueError):  # no stderr to silence (a daemon, an embedding)
            yield
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(devnull)


def load_photo(
    path: str | Path, reduce: bool = True, max_pixels: int = MAX_PIXELS
) -> tuple[np.ndarray, float]:
    """A photo file decoded (reduced when large, unless ``reduce`` is false) and the factor back to
    its own pixels; :class:`PhotoError` naming the file otherwise."""
    data = read_photo_file(path)
    try:
        with codec_messages_off():
            return decode_image(data, max_pixels, DECODE_MIN_SIDE if reduce else 1 << 30)
    except PhotoError as exc:
        if exc.reason in ("not_image", "corrupt", "empty"):
            raise PhotoError(f"not an image or corrupt: {path}", exc.reason) from None
        raise PhotoError(f"{exc}: {path}", exc.reason) from None


def load_image(path: str | Path) -> np.ndarray:
    """A photo file decoded at full size (the pixel cap still applies)."""
    return load_photo(path, reduce=False)[0]

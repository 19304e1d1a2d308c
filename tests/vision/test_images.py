"""Bad photos give one clear PhotoError, never a traceback nor a decode of a lying header; big
JPEGs decode reduced."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.vision.images import (
    PhotoError,
    decode_image,
    jpeg_size,
    load_image,
    load_photo,
    pixel_size,
    read_photo_file,
    sniff,
)


def test_missing_empty_not_an_image_and_corrupt(tmp_path: Path) -> None:
    with pytest.raises(PhotoError, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(PhotoError, match="is a folder, not a photo file"):
        load_image(tmp_path)
    (tmp_path / "empty.jpg").write_bytes(b"")
    with pytest.raises(PhotoError, match="empty"):
        load_image(tmp_path / "empty.jpg")
    (tmp_path / "text.jpg").write_text("hello, not a photo")
    with pytest.raises(PhotoError, match="not an image"):
        load_image(tmp_path / "text.jpg")
    _, buf = cv2.imencode(".jpg", np.full((64, 64, 3), 128, np.uint8))
    (tmp_path / "cut.jpg").write_bytes(buf.tobytes()[:40])
    with pytest.raises(PhotoError, match="not an image"):
        load_image(tmp_path / "cut.jpg")


def test_large_jpeg_decodes_reduced_with_its_factor() -> None:
    img = np.full((3000, 4000, 3), 200, np.uint8)
    _, buf = cv2.imencode(".jpg", img)
    assert jpeg_size(buf) == (4000, 3000)
    out, factor = decode_image(buf)
    assert out.shape == (1500, 2000, 3) and factor == 2.0
    small, factor = decode_image(cv2.imencode(".jpg", img[:600, :800])[1])
    assert small.shape == (600, 800, 3) and factor == 1.0
    assert jpeg_size(cv2.imencode(".png", img[:10, :10])[1]) is None


# ------------------------------------------------------------------------------------------------
# hostile files: tiny files whose headers claim huge images, files that are not files
# ------------------------------------------------------------------------------------------------
def png_claiming(w: int, h: int) -> bytes:
    """A PNG signature, an IHDR saying ``w`` x ``h``, one tiny IDAT and IEND (~70 bytes)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


def tiff_claiming(w: int, h: int, big_endian: bool = False) -> bytes:
    """A 1 KB deflate TIFF whose first IFD says ``w`` x ``h`` (LONG width, SHORT height)."""
    import struct
    import zlib

    o = ">" if big_endian else "<"
    strip = zlib.compress(b"\0" * 4096)
    entries = [
        (256, 4, 1, w),  # ImageWidth, LONG
        (257, 3, 1, h),  # ImageLength, SHORT
        (258, 3, 1, 8),
        (259, 3, 1, 8),  # deflate
        (262, 3, 1, 1),
        (273, 4, 1, 8 + 2 + 12 * 9 + 4),  # the strip right after the IFD
        (277, 3, 1, 1),
        (278, 4, 1, h),
        (279, 4, 1, len(strip)),
    ]
    ifd = struct.pack(o + "H", len(entries))
    for tag, kind, count, value in entries:
        packed = struct.pack(o + "H", value) + b"\0\0" if kind == 3 else struct.pack(o + "I", value)
        ifd += struct.pack(o + "HHI", tag, kind, count) + packed
    head = (b"MM\x00*" if big_endian else b"II*\x00") + struct.pack(o + "I", 8)
    return (head + ifd + struct.pack(o + "I", 0) + strip).ljust(1024, b"\0")


def gif_claiming(w: int, h: int) -> bytes:
    import struct

    return b"GIF89a" + struct.pack("<HH", w, h) + b"\x00\x00\x00" + b"\x3b"


def bmp_claiming(w: int, h: int) -> bytes:
    import struct

    return (
        b"BM"
        + struct.pack("<IHHI", 62, 0, 0, 54)
        + struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, 0, 0, 0, 0, 0)
    )


def webp_claiming(w: int, h: int) -> bytes:
    vp8x = (
        b"VP8X"
        + (10).to_bytes(4, "little")
        + b"\0" * 4
        + (w - 1).to_bytes(3, "little")
        + (h - 1).to_bytes(3, "little")
    )
    return b"RIFF" + (len(vp8x) + 4).to_bytes(4, "little") + b"WEBP" + vp8x


def jpeg_claiming(w: int, h: int) -> bytes:
    import struct

    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, h, w, 1) + b"\x01\x11\x00"
    return (
        b"\xff\xd8\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0" + sof + b"\xff\xd9"
    )


BOMBS = {
    "png": png_claiming(65535, 65535),
    "tiff": tiff_claiming(65535, 65535),
    "tiff-be": tiff_claiming(65535, 65535, big_endian=True),
    "gif": gif_claiming(65535, 65535),
    "bmp": bmp_claiming(65535, 65535),
    "webp": webp_claiming(16383, 16383),
    "jpeg": jpeg_claiming(65535, 65535),
}


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_a_header_claiming_a_huge_image_is_refused_before_decoding(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = BOMBS[kind]
    assert len(data) <= 1024
    assert sniff(data) == kind.split("-")[0]

    def never(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("decoded a file whose header claims too many pixels")

    monkeypatch.setattr(cv2, "imdecode", never)
    with pytest.raises(PhotoError, match="too large") as err:
        decode_image(data)
    assert err.value.reason == "too_large"
    path = tmp_path / f"bomb.{kind}"
    path.write_bytes(data)
    with pytest.raises(PhotoError, match="too large"):
        load_photo(path)


def test_the_141_byte_png_and_the_1kb_tiff_of_the_issue_are_clear_errors(tmp_path: Path) -> None:
    """cv2.error escaped the decoder on these and ended a whole batch."""
    for name, data in (("p.png", png_claiming(65535, 65535)), ("t.tif", tiff_claiming(65535, 65535))):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(PhotoError) as err:
            load_photo(path, max_pixels=10**12)  # past the cap: OpenCV itself must not escape
        assert err.value.reason in ("corrupt", "too_large") and str(path) in str(err.value)


def test_header_sizes_of_every_format() -> None:
    img = np.zeros((30, 50, 3), np.uint8)
    for ext in (".png", ".jpg", ".webp", ".bmp", ".tif"):
        data = cv2.imencode(ext, img)[1].tobytes()
        kind = sniff(data)
        assert kind is not None and pixel_size(data, kind) == (50, 30), ext
    assert pixel_size(tiff_claiming(300, 200, big_endian=True), "tiff") == (300, 200)
    assert pixel_size(gif_claiming(300, 200), "gif") == (300, 200)


def test_unknown_formats_and_headerless_files_are_never_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "imdecode", lambda *a, **k: pytest.fail("decoded"))
    ppm = b"P6\n20000 20000\n255\n" + b"\0" * 64  # OpenCV reads PPM, but nothing says it is a photo
    with pytest.raises(PhotoError) as err:
        decode_image(ppm)
    assert err.value.reason == "not_image"
    with pytest.raises(PhotoError, match="header gives no size"):
        decode_image(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)  # no IHDR chunk
    with pytest.raises(PhotoError, match="corrupt"):
        decode_image(png_claiming(0, 10))


def test_a_one_pixel_image_is_too_small_not_corrupt() -> None:
    with pytest.raises(PhotoError, match="too small") as err:
        decode_image(cv2.imencode(".png", np.zeros((1, 1, 3), np.uint8))[1].tobytes())
    assert err.value.reason == "too_small"


def test_a_fifo_or_a_device_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jpg"
    os.mkfifo(fifo)  # reading it would block forever
    with pytest.raises(PhotoError, match=r"is a FIFO \(named pipe\), not a photo file"):
        load_photo(fifo)
    with pytest.raises(PhotoError, match="is a character device, not a photo file"):
        read_photo_file("/dev/zero")
    big = tmp_path / "big.jpg"
    big.write_bytes(b"\xff\xd8\xff" + b"\0" * 100)
    with pytest.raises(PhotoError, match="too large"):
        read_photo_file(big, max_bytes=50)


# ------------------------------------------------------------------------------------------------
# the probe's files under the pixel cap that cost far more than their pixels (round 2)
# ------------------------------------------------------------------------------------------------
def tiff_one_big_tile(w: int = 100, h: int = 100, tile: int = 16000, bits: int = 8) -> bytes:
    """A ~210-byte TIFF: a ``w`` x ``h`` image in one ``tile`` x ``tile`` deflate tile."""
    import struct
    import zlib

    data = zlib.compress(b"\0" * 64)
    entries = [
        (256, 3, 1, w),
        (257, 3, 1, h),
        (258, 3, 1, bits),
        (259, 3, 1, 8),
        (262, 3, 1, 1),
        (277, 3, 1, 1),
        (322, 3, 1, tile),  # TileWidth
        (323, 3, 1, tile),  # TileLength
        (324, 4, 1, 8 + 2 + 12 * 10 + 4),  # TileOffsets: right after the IFD
        (325, 4, 1, len(data)),
    ]
    ifd = struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        packed = struct.pack("<H", value) + b"\0\0" if kind == 3 else struct.pack("<I", value)
        ifd += struct.pack("<HHI", tag, kind, count) + packed
    return b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + data


def png_16bit_claiming(w: int, h: int) -> bytes:
    """A PNG header saying ``w`` x ``h`` RGB at 16 bits a sample (decoded through 6 bytes a pixel)."""
    data = bytearray(png_claiming(w, h))
    data[24] = 16
    import zlib

    data[29:33] = zlib.crc32(bytes(data[12:29])).to_bytes(4, "big")
    return bytes(data)


def progressive_jpeg_claiming(w: int, h: int) -> bytes:
    """A JPEG header whose frame is progressive (SOF2): every coefficient kept while decoding."""
    return jpeg_claiming(w, h).replace(b"\xff\xc0", b"\xff\xc2", 1)


@pytest.mark.parametrize(
    "data",
    [
        tiff_one_big_tile(),
        png_16bit_claiming(14400, 14400),
        progressive_jpeg_claiming(14400, 14400),
        tiff_one_big_tile(14400, 14400, 256, bits=16),
    ],
    ids=["tiff-tile", "png-16bit", "progressive-jpeg", "tiff-16bit"],
)
def test_images_that_would_cost_far_more_than_their_pixels_are_refused_fast(data: bytes) -> None:
    import time

    start = time.perf_counter()
    with pytest.raises(PhotoError) as caught:
        decode_image(data)
    # refused from the header for what decoding it would take, not found corrupt after trying
    assert caught.value.reason == "too_large" and time.perf_counter() - start < 0.1
    assert "MB to decode" in str(caught.value)


def test_a_small_16bit_png_and_a_small_progressive_jpeg_still_decode() -> None:
    rng = np.random.default_rng(3)
    img16 = rng.integers(0, 65535, (40, 60, 3), dtype=np.uint16)
    assert decode_image(cv2.imencode(".png", img16)[1].tobytes())[0].shape == (40, 60, 3)
    img = rng.integers(0, 255, (40, 60, 3), dtype=np.uint8)
    prog = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1].tobytes()
    assert decode_image(prog)[0].shape == (40, 60, 3)


# ------------------------------------------------------------------------------------------------
# round 3 (issue 37 item 2): headers that passed the check, and the one reader that agrees with
# the decoder
# ------------------------------------------------------------------------------------------------
def tiff_listing_twice(first: tuple[int, int], second: tuple[int, int], data: tuple[int, int]) -> bytes:
    """An 8-bit grey TIFF whose first directory lists ImageWidth and ImageLength twice (``first``,
    then ``second``), with the pixels of a ``data`` image in one strip: libtiff ignores the later
    entries of a tag, so it decodes the ``first`` size."""
    import struct

    w, h = data
    pixels = bytes((np.arange(w * h) % 251).astype(np.uint8))
    head = [(256, 4, first[0]), (256, 4, second[0]), (257, 4, first[1]), (257, 4, second[1])]
    head += [(258, 3, 8), (259, 3, 1), (262, 3, 1)]
    tail_count = 4
    offset = 8 + 2 + 12 * (len(head) + tail_count) + 4
    entries = [*head, (273, 4, offset), (277, 3, 1), (278, 4, h), (279, 4, len(pixels))]
    ifd = struct.pack("<H", len(entries))
    for tag, kind, value in entries:
        packed = struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value)
        ifd += struct.pack("<HHI", tag, kind, 1) + packed
    return b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + pixels


def jpeg_with_comments(jpeg: bytes, total: int, size: int = 65533) -> bytes:
    """``jpeg`` with ``total`` bytes of comment segments (COM, at most ``size`` bytes each) between
    its SOI and the rest: all before its frame header."""
    import struct

    segments = []
    while total > 0:
        n = min(size, total)
        segments.append(b"\xff\xfe" + struct.pack(">H", n + 2) + b"c" * n)
        total -= n
    return jpeg[:2] + b"".join(segments) + jpeg[2:]


def test_a_tiff_listing_its_size_twice_is_read_as_libtiff_reads_it() -> None:
    agree = tiff_listing_twice((60, 40), (100, 100), (100, 100))
    assert pixel_size(agree, "tiff") == (60, 40)  # the first entries, as libtiff
    assert decode_image(agree)[0].shape[:2] == (40, 60)
    # the issue's file: 30000 first, 100 second; 40 s and 5.4 GB to decode before
    hostile = tiff_listing_twice((30000, 30000), (100, 100), (100, 100))
    import time

    start = time.perf_counter()
    with pytest.raises(PhotoError) as caught:
        decode_image(hostile)
    assert caught.value.reason == "too_large" and time.perf_counter() - start < 0.1


def test_a_progressive_jpeg_behind_long_comments_is_seen_as_progressive() -> None:
    """The frame header comes after 128 KB of comments: the old check looked at the first 64 KB
    only and took the file for baseline (1.4 GB to decode, the README promising 300 MB)."""
    import time

    claiming = jpeg_with_comments(progressive_jpeg_claiming(14400, 14400), 128 << 10)
    assert pixel_size(claiming, "jpeg") == (14400, 14400)
    start = time.perf_counter()
    with pytest.raises(PhotoError, match="MB to decode") as caught:
        decode_image(claiming)
    assert caught.value.reason == "too_large" and time.perf_counter() - start < 0.1
    # a real one, small: the same reader, and the decoder agrees with it
    rng = np.random.default_rng(4)
    img = rng.integers(0, 255, (40, 60, 3), dtype=np.uint8)
    for params in ([cv2.IMWRITE_JPEG_PROGRESSIVE, 1], []):
        real = jpeg_with_comments(cv2.imencode(".jpg", img, params)[1].tobytes(), 200 << 10)
        assert pixel_size(real, "jpeg") == (60, 40) and decode_image(real)[0].shape == (40, 60, 3)


def test_a_jpeg_header_of_endless_tiny_segments_is_refused_in_bounded_time() -> None:
    import time

    data = jpeg_with_comments(jpeg_claiming(64, 64), 4 * 50_000, size=4)  # 50,000 segments
    stuffed = jpeg_claiming(64, 64)[:2] + b"\xff\x00" * 2_000_000 + jpeg_claiming(64, 64)[2:]
    start = time.perf_counter()
    with pytest.raises(PhotoError, match="header gives no size"):
        decode_image(data)
    with pytest.raises(PhotoError, match="header gives no size"):
        decode_image(stuffed)
    assert time.perf_counter() - start < 1.0
    # what libjpeg skips between markers (fill bytes, stray bytes) the reader skips too
    real = cv2.imencode(".jpg", np.full((40, 60, 3), 128, np.uint8))[1].tobytes()
    odd = real[:20] + b"junk" + b"\xff\xff" + real[20:]  # after its APP0 segment
    assert jpeg_size(odd) == (60, 40) and decode_image(odd)[0].shape == (40, 60, 3)

"""Bad photos give one clear PhotoError, never a traceback; big JPEGs decode reduced."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.pipeline import PhotoError, decode, jpeg_size, load_image


def test_missing_empty_not_an_image_and_corrupt(tmp_path: Path) -> None:
    with pytest.raises(PhotoError, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(PhotoError, match="not a file"):
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
    out, factor = decode(buf)
    assert out.shape == (1500, 2000, 3) and factor == 2.0
    small, factor = decode(cv2.imencode(".jpg", img[:600, :800])[1])
    assert small.shape == (600, 800, 3) and factor == 1.0
    assert jpeg_size(cv2.imencode(".png", img[:10, :10])[1]) is None


def test_rescaled_boxes_keep_the_layout_pointing_at_the_same_readings() -> None:
    """A reduced decode's boxes are scaled back; the layout's lists must name the scaled readings
    (front ends match left-out and flagged tiles by their index)."""
    from vision.layout import Layout, TileGroup
    from vision.pipeline import _rescale
    from vision.read import TileRead

    a, b, c = (TileRead((10.0 * i, 0.0, 10.0 * i + 8, 12.0), "1m", 0.9, "upright", index=i) for i in range(3))
    lay = Layout(groups=[TileGroup([a, b], 0)], ignored=[c], dropped=[b])
    tiles, rejected = _rescale([a, b, c], [], lay, 2.0)
    assert [r.box for r in tiles] == [
        (0.0, 0.0, 16.0, 24.0),
        (20.0, 0.0, 36.0, 24.0),
        (40.0, 0.0, 56.0, 24.0),
    ]
    assert lay.groups[0].tiles == tiles[:2] and rejected == []
    assert lay.ignored[0] is tiles[2] and lay.dropped[0] is tiles[1]

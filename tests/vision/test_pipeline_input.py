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
    (the photo command matches left-out and flagged tiles by identity)."""
    from vision.layout import Layout, TileGroup
    from vision.pipeline import PhotoResult, _rescale
    from vision.read import TileRead

    a, b, c = (TileRead((10.0 * i, 0.0, 10.0 * i + 8, 12.0), "1m", 0.9, "upright", index=i) for i in range(3))
    lay = Layout(groups=[TileGroup([a, b], 0)], ignored=[c], dropped=[b])
    res = PhotoResult([a, b, c], lay, (100, 100, 3), {})
    _rescale(res, 2.0)
    assert [r.box for r in res.readings] == [
        (0.0, 0.0, 16.0, 24.0),
        (20.0, 0.0, 36.0, 24.0),
        (40.0, 0.0, 56.0, 24.0),
    ]
    assert res.layout.groups[0].tiles == res.readings[:2]
    assert res.layout.ignored[0] is res.readings[2] and res.layout.dropped[0] is res.readings[1]


def test_every_mending_change_is_named_for_the_player() -> None:
    from dataclasses import replace

    from vision.layout import Layout
    from vision.pipeline import PhotoResult, mend_notes
    from vision.read import TileRead

    kept = TileRead((10.0, 20.0, 40.0, 60.0), "9s", 0.7, "upright", 0.25, index=0)
    fixed = replace(
        kept, box=(50.0, 20.0, 80.0, 60.0), code="3p", corrected_from="8p", detector_score=0.9, index=1
    )
    dropped = replace(kept, box=(90.0, 20.0, 120.0, 60.0), code="7z", detector_score=0.4, index=2)
    res = PhotoResult([kept, fixed], Layout(dropped=[dropped], added=[kept]), (100, 200, 3), {})
    notes = mend_notes(res)
    assert len(notes) == 3
    assert "x=90 y=20" in notes[0] and "7z" in notes[0] and "left out" in notes[0]
    assert "x=10 y=20" in notes[1] and "taken in as 9s" in notes[1]
    assert "read as 8p, taken as 3p" in notes[2]
    assert mend_notes(PhotoResult([kept], Layout(), (100, 200, 3), {})) == []

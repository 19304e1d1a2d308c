"""A photo's decoded pixels mapped to its own (:class:`vision.photo.Photo`)."""

from __future__ import annotations

import numpy as np

from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.photo import Photo
from mahjong_camera_scorer.vision.read import TileRead


def test_a_reduced_photo_maps_boxes_both_ways_and_keeps_its_own_shape() -> None:
    photo = Photo(np.zeros((300, 400, 3), np.uint8), scale=2.5)
    assert photo.shape == (750, 1000, 3)
    det = Detection((10.0, 20.0, 30.0, 60.0), "tile", 0.9)
    (big,) = photo.in_photo([det])
    assert big.box == (25.0, 50.0, 75.0, 150.0) and big.score == 0.9
    (back,) = photo.in_pixels([big])
    assert back.box == det.box
    r = TileRead((10.0, 20.0, 30.0, 60.0), "5m", 0.9, "upright", index=3)
    (read,) = photo.in_photo([r])
    assert read.box == (25.0, 50.0, 75.0, 150.0) and read.index == 3 and read.code == "5m"


def test_a_photo_decoded_whole_changes_nothing() -> None:
    photo = Photo(np.zeros((30, 40, 3), np.uint8))
    r = TileRead((1.0, 2.0, 3.0, 4.0), "1z", 0.9, "upright", index=0)
    assert photo.shape == (30, 40, 3) and photo.in_photo([r])[0] is r and photo.in_pixels([r])[0] is r

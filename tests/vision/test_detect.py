"""Letterbox, YOLO output decoding and NMS on constructed tensors (no model needed)."""

from __future__ import annotations

import cv2
import numpy as np

from mahjong_camera_scorer.vision.detect import (
    decode,
    drop_contained,
    faint_centres,
    letterbox,
    nms,
    shrink,
    to_input,
)


def test_letterbox_keeps_aspect_and_centres() -> None:
    img = np.zeros((300, 600, 3), np.uint8)
    out, lb = letterbox(img, (320, 320))
    assert out.shape == (320, 320, 3)
    assert lb.scale == 320 / 600
    assert lb.pad_x == 0 and lb.pad_y == 80
    assert (out[0, 0] == 114).all() and (out[160, 160] == 0).all()


def test_to_input_is_rgb_nchw_unit_range() -> None:
    img = np.zeros((4, 4, 3), np.uint8)
    img[..., 2] = 255  # red in BGR
    x = to_input(img)
    assert x.shape == (1, 3, 4, 4) and x.dtype == np.float32
    assert x[0, 0].max() == 1.0 and x[0, 2].max() == 0.0  # red is channel 0 after BGR→RGB


def _yolo_output(
    boxes: list[tuple[float, float, float, float]], scores: list[tuple[float, float]]
) -> np.ndarray:
    """A (1, 4 + 2, anchors) tensor like the exported detector's."""
    out = np.zeros((1, 6, len(boxes)), np.float32)
    for i, (b, s) in enumerate(zip(boxes, scores, strict=True)):
        out[0, :4, i] = b
        out[0, 4:, i] = s
    return out


def test_decode_maps_back_to_image_pixels_and_suppresses_duplicates() -> None:
    _, lb = letterbox(np.zeros((300, 600, 3), np.uint8), (320, 320))
    out = _yolo_output(
        [(100, 160, 20, 30), (101, 160, 20, 30), (200, 160, 20, 30), (50, 50, 10, 10)],
        [(0.9, 0.1), (0.8, 0.1), (0.1, 0.7), (0.2, 0.1)],
    )
    dets = decode(out, ("tile", "back"), lb, (300, 600, 3), conf=0.35)
    assert [d.label for d in dets] == ["tile", "back"]
    x0, y0, x1, y1 = dets[0].box
    assert abs((x0 + x1) / 2 - 100 / lb.scale) < 1e-3
    assert abs((y0 + y1) / 2 - (160 - 80) / lb.scale) < 1e-3
    assert abs((x1 - x0) - 20 / lb.scale) < 1e-3


def test_faint_centres_are_every_anchor_above_the_hint_in_image_pixels() -> None:
    _, lb = letterbox(np.zeros((300, 600, 3), np.uint8), (320, 320))
    out = _yolo_output(
        [(100, 160, 20, 30), (101, 160, 20, 30), (200, 160, 20, 30), (50, 50, 10, 10)],
        [(0.9, 0.1), (0.8, 0.1), (0.01, 0.07), (0.04, 0.02)],
    )
    centres = faint_centres(out, lb, 0.05)
    # no NMS: both overlapping anchors count; a back's score counts as a tile's
    assert centres.shape == (3, 2)
    assert np.allclose(centres[:, 0] * lb.scale, [100, 101, 200])
    assert np.allclose(centres[:, 1] * lb.scale + lb.pad_y, 160)


def test_nms_is_class_agnostic_greedy() -> None:
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], np.float32)
    assert nms(boxes, np.array([0.9, 0.95, 0.5]), 0.5) == [1, 2]
    assert (
        decode(
            np.zeros((1, 6, 0), np.float32),
            ("tile", "back"),
            letterbox(np.zeros((10, 10, 3), np.uint8), (32, 32))[1],
            (10, 10, 3),
        )
        == []
    )


def test_a_box_mostly_inside_a_better_one_is_dropped_but_neighbours_stay() -> None:
    boxes = np.array(
        [
            [0, 0, 30, 40],  # a tile
            [2, 0, 30, 22],  # its top half, boxed again (IoU 0.5, inside by 100 %)
            [28, 0, 58, 40],  # the neighbour, touching (inside by 7 %)
        ],
        dtype=float,
    )
    assert drop_contained(boxes, [0, 1, 2], 0.9) == [0, 2]
    assert drop_contained(boxes, [1, 0, 2], 0.9) == [1, 0, 2]  # the whole tile is not inside its half


def test_shrink_matches_opencv_area_resize_and_is_exact_for_whole_factors() -> None:
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (1500, 2000, 3), dtype=np.uint8)
    # a photo-like image: 50 px blocks, blurred (random pixels have detail finer than the output grid,
    # where any two resamplers disagree)
    blocks = np.ascontiguousarray(np.repeat(np.repeat(img[::50, ::50], 50, 0), 50, 1))
    img = cv2.GaussianBlur(blocks, (0, 0), 8)
    ref = cv2.resize(img, (480, 360), interpolation=cv2.INTER_AREA)
    out = shrink(img, 480, 360)
    assert out.shape == ref.shape
    assert np.abs(out.astype(int) - ref.astype(int)).mean() < 2.0
    quarter = shrink(img, 500, 375)  # a whole factor: exactly OpenCV's box average
    assert (quarter == cv2.resize(img, (500, 375), interpolation=cv2.INTER_AREA)).all()
    odd = shrink(img[:1499, :1999], 480, 360)  # sizes the factor does not divide
    assert odd.shape == (360, 480, 3)


def test_iou_of_boxes() -> None:
    from mahjong_camera_scorer.vision.detect import iou

    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou((0, 0, 10, 10), (20, 0, 30, 10)) == 0.0
    assert abs(iou((0, 0, 10, 10), (5, 0, 15, 10)) - 1 / 3) < 1e-9
    assert iou((0, 0, 0, 0), (0, 0, 0, 0)) == 0.0  # empty boxes: no division by zero

"""Repainting a plain five red: the ink turns red, the face stays, the shading survives."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.recolour import RED_OF, ink_weight, redden


def _five_pin() -> np.ndarray:
    """An ivory face with five dark-green and blue circles, like a 5-circle tile."""
    img = np.full((128, 96, 3), (205, 228, 238), np.uint8)
    for (x, y), colour in zip(
        [(26, 30), (70, 30), (48, 64), (26, 98), (70, 98)],
        [(60, 110, 20), (140, 60, 20), (40, 40, 200), (140, 60, 20), (60, 110, 20)],
        strict=True,
    ):
        cv2.circle(img, (x, y), 14, colour, -1)
    return img


def _is_red(bgr: np.ndarray) -> np.ndarray:
    hsv = cv2.cvtColor(bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    return ((hsv[:, 0] <= 8) | (hsv[:, 0] >= 170)) & (hsv[:, 1] >= 120)


def test_red_of_maps_the_three_fives() -> None:
    assert RED_OF == {"5m": "0m", "5p": "0p", "5s": "0s"}


@pytest.mark.slow
def test_ink_is_found_and_face_is_not() -> None:
    img = _five_pin()
    w = ink_weight(img)
    assert w[30, 26] > 0.9 and w[64, 48] > 0.9  # circle centres
    assert w[5, 5] < 0.05 and w[120, 90] < 0.05  # bare face


def test_redden_paints_every_circle_red_and_keeps_the_face() -> None:
    img = _five_pin()
    out = redden(img, random.Random(3))
    assert out.shape == img.shape and out.dtype == np.uint8
    centres = np.array([out[30, 26], out[30, 70], out[64, 48], out[98, 26], out[98, 70]])
    assert _is_red(centres).all()
    assert not _is_red(img[[30, 30, 98, 98], [26, 70, 26, 70]]).any()  # they were green/blue
    assert np.abs(out[5, 5].astype(int) - img[5, 5].astype(int)).max() <= 3  # face untouched


def test_redden_varies_with_the_rng_but_is_reproducible() -> None:
    img = _five_pin()
    a, b = redden(img, random.Random(1)), redden(img, random.Random(1))
    c = redden(img, random.Random(2))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)

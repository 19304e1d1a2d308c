"""The re-framings the accelerator run draws from real photos (scripts/pack_reframe.py): each label
still sits on its tile after the picture is cut, shrunk, tilted or turned."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from tests.scripts.scriptutil import load_script
from tests.scripts.tiny_pack import row_photo


@pytest.fixture(scope="module")
def pr():  # type: ignore[no-untyped-def]
    return load_script("pack_reframe")


def photo(pr, seed: int = 0):  # type: ignore[no-untyped-def]
    image, text = row_photo(np.random.default_rng(seed), tiles=6)
    return image, pr.read_yolo(text, image.shape[1], image.shape[0])


def ivory_share(image: np.ndarray, box: tuple) -> float:  # type: ignore[type-arg]
    """How much of ``box`` is tile ivory (the drawn tiles are (220, 235, 240), the table green)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    patch = image[max(0, y0) : y1, max(0, x0) : x1].astype(int)
    return float((patch.min(axis=2) > 150).mean()) if patch.size else 0.0


def test_yolo_labels_round_trip(pr) -> None:  # type: ignore[no-untyped-def]
    _, labels = photo(pr)
    again = pr.read_yolo(pr.yolo_text(labels, 320, 240), 320, 240)
    assert np.allclose([b[1:] for b in again], [b[1:] for b in labels], atol=0.01)


def test_turning_moves_each_box_with_its_tile(pr) -> None:  # type: ignore[no-untyped-def]
    image, labels = photo(pr)
    for k in (1, 2, 3):
        out, moved = pr.turned(image, labels, k)
        assert len(moved) == len(labels)
        assert all(ivory_share(out, b[1:]) > 0.6 for b in moved), k
    back, again = pr.turned(*pr.turned(image, labels, 1), 3)
    assert np.array_equal(back, image)
    assert np.allclose([b[1:] for b in again], [b[1:] for b in labels])


def test_a_far_view_makes_tiles_10_to_24_px_tall(pr) -> None:  # type: ignore[no-untyped-def]
    image, labels = photo(pr)
    for seed in range(5):
        out, moved = pr.far_view(image, labels, random.Random(seed))
        heights = [b[4] - b[2] for b in moved]
        assert len(moved) == len(labels) and max(out.shape[:2]) == pr.FRAME
        assert 9.5 <= np.median(heights) <= 24.5
        assert all(ivory_share(out, b[1:]) > 0.4 for b in moved)
    small = cv2.resize(image, None, fx=0.2, fy=0.2)
    tiny = [(c, *(v * 0.2 for v in b)) for c, *b in labels]
    assert pr.far_view(small, tiny, random.Random(0)) is None  # already far: nothing to do


def test_a_row_crop_is_tight_and_cuts_what_it_cannot_show(pr) -> None:  # type: ignore[no-untyped-def]
    image, labels = photo(pr)
    rows = pr.rows_of(labels)
    assert [len(r) for r in rows] == [6]
    for seed in range(8):
        out, kept = pr.row_crop(image, labels, rows[0], random.Random(seed))
        h, w = out.shape[:2]
        assert w / h > 3  # six tiles side by side: a long thin picture
        assert all(0 <= b[1] < b[3] <= w and 0 <= b[2] < b[4] <= h for b in kept)
        assert 4 <= len(kept) <= 6  # an end tile cut by more than 40 % loses its label
        assert all(ivory_share(out, b[1:]) > 0.6 for b in kept)


def test_rows_are_found_apart(pr) -> None:  # type: ignore[no-untyped-def]
    row = [(0, 10.0 + 40 * k, 10.0, 48.0 + 40 * k, 60.0) for k in range(4)]
    below = [(0, b[1], b[2] + 100, b[3], b[4] + 100) for b in row]
    far_right = [(0, 600.0, 10.0, 638.0, 60.0)]  # same height, but a gap of many tiles
    found = sorted(len(r) for r in pr.rows_of(row + below + far_right))
    assert found == [1, 4, 4]


def test_a_seat_view_keeps_each_label_on_its_tile(pr) -> None:  # type: ignore[no-untyped-def]
    image, labels = photo(pr)
    for seed in range(5):
        out, moved = pr.seat_view(image, labels, random.Random(seed))
        assert len(moved) == len(labels) and max(out.shape[:2]) <= pr.FRAME + 1
        assert all(ivory_share(out, b[1:]) > 0.4 for b in moved)
        # the near (lower) edge of the picture comes out wider than the far one
        m = pr.seat_homography(320, 240, 30, 320, 0)
        top = cv2.perspectiveTransform(np.float32([[[0, 0], [320, 0]]]), m)[0]
        bottom = cv2.perspectiveTransform(np.float32([[[0, 240], [320, 240]]]), m)[0]
        assert bottom[1][0] - bottom[0][0] > 1.2 * (top[1][0] - top[0][0])


def test_clipping_drops_slivers_and_keeps_most_of_a_tile(pr) -> None:  # type: ignore[no-untyped-def]
    labels = [(0, -10.0, 0.0, 30.0, 40.0), (0, -30.0, 0.0, 10.0, 40.0), (1, 50.0, 5.0, 52.0, 30.0)]
    assert pr.clip_labels(labels, 100, 100) == [(0, 0.0, 0.0, 30.0, 40.0)]

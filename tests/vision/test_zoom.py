"""The closer detector looks over rows of small tiles (:mod:`vision.zoom`): when they run, where
they look (one region a row, closer still where a row stays small), how their boxes come back to
photo pixels and merge with the first pass; and, with the shipped models, that a far row (tiles
~13 px tall at the detector's input) is found."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.render.records import photo_json
from mahjong_camera_scorer.vision.zoom import (
    FEW_BOXES,
    LYING,
    MAX_LOOKS,
    MIN_SEEDS,
    SMALL_TILE,
    SecondPass,
    closer_rows,
    looks_turned,
    merge,
    row_groups,
    row_regions,
    rows_after_slices,
    second_pass,
    sliced_pass,
    turned_back,
    turned_pass,
    windows,
)
from tests.vision.support import EXAMPLE
from tests.vision.test_models import needs_models

SIZE = (480, 480)
PHOTO = (1500, 2000, 3)  # 2000 px wide: 0.24 detector pixels per photo pixel


def tile_row(n: int, x: float, y: float, w: float, h: float, score: float = 0.3) -> list[Detection]:
    return [Detection((x + i * w, y, x + (i + 1) * w - 2, y + h), "tile", score) for i in range(n)]


def test_no_second_pass_without_enough_small_tiles() -> None:
    big = tile_row(14, 100, 800, 110, 150)  # 36 px tall at the input: the detector's own size
    assert row_regions(big, PHOTO, SIZE) == []
    few = tile_row(MIN_SEEDS - 1, 600, 900, 40, 55)
    assert row_regions(big + few, PHOTO, SIZE) == []
    assert row_regions(big + tile_row(MIN_SEEDS, 600, 900, 40, 55), PHOTO, SIZE)
    # inside a closer look, one or two found tiles are enough to start a row
    assert row_regions(few, PHOTO, SIZE, min_seeds=1)


def test_no_second_pass_when_the_small_tiles_span_the_photo() -> None:
    # a row of small tiles from edge to edge: a closer look at its region is no closer
    spread = tile_row(40, 0, 100, 50, 55)
    assert len(row_groups(spread)) == 1 and row_regions(spread, PHOTO, SIZE) == []


def test_the_region_holds_the_small_tiles_grown_along_the_row() -> None:
    row = tile_row(6, 800, 1000, 40, 55)  # 13 px tall at the input
    assert max(d.height for d in row) * 480 / 2000 < SMALL_TILE
    [(region, gain)] = row_regions(row, PHOTO, SIZE)
    x0, y0, x1, y1 = region
    assert x0 <= 800 - 3 * 55 and x1 >= 800 + 6 * 40 - 2 + 3 * 55  # tiles missed beside those found
    assert y0 < 1000 and y1 > 1055 and (y1 - y0) < (x1 - x0)
    assert gain == pytest.approx(min(480 / (y1 - y0), 480 / (x1 - x0)) / (480 / 2000))
    assert gain >= 2


def test_second_pass_boxes_come_back_in_photo_pixels_and_replace_the_coarse_ones() -> None:
    image = np.zeros(PHOTO, np.uint8)
    first = tile_row(3, 880, 1000, 40, 55, score=0.3) + tile_row(10, 100, 200, 130, 170, score=0.9)
    crops: list[tuple[int, int]] = []

    def detect(crop: np.ndarray) -> list[Detection]:
        crops.append(crop.shape[:2])
        # in the crop's pixels: the whole row of 8 (the first pass found 3), a tile cut by the
        # crop's left edge, and the three found before, boxed a little differently
        [((x0, y0, _, _), _)] = row_regions(first, PHOTO, SIZE)
        ox, oy = 800 - x0, 1000 - y0
        row = [
            Detection((ox + i * 40 + 1, oy + 1, ox + (i + 1) * 40 - 1, oy + 55), "tile", 0.8)
            for i in range(8)
        ]
        return [*row, Detection((0.0, oy, 25.0, oy + 55), "tile", 0.7)]

    boxes, where = second_pass(detect, image, first, SIZE)
    assert where is not None and len(crops) == 1 and where.found == 8
    small = sorted((d for d in boxes if d.height < 100), key=lambda d: d.box[0])
    assert len(small) == 8 and all(d.score == 0.8 for d in small)  # the coarse three gave way
    assert small[0].box == pytest.approx((801, 1001, 839, 1055))  # photo pixels
    assert sum(d.height > 100 for d in boxes) == 10  # the large tiles are untouched
    assert where.to_json()["gain"] == round(where.gain, 2)


def test_rows_apart_and_rows_of_another_size_are_looked_at_apart() -> None:
    # a far row of tiles, a shelf of books above it (taller boxes) and another row across the
    # photo: three rows, three regions, the one with the most found first
    tiles = tile_row(4, 600, 1000, 40, 55, score=0.3)
    books = tile_row(6, 500, 800, 45, 78, score=0.6)
    other = tile_row(3, 1500, 300, 40, 55, score=0.3)
    groups = row_groups(tiles + books + other)
    assert sorted(len(g) for g in groups) == [3, 4, 6]
    regions = row_regions(tiles + books + other, PHOTO, SIZE)
    assert len(regions) == 3
    (bx0, _, _, by1), _ = regions[0]  # the books: the most found
    assert by1 <= 800 + 78 + 0.7 * 78 + 1 and bx0 < 500
    tile_region = next(r for r, _ in regions if r[0] < 600 < r[2] and r[1] < 1000 < r[3])
    assert tile_region[1] > 800 + 78  # not grown over the books' band: a row's own region
    assert all(g >= 1.5 for _, g in regions)
    # rows whose regions overlap are looked at as one region
    near = tile_row(6, 500, 930, 45, 78, score=0.6)
    assert len(row_groups(tiles + near)) == 2 and len(row_regions(tiles + near, PHOTO, SIZE)) == 1


def test_no_more_than_the_most_looks() -> None:
    image = np.zeros(PHOTO, np.uint8)
    rows = [d for k in range(MAX_LOOKS + 2) for d in tile_row(3, 100 + 300 * k, 100 + 220 * k, 40, 55)]
    calls: list[tuple[int, ...]] = []

    def detect(crop: np.ndarray) -> list[Detection]:
        calls.append(crop.shape[:2])
        return []

    boxes, looks = closer_rows(detect, image, rows, SIZE)
    assert len(calls) == len(looks) == MAX_LOOKS and boxes == rows


def test_a_row_still_small_in_its_closer_look_is_looked_at_closer_still() -> None:
    image = np.zeros(PHOTO, np.uint8)
    # a long row of small boxes (16 px at the first look): its region is seen only ~1.5x closer,
    # where the detector finds three tiles still under 10 px: their row is looked at closer still
    first = tile_row(13, 200, 1000, 70, 22, score=0.3)
    calls: list[tuple[int, ...]] = []

    def detect(crop: np.ndarray) -> list[Detection]:
        calls.append(crop.shape[:2])
        return tile_row(3, 500, 50, 6, 8, score=0.5) if len(calls) == 1 else []

    boxes, looks = closer_rows(detect, image, first, SIZE)
    assert len(looks) == 2 and looks[1][1] >= 1.5 * looks[0][1]
    inner, outer = looks[1][0], looks[0][0]
    assert outer[0] <= inner[0] and inner[2] <= outer[2]  # closer still: inside the first region
    assert len(boxes) == 13 + 3
    calls.clear()
    _, once = closer_rows(detect, image, first, SIZE, depth=1)
    assert len(once) == 1


def test_merge_keeps_one_box_per_tile_across_passes() -> None:
    a = Detection((0, 0, 10, 14), "tile", 0.3)
    b = Detection((1, 0, 11, 14), "tile", 0.8)  # the same tile, seen closer
    c = Detection((30, 0, 40, 14), "tile", 0.4)  # only the first pass saw it
    assert merge([a, c], [b]) == [b, c]
    assert merge([], []) == []


def far_row_photo() -> np.ndarray:
    """The bundled example's hand, far away: tiles about 13 px tall at the detector's input, in
    a 2000 x 1500 photo of a noisy green cloth."""
    rng = np.random.default_rng(0)
    cloth = np.empty((1500, 2000, 3), np.float32)
    cloth[:] = (60, 130, 50)
    cloth += cv2.GaussianBlur(rng.normal(0, 25, (1500, 2000, 1)).astype(np.float32), (0, 0), 2)[..., None]
    photo = np.clip(cloth, 0, 255).astype(np.uint8)
    hand = cv2.imread(str(EXAMPLE))
    f = 0.3 * 2000 / hand.shape[1]
    small = cv2.resize(hand, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    photo[1000 : 1000 + small.shape[0], 500 : 500 + small.shape[1]] = small
    return photo


@pytest.mark.models
@pytest.mark.slow
@needs_models
def test_a_far_row_is_found_by_the_second_pass() -> None:
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    photo = far_row_photo()
    once = PhotoReader(closer=False).read_and_score(photo)
    twice = PhotoReader().read_and_score(photo)
    assert once.second_pass is None and len(once.tiles) < 15  # the first pass misses some
    assert twice.second_pass is not None and twice.second_pass.gain > 1.5
    assert len(twice.tiles) == 15  # the example's 15 tiles
    heights = [(t.box[3] - t.box[1]) * 480 / 2000 for t in twice.tiles]
    assert 10 < float(np.median(heights)) < 16
    assert "second_pass" in photo_json(twice)


@pytest.mark.models
@needs_models
def test_a_photo_of_large_tiles_is_detected_once() -> None:
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    result = PhotoReader().read_and_score(cv2.imread(str(EXAMPLE)))
    assert result.second_pass is None and "second_pass" not in photo_json(result)


def test_a_box_of_the_turned_photo_comes_back_where_its_pixels_are() -> None:
    image = np.zeros((300, 500), np.uint8)
    image[40:90, 320:350] = 255  # a standing tile's face, 30 wide, 50 tall
    turned = np.rot90(image)
    ys, xs = np.nonzero(turned)
    box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    found = Detection(box, "tile", 0.9)
    assert found.width > found.height  # it lies on its side in the turned photo
    assert turned_back(found, image.shape[1]).box == (320.0, 40.0, 350.0, 90.0)


def test_a_photo_is_turned_when_most_sure_boxes_lie_on_their_side() -> None:
    lying = tile_row(8, 100, 100, 80, 60, score=0.8)  # 80 wide, 60 tall
    standing = tile_row(12, 100, 400, 60, 80, score=0.8)
    assert all(d.width > LYING * d.height for d in lying)
    assert looks_turned(lying)
    assert not looks_turned(standing)
    assert not looks_turned(standing + lying[:2])  # a riichi hand's called tiles lie among standing ones
    assert not looks_turned(lying[: FEW_BOXES - 1])  # too few to say
    assert not looks_turned(tile_row(8, 100, 100, 80, 60, score=0.2))  # faint boxes do not count


def test_the_turned_look_replaces_the_sideways_boxes_and_adds_the_missed_ones() -> None:
    image = np.zeros((400, 600, 3), np.uint8)
    first = tile_row(3, 100, 100, 80, 60, score=0.5)  # three lying tiles found, faintly
    looked: list[tuple[int, ...]] = []

    def look(turned: np.ndarray) -> list[Detection]:
        looked.append(turned.shape)
        # upright in the turned photo (600 - x): the three found and two more beside them
        return [Detection((100.0, 520.0 - x, 160.0, 600.0 - x), "tile", 0.9) for x in range(100, 500, 80)]

    merged, where = turned_pass(look, image, first)
    assert looked == [(600, 400, 3)]
    assert where.turned and where.found == 5 and where.to_json()["turned"] is True
    assert len(merged) == 5 and all(d.score == 0.9 for d in merged)
    assert [d.box for d in merged] == [(float(x), 100.0, float(x + 80), 160.0) for x in range(100, 500, 80)]


@pytest.mark.models
@needs_models
def test_a_photo_turned_a_quarter_is_read_whole() -> None:
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    upright = PhotoReader().read_and_score(cv2.imread(str(EXAMPLE)))
    turned = cv2.rotate(cv2.imread(str(EXAMPLE)), cv2.ROTATE_90_CLOCKWISE)
    once = PhotoReader(closer=False).read_and_score(turned)
    result = PhotoReader().read_and_score(turned)
    assert len(once.tiles) < len(upright.tiles) == 15  # the sideways tiles the detector misses
    assert result.second_pass is not None and result.second_pass.turned
    assert sorted(t.code for t in result.tiles) == sorted(t.code for t in upright.tiles)


def test_slices_look_only_where_the_first_look_saw_anything() -> None:
    image = np.zeros((600, 800, 3), np.uint8)
    looked: list[tuple[int, ...]] = []

    def detect(crop: np.ndarray) -> list[Detection]:
        looked.append(crop.shape[:2])
        return tile_row(3, 10, 10, 20, 28, score=0.6)  # in the window's pixels

    regions = windows(image.shape)
    assert len(regions) == 4 and regions[0][:2] == (0.0, 0.0) and regions[-1][2:] == (800.0, 600.0)
    merged, where = sliced_pass(detect, image, [], SIZE)
    assert len(looked) == 4 and where is not None and where.slices == 4 and where.found == len(merged)
    assert where.region == (0.0, 0.0, 800.0, 600.0)
    looked.clear()
    hint = np.array([[700.0, 550.0]])  # one faint anchor, in the bottom-right window alone
    merged, where = sliced_pass(detect, image, [], SIZE, hint)
    x0, y0 = regions[-1][:2]
    assert len(looked) == 1 and [d.box[:2] for d in merged] == [(x0 + 10 + i * 20, y0 + 10) for i in range(3)]
    assert where is not None and where.slices == 1 and where.region == regions[-1]  # one closer region
    assert "slices" not in where.to_json()
    looked.clear()
    first = tile_row(2, 10, 10, 20, 28, score=0.2)
    merged, where = sliced_pass(detect, image, first, SIZE, np.zeros((0, 2)))  # nothing seen: no look
    assert looked == [] and where is None and merged == first


class _Counted:
    """A detector model that counts its runs (the closer looks' detector, watched)."""

    def __init__(self, model: object) -> None:
        self.model, self.runs = model, 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.model, name)

    def run(self, batch: np.ndarray) -> list[np.ndarray]:
        self.runs += 1
        return self.model.run(batch)  # type: ignore[attr-defined, no-any-return]


@pytest.mark.models
@pytest.mark.slow
@needs_models
def test_the_closer_looks_are_the_small_detector_s() -> None:
    from mahjong_camera_scorer.vision.models import MODELS_DIR, detector, small_detector
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    assert PhotoReader().small_det is small_detector(str(MODELS_DIR)) is not None
    assert PhotoReader(det=detector()).small_det is detector()  # a detector measured alone looks closer alone
    first, small = _Counted(detector()), _Counted(small_detector())
    result = PhotoReader(det=first, small_det=small).read_and_score(far_row_photo())  # type: ignore[arg-type]
    assert first.runs == 1 and small.runs >= 1  # the whole photo once, the closer looks by the small one
    assert result.second_pass is not None and len(result.tiles) == 15


def test_a_row_still_small_after_the_windows_is_looked_at_closer() -> None:
    image = np.zeros(PHOTO, np.uint8)
    # a row of 12 px tiles, seen 2x closer than the first look (0.24 input px a photo px): 5.8 px
    row = tile_row(6, 900, 1000, 9, 12, score=0.4)
    last = SecondPass((0.0, 0.0, 1000.0, 1500.0), 2.0, 6, slices=4)
    crops: list[tuple[int, ...]] = []

    def detect(crop: np.ndarray) -> list[Detection]:
        crops.append(crop.shape[:2])
        return []  # nothing new: the record still says where it looked

    boxes, where = rows_after_slices(detect, image, row, SIZE, last)
    assert len(crops) == 1 and boxes == row
    [(region, gain)] = where.looks
    assert gain >= 1.5 * last.gain and where.slices == 4
    assert where.to_json()["looks"][0]["gain"] == round(gain, 2)
    assert where.mapped(lambda b: tuple(2 * v for v in b)).looks[0][0] == tuple(2 * v for v in region)  # type: ignore[misc]


def test_no_look_closer_after_the_windows_where_they_saw_the_tiles_large_enough() -> None:
    image = np.zeros(PHOTO, np.uint8)
    row = tile_row(6, 900, 1000, 60, 80, score=0.8)  # 19 px at the first look, 38 px at gain 2
    last = SecondPass((800.0, 900.0, 1400.0, 1200.0), 2.0, 6)

    def detect(crop: np.ndarray) -> list[Detection]:
        raise AssertionError("no closer look expected")

    assert rows_after_slices(detect, image, row, SIZE, last) == (row, last)

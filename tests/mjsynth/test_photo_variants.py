"""Scene variants of a labelled photo (mjsynth.photo_variants): labels move with the pixels."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth import photo_variants as pv
from mahjong_camera_scorer.mjsynth.photo_variants import (
    SceneTile,
    place,
    rows_of,
    tile_size,
    variants,
    with_rows,
)

#: distinct saturated colours (BGR), one per tile of the synthetic photo
COLOURS = [
    (0, 0, 255), (0, 255, 0), (255, 0, 0), (0, 255, 255), (255, 0, 255), (255, 255, 0),
    (0, 128, 255), (255, 128, 0), (128, 0, 255), (0, 0, 128), (0, 128, 0), (128, 0, 0),
]  # fmt: skip


def synthetic_photo() -> tuple[np.ndarray, list[SceneTile]]:
    """A grey 'table' 640 x 480 with two rows of plain coloured tiles (48 x 64) and one lying
    apart: each tile's pixels are its own colour, so a box can be checked against its tile."""
    img = np.full((480, 640, 3), 128, np.uint8)
    labels = []
    k = 0
    for y0, xs in ((60, range(80, 80 + 5 * 52, 52)), (300, [100, 152, 204, 292, 344, 396])):
        for x0 in xs:
            labels.append((f"{k % 9 + 1}m", (float(x0), float(y0), x0 + 48.0, y0 + 64.0)))
            k += 1
    labels.append(("5z", (560.0, 180.0, 608.0, 244.0)))
    for (_, b), colour in zip(labels, COLOURS, strict=True):
        img[round(b[1]) : round(b[3]), round(b[0]) : round(b[2])] = colour
    return img, with_rows(labels)


def colour_box(img: np.ndarray, colour: tuple[int, int, int]) -> tuple[float, float, float, float] | None:
    """The bounds of the pixels close to ``colour`` (its tile as the variant drew it)."""
    near = np.abs(img.astype(int) - np.array(colour)).sum(axis=2) < 60
    ys, xs = np.nonzero(near)
    if len(xs) == 0:
        return None
    return float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)


def iou(a, b) -> float:  # type: ignore[no-untyped-def]
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def test_rows_are_chains_of_neighbours_side_by_side() -> None:
    _, tiles = synthetic_photo()
    rows = [t.row for t in tiles]
    # top row (5), bottom row (6: a set laid apart by 40 px, most of a tile's width, stays in it),
    # and the tile lying apart in no row
    assert rows == [0] * 5 + [1] * 6 + [None]
    # a gap of two tile heights splits a row; a much taller box beside a row is not in it
    boxes = [(0.0, 0, 40, 60), (45, 0, 85, 60), (90, 0, 130, 60), (260, 0, 300, 60), (135, 0, 215, 160)]
    assert rows_of(boxes) == [0, 0, 0, None, None]
    assert rows_of(boxes, min_row=1) == [0, 0, 0, 2, 1]


@pytest.mark.parametrize("kind", ["original", "crop", "far", "seat", "turn90", "turn180"])
def test_each_kind_keeps_every_box_on_its_tile(kind: str) -> None:
    img, tiles = synthetic_photo()
    made = list(variants(img, tiles, [kind], key="synthetic"))
    assert made, kind
    for v in made:
        assert v.kind == kind
        h, w = v.image.shape[:2]
        for p in v.tiles:
            x0, y0, x1, y1 = p.box
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            colour = COLOURS[next(i for i, t in enumerate(tiles) if t.row == p.row and t.code == p.code)]
            drawn = colour_box(v.image, colour)
            assert drawn is not None, (v.name, p)
            # far views are 10-24 px tiles: a pixel of resampling either way is a larger share
            assert iou(drawn, p.box) >= (0.75 if kind == "far" else 0.9), (v.name, p, drawn)


def test_turns_move_boxes_exactly() -> None:
    img, tiles = synthetic_photo()
    quarter = pv.turned(img, tiles, 1)
    half = pv.turned(img, tiles, 2)
    assert quarter.image.shape[:2] == (640, 480) and half.image.shape[:2] == (480, 640)
    x0, y0, x1, y1 = tiles[0].box
    assert quarter.tiles[0].box == pytest.approx((y0, 640 - x1, y1, 640 - x0))
    assert half.tiles[0].box == pytest.approx((640 - x1, 480 - y1, 640 - x0, 480 - y0))
    # a standing tile turned a quarter lies sideways and keeps its size (the long side)
    assert quarter.tiles[0].size == tile_size(tiles[0].box) == 64


def test_a_cut_tile_is_scored_by_the_share_left_in_the_frame() -> None:
    tile = [SceneTile("1m", (0.0, 0.0, 40.0, 60.0), 0)]
    for dx, visible, kept in ((-10, 0.75, True), (-20, 0.5, False), (-35, None, False)):
        placed = place(tile, pv._translate(dx, 0), 100, 100)
        if visible is None:  # an eighth of it: no tile any more
            assert placed == []
            continue
        assert placed[0].visible == pytest.approx(visible) and placed[0].required is kept
        assert placed[0].box == pytest.approx((0, 0, 40 + dx, 60)) and placed[0].size == 60


@pytest.mark.parametrize(("n", "top"), [(20, 236.0), (12, 0.0)])
def test_crops_are_tight_capped_in_aspect_and_sometimes_cut_an_end_tile(n: int, top: float) -> None:
    # one long row near the photo's bottom edge, its ends near the photo's sides (its natural
    # aspect over 15:1), or a row about 8:1 at the top edge, where no margin fits above it
    labels = [(f"{i % 9 + 1}p", (10.0 + 42 * i, top, 50.0 + 42 * i, top + 56)) for i in range(n)]
    img = np.full((300, 850, 3), 100, np.uint8)
    tiles = with_rows(labels)
    cuts = 0
    for seed in range(30):
        v = pv.row_crop(img, tiles, 0, random.Random(seed))
        assert v is not None
        h, w = v.image.shape[:2]
        assert w / h <= pv.MAX_ASPECT + 0.2
        assert h <= 56 * 1.6 or w / h >= pv.MAX_ASPECT - 0.2  # tiles fill the frame unless capped
        cut = "-cut-" in v.name
        cuts += cut
        end = v.tiles[0] if v.name.endswith("left") else v.tiles[-1]
        assert len(v.tiles) == n and all(p.required for p in v.tiles if p is not end)
        assert end.required is (not cut or end.visible >= pv.KEEP)
        if cut:  # 15-60 % of its width outside the frame
            assert 0.4 - 1e-6 <= end.visible <= 0.85 + 1e-6
    assert 5 <= cuts <= 18  # about a third


def test_far_views_make_tiles_10_to_24_px_and_seat_views_tilt_the_rows_behind() -> None:
    img, tiles = synthetic_photo()
    fars = [v for v in variants(img, tiles, ["far"], key="x")]
    sizes = [np.median([p.size for p in v.tiles]) for v in fars]
    assert len(fars) == 2 and 10 <= sizes[0] < 16 <= sizes[1] <= 24
    assert all(v.image.shape == img.shape for v in fars)
    (seat,) = variants(img, tiles, ["seat"], key="x")
    front = [p for p in seat.tiles if p.row == 1]  # the lowest row comes to the front
    behind = [p for p in seat.tiles if p.row == 0]
    h, w = seat.image.shape[:2]
    span = max(p.box[2] for p in front) - min(p.box[0] for p in front)
    assert 0.65 * w <= span <= 0.95 * w
    assert np.median([p.box[3] for p in front]) > 0.55 * h
    assert max(p.size for p in behind) < min(p.size for p in front)  # the rows beyond recede


def test_variants_are_deterministic_per_photo_and_seed_and_map_back() -> None:
    img, tiles = synthetic_photo()
    a = list(variants(img, tiles, pv.KINDS, key="p1"))
    b = list(variants(img, tiles, pv.KINDS, key="p1"))
    c = list(variants(img, tiles, pv.KINDS, key="p1", seed=1))
    assert [v.name for v in a] == [v.name for v in b]
    assert all(np.array_equal(x.image, y.image) for x, y in zip(a, b, strict=True))
    assert any(not np.array_equal(x.image, y.image) for x, y in zip(a, c, strict=False))
    assert {v.kind for v in a} == set(pv.KINDS)
    for v in a:  # a labelled tile's centre goes back to where it lay in the photo
        p, t = v.tiles[0], next(t for t in tiles if t.code == v.tiles[0].code and t.row == v.tiles[0].row)
        if p.required and v.kind != "seat":  # a seat view's box is the bounds of a warped quad
            back = v.back((p.box[0] + p.box[2]) / 2, (p.box[1] + p.box[3]) / 2)
            assert back == pytest.approx(((t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2), abs=1.0)
    with pytest.raises(ValueError, match="unknown variant"):
        list(variants(img, tiles, ["zoom"], key="p1"))

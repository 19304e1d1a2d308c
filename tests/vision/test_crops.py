import numpy as np
import pytest

from mahjong_camera_scorer.vision.crops import (
    CROP_SIZE,
    PAD_VALUE,
    crop_box,
    crop_tile,
    letterbox,
    pad_box,
    prepare_tile_image,
    rectify_quad,
)


def _scene() -> np.ndarray:
    img = np.full((200, 300, 3), 40, np.uint8)
    img[50:110, 100:145] = (0, 0, 220)  # a red, portrait "tile" 45x60
    img[50:60, 100:145] = (255, 255, 255)  # its top band
    return img


def test_crop_is_square_bgr_and_keeps_colour():
    c = crop_tile(_scene(), (100, 50, 145, 110))
    assert c.shape == (CROP_SIZE, CROP_SIZE, 3) and c.dtype == np.uint8
    mid = c[CROP_SIZE // 2, CROP_SIZE // 2]
    assert mid[2] > 200 and mid[0] < 30  # still red: never greyscale


def test_pad_box_grows_and_clips():
    assert pad_box((10, 10, 110, 60), (100, 100, 3), 0.1) == (0, 5, 100, 65)
    x0, y0, x1, y1 = pad_box((-5, -5, 5, 5), (50, 50, 3))
    assert x0 == 0 and y0 == 0 and x1 > x0 and y1 > y0


def test_landscape_box_is_turned_to_portrait():
    img = np.ascontiguousarray(np.rot90(_scene()))  # the tile now lies sideways
    h = img.shape[0]
    box = (50, h - 145, 110, h - 100)
    crop, rotated = crop_box(img, box)
    assert rotated
    ys, xs = np.nonzero(crop[..., 2] > 150)
    assert (ys.max() - ys.min()) > (xs.max() - xs.min())  # portrait content


def test_letterbox_pads_with_grey_and_centres():
    out = letterbox(np.zeros((320, 240, 3), np.uint8))
    assert out.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert tuple(out[CROP_SIZE // 2, 0]) == PAD_VALUE and tuple(out[CROP_SIZE // 2, CROP_SIZE // 2]) == (
        0,
        0,
        0,
    )
    grey = letterbox(np.zeros((10, 10), np.uint8))
    assert grey.shape == (CROP_SIZE, CROP_SIZE, 3)
    with pytest.raises(ValueError):
        letterbox(np.zeros((0, 5, 3), np.uint8))


def test_prepare_tile_image_for_real_crops():
    tile = np.zeros((320, 240, 3), np.uint8)
    tile[:] = (10, 200, 30)
    out = prepare_tile_image(tile)
    assert out.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert tuple(out[CROP_SIZE // 2, CROP_SIZE // 2]) == (10, 200, 30)
    assert prepare_tile_image(np.ascontiguousarray(np.rot90(tile))).shape == (CROP_SIZE, CROP_SIZE, 3)


def test_rectify_quad_puts_the_top_band_on_top():
    img = _scene()
    quad = [(100, 50), (145, 50), (145, 110), (100, 110)]
    up = rectify_quad(img, quad)
    upside = crop_tile(img, (0, 0, 1, 1), quad=[quad[2], quad[3], quad[0], quad[1]])
    top = lambda c: c[: CROP_SIZE // 3, CROP_SIZE // 3 : 2 * CROP_SIZE // 3].mean()  # noqa: E731
    bottom = lambda c: c[2 * CROP_SIZE // 3 :, CROP_SIZE // 3 : 2 * CROP_SIZE // 3].mean()  # noqa: E731
    assert top(up) > bottom(up)
    assert top(upside) < bottom(upside)


def test_the_crop_is_a_pure_function():
    img = _scene()
    assert np.array_equal(crop_tile(img, (100, 50, 145, 110)), crop_tile(img.copy(), (100, 50, 145, 110)))


def test_the_turn_can_be_forced_either_way():
    img = _scene()
    crop, rotated = crop_box(img, (100, 50, 145, 110), turn=True)  # a portrait box, turned anyway
    ys, xs = np.nonzero(crop[..., 2] > 150)
    assert rotated and (xs.max() - xs.min()) > (ys.max() - ys.min())
    side = np.ascontiguousarray(np.rot90(img))
    h = side.shape[0]
    crop, rotated = crop_box(side, (50, h - 145, 110, h - 100), turn=False)  # landscape, kept so
    ys, xs = np.nonzero(crop[..., 2] > 150)
    assert not rotated and (xs.max() - xs.min()) > (ys.max() - ys.min())

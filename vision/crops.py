"""Cut one tile out of a photo the way the reader expects it (shared by the data generator and run time).

The reader (a crop classifier) is trained on crops cut with these functions from synthetic scenes and run on
crops cut with the same functions from detector boxes, so training and run time see the same framing.
NumPy + OpenCV only: this module ships in the runtime.

Constants (changing any of them invalidates trained readers):

- ``CROP_SIZE = 96``: the reader's square input. A tile 96 px tall keeps a 9-circle's dots and a
  character's numeral strokes a few pixels wide; the detector sees tiles 20-300 px tall, so most crops are
  upsampled or mildly downsampled to this.
- ``PAD_FRACTION = 0.08``: each side of the box grows by 8 % of its size, so an imperfect detector box still
  holds the whole face and the reader sees the tile's edge (its outline tells the face from the body).
- ``PAD_VALUE = (114, 114, 114)``: letterbox grey (ultralytics' convention), BGR.
- Landscape boxes (``w > h * LANDSCAPE_RATIO``) are turned to portrait by rotating 90 degrees clockwise, so
  the reader only ever sees tall tiles; whether the result is upright or upside down is left to the reader.
- Colour stays BGR (never grey): red fives differ from plain fives only by colour.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

CROP_SIZE = 96
PAD_FRACTION = 0.08
PAD_VALUE = (114, 114, 114)
LANDSCAPE_RATIO = 1.15
#: Portrait aspect of a rectified tile (width / height) when a quad is given: real tiles are about 3:4.
TILE_ASPECT = 0.75


def pad_box(
    box: Sequence[float], image_shape: Sequence[int], pad: float = PAD_FRACTION
) -> tuple[int, int, int, int]:
    """Grow an ``xyxy`` box by ``pad`` of its size on each side and clip it to the image (integers)."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = x1 - x0, y1 - y0
    h_img, w_img = int(image_shape[0]), int(image_shape[1])
    x0, x1 = x0 - pad * w, x1 + pad * w
    y0, y1 = y0 - pad * h, y1 + pad * h
    xi0, yi0 = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
    xi1, yi1 = min(w_img, int(np.ceil(x1))), min(h_img, int(np.ceil(y1)))
    return xi0, yi0, max(xi0 + 1, xi1), max(yi0 + 1, yi1)


def letterbox(
    image: np.ndarray, size: int = CROP_SIZE, pad_value: tuple[int, int, int] = PAD_VALUE
) -> np.ndarray:
    """Fit an image into a ``size`` square keeping its aspect, centred on ``pad_value``; always 3-channel."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    h, w = image.shape[:2]
    if h == 0 or w == 0:
        raise ValueError("empty image")
    s = size / max(h, w)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (nw, nh), interpolation=interp)
    out = np.empty((size, size, 3), np.uint8)
    out[:] = pad_value
    x0, y0 = (size - nw) // 2, (size - nh) // 2
    out[y0 : y0 + nh, x0 : x0 + nw] = resized
    return out


def to_portrait(image: np.ndarray) -> tuple[np.ndarray, bool]:
    """Rotate a landscape tile image 90 degrees clockwise; return it and whether it was rotated."""
    h, w = image.shape[:2]
    if w > h * LANDSCAPE_RATIO:
        return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), True
    return image, False


def crop_tile(
    image: np.ndarray,
    box: Sequence[float],
    quad: Sequence[Sequence[float]] | None = None,
    size: int = CROP_SIZE,
    pad: float = PAD_FRACTION,
) -> np.ndarray:
    """The reader's input for one detection: pad the box, turn landscape to portrait, letterbox to ``size``.

    ``box`` is ``xyxy`` in pixels. With ``quad`` (the tile face's four corners in the order top-left,
    top-right, bottom-right, bottom-left *of the tile as read*), the face is instead rectified by a
    perspective warp to an upright portrait tile, padded by ``pad`` of its size.
    """
    if quad is not None:
        return rectify_quad(image, quad, size=size, pad=pad)
    return crop_box(image, box, size=size, pad=pad)[0]


def crop_box(
    image: np.ndarray,
    box: Sequence[float],
    size: int = CROP_SIZE,
    pad: float = PAD_FRACTION,
    turn: bool | None = None,
) -> tuple[np.ndarray, bool]:
    """``crop_tile`` for a box, also telling whether the cut was turned from landscape to portrait
    (the generator records it so the trainer knows which way up each crop lies). ``turn`` forces
    the turn (True) or forbids it (False) instead of judging by the box's shape: the runtime
    reads a nearly square box both ways (:mod:`vision.read`)."""
    x0, y0, x1, y1 = pad_box(box, image.shape, pad)
    cut = image[y0:y1, x0:x1]
    if turn is None:
        cut, rotated = to_portrait(cut)
    else:
        cut, rotated = (cv2.rotate(cut, cv2.ROTATE_90_CLOCKWISE), True) if turn else (cut, False)
    return letterbox(cut, size), rotated


def rectify_quad(
    image: np.ndarray, quad: Sequence[Sequence[float]], size: int = CROP_SIZE, pad: float = PAD_FRACTION
) -> np.ndarray:
    """Warp a tile face given by its corner quad to an upright portrait crop, letterboxed to ``size``."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    h = size
    w = round(size * TILE_ASPECT)
    # destination: the face plus the pad margin, inside a w x h portrait image
    px, py = pad * w / (1 + 2 * pad), pad * h / (1 + 2 * pad)
    dst = np.array([[px, py], [w - px, py], [w - px, h - py], [px, h - py]], np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    warped = cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=PAD_VALUE)
    return letterbox(warped, size)


def prepare_tile_image(tile: np.ndarray, size: int = CROP_SIZE) -> np.ndarray:
    """The reader's input for an image that already shows one tile (e.g. the 240x320 real crops):
    no padding is added (the image is already framed), landscape is turned to portrait, then letterboxed."""
    tile, _ = to_portrait(tile)
    return letterbox(tile, size)

"""Scene variants of a labelled photo, made by script: the scenes a user frames (issue 33).

The real test photos show hands from above or in front, at one distance, upright. A user also
sends a tight crop of the standing row, a row far away, a hand seen from the seat at a slant, a
photo turned. Each variant here is one 3x3 matrix from the photo's pixels to the variant's
(:attr:`Variant.matrix`), so the labels move exactly with the pixels: a tile's four corners are
mapped, its box is their bounding box clipped to the frame, and the share of it left inside the
frame (:attr:`Placed.visible`) says how it is scored:

- at least :data:`KEEP` of the tile in the frame: a tile to find and read;
- under :data:`GONE`: no tile any more (a box reported on the sliver is a false box);
- in between (a tile cut at the border): either answer is accepted. A box on it is neither a hit
  nor a false box, and a tile left unreported there is not a miss: a person would not agree
  whether half a tile is in the hand.

The kinds (:data:`KINDS`), each deterministic for a seed and a photo (:func:`variants`):

- ``original``: the photo as it is (the baseline every other number is read against);
- ``crop``: each labelled row (:func:`rows_of`) cut to its boxes plus a small margin, tiles filling
  the frame, aspect up to :data:`MAX_ASPECT`; a third of the crops cut an end tile at the border;
- ``far``: the photo scaled so its median tile is 10-16 and 16-24 px tall, placed at a random spot
  of a frame of the photo's own size (the same camera, further away) filled with a neutral grey,
  the photo itself blurred, or a table colour;
- ``seat``: a perspective warp that brings the lowest row into the near foreground of the frame,
  the plane tilted back 20-45 degrees (turned a little to the side and rolled a little, as a hand-held
  phone is), the rest of the photo receding beyond it;
- ``turn90`` / ``turn180``: the photo turned a quarter (anticlockwise) or half turn.

A tile's size is the long side of its box (:func:`tile_size`): a tile turned sideways keeps it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from statistics import median

import cv2
import numpy as np

from mahjong_camera_scorer.vision.linked import groups_of

Box = tuple[float, float, float, float]

#: A tile with at least this share of it in the frame must be found and read ...
KEEP = 0.75
#: ... under this share it is gone (no tile); in between, a tile cut at the border: either answer.
GONE = 0.25
#: A row has at least this many labelled tiles (fewer: tiles lying about, not a row).
MIN_ROW = 3
#: Two boxes are neighbours in a row when their heights differ by at most this factor, ...
ROW_HEIGHT_RATIO = 1.6
#: ... they overlap across the row by at least this share of the lower one, ...
ROW_OVERLAP = 0.5
#: ... and the gap between them is at most this many (mean) tile heights (sets laid apart).
ROW_GAP = 1.0
#: A crop is never wider than this many times its height (its margin grows instead).
MAX_ASPECT = 8.0
#: A crop cuts one of its end tiles at the border with this chance, ...
CUT_CHANCE = 1 / 3
#: ... leaving this share of the tile's width outside the frame.
CUT_SHARE = (0.15, 0.6)
#: The margin around a crop's boxes, a share of the tile's height (above and below) or width.
CROP_MARGIN = (0.04, 0.3)
#: The far views: tiles this tall (median, px), one view per range.
FAR_SIZES = ((10.0, 16.0), (16.0, 24.0))
#: The seat view's tilt of the table plane away from the camera (degrees), ...
SEAT_TILT = (20.0, 45.0)
#: ... its turn to the side, and its roll in the frame (degrees, either way).
SEAT_YAW, SEAT_ROLL = 20.0, 8.0
#: The seat view's row spans this share of the frame's width, centred this far down the frame.
SEAT_SPAN, SEAT_DOWN = (0.7, 0.92), (0.6, 0.75)

KINDS = ("original", "crop", "far", "seat", "turn90", "turn180")


@dataclass(frozen=True)
class SceneTile:
    """A labelled tile of the source photo: its code, box (pixels) and row (None: in no row)."""

    code: str
    box: Box
    row: int | None = None


@dataclass(frozen=True)
class Placed:
    """A labelled tile in a variant: its box there (clipped to the frame), the share of it
    inside the frame, and its size (the long side of its box before clipping)."""

    code: str
    box: Box
    row: int | None
    visible: float
    size: float

    @property
    def required(self) -> bool:
        """A tile the reading must find (and read): enough of it in the frame."""
        return self.visible >= KEEP


@dataclass
class Variant:
    """One variant of a photo: its kind, a name unique within the photo, the pixels, the matrix
    from the photo's pixels to these, and the photo's labelled tiles placed in it."""

    kind: str
    name: str
    image: np.ndarray
    matrix: np.ndarray
    tiles: list[Placed]

    def back(self, x: float, y: float) -> tuple[float, float] | None:
        """A point of the variant in the photo's pixels (None: it shows no point of the photo)."""
        p = np.linalg.inv(self.matrix) @ np.array([x, y, 1.0])
        if p[2] <= 0:
            return None
        return float(p[0] / p[2]), float(p[1] / p[2])


def tile_size(box: Sequence[float]) -> float:
    """A tile's size in pixels: the long side of its box (standing or turned sideways alike)."""
    return max(box[2] - box[0], box[3] - box[1])


def _same_row(a: Box, b: Box) -> bool:
    ha, hb = a[3] - a[1], b[3] - b[1]
    if max(ha, hb) > ROW_HEIGHT_RATIO * min(ha, hb):
        return False
    overlap = min(a[3], b[3]) - max(a[1], b[1])
    gap = max(a[0], b[0]) - min(a[2], b[2])
    return overlap >= ROW_OVERLAP * min(ha, hb) and gap <= ROW_GAP * (ha + hb) / 2


def rows_of(boxes: Sequence[Box], min_row: int = MIN_ROW) -> list[int | None]:
    """Each box's row: chains of neighbours side by side (:func:`_same_row`) of at least
    ``min_row`` boxes, numbered top to bottom; None for a box in no row. Rows are taken across
    the photo as it stands (the source photos are upright)."""
    pairs = ((i, j) for i, a in enumerate(boxes) for j in range(i) if _same_row(a, boxes[j]))
    rows = [g for g in groups_of(len(boxes), pairs) if len(g) >= min_row]
    rows.sort(key=lambda g: (min(boxes[i][1] for i in g), min(boxes[i][0] for i in g)))
    out: list[int | None] = [None] * len(boxes)
    for n, g in enumerate(rows):
        for i in g:
            out[i] = n
    return out


def with_rows(labels: Sequence[tuple[str, Box]]) -> list[SceneTile]:
    """Labelled tiles (code, box) with their rows (:func:`rows_of`)."""
    rows = rows_of([b for _, b in labels])
    return [SceneTile(c, b, r) for (c, b), r in zip(labels, rows, strict=True)]


# -- moving labels with the pixels ------------------------------------------------------------


def _corners(box: Box) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


def place(tiles: Sequence[SceneTile], matrix: np.ndarray, width: int, height: int) -> list[Placed]:
    """The tiles in a frame of ``width`` x ``height`` that ``matrix`` maps the photo into: each
    tile's corners mapped, its box their bounding box clipped to the frame; tiles with under
    :data:`GONE` of them inside (or any corner behind the camera) are left out."""
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    out: list[Placed] = []
    for t in tiles:
        pts = np.hstack([_corners(t.box), np.ones((4, 1))]) @ matrix.T
        if np.any(pts[:, 2] <= 1e-9):
            continue
        quad = (pts[:, :2] / pts[:, 2:]).astype(np.float32)
        area = abs(float(cv2.contourArea(quad)))
        if area <= 0:
            continue
        inside, _ = cv2.intersectConvexConvex(quad, frame)
        visible = min(1.0, max(0.0, float(inside) / area))
        if visible < GONE:
            continue
        x0, y0 = (float(v) for v in quad.min(axis=0))
        x1, y1 = (float(v) for v in quad.max(axis=0))
        size = max(x1 - x0, y1 - y0)
        box = (max(0.0, x0), max(0.0, y0), min(float(width), x1), min(float(height), y1))
        out.append(Placed(t.code, box, t.row, round(visible, 4), size))
    return out


def _translate(dx: float, dy: float) -> np.ndarray:
    return np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])


def _scale(s: float) -> np.ndarray:
    return np.diag([s, s, 1.0])


def _border_colour(image: np.ndarray) -> tuple[float, float, float]:
    """The median colour of the photo's outer pixels (what surrounds the scene: the table)."""
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).reshape(-1, 3)
    b, g, r = (float(v) for v in np.median(edge, axis=0))
    return b, g, r


# -- the kinds ----------------------------------------------------------------------------------


def original(image: np.ndarray, tiles: Sequence[SceneTile]) -> Variant:
    h, w = image.shape[:2]
    m = np.eye(3)
    return Variant("original", "original", image, m, place(tiles, m, w, h))


def turned(image: np.ndarray, tiles: Sequence[SceneTile], quarters: int) -> Variant:
    """The photo turned ``quarters`` quarter turns anticlockwise (as :func:`numpy.rot90`)."""
    h, w = image.shape[:2]
    q = quarters % 4
    m = np.eye(3)
    for _ in range(q):  # one quarter: (x, y) -> (y, w - x), the frame w x h becomes h x w
        m = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, float(w)], [0.0, 0.0, 1.0]]) @ m
        w, h = h, w
    out = np.ascontiguousarray(np.rot90(image, q))
    return Variant(f"turn{90 * q}", f"turn{90 * q}", out, m, place(tiles, m, w, h))


def _row_box(tiles: Sequence[SceneTile]) -> Box:
    return (
        min(t.box[0] for t in tiles),
        min(t.box[1] for t in tiles),
        max(t.box[2] for t in tiles),
        max(t.box[3] for t in tiles),
    )


def row_crop(image: np.ndarray, tiles: Sequence[SceneTile], row: int, rng: random.Random) -> Variant | None:
    """A tight crop of one row: its boxes plus a small margin, an end tile cut at the border with
    :data:`CUT_CHANCE` (left or right), the aspect capped at :data:`MAX_ASPECT`."""
    members = sorted((t for t in tiles if t.row == row), key=lambda t: t.box[0])
    if not members:
        return None
    h_img, w_img = image.shape[:2]
    x0, y0, x1, y1 = _row_box(members)
    th = median(t.box[3] - t.box[1] for t in members)
    first, last = members[0].box, members[-1].box
    x0 -= rng.uniform(*CROP_MARGIN) * (first[2] - first[0])
    x1 += rng.uniform(*CROP_MARGIN) * (last[2] - last[0])
    y0 -= rng.uniform(*CROP_MARGIN) * th
    y1 += rng.uniform(*CROP_MARGIN) * th
    cut = "none"
    if rng.random() < CUT_CHANCE:
        cut = rng.choice(("left", "right"))
        share = rng.uniform(*CUT_SHARE)
        if cut == "left":
            x0 = first[0] + share * (first[2] - first[0])
        else:
            x1 = last[2] - share * (last[2] - last[0])
    x0, x1, y0, y1 = max(0.0, x0), min(float(w_img), x1), max(0.0, y0), min(float(h_img), y1)
    if (x1 - x0) > MAX_ASPECT * (y1 - y0):
        grow = ((x1 - x0) / MAX_ASPECT - (y1 - y0)) / 2
        y0, y1 = y0 - grow, y1 + grow
        # a row at the photo's edge: the window moves into the photo rather than lose its height
        shift = max(0.0, -y0) - max(0.0, y1 - h_img)
        y0, y1 = y0 + shift, y1 + shift
    c0, r0 = max(0, math.floor(x0)), max(0, math.floor(y0))
    c1, r1 = min(w_img, math.ceil(x1)), min(h_img, math.ceil(y1))
    if c1 - c0 < 8 or r1 - r0 < 8:
        return None
    m = _translate(-c0, -r0)
    crop = np.ascontiguousarray(image[r0:r1, c0:c1])
    name = f"crop-r{row}" + ("" if cut == "none" else f"-cut-{cut}")
    return Variant("crop", name, crop, m, place(tiles, m, c1 - c0, r1 - r0))


def _fill(kind: str, image: np.ndarray, w: int, h: int, rng: random.Random) -> np.ndarray:
    """The frame around a far view: ``grey`` (neutral), ``blurred`` (the photo itself, blurred
    past any tile's shape) or ``table`` (a cloth or wood colour), each with a little noise."""
    if kind == "blurred":  # blurred small, then enlarged: the same look at a fraction of the cost
        small = cv2.resize(image, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), max(w, h) / 15 / 8)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    else:
        if kind == "grey":
            v = rng.uniform(90, 170)
            colour = (v, v, v)
        else:  # green cloth, blue cloth, wood, dark table (BGR)
            colour = rng.choice(((50, 120, 40), (150, 105, 40), (70, 115, 165), (55, 55, 60)))
        out = np.empty((h, w, 3), np.float32)
        out[:] = colour
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 3, out.shape)
    filled: np.ndarray = np.clip(out + noise, 0, 255).astype(np.uint8)
    return filled


FAR_FILLS = ("grey", "blurred", "table")


def far_view(
    image: np.ndarray, tiles: Sequence[SceneTile], size: float, rng: random.Random, fill: str
) -> Variant | None:
    """The photo scaled so its median tile is ``size`` px (long side), placed at a random spot of
    a frame of its own size (:func:`_fill`). None when its tiles are that small already."""
    h, w = image.shape[:2]
    sizes = [tile_size(t.box) for t in tiles]
    if not sizes:
        return None
    s = size / median(sizes)
    if s >= 1:
        return None
    sw, sh = max(1, round(w * s)), max(1, round(h * s))
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    out = _fill(fill, image, w, h, rng)
    x, y = rng.randint(0, w - sw), rng.randint(0, h - sh)
    out[y : y + sh, x : x + sw] = small
    # the resize maps pixel edges to pixel edges: x' = x * sw / w (the scale per axis, rounded)
    m = _translate(x, y) @ np.diag([sw / w, sh / h, 1.0])
    return Variant("far", f"far-{size:.0f}px-{fill}", out, m, place(tiles, m, w, h))


def _rotation(tilt: float, yaw: float, roll: float) -> np.ndarray:
    """The table plane's rotation: tilted back by ``tilt`` (its top away from the camera), turned
    ``yaw`` to the side, rolled ``roll`` in the frame (degrees)."""
    t, y, r = (math.radians(v) for v in (-tilt, yaw, roll))
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    ry = np.array([[math.cos(y), 0, math.sin(y)], [0, 1, 0], [-math.sin(y), 0, math.cos(y)]])
    rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    rotation: np.ndarray = rz @ ry @ rx
    return rotation


def seat_matrix(
    focus: Box, width: int, height: int, tilt: float, yaw: float, roll: float, span: float, down: float
) -> np.ndarray:
    """The matrix of a seat view: the photo as a plane through ``focus``'s centre, rotated
    (:func:`_rotation`) and seen by a pinhole camera (focal length the photo's long side, at that
    distance from the plane), then scaled and moved so that ``focus`` spans ``span`` of the
    frame's width (at most 45 % of its height) with its centre ``down`` of the way down."""
    f = float(max(width, height))
    cx, cy = (focus[0] + focus[2]) / 2, (focus[1] + focus[3]) / 2
    rot = _rotation(tilt, yaw, roll)
    plane = np.array(
        [
            [f * rot[0, 0], f * rot[0, 1], 0.0],
            [f * rot[1, 0], f * rot[1, 1], 0.0],
            [rot[2, 0], rot[2, 1], f],
        ]
    )
    m = plane @ _translate(-cx, -cy)
    pts = np.hstack([_corners(focus), np.ones((4, 1))]) @ m.T
    xy = pts[:, :2] / pts[:, 2:]
    fw, fh = float(np.ptp(xy[:, 0])), float(np.ptp(xy[:, 1]))
    k = min(span * width / max(fw, 1e-6), 0.45 * height / max(fh, 1e-6))
    mid = (xy.min(axis=0) + xy.max(axis=0)) / 2 * k
    seat: np.ndarray = _translate(width / 2 - mid[0], down * height - mid[1]) @ _scale(k) @ m
    return seat


def seat_view(
    image: np.ndarray, tiles: Sequence[SceneTile], rng: random.Random, focus_row: int | None = None
) -> Variant | None:
    """One row (``focus_row``, else the photo's lowest: the one a camera at the seat is nearest)
    brought into the near foreground (:func:`seat_matrix`), tilted :data:`SEAT_TILT`, the rest of
    the photo receding beyond it; what the warp shows of no point of the photo is the photo's
    border colour. Without rows, the whole labelled area is the focus; without labels, None."""
    if not tiles:
        return None
    rows = {t.row for t in tiles if t.row is not None}
    if focus_row is None and rows:
        focus_row = max(rows, key=lambda r: max(t.box[3] for t in tiles if t.row == r))
    focus = [t for t in tiles if t.row == focus_row] if focus_row is not None else list(tiles)
    h, w = image.shape[:2]
    tilt = rng.uniform(*SEAT_TILT)
    yaw, roll = rng.uniform(-SEAT_YAW, SEAT_YAW), rng.uniform(-SEAT_ROLL, SEAT_ROLL)
    m = seat_matrix(_row_box(focus), w, h, tilt, yaw, roll, rng.uniform(*SEAT_SPAN), rng.uniform(*SEAT_DOWN))
    colour = _border_colour(image)
    # OpenCV's pixel coordinates are the pixels' centres, the labels' their edges
    at_centres = _translate(-0.5, -0.5) @ m @ _translate(0.5, 0.5)
    out = cv2.warpPerspective(
        image, at_centres, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=colour
    )
    # pixels whose ray meets the plane behind the camera show no point of the photo
    inv = np.linalg.inv(m)
    ys, xs = np.mgrid[0:h, 0:w]
    behind = inv[2, 0] * (xs + 0.5) + inv[2, 1] * (ys + 0.5) + inv[2, 2] <= 0
    out[behind] = np.array(colour, dtype=np.float64).round().astype(np.uint8)
    name = f"seat-{'all' if focus_row is None else f'r{focus_row}'}-{tilt:.0f}deg"
    return Variant("seat", name, out, m, place(tiles, m, w, h))


def variants(
    image: np.ndarray, tiles: Sequence[SceneTile], kinds: Sequence[str], key: str, seed: int = 0
) -> Iterator[Variant]:
    """The variants of one photo, kind by kind in ``kinds``' order; each kind draws from its own
    generator seeded by ``seed``, ``key`` (the photo's name) and the kind, so that a photo's
    variants do not change when other photos or kinds are added or left out. Variants with no
    tile to find are left out."""
    for kind in kinds:
        if kind not in KINDS:
            raise ValueError(f"unknown variant {kind!r} (known: {', '.join(KINDS)})")
        rng = random.Random(f"{seed}:{key}:{kind}")
        made: list[Variant | None] = []
        if kind == "original":
            made = [original(image, tiles)]
        elif kind == "crop":
            rows = sorted({t.row for t in tiles if t.row is not None})
            made = [row_crop(image, tiles, r, rng) for r in rows]
        elif kind == "far":
            made = [
                far_view(image, tiles, rng.uniform(*sizes), rng, rng.choice(FAR_FILLS)) for sizes in FAR_SIZES
            ]
        elif kind == "seat":
            made = [seat_view(image, tiles, rng)]
        else:
            made = [turned(image, tiles, int(kind[len("turn") :]) // 90)]
        for v in made:
            if v is not None and any(p.required for p in v.tiles):
                yield v

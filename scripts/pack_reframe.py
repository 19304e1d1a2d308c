"""Re-frame a labelled photo the ways issue 33 says users frame theirs (numpy + OpenCV only).

The accelerator run (``scripts/device_run.py``) draws these from each real training photo of
its pack, on the machine's 16 cores, so the 64 MiB a run can carry hold each photo once while
the detector still sees it framed as people frame theirs:

- :func:`row_crop`: a tight crop of one row (its boxes plus a small margin, or less than none:
  the end tiles cut), 3:1 to 8:1, the tiles filling the frame;
- :func:`far_view`: the photo small in a larger frame, its tiles 10-24 px tall;
- :func:`seat_view`: the photo seen from a seat, tilted 20-45 degrees away (the near row large,
  the far side small), with a little roll;
- :func:`turned`: turned by 90, 180 or 270 degrees.

Labels are ``(class, x0, y0, x1, y1)`` in pixels. A box that a re-framing cuts keeps its label
only while most of it (:data:`KEEP_VISIBLE`) is in the frame: a sliver of a tile is not a tile.
Only training photos are re-framed here; the measured variants of issue 33 come from photos no
model trained on.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import cv2
import numpy as np

Label = tuple[int, float, float, float, float]

#: share of a box that must stay in the frame for it to keep its label
KEEP_VISIBLE = 0.6
#: smallest box side (px) worth a label after a re-framing
MIN_SIDE = 3.0
#: what a far view's tiles measure, px tall, in a frame whose long side is :data:`FRAME`
FAR_TILE_PX = (10.0, 24.0)
FRAME = 640
#: how far a seat view tilts the table away from the camera (degrees)
SEAT_TILT = (20.0, 45.0)


def read_yolo(text: str, width: int, height: int) -> list[Label]:
    """YOLO label lines (``class cx cy w h``, normalised) in pixels."""
    out: list[Label] = []
    for line in text.splitlines():
        v = line.split()
        if len(v) != 5:
            continue
        c, cx, cy, w, h = int(v[0]), *map(float, v[1:])
        out.append(
            (c, (cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
        )
    return out


def yolo_text(labels: Sequence[Label], width: int, height: int) -> str:
    """Labels as YOLO lines, normalised to the image's size."""
    return "".join(
        f"{c} {(x0 + x1) / 2 / width:.6f} {(y0 + y1) / 2 / height:.6f} "
        f"{(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}\n"
        for c, x0, y0, x1, y1 in labels
    )


def clip_labels(labels: Sequence[Label], width: int, height: int) -> list[Label]:
    """Labels cut to the frame; a box with less than :data:`KEEP_VISIBLE` of it inside, or
    thinner than :data:`MIN_SIDE`, is dropped."""
    out: list[Label] = []
    for c, x0, y0, x1, y1 in labels:
        area = max(1e-6, (x1 - x0) * (y1 - y0))
        cx0, cy0, cx1, cy1 = max(0.0, x0), max(0.0, y0), min(float(width), x1), min(float(height), y1)
        if cx1 - cx0 < MIN_SIDE or cy1 - cy0 < MIN_SIDE:
            continue
        if (cx1 - cx0) * (cy1 - cy0) / area >= KEEP_VISIBLE:
            out.append((c, cx0, cy0, cx1, cy1))
    return out


def rows_of(labels: Sequence[Label]) -> list[list[Label]]:
    """Boxes grouped into rows, left to right: a box joins the row whose last box it overlaps
    across (by 60 % of the lower one) and stands beside (a gap under 0.6 of their width)."""
    rows: list[list[Label]] = []
    for b in sorted(labels, key=lambda b: (b[1] + b[3]) / 2):
        for row in rows:
            last = row[-1]
            overlap = min(last[4], b[4]) - max(last[2], b[2])
            lower = min(last[4] - last[2], b[4] - b[2])
            width = (last[3] - last[1] + b[3] - b[1]) / 2
            if overlap >= 0.6 * lower and b[1] - last[3] <= 0.6 * width and b[1] > last[1]:
                row.append(b)
                break
        else:
            rows.append([b])
    return rows


def row_crop(
    image: np.ndarray, labels: Sequence[Label], row: Sequence[Label], rng: random.Random
) -> tuple[np.ndarray, list[Label]] | None:
    """A tight crop around one row: a margin of 2-20 % of a tile's height above and below, and
    from 45 % of a tile's width inside (an end tile cut) to 30 % outside at each end."""
    if not row:
        return None
    h, w = image.shape[:2]
    tw = float(np.median([b[3] - b[1] for b in row]))
    th = float(np.median([b[4] - b[2] for b in row]))
    x0 = min(b[1] for b in row) - rng.uniform(-0.45, 0.3) * tw
    x1 = max(b[3] for b in row) + rng.uniform(-0.45, 0.3) * tw
    y0 = min(b[2] for b in row) - rng.uniform(0.02, 0.2) * th
    y1 = max(b[4] for b in row) + rng.uniform(0.02, 0.2) * th
    xi0, yi0 = max(0, int(x0)), max(0, int(y0))
    xi1, yi1 = min(w, math.ceil(x1)), min(h, math.ceil(y1))
    if xi1 - xi0 < 16 or yi1 - yi0 < 8:
        return None
    crop = image[yi0:yi1, xi0:xi1]
    moved = [(c, a - xi0, b - yi0, d - xi0, e - yi0) for c, a, b, d, e in labels]
    kept = clip_labels(moved, xi1 - xi0, yi1 - yi0)
    return (np.ascontiguousarray(crop), kept) if kept else None


def _background(image: np.ndarray, width: int, height: int, rng: random.Random) -> np.ndarray:
    """A frame's surroundings: the photo's own colours as a smooth gradient, with sensor noise."""
    tiny = cv2.resize(image, (3, 3), interpolation=cv2.INTER_AREA)
    bg = cv2.resize(tiny, (width, height), interpolation=cv2.INTER_CUBIC).astype(np.float32)
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 6), bg.shape)
    return np.clip(bg + noise, 0, 255).astype(np.uint8)


def far_view(
    image: np.ndarray, labels: Sequence[Label], rng: random.Random
) -> tuple[np.ndarray, list[Label]] | None:
    """The photo shrunk so its median tile is 10-24 px tall, placed at random in a frame of
    :data:`FRAME` px (feathered edge, its own colours around it). None when its tiles are
    already that small."""
    if not labels:
        return None
    med = float(np.median([b[4] - b[2] for b in labels]))
    s = rng.uniform(*FAR_TILE_PX) / max(med, 1.0)
    h, w = image.shape[:2]
    if s >= 0.9:
        return None
    W, H = FRAME, rng.randint(int(FRAME * 0.75), FRAME)
    sw, sh = max(1, round(w * s)), max(1, round(h * s))
    if sw > W or sh > H:
        return None
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    ox, oy = rng.randint(0, W - sw), rng.randint(0, H - sh)
    canvas = _background(image, W, H, rng)
    alpha = np.zeros((H, W), np.float32)
    alpha[oy : oy + sh, ox : ox + sw] = 1.0
    alpha = cv2.GaussianBlur(alpha, (0, 0), 1.5)[..., None]
    placed = canvas.copy()
    placed[oy : oy + sh, ox : ox + sw] = small
    out = (placed * alpha + canvas * (1 - alpha)).astype(np.uint8)
    moved = [(c, a * s + ox, b * s + oy, d * s + ox, e * s + oy) for c, a, b, d, e in labels]
    kept = clip_labels(moved, W, H)
    return (out, kept) if kept else None


def seat_homography(width: int, height: int, tilt_deg: float, focal: float, roll_deg: float) -> np.ndarray:
    """The homography of a photo plane tilted ``tilt_deg`` away from a camera of focal length
    ``focal`` (px) at its centre (the bottom edge near and wide, the top far and narrow), then
    rolled ``roll_deg``; scaled to fit :data:`FRAME`."""
    t, r = math.radians(tilt_deg), math.radians(roll_deg)
    src = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    dst = []
    for x, y in src:
        X, Y = x - width / 2, y - height / 2
        Z = focal - Y * math.sin(t)  # the lower half of the photo comes nearer
        u, v = focal * X / Z, focal * Y * math.cos(t) / Z
        dst.append([u * math.cos(r) - v * math.sin(r), u * math.sin(r) + v * math.cos(r)])
    d = np.float32(dst)
    d -= d.min(0)
    d *= FRAME / float(d.max())
    return np.asarray(cv2.getPerspectiveTransform(src, d), np.float64)


def seat_view(
    image: np.ndarray, labels: Sequence[Label], rng: random.Random
) -> tuple[np.ndarray, list[Label]] | None:
    """The photo as seen from a seat: tilted 20-45 degrees away, rolled up to 8 degrees. A box
    becomes the bounds of its warped corners."""
    h, w = image.shape[:2]
    m = seat_homography(w, h, rng.uniform(*SEAT_TILT), w * rng.uniform(0.9, 1.5), rng.uniform(-8, 8))
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), m)[0]
    W, H = (math.ceil(v) for v in corners.max(0))
    border = np.median(np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]), axis=0)
    out = cv2.warpPerspective(
        image, m, (W, H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=border.tolist()
    )
    moved: list[Label] = []
    for c, x0, y0, x1, y1 in labels:
        pts = cv2.perspectiveTransform(np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]]), m)[0]
        moved.append((c, *map(float, pts.min(0)), *map(float, pts.max(0))))  # type: ignore[arg-type]
    kept = clip_labels(moved, W, H)
    return (out, kept) if kept else None


def turned(image: np.ndarray, labels: Sequence[Label], quarter_turns: int) -> tuple[np.ndarray, list[Label]]:
    """The photo turned clockwise by ``quarter_turns`` x 90 degrees, its boxes with it."""
    h, w = image.shape[:2]
    k = quarter_turns % 4
    if k == 0:
        return image, list(labels)
    code = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}[k]
    out: list[Label] = []
    for c, x0, y0, x1, y1 in labels:
        if k == 1:  # (x, y) -> (h - y, x)
            out.append((c, h - y1, x0, h - y0, x1))
        elif k == 2:  # (x, y) -> (w - x, h - y)
            out.append((c, w - x1, h - y1, w - x0, h - y0))
        else:  # (x, y) -> (y, w - x)
            out.append((c, y0, w - x1, y1, w - x0))
    return cv2.rotate(image, code), out


#: What a run draws from each real training photo by default (the pack's manifest can say
#: otherwise): row crops of up to this many rows of 3+ tiles, and the chance of one far view, one
#: seat view and one turned copy.
RECIPE: dict[str, float] = {"rows": 2, "far": 0.5, "seat": 0.7, "turn": 0.3}


def variants(
    image: np.ndarray, labels: Sequence[Label], rng: random.Random, recipe: dict[str, float] = RECIPE
) -> list[tuple[str, np.ndarray, list[Label]]]:
    """The re-framings of one photo that :data:`RECIPE` asks for: ``(kind, image, labels)``."""
    out: list[tuple[str, np.ndarray, list[Label]]] = []
    rows = [r for r in rows_of(labels) if len(r) >= 3]
    for row in rng.sample(rows, min(len(rows), int(recipe.get("rows", 0)))):
        made = row_crop(image, labels, row, rng)
        if made:
            out.append(("row", *made))
    for kind, make in (("far", far_view), ("seat", seat_view)):
        if rng.random() < recipe.get(kind, 0.0):
            made = make(image, labels, rng)
            if made:
                out.append((kind, *made))
    if rng.random() < recipe.get("turn", 0.0):
        out.append(("turn", *turned(image, labels, rng.choice((1, 2, 3)))))
    return out

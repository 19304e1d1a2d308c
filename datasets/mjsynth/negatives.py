"""Boxes that hold no whole tile: the hard negatives a scene lists for the reader's ``none`` class.

On real photos the detector's false boxes fall on key caps, screen icons, the strokes of a large glyph,
cup rims, tiles cut by the frame, and the sides and edges of tiles (read as ``back``). A scene knows
exactly where each of those is, so it lists them (``manifest["negatives"]``: ``what`` and ``box``) and
the writer cuts a few of them as ``none`` crops with the reader's own ``crop_box``.

A box is listed only when what it names is really what the photo shows there: at least half of its
pixels belong to that prop or tile in the scene's id map (so a key cap hidden under a tile is not a
"key cap"), and it is between :data:`MIN_PX` and :data:`MAX_FRACTION` of the image in size.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth.clutter import Prop, part_quads

if TYPE_CHECKING:
    from mahjong_camera_scorer.mjsynth.clutter import CupGeometry
    from mahjong_camera_scorer.mjsynth.manifest import Negative, TileLabel
    from mahjong_camera_scorer.mjsynth.tilebody import TileGeometry

MIN_PX = 8
MAX_FRACTION = 0.6
#: Negatives that come from props (the rest are parts of tiles).
PROP_PARTS = ("keycap", "icon", "glyph_stroke", "cup_rim")
#: At most this many candidates of one kind per photo (a keyboard has 40 key caps).
MAX_PER_KIND = 12


def _box(uv: np.ndarray, w: int, h: int) -> list[float] | None:
    if not np.isfinite(uv).all() or np.abs(uv).max() > 1e5:
        return None
    x0, y0 = np.clip(uv.min(axis=0), 0, [w, h])
    x1, y1 = np.clip(uv.max(axis=0), 0, [w, h])
    if x1 - x0 < MIN_PX or y1 - y0 < MIN_PX or x1 - x0 > MAX_FRACTION * w or y1 - y0 > MAX_FRACTION * h:
        return None
    return [float(x0), float(y0), float(x1), float(y1)]


def _area(poly: np.ndarray) -> float:
    return abs(float(cv2.contourArea(np.asarray(poly, np.float32).reshape(-1, 2))))


def _overlap(box: list[float], quad: list[list[float]]) -> float:
    """Area of ``box`` that a convex ``quad`` covers."""
    x0, y0, x1, y1 = box
    rect = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    hull = cv2.convexHull(np.asarray(quad, np.float32).reshape(-1, 2))
    area, _ = cv2.intersectConvexConvex(rect, hull)
    return float(area)


def _owned(ids: np.ndarray, box: list[float], owner: int, need: float = 0.5) -> bool:
    x0, y0, x1, y1 = (round(v) for v in box)
    sub = ids[y0:y1, x0:x1]
    return sub.size > 0 and float((sub == owner).mean()) >= need


def prop_negatives(
    props: list[tuple[int, Prop, TileGeometry | CupGeometry]],
    ids: np.ndarray,
    project: Callable[[np.ndarray], np.ndarray],
) -> list[Negative]:
    """Key caps, icons, glyph strokes (box props' parts) and cup rims, where the photo shows them."""
    h, w = ids.shape
    out: list[Negative] = []
    for obj_id, p, drawn in props:
        found: list[Negative] = []
        for what, pts in part_quads(p):
            box = _box(project(pts), w, h)
            if box is not None and _owned(ids, box, obj_id, 0.8):  # nothing else (a tile) in the box
                found.append({"what": what, "box": box})
        if "rim" in drawn:
            box = _box(drawn["rim"], w, h)
            if box is not None and _owned(ids, box, obj_id, 0.4):
                found.append({"what": "cup_rim", "box": box})
        out += found[:MAX_PER_KIND]
    return out


def tile_negatives(
    instances: list[TileLabel], geo: dict[int, TileGeometry], ids: np.ndarray, rng: random.Random
) -> list[Negative]:
    """Parts of tiles that are not a whole tile: tiles cut by the frame to less than the labelling
    threshold, tile sides and edges (mostly the top and front of standing and face-down tiles), and
    pieces of a large face (a close-up's strokes)."""
    h, w = ids.shape
    out: list[Negative] = []
    sides: list[Negative] = []
    pieces: list[Negative] = []
    for i, t in enumerate(instances):
        box = t["box"]
        if box is None:
            continue
        if not t["labelled"] and t["visible_fraction"] >= 0.08:
            x0, y0, x1, y1 = box
            cut = x0 <= 1 or y0 <= 1 or x1 >= w - 1 or y1 >= h - 1
            b = _box(np.array([[x0, y0], [x1, y1]]), w, h)
            if cut and b is not None:
                out.append({"what": "partial_tile", "box": b})
            continue
        if not t["labelled"] or t["tile_px"] < 14:
            continue
        bw, bh = box[2] - box[0], box[3] - box[1]
        for quad in geo[i].get("sides", []):
            b = _box(quad, w, h)
            if b is None:
                continue
            # a side seen nearly edge-on is a sliver; a slanted side's box holds much of the face, and
            # a box mostly of face is a tile, not a side
            sw, sh = b[2] - b[0], b[3] - b[1]
            if min(sw, sh) < 0.25 * min(bw, bh) or sw * sh > 0.6 * bw * bh:
                continue
            if _area(quad) < 0.45 * sw * sh or _overlap(b, t["quad"]) > 0.2 * sw * sh:
                continue
            if _owned(ids, b, i, 0.6):
                sides.append({"what": "tile_side", "box": b})
        if not t["face_down"] and t["tile_px"] >= 90 and t["visible_fraction"] > 0.9:
            q = np.array(t["quad"], np.float64)  # TL, TR, BR, BL
            fw, fh = rng.uniform(0.25, 0.5), rng.uniform(0.2, 0.45)
            a0, b0 = rng.uniform(0.05, 0.95 - fw), rng.uniform(0.05, 0.95 - fh)
            pts = []
            for a, down in ((a0, b0), (a0 + fw, b0), (a0 + fw, b0 + fh), (a0, b0 + fh)):
                top = q[0] + a * (q[1] - q[0])
                bottom = q[3] + a * (q[2] - q[3])
                pts.append(top + down * (bottom - top))
            bb = _box(np.array(pts), w, h)
            if bb is not None and _owned(ids, bb, i, 0.9):
                pieces.append({"what": "tile_part", "box": bb})
    rng.shuffle(sides)
    return out + sides[:MAX_PER_KIND] + pieces[:MAX_PER_KIND]


def choose(negatives: list[Negative], k: int, rng: random.Random) -> list[int]:
    """Indices of ``k`` negatives, spread over their kinds (so a keyboard's many key caps do not crowd
    out the one cup rim): pick a kind at random, then one of its boxes, without replacement."""
    by_kind: dict[str, list[int]] = {}
    for j, n in enumerate(negatives):
        by_kind.setdefault(n["what"], []).append(j)
    for v in by_kind.values():
        rng.shuffle(v)
    picked: list[int] = []
    while len(picked) < k and by_kind:
        what = rng.choice(sorted(by_kind))
        picked.append(by_kind[what].pop())
        if not by_kind[what]:
            del by_kind[what]
    return picked

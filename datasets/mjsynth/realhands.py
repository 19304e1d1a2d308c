"""Hand photos composed from REAL tile crops: the end-to-end check closest to a real photo that
the data in ``../shared`` allows.

There are no photos of whole hands in ``../shared``; there are real tile crops (camerash) of tile
sets the reader never trained on (the test fold of ``models/camerash-split.csv``). This module
lays such crops out on a table the way players lay out a finished hand, seen from above
(``mjsynth.layout`` does the same in 3D): the concealed tiles in a row, the winning tile a little
apart at its right, declared sets further right or in a second row with the claimed tile turned
sideways, flowers apart. All tiles of one hand come from one set, as on a real table. The
generator's table surfaces (felt, mats, wood, cloths, ...), shadows, light fall-off, a slight turn
of the whole photo, blur and JPEG are added; the tiles
themselves are real pixels: real printing, wear, lighting and the makers' own designs.

Limits: camerash has no backs and no red fives, so hands with a concealed kong or a red five are
not drawn; tiles lie flat and are seen from straight above (no perspective, no side faces).

Writes the manifest format of :mod:`mjsynth.writers` (``hand``, ``tiles`` with boxes, ``image``),
so ``scripts/eval_e2e.py --data DIR`` scores these photos unchanged.
"""

from __future__ import annotations

import csv
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import TypedDict

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth.backgrounds import KINDS, table_texture
from mahjong_camera_scorer.mjsynth.hands import SynthHand, new_pool, random_hand

#: The photo's size: a phone photo decoded at reduced scale is about this big.
CANVAS = (1600, 1200)
#: Real tiles are about 3:4 (camerash crops are 240x320).
ASPECT = 0.75
#: A real tile is about this wide: it sets the table texture's scale (mjsynth.backgrounds works in mm).
TILE_WIDTH_MM = 26.0


class Placement(TypedDict):
    """Where one tile lies in the plan, in tile widths (x right, y down), and how it is turned."""

    code: str
    role: str  # concealed | winning | meld | bonus
    x: float
    y: float
    w: float
    h: float
    turn: int  # degrees: 0, 90 (a claimed tile) or 180 (put down upside down)


class PlacedTile(TypedDict):
    """A tile of the composed photo: its code, role, xyxy box in pixels and turn."""

    code: str
    role: str
    box: list[float]
    turn: int


class Summary(TypedDict):
    """What :func:`generate` wrote: photos per camerash set and per kind of table."""

    photos: int
    per_set: dict[str, int]
    per_table: dict[str, int]
    out: str


def load_crops(split_csv: Path, camerash: Path, fold: str = "test") -> dict[str, dict[str, list[Path]]]:
    """``{set: {code: [crop paths]}}`` for one fold of the camerash split."""
    out: dict[str, dict[str, list[Path]]] = defaultdict(lambda: defaultdict(list))
    with split_csv.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["fold"] == fold:
                out[row["set"]][row["code"]].append(camerash / "tiles-resized" / row["crop"])
    return {s: dict(c) for s, c in out.items()}


def draw_hand(rng: random.Random, available: set[str], tries: int = 400) -> SynthHand | None:
    """A random winning hand whose every tile the set has (no red fives, no concealed kong)."""
    for _ in range(tries):
        hand = random_hand(rng, new_pool(), p_red=0.0)
        if any(m.type == "kong" and not m.open for m in hand.melds):
            continue
        if set(hand.all_tiles()) <= available:
            return hand
    return None


def _plan(hand: SynthHand, rng: random.Random) -> list[Placement]:
    """Where each tile lies, in tile widths (x right, y down), and how it is turned."""
    w, h = 1.0, 1.0 / ASPECT
    gap = rng.uniform(0.0, 0.04)
    plan: list[Placement] = []
    x = 0.0

    def put(code: str, role: str, y: float, turn: int = 0) -> None:
        nonlocal x
        if rng.random() < 0.03 and turn == 0:
            turn = 180  # a tile put down upside down
        tw, th = (h, w) if turn in (90, 270) else (w, h)
        # sideways tiles lie aligned to the front (bottom) edge of their row
        top = y + (h - th) + rng.gauss(0, 0.02)
        jx = rng.gauss(0, 0.015)
        plan.append({"code": code, "role": role, "x": x + jx, "y": top, "w": tw, "h": th, "turn": turn})
        x += tw + gap

    win = hand.concealed.index(hand.winning_tile)
    rest = hand.concealed[:win] + hand.concealed[win + 1 :]
    for c in rest:
        put(c, "concealed", 0.0)
    x += rng.uniform(0.3, 1.0) * w
    put(hand.winning_tile, "winning", 0.0)
    second_row = bool(hand.melds) and (len(hand.concealed) + 4 * len(hand.melds) > 15 or rng.random() < 0.4)
    if second_row:
        x = rng.uniform(0.0, 2.0) * w
        row_y = h + rng.uniform(0.3, 0.8) * w
    else:
        x += rng.uniform(0.5, 1.2) * w
        row_y = 0.0
    for m in hand.melds:
        for i, code in enumerate(m.tiles):
            put(code, "meld", row_y, 90 if m.claimed == i else 0)
        x += rng.uniform(0.4, 0.9) * w
    if hand.bonus_tiles:
        if rng.random() < 0.5:  # left of the concealed row
            x = -(len(hand.bonus_tiles) * (w + gap) + rng.uniform(0.6, 1.5) * w)
            by = 0.0
        else:  # in a row of their own behind the hand
            x = rng.uniform(0.0, 3.0) * w
            by = -(h + rng.uniform(0.3, 0.8) * w)
        for b in hand.bonus_tiles:
            put(b, "bonus", by)
    return plan


def _table(rng: random.Random, kind: str, unit: float) -> np.ndarray:
    """The generator's own table surface (:func:`mjsynth.backgrounds.table_texture`) at the tiles'
    scale, under a soft fall-off of light."""
    cw, ch = CANVAS
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    img = table_texture(kind, (ch, cw), TILE_WIDTH_MM / unit, nrng).astype(np.float32)
    yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32)
    cx, cy = rng.uniform(0.2, 0.8) * cw, rng.uniform(0.2, 0.8) * ch
    lit: np.ndarray = img * (1.1 - 0.35 * (((xx - cx) / cw) ** 2 + ((yy - cy) / ch) ** 2))[..., None]
    return lit


def compose(
    hand: SynthHand, crops: dict[str, list[Path]], rng: random.Random, table: str | None = None
) -> tuple[np.ndarray, list[PlacedTile]]:
    """The photo (BGR uint8) and its tiles (code, role, xyxy box, turn in degrees) on ``table``
    (a kind of :data:`mjsynth.backgrounds.KINDS`; default: drawn at random)."""
    table = table or rng.choice(KINDS)
    plan = _plan(hand, rng)
    x0 = min(p["x"] for p in plan)
    y0 = min(p["y"] for p in plan)
    span_w = max(p["x"] + p["w"] for p in plan) - x0
    span_h = max(p["y"] + p["h"] for p in plan) - y0
    cw, ch = CANVAS
    # tile width in pixels: as big as a phone held over the hand makes it, and the hand must fit
    unit = min(rng.uniform(70, 150), 0.9 * cw / span_w, 0.8 * ch / span_h)
    ox = rng.uniform(0.03 * cw, cw - span_w * unit - 0.03 * cw)
    oy = rng.uniform(0.08 * ch, max(0.08 * ch + 1, ch - span_h * unit - 0.08 * ch))
    img = _table(rng, table, unit)
    shade: np.ndarray = np.zeros(img.shape[:2], np.float32)
    placed: list[tuple[Placement, tuple[int, int, int, int]]] = []
    for p in plan:
        bx0 = round(ox + (p["x"] - x0) * unit)
        by0 = round(oy + (p["y"] - y0) * unit)
        bx1, by1 = bx0 + round(p["w"] * unit), by0 + round(p["h"] * unit)
        placed.append((p, (bx0, by0, bx1, by1)))
        off = max(2, int(unit * 0.05))
        cv2.rectangle(shade, (bx0 + off, by0 + off), (bx1 + off, by1 + off), 1.0, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), max(2.0, unit * 0.05))
    img *= 1.0 - 0.45 * shade[..., None]
    tiles: list[PlacedTile] = []
    for p, (bx0, by0, bx1, by1) in placed:
        path = rng.choice(crops[p["code"]])
        tile = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if tile is None:
            raise ValueError(f"{path}: cannot read the tile crop")
        if p["turn"] == 90:
            tile = cv2.rotate(tile, cv2.ROTATE_90_CLOCKWISE)
        elif p["turn"] == 180:
            tile = cv2.rotate(tile, cv2.ROTATE_180)
        tile = cv2.resize(tile, (bx1 - bx0, by1 - by0), interpolation=cv2.INTER_AREA)
        img[by0:by1, bx0:bx1] = tile.astype(np.float32) * rng.uniform(0.9, 1.05)
        tiles.append({"code": p["code"], "role": p["role"], "box": [bx0, by0, bx1, by1], "turn": p["turn"]})
    # the whole photo a little turned (the phone is never square to the table), then camera blur/JPEG
    angle = rng.uniform(-6, 6)
    m = cv2.getRotationMatrix2D((cw / 2, ch / 2), angle, 1.0)
    img = cv2.warpAffine(np.clip(img, 0, 255).astype(np.uint8), m, (cw, ch), borderMode=cv2.BORDER_REFLECT)
    for t in tiles:
        a, b, c, d = t["box"]
        pts = np.array([[a, b, 1], [c, b, 1], [c, d, 1], [a, d, 1]], np.float32) @ m.T
        t["box"] = [float(v) for v in (*pts.min(0), *pts.max(0))]
    sigma = rng.uniform(0.0, 1.2)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(75, 95)])
    photo = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert photo is not None  # what was just encoded decodes
    return photo, tiles


def generate(out: Path, count: int, seed: int, split_csv: Path, camerash: Path) -> Summary:
    """Write ``count`` photos and manifests under ``out``; the same seed gives the same photos."""
    by_set = load_crops(split_csv, camerash)
    sets = sorted(s for s, c in by_set.items() if len(c) >= 30)  # sets with (nearly) every kind
    if not sets:
        raise ValueError(f"no test-fold tile set with 30 or more kinds in {split_csv}")
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "manifests").mkdir(parents=True, exist_ok=True)
    per_set: dict[str, int] = defaultdict(int)
    per_table: dict[str, int] = defaultdict(int)
    for i in range(count):
        rng = random.Random(seed * 1_000_003 + i)
        set_name = sets[i % len(sets)]
        table = KINDS[(i // len(sets)) % len(KINDS)]  # every set on every kind of table
        hand = draw_hand(rng, set(by_set[set_name]))
        if hand is None:  # pragma: no cover - every kept set has ~30 of the 34 kinds
            continue
        image, tiles = compose(hand, by_set[set_name], rng, table)
        stem = f"{i:06d}"
        cv2.imwrite(str(out / "images" / f"{stem}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        manifest = {
            "image": f"images/{stem}.jpg",
            "image_size": [image.shape[1], image.shape[0]],
            "kind": f"real tiles on {table}",
            "set": set_name,
            "hand": hand.to_json(),
            "hands": [hand.to_json()],
            "complete_in_frame": True,
            "tiles": [
                {"code": t["code"], "box": t["box"], "role": t["role"], "seat": 0, "rotation_deg": t["turn"]}
                for t in tiles
            ],
        }
        (out / "manifests" / f"{stem}.json").write_text(json.dumps(manifest, indent=1))
        per_set[set_name] += 1
        per_table[table] += 1
    return {
        "photos": sum(per_set.values()),
        "per_set": dict(per_set),
        "per_table": dict(per_table),
        "out": str(out),
    }

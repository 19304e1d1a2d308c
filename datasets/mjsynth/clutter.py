"""Things that lie beside the tiles in real photos and that a detector mistakes for tiles.

Phone photos of a hand are taken on desks and beds, not on empty felt: keyboards and laptops (rows of
key caps, each the size and shape of a tile), phones and screens (icons: rounded squares with a glyph),
printed paper (text lines, and the strokes of a large glyph), placemats, cables and cups. Each prop is a
3D box with a drawn top (drawn by ``tilebody.draw_tile`` like the dice), or a cylinder (cups) or a tube
(cables) drawn here. Props also name their *parts* that look most like a tile — a key cap, an icon, one
stroke of a glyph, a cup's rim — so the scene can list them as hard negatives (``none`` crops for the
reader, see ``writers.write_none``).

Textures are drawn at 2-3 px per millimetre with OpenCV (Latin letters) and cached CJK glyphs (Pillow),
so a prop costs a few milliseconds.
"""

from __future__ import annotations

import functools
import math
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth.tilebody import TileDims, TileInstance, TilePose, fill_convex

#: What a scene's props can be, with their relative frequency.
PROP_WEIGHTS: dict[str, float] = {
    "keyboard": 3.0,
    "laptop": 1.5,
    "phone": 1.5,
    "paper": 2.0,
    "book": 1.0,
    "placemat": 1.5,
    "cup": 2.0,
    "cable": 1.5,
}
#: Props thin enough to lie under tiles: drawn before the tiles (no occlusion test needed).
FLAT = ("paper", "placemat", "cable")

BODY_COLOURS = [(30, 30, 32), (45, 45, 50), (215, 215, 220), (180, 182, 186), (235, 235, 238), (60, 40, 30)]
CUP_COLOURS = [(240, 240, 240), (230, 236, 242), (60, 60, 160), (150, 90, 40), (40, 40, 40), (90, 160, 200)]
CABLE_COLOURS = [(25, 25, 25), (235, 235, 235), (40, 40, 40), (200, 200, 205)]
CJK_TEXT = "麻將東南西北中發白萬筒條春夏秋冬梅蘭菊竹福龍門電話會議時間新年快樂大小上下山水火木金土日月人口手"
BIG_GLYPHS = "福龍壽喜囍麻雀將樂"

#: A part of a prop that looks like a tile: (what, (a0, b0, a1, b1)) in fractions of its textured top.
Part = tuple[str, tuple[float, float, float, float]]


@dataclass
class Prop:
    """One prop in table millimetres. ``box`` props are drawn as a textured box; ``cup``/``cable`` here.

    ``parts`` are (what, (a0, b0, a1, b1)) rectangles on the textured top in fractions of its width and
    height (a right, b down); ``points`` are a cable's 3D polyline, ``radius`` a cup's or cable's radius.
    """

    kind: str
    inst: TileInstance | None = None
    dims: TileDims | None = None
    texture: np.ndarray | None = None
    parts: list[Part] = field(default_factory=list)
    centre: np.ndarray | None = None
    radius: float = 0.0
    height: float = 0.0
    colour: tuple[float, ...] = (200, 200, 200)  # BGR
    points: np.ndarray | None = None

    @property
    def flat(self) -> bool:
        return self.kind in FLAT


class CupGeometry(TypedDict, total=False):
    """What :func:`draw_cup` drew that the scene lists as a hard negative (nothing: not in view)."""

    rim: np.ndarray  # the rim's image polygon


# ------------------------------------------------------------------------------------------ textures


def _glyph(ch: str, px: float) -> np.ndarray | None:
    """A CJK glyph as a float mask (1 = ink), or None when the CJK fonts are missing. Sizes are rounded
    to 4 px steps so that a process renders each glyph only a few times."""
    return _glyph_at(ch, max(8, int(px) // 4 * 4))


@functools.lru_cache(maxsize=1024)
def _glyph_at(ch: str, px: int) -> np.ndarray | None:
    from mahjong_camera_scorer.mjsynth.procedural import CJK_FONTS, _font, _fonts_ok

    if not _fonts_ok():
        return None
    from PIL import Image, ImageDraw

    font = _font(CJK_FONTS["sans" if px < 40 else "serif"], px)
    img = Image.new("L", (px + 4, px + 4), 0)
    ImageDraw.Draw(img).text((2, 2 - px * 0.12), ch, font=font, fill=255)
    return np.asarray(img, np.float32) / 255.0


def _ink(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[float, ...]) -> None:
    """Paint ``colour`` through ``mask`` at (x, y) on ``img`` (clipped)."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m = mask[y0 - y : y1 - y, x0 - x : x1 - x, None]
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (roi * (1 - m) + np.array(colour, np.float32) * m).astype(np.uint8)


def keyboard_texture(
    rng: random.Random, w_mm: float, h_mm: float, ppm: float
) -> tuple[np.ndarray, list[Part]]:
    """Key caps with letters on a keyboard body; parts are the letter keys (tile-sized rounded squares)."""
    w, h = int(w_mm * ppm), int(h_mm * ppm)
    body = rng.choice(BODY_COLOURS)
    img = np.full((h, w, 3), body, np.uint8)
    dark = sum(body) < 300
    cap = tuple(int(c) for c in np.clip(np.array(body) + (25 if dark else -15), 0, 255))
    letter = (225, 225, 225) if dark else (40, 40, 40)
    pitch = rng.uniform(17.5, 19.5) * ppm
    size = pitch * rng.uniform(0.78, 0.9)
    rows = ["`1234567890-=", "QWERTYUIOP[]", "ASDFGHJKL;'", "ZXCVBNM,./", " "]
    parts: list[Part] = []
    margin = (h - 5 * pitch) / 2
    for r, keys in enumerate(rows):
        y = margin + r * pitch
        if y + size > h:
            break
        x = pitch * (0.3 + 0.25 * r) + (w - 15 * pitch) / 2
        for k in keys:
            kw = size if k != " " else pitch * 6
            if x + kw > w - 2:
                break
            p0, p1 = (int(x), int(y)), (int(x + kw), int(y + size))
            cv2.rectangle(img, (p0[0], p0[1] + 1), (p1[0], p1[1] + 1), tuple(c * 0.6 for c in cap), -1)
            cv2.rectangle(img, p0, p1, cap, -1, cv2.LINE_AA)
            if k.strip():
                scale = size / 40
                cv2.putText(
                    img,
                    k,
                    (int(x + size * 0.2), int(y + size * 0.55)),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    scale,
                    letter,
                    max(1, int(scale * 2)),
                    cv2.LINE_AA,
                )
                parts.append(("keycap", (x / w, y / h, (x + kw) / w, (y + size) / h)))
            x += kw + (pitch - size)
    return img, parts


def icon(img: np.ndarray, x: int, y: int, s: int, rng: random.Random) -> None:
    col = tuple(rng.randint(30, 230) for _ in range(3))
    r = max(2, s // 5)
    cv2.rectangle(img, (x + r, y), (x + s - r, y + s), col, -1)
    cv2.rectangle(img, (x, y + r), (x + s, y + s - r), col, -1)
    for cx, cy in ((x + r, y + r), (x + s - r, y + r), (x + r, y + s - r), (x + s - r, y + s - r)):
        cv2.circle(img, (cx, cy), r, col, -1, cv2.LINE_AA)
    g = rng.choice(["circle", "letter", "bars", "square"])
    white = (245, 245, 245)
    if g == "circle":
        cv2.circle(img, (x + s // 2, y + s // 2), s // 4, white, max(1, s // 12), cv2.LINE_AA)
    elif g == "letter":
        cv2.putText(
            img,
            rng.choice(string.ascii_uppercase),
            (x + s // 4, y + 3 * s // 4),
            cv2.FONT_HERSHEY_DUPLEX,
            s / 40,
            white,
            max(1, s // 16),
            cv2.LINE_AA,
        )
    elif g == "bars":
        for k in range(3):
            yy = y + s // 4 + k * s // 5
            cv2.line(img, (x + s // 4, yy), (x + 3 * s // 4, yy), white, max(1, s // 14))
    else:
        cv2.rectangle(img, (x + s // 4, y + s // 4), (x + 3 * s // 4, y + 3 * s // 4), white, max(1, s // 12))


def screen_texture(
    rng: random.Random, w_mm: float, h_mm: float, ppm: float, nrng: np.random.Generator, phone: bool = False
) -> tuple[np.ndarray, list[Part]]:
    """A lit screen: a wallpaper (a real photo when installed), a grid of app icons, maybe a window of
    text; parts are the icons."""
    from mahjong_camera_scorer.mjsynth import photos

    w, h = int(w_mm * ppm), int(h_mm * ppm)
    got = photos.photo_region(nrng, (h, w), "photo") if rng.random() < 0.6 else None
    if got is not None:
        img = np.ascontiguousarray(got[0])
    else:
        c1, c2 = (
            np.array([rng.randint(20, 200) for _ in range(3)]),
            np.array([rng.randint(20, 200) for _ in range(3)]),
        )
        t = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
        img = np.broadcast_to(c1 * (1 - t) + c2 * t, (h, w, 3)).astype(np.uint8).copy()
    parts: list[Part] = []
    s = int((rng.uniform(9, 13) if phone else rng.uniform(10, 16)) * ppm)
    gap = int(s * rng.uniform(0.5, 1.0))
    cols = max(1, (w - gap) // (s + gap)) if phone else rng.randint(1, 3)
    rows = max(1, (h - 2 * gap) // (s + gap + s // 3))
    for r in range(rows):
        for c in range(cols):
            if rng.random() < 0.15:
                continue
            x, y = gap + c * (s + gap), gap + r * (s + gap + s // 3)
            if x + s >= w or y + s >= h:
                continue
            icon(img, x, y, s, rng)
            parts.append(("icon", (x / w, y / h, (x + s) / w, (y + s) / h)))
    if not phone and rng.random() < 0.6:  # a window with lines of text
        x0, y0 = int(w * rng.uniform(0.25, 0.45)), int(h * rng.uniform(0.1, 0.3))
        x1, y1 = int(w * rng.uniform(0.7, 0.95)), int(h * rng.uniform(0.6, 0.9))
        cv2.rectangle(img, (x0, y0), (x1, y1), (245, 245, 245), -1)
        cv2.rectangle(img, (x0, y0), (x1, y0 + max(3, int(6 * ppm))), (200, 200, 200), -1)
        _text_lines(img, (x0 + 4, y0 + int(10 * ppm), x1 - 4, y1 - 4), rng, 2.2 * ppm, (30, 30, 30))
    if not phone:  # a taskbar
        cv2.rectangle(img, (0, h - max(3, int(7 * ppm))), (w, h), (40, 40, 45), -1)
    return img, parts


def _text_lines(
    img: np.ndarray,
    rect: tuple[int, int, int, int],
    rng: random.Random,
    char_px: float,
    colour: tuple[float, ...],
    cjk: bool = False,
) -> None:
    """Fill ``rect`` with lines of words (Latin, or CJK glyphs)."""
    x0, y0, x1, y1 = rect
    size = max(5, int(char_px))
    y = y0 + size
    while y < y1:
        x = x0
        while x < x1 - size:
            if cjk:
                g = _glyph(rng.choice(CJK_TEXT), size)
                if g is None:
                    cjk = False
                    continue
                _ink(img, g, x, y - size, colour)
                x += int(size * 1.05)
            else:
                word = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 8)))
                cv2.putText(img, word, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size / 22, colour, 1, cv2.LINE_AA)
                x += int(size * 0.5 * (len(word) + 1.5))
            if rng.random() < 0.03:
                break
        y += int(size * rng.uniform(1.4, 1.9))


def print_texture(rng: random.Random, w_mm: float, h_mm: float, ppm: float) -> tuple[np.ndarray, list[Part]]:
    """Printed paper: lines of Latin or CJK text, often a large glyph (a calendar, a poster, a box);
    parts are the big glyph's strokes (its connected pieces of ink) and single small glyphs."""
    w, h = int(w_mm * ppm), int(h_mm * ppm)
    paper = rng.choice([(245, 245, 245), (225, 238, 245), (205, 225, 235), (240, 240, 230)])
    img = np.full((h, w, 3), paper, np.uint8)
    ink = rng.choice([(30, 30, 30), (30, 30, 170), (120, 60, 20)])
    parts: list[Part] = []
    cjk = rng.random() < 0.6
    big = rng.random() < 0.6
    top = 0
    if big:
        px = int(min(w, h) * rng.uniform(0.45, 0.8))
        g = _glyph(rng.choice(BIG_GLYPHS), px)
        if g is not None:
            gx, gy = (w - g.shape[1]) // 2, int(h * 0.06)
            colour = rng.choice([(30, 30, 190), (20, 20, 20), (40, 120, 40), (150, 60, 20)])
            _ink(img, g, gx, gy, colour)
            n, _lab, stats, _ = cv2.connectedComponentsWithStats((g > 0.5).astype(np.uint8))
            for i in range(1, n):
                x, y, sw, sh, area = stats[i]
                if area > 0.01 * px * px and max(sw, sh) > 0.12 * px:
                    parts.append(
                        ("glyph_stroke", ((gx + x) / w, (gy + y) / h, (gx + x + sw) / w, (gy + y + sh) / h))
                    )
            top = gy + g.shape[0]
    char = rng.uniform(3.0, 6.0) * ppm
    _text_lines(img, (int(w * 0.08), top + int(char), int(w * 0.92), int(h * 0.95)), rng, char, ink, cjk)
    return img, parts


def mat_texture(
    rng: random.Random, w_mm: float, h_mm: float, ppm: float, nrng: np.random.Generator
) -> np.ndarray:
    from mahjong_camera_scorer.mjsynth.backgrounds import table_texture

    return table_texture(
        rng.choice(["slats", "woven", "plaid", "checks", "stripes"]),
        (int(h_mm * ppm), int(w_mm * ppm)),
        1 / ppm,
        nrng,
    )


# ------------------------------------------------------------------------------------------- props


def _flat_box(
    kind: str,
    x: float,
    y: float,
    ang: float,
    w: float,
    h: float,
    t: float,
    tex: np.ndarray,
    parts: list[Part],
    colour: tuple[float, ...],
) -> Prop:
    u = np.array([math.cos(ang), math.sin(ang), 0.0])
    v = np.array([-math.sin(ang), math.cos(ang), 0.0])
    inst = TileInstance(
        kind,
        TilePose(np.array([x, y, t]), u, v, np.array([0, 0, 1.0])),
        face_colour=colour,
        back_colour=colour,
    )
    return Prop(kind, inst, TileDims(w, h, t, front=1.0, corner=0.02), tex, parts)


def make_prop(
    kind: str, x: float, y: float, ang: float, rng: random.Random, nrng: np.random.Generator
) -> list[Prop]:
    """One prop of ``kind`` centred at (x, y) mm, turned by ``ang`` (a laptop is two boxes)."""
    ppm = rng.uniform(2.0, 3.0)
    if kind == "keyboard":
        w, h = rng.choice([(440.0, 140.0), (360.0, 125.0), (290.0, 110.0)])
        tex, parts = keyboard_texture(rng, w, h, ppm)
        return [
            _flat_box(
                kind, x, y, ang, w, h, rng.uniform(12, 25), tex, parts, tuple(float(c) for c in tex[1, 1])
            )
        ]
    if kind == "laptop":
        w, h = rng.uniform(290, 340), rng.uniform(200, 230)
        tex, parts = keyboard_texture(rng, w, h * 0.55, ppm)
        base_col = tuple(float(c) for c in tex[1, 1])
        full = np.full((int(h * ppm), tex.shape[1], 3), tex[1, 1], np.uint8)
        full[int(h * 0.08 * ppm) : int(h * 0.08 * ppm) + tex.shape[0]] = tex
        parts = [(k, (a0, 0.08 + b0 * 0.55, a1, 0.08 + b1 * 0.55)) for k, (a0, b0, a1, b1) in parts]
        base = _flat_box("laptop", x, y, ang, w, h, 15.0, full, parts, base_col)
        # the screen stands on the base's far edge, leaning back 95-125 degrees from the base
        tilt = math.radians(rng.uniform(5, 35))
        u = np.array([math.cos(ang), math.sin(ang), 0.0])
        fwd = np.array([-math.sin(ang), math.cos(ang), 0.0])  # towards the far edge
        n = -fwd * math.cos(tilt) + np.array([0, 0, 1.0]) * math.sin(tilt)
        v = fwd * math.sin(tilt) + np.array([0, 0, 1.0]) * math.cos(tilt)
        sh = h * 0.95
        c = np.array([x, y, 15.0]) + fwd * (h / 2) + v * (sh / 2) + n * 0.0
        stex, sparts = screen_texture(rng, w, sh, ppm, nrng)
        bezel = max(3, int(8 * ppm))
        stex = cv2.copyMakeBorder(stex, bezel, bezel, bezel, bezel, cv2.BORDER_CONSTANT, value=(20, 20, 20))
        sh_px, sw_px = stex.shape[:2]
        fx, fy = (sw_px - 2 * bezel) / sw_px, (sh_px - 2 * bezel) / sh_px
        ox, oy = bezel / sw_px, bezel / sh_px
        sparts = [
            (k, (ox + a0 * fx, oy + b0 * fy, ox + a1 * fx, oy + b1 * fy)) for k, (a0, b0, a1, b1) in sparts
        ]
        screen = Prop(
            "screen",
            TileInstance("screen", TilePose(c, u, v, n), face_colour=base_col, back_colour=base_col),
            TileDims(w, sh, 6.0, front=1.0, corner=0.02),
            stex,
            sparts,
        )
        return [base, screen]
    if kind == "phone":
        w, h = rng.uniform(65, 80), rng.uniform(140, 165)
        tex, parts = screen_texture(rng, w, h, ppm * 1.5, nrng, phone=True)
        if rng.random() < 0.3:  # lying face down: a plain back with a camera bump
            tex = np.full_like(tex, rng.choice(BODY_COLOURS))
            cv2.circle(tex, (tex.shape[1] // 4, tex.shape[0] // 8), tex.shape[1] // 8, (20, 20, 20), -1)
            parts = []
        tex = cv2.copyMakeBorder(tex, 6, 6, 6, 6, cv2.BORDER_CONSTANT, value=(15, 15, 15))
        return [_flat_box(kind, x, y, ang, w, h, 8.0, tex, parts, (20.0, 20.0, 20.0))]
    if kind in ("paper", "book"):
        w, h = (210.0, 297.0) if rng.random() < 0.6 else (rng.uniform(100, 180), rng.uniform(120, 240))
        tex, parts = print_texture(rng, w, h, ppm)
        t = 0.6 if kind == "paper" else rng.uniform(12, 35)
        col = (240.0, 240.0, 240.0) if kind == "paper" else tuple(float(c) for c in rng.choice(BODY_COLOURS))
        return [_flat_box(kind, x, y, ang, w, h, t, tex, parts, col)]
    if kind == "placemat":
        w, h = rng.uniform(300, 450), rng.uniform(250, 330)
        tex = mat_texture(rng, w, h, 1.2, nrng)
        return [_flat_box(kind, x, y, ang, w, h, 1.5, tex, [], tuple(float(c) for c in tex[2, 2]))]
    if kind == "cup":
        r, hh = rng.uniform(30, 45), rng.uniform(70, 105)
        col = tuple(
            float(c) for c in np.clip(np.array(rng.choice(CUP_COLOURS)) + nrng.normal(0, 8, 3), 0, 255)
        )
        return [Prop("cup", centre=np.array([x, y, 0.0]), radius=r, height=hh, colour=col)]
    if kind == "cable":
        n_pts = 40
        length = rng.uniform(300, 900)
        s = np.linspace(-0.5, 0.5, n_pts) * length
        wig = sum(
            rng.uniform(10, 60) * np.sin(s / rng.uniform(40, 200) + rng.uniform(0, 6)) for _ in range(3)
        )
        r = rng.uniform(1.5, 3.5)
        pts = np.stack([s, wig, np.full(n_pts, r)], axis=1)
        co, si = math.cos(ang), math.sin(ang)
        pts = pts @ np.array([[co, si, 0], [-si, co, 0], [0, 0, 1.0]]) + np.array([x, y, 0.0])
        col = tuple(float(v) for v in rng.choice(CABLE_COLOURS))
        return [Prop("cable", centre=np.array([x, y, 0.0]), radius=r, colour=col, points=pts)]
    raise ValueError(f"unknown prop {kind}")


def footprint(p: Prop) -> tuple[np.ndarray, float]:
    """Centre (x, y) and a radius that covers the prop on the table (for keeping props off the tiles)."""
    if p.inst is not None and p.dims is not None:
        c = p.inst.pose.center[:2]
        return c, 0.5 * math.hypot(p.dims.w, p.dims.h)
    assert p.centre is not None  # a cup or a cable
    if p.points is not None:
        return p.centre[:2], 0.0  # a cable may run anywhere, even under tiles: it lies flat
    return p.centre[:2], p.radius


def place_props(
    tile_xy: np.ndarray,
    tile_r: float,
    rng: random.Random,
    nrng: np.random.Generator,
    n: int,
    spot: Callable[[], tuple[float, float] | None],
) -> list[Prop]:
    """Up to ``n`` props at table points drawn by ``spot`` (the scene draws them inside the camera's
    view), none overlapping a tile (``tile_xy``: their centres, mm) except flat ones: paper, placemats
    and cables lie under tiles too."""
    kinds, weights = zip(*PROP_WEIGHTS.items(), strict=True)
    out: list[Prop] = []
    for _ in range(n * 4):
        if len(out) >= n:
            break
        kind = rng.choices(kinds, weights)[0]
        xy = spot()
        if xy is None:
            continue
        x, y = xy
        ang = rng.uniform(-0.5, 0.5) if kind in ("keyboard", "laptop") else rng.uniform(0, 2 * math.pi)
        props = make_prop(kind, x, y, ang, rng, nrng)
        ok = True
        for p in props:
            c, r = footprint(p)
            if kind in ("paper", "placemat", "cable"):
                continue
            if len(tile_xy) and np.min(np.linalg.norm(tile_xy - c, axis=1)) < r + tile_r:
                ok = False
            if any(np.linalg.norm(c - footprint(q)[0]) < r + footprint(q)[1] for q in out if not q.flat):
                ok = False
        if ok:
            out += props
    return out


# -------------------------------------------------------------------------------------- drawing


def draw_cup(
    canvas: np.ndarray,
    ids: np.ndarray,
    obj_id: int,
    p: Prop,
    project: Callable[[np.ndarray], np.ndarray],
    cam_pos: np.ndarray,
    light: np.ndarray,
    ambient: float,
) -> CupGeometry:
    """A cylinder with a rim (and a drink inside when seen from above); returns its rim's image polygon."""
    a = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    ring = np.stack([np.cos(a), np.sin(a), np.zeros_like(a)], axis=1)
    c = p.centre
    assert c is not None  # a cup stands somewhere
    bottom = c + p.radius * 0.9 * ring
    top = c + p.radius * ring + np.array([0, 0, p.height])
    uv_b, uv_t = project(bottom), project(top)
    if np.abs(np.vstack([uv_b, uv_t])).max() > 1e5:
        return {}
    hull = cv2.convexHull(np.vstack([uv_b, uv_t]).astype(np.float32)).reshape(-1, 2)
    col = np.array(p.colour, np.float32)
    # body shaded by its sides' facing of the light: draw strips from the back round to the front
    view = cam_pos[:2] - c[:2]
    view = view / (np.linalg.norm(view) + 1e-9)
    fill_convex(canvas, hull, tuple(float(v) for v in col * ambient))
    for i in range(32):
        j = (i + 1) % 32
        nrm = ring[i] * 0.5 + ring[j] * 0.5
        if float(nrm[:2] @ view) <= 0:
            continue
        shade = ambient + (1 - ambient) * max(0.0, float(nrm @ light))
        quad = np.array([uv_b[i], uv_b[j], uv_t[j], uv_t[i]])
        fill_convex(canvas, quad, tuple(float(v) for v in np.clip(col * shade, 0, 255)))
    fill_convex(ids, hull, obj_id, aa=False)
    rim_shade = ambient + (1 - ambient) * max(0.0, float(light[2]))
    fill_convex(canvas, uv_t, tuple(float(v) for v in np.clip(col * rim_shade * 1.05, 0, 255)))
    inner = project(c + p.radius * 0.88 * ring + np.array([0, 0, p.height]))
    drink = np.array(
        [[30, 50, 90], [40, 80, 140], [200, 210, 215], [20, 30, 40]][int(sum(p.colour)) % 4], np.float32
    )
    fill_convex(canvas, inner, tuple(float(v) for v in drink * rim_shade))
    return {"rim": uv_t}


def draw_cable(
    canvas: np.ndarray,
    ids: np.ndarray,
    obj_id: int,
    p: Prop,
    project: Callable[[np.ndarray], np.ndarray],
    light: np.ndarray,
    ambient: float,
) -> None:
    """A cable lying on the table: a thick polyline as wide as the cable looks at each point's depth."""
    assert p.points is not None  # a cable has its polyline
    uv = project(p.points)
    if np.abs(uv).max() > 1e5:
        return
    side = project(p.points + np.array([0, 0, p.radius * 2]))
    width = max(1, round(float(np.median(np.linalg.norm(side - uv, axis=1)))))
    pts = np.round(uv * 4).astype(np.int32).reshape(-1, 1, 2)
    col = np.array(p.colour, np.float32) * (ambient + (1 - ambient) * max(0.0, float(light[2])))
    cv2.polylines(canvas, [pts], False, tuple(float(v) for v in col), width, cv2.LINE_AA, shift=2)
    hi = tuple(float(v) for v in np.clip(col * 1.35 + 20, 0, 255))
    if width >= 3:
        cv2.polylines(canvas, [pts], False, hi, max(1, width // 3), cv2.LINE_AA, shift=2)
    cv2.polylines(ids, [pts], False, obj_id, width, shift=2)


def part_quads(p: Prop) -> list[tuple[str, np.ndarray]]:
    """Each part of a box prop as 4 world points on its textured top."""
    if p.inst is None or p.dims is None:
        return []
    P, d = p.inst.pose, p.dims
    out = []
    for what, (a0, b0, a1, b1) in p.parts:
        corners = [(a0, b0), (a1, b0), (a1, b1), (a0, b1)]
        pts = np.array([P.center + (a - 0.5) * d.w * P.u + (0.5 - b) * d.h * P.v for a, b in corners])
        out.append((what, pts))
    return out


def shadow_box(p: Prop) -> tuple[TileInstance, TileDims]:
    """A box that casts about the prop's shadow (a cup's is its bounding box)."""
    if p.inst is not None and p.dims is not None:
        return p.inst, p.dims
    c = p.centre + np.array([0, 0, p.height])
    inst = TileInstance(
        p.kind, TilePose(c, np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), np.array([0, 0, 1.0]))
    )
    return inst, TileDims(2 * p.radius, 2 * p.radius, max(p.height, 1.0), front=1.0)


def cabinet_backdrop(h: int, w: int, rng: random.Random, nrng: np.random.Generator) -> np.ndarray:
    """Cabinet doors and drawers behind the table (eye-level shots): panels with bevelled edges and
    handles, the rectangles that a detector reads as tiles."""
    from mahjong_camera_scorer.mjsynth.backgrounds import WOOD_COLOURS, fbm

    base = np.array(rng.choice([*WOOD_COLOURS, (225, 228, 230), (200, 205, 210), (60, 60, 65)]), np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    img *= (1 + 0.06 * fbm((h, w), 80, nrng, 3))[..., None]
    pw = int(w * rng.uniform(0.15, 0.35))
    rows = rng.choice([1, 2, 3])
    ph = h // rows
    dark, light = tuple(float(c) for c in base * 0.6), tuple(float(c) for c in np.minimum(base * 1.2, 255))
    x = -int(rng.uniform(0, pw))
    while x < w:
        for r in range(rows):
            y = r * ph
            cv2.rectangle(img, (x + 3, y + 3), (x + pw - 3, y + ph - 3), dark, 2)
            cv2.rectangle(img, (x + 6, y + 6), (x + pw - 6, y + ph - 6), light, 1)
            if rng.random() < 0.7:
                hx = x + (pw - 18 if rng.random() < 0.5 else 18)
                cv2.rectangle(
                    img, (hx - 2, y + ph // 2 - ph // 8), (hx + 2, y + ph // 2 + ph // 8), (90, 90, 95), -1
                )
        x += pw
    return np.clip(img, 0, 255)

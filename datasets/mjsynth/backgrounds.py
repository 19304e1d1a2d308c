"""Table surfaces: procedural felt, wood, cloth, plastic, stone, tablecloths, mats and bedsheets, and
real photographs and photographed patterns (``mjsynth.photos``) where those are installed.

Textures are made in table millimetres (``mm_per_px``) so that the scene camera foreshortens their pattern
like a real table; every kind mixes noise at several scales, never a single flat colour. The slatted and
woven mats and the plaid are there because their regular edges are what a detector mistakes for tiles.
"""

from __future__ import annotations

import cv2
import numpy as np

KINDS: tuple[str, ...] = (
    "felt",
    "mat",
    "wood",
    "cloth",
    "plastic",
    "stone",
    "checks",
    "stripes",
    "dots",
    "floral",
)
#: Mats and sheets real photos show tiles on (kept apart from ``KINDS``, which the composed real-hand
#: set of ``realhands`` cycles through: adding to it would change that measured set).
MAT_KINDS: tuple[str, ...] = ("slats", "woven", "plaid", "bedsheet")
#: Surfaces cut from real pictures: present only when their Debian packages are installed.
PHOTO_KINDS: tuple[str, ...] = ("photo", "pattern")

FELT_COLOURS = [(70, 130, 30), (60, 110, 40), (130, 85, 30), (140, 105, 50), (50, 50, 140), (70, 70, 70),
                (110, 80, 60), (40, 120, 110)]  # fmt: skip
WOOD_COLOURS = [(60, 110, 170), (40, 80, 130), (90, 140, 190), (30, 55, 90), (110, 160, 200)]
CLOTH_COLOURS = [
    (200, 200, 205),
    (180, 190, 210),
    (90, 60, 40),
    (60, 60, 140),
    (150, 160, 120),
    (210, 220, 230),
]


def noise(shape: tuple[int, int], cell_px: float, rng: np.random.Generator) -> np.ndarray:
    """Smooth value noise in [-1, 1] with features about ``cell_px`` pixels wide."""
    h, w = shape
    gh, gw = max(2, int(h / max(cell_px, 1)) + 2), max(2, int(w / max(cell_px, 1)) + 2)
    g = rng.standard_normal((gh, gw)).astype(np.float32)
    up = cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
    field: np.ndarray = np.clip(up / 2.0, -1, 1)
    return field


def fbm(shape: tuple[int, int], cell_px: float, rng: np.random.Generator, octaves: int = 4) -> np.ndarray:
    out = np.zeros(shape, np.float32)
    amp, total = 1.0, 0.0
    for k in range(octaves):
        out += amp * noise(shape, cell_px / (2**k), rng)
        total += amp
        amp *= 0.5
    return out / total


def _jitter_colour(c: tuple[float, ...], rng: np.random.Generator, amount: float = 18) -> np.ndarray:
    jittered: np.ndarray = np.clip(np.array(c, np.float32) + rng.normal(0, amount, 3), 0, 255)
    return jittered


def available_kinds() -> tuple[str, ...]:
    """Every surface this machine can make: the procedural ones, and the photo kinds when installed."""
    from mahjong_camera_scorer.mjsynth import photos

    return KINDS + MAT_KINDS + tuple(k for k in PHOTO_KINDS if photos.installed(k))


def table_texture(kind: str, size: tuple[int, int], mm_per_px: float, rng: np.random.Generator) -> np.ndarray:
    """A ``(h, w)`` BGR texture of ``kind``, ``mm_per_px`` millimetres per pixel."""
    h, w = size
    mm = 1.0 / mm_per_px  # pixels per mm
    if kind in PHOTO_KINDS:
        return _photo_surface(kind, size, mm, rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind in MAT_KINDS:
        return _mat_or_sheet(kind, size, mm, rng, xx, yy)
    if kind in ("felt", "mat"):
        base = _jitter_colour(FELT_COLOURS[rng.integers(len(FELT_COLOURS))], rng)
        n = 0.06 * fbm((h, w), 80 * mm, rng, 3) + 0.05 * rng.standard_normal((h, w)).astype(np.float32)
        img = base[None, None, :] * (1 + n[..., None])
        if kind == "mat":  # printed guide lines of a mahjong mat
            col = np.clip(base * rng.uniform(1.4, 1.8), 0, 255)
            step = rng.uniform(250, 450) * mm
            off = rng.uniform(0, step)
            lw = max(1, int(rng.uniform(2, 5) * mm))
            for k in range(-2, int(max(h, w) / step) + 3):
                p = int(off + k * step)
                cv2.line(img, (p, 0), (p, h), col.tolist(), lw)
                cv2.line(img, (0, p), (w, p), col.tolist(), lw)
    elif kind == "wood":
        base = _jitter_colour(WOOD_COLOURS[rng.integers(len(WOOD_COLOURS))], rng, 12)
        ang = rng.uniform(0, np.pi)
        along = xx * np.cos(ang) + yy * np.sin(ang)
        across = -xx * np.sin(ang) + yy * np.cos(ang)
        warp = fbm((h, w), 120 * mm, rng, 3) * 40 * mm
        period = max(rng.uniform(2.5, 6) * mm, 3.0)  # never finer than 3 px: finer grain only aliases
        grain = np.sin((across + warp) / period) * 0.5 + 0.5
        fine = noise((h, w), 1.5 * mm, rng)
        plank = rng.uniform(90, 200) * mm
        seams = (np.abs(((across + 1000 * mm) % plank) - plank / 2) > plank / 2 - max(1.0, 0.8 * mm)).astype(
            np.float32
        )
        streak = 0.1 * noise((h, w), 300 * mm, rng)
        shade = 1 - 0.18 * grain - 0.04 * fine + streak - 0.35 * seams
        del along
        img = base[None, None, :] * shade[..., None]
    elif kind == "cloth":
        base = _jitter_colour(CLOTH_COLOURS[rng.integers(len(CLOTH_COLOURS))], rng)
        period = max(2.0, rng.uniform(0.8, 1.6) * mm)
        weave = 0.5 + 0.25 * (np.sin(xx * 2 * np.pi / period) + np.sin(yy * 2 * np.pi / period))
        folds = fbm((h, w), 200 * mm, rng, 2)
        img = base[None, None, :] * (0.85 + 0.1 * weave + 0.1 * folds)[..., None]
    elif kind == "plastic":
        base = _jitter_colour(
            [(230, 230, 230), (40, 40, 40), (200, 210, 220), (60, 140, 60)][rng.integers(4)], rng
        )
        g = xx / w * rng.uniform(-0.15, 0.15) + yy / h * rng.uniform(-0.15, 0.15)
        speck: np.ndarray = (rng.random((h, w)) < 0.002).astype(np.float32) * rng.uniform(-0.3, 0.3)
        img = base[None, None, :] * (1 + g + 0.02 * fbm((h, w), 50 * mm, rng, 2) + speck)[..., None]
    elif kind == "stone":
        base = _jitter_colour(
            [(190, 190, 195), (90, 90, 95), (170, 185, 200), (60, 60, 70)][rng.integers(4)], rng
        )
        s = 0.12 * fbm((h, w), 60 * mm, rng, 4)
        speck = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), max(0.5, 0.8 * mm))
        vein = np.exp(-np.abs(fbm((h, w), 250 * mm, rng, 3)) * 25) * rng.uniform(0, 0.3)
        img = base[None, None, :] * (1 + s + 0.25 * speck + vein)[..., None]
    else:  # patterned tablecloths
        c1 = _jitter_colour(CLOTH_COLOURS[rng.integers(len(CLOTH_COLOURS))], rng, 30)
        c2 = _jitter_colour(
            [(40, 40, 180), (160, 80, 30), (40, 120, 40), (30, 30, 30), (200, 200, 60)][rng.integers(5)],
            rng,
            20,
        )
        step = rng.uniform(15, 60) * mm
        ang = rng.uniform(-0.3, 0.3) if rng.random() < 0.5 else 0
        ax = xx * np.cos(ang) + yy * np.sin(ang)
        ay = -xx * np.sin(ang) + yy * np.cos(ang)
        m: np.ndarray
        if kind == "checks":
            m = ((np.floor(ax / step) + np.floor(ay / step)) % 2).astype(np.float32)
            m = 0.5 * m + 0.25 * ((np.floor(ax / step) % 2) + (np.floor(ay / step) % 2)) * 0.5
        elif kind == "stripes":
            m = (np.sin(ax / step * 2 * np.pi) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        elif kind == "dots":
            fx, fy = (ax / step) % 1 - 0.5, (ay / step) % 1 - 0.5
            m = ((fx * fx + fy * fy) < rng.uniform(0.02, 0.08)).astype(np.float32)
        else:  # floral: scattered blossoms of petals
            m = np.zeros((h, w), np.float32)
            n_fl = int(h * w / (step * step) * 0.6) + 1
            for _ in range(min(n_fl, 400)):
                cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), step * rng.uniform(0.15, 0.35)
                for k in range(5):
                    a = k * 2 * np.pi / 5
                    cv2.circle(
                        m, (int(cx + np.cos(a) * r), int(cy + np.sin(a) * r)), max(1, int(r * 0.6)), 1.0, -1
                    )
        m = cv2.GaussianBlur(m, (0, 0), max(0.5, 0.3 * mm))
        weave = 0.03 * np.sin(xx * 2 * np.pi / max(2.0, mm)) * np.sin(yy * 2 * np.pi / max(2.0, mm))
        img = c1[None, None, :] * (1 - m[..., None]) + c2[None, None, :] * m[..., None]
        img = img * (1 + weave + 0.05 * fbm((h, w), 150 * mm, rng, 2))[..., None]
    surface: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return surface


def _photo_surface(kind: str, size: tuple[int, int], mm: float, rng: np.random.Generator) -> np.ndarray:
    """A real photograph lying flat (a printed cloth, a poster, a desk) or a photographed pattern tiled at
    its real scale (one repetition of wood, burlap, leather or stone 40-160 mm wide)."""
    from mahjong_camera_scorer.mjsynth import photos

    h, w = size
    got = photos.photo_region(rng, size, kind, tile_px=rng.uniform(40, 160) * mm)
    if got is None:  # not installed: a procedural surface instead (callers offer only installed kinds)
        return table_texture("wood" if kind == "pattern" else "cloth", size, 1.0 / mm, rng)
    img = got[0].astype(np.float32)
    if kind == "pattern":  # break the repetition with large soft light variation
        img *= (1 + 0.12 * fbm((h, w), 300 * mm, rng, 2))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


SLAT_COLOURS = [
    (120, 185, 210),
    (70, 120, 160),
    (60, 140, 90),
    (150, 150, 150),
    (40, 60, 90),
    (170, 200, 215),
]


def _mat_or_sheet(
    kind: str, size: tuple[int, int], mm: float, rng: np.random.Generator, xx: np.ndarray, yy: np.ndarray
) -> np.ndarray:
    """Slatted mats (parallel slats with dark gaps and tie strings), woven mats (basket weave), plaid
    cloth and bedsheets (a pale cloth in large soft folds)."""
    h, w = size
    ang = rng.uniform(0, np.pi)
    ax = xx * np.cos(ang) + yy * np.sin(ang)
    ay = -xx * np.sin(ang) + yy * np.cos(ang)
    if kind == "slats":
        base = _jitter_colour(SLAT_COLOURS[rng.integers(len(SLAT_COLOURS))], rng, 12)
        pitch = max(4.0, rng.uniform(7, 25) * mm)
        gap = rng.uniform(0.06, 0.2)
        f = (ay / pitch) % 1.0
        idx = np.floor(ay / pitch).astype(np.int64)
        per_slat = rng.normal(0, 0.07, int(idx.max() - idx.min()) + 2).astype(np.float32)[idx - idx.min()]
        rounded = 1 - 0.25 * (2 * f - 1) ** 2  # each slat is a rounded strip: brighter along its middle
        shade = np.where(f < gap, 0.35, rounded + per_slat) + 0.04 * noise((h, w), 3 * mm, rng)
        if rng.random() < 0.6:  # the threads that tie the slats, every 80-200 mm
            step = rng.uniform(80, 200) * mm
            tie = (np.abs(((ax / step) % 1.0) - 0.5) * step < max(1.0, 1.5 * mm)).astype(np.float32)
            shade = shade * (1 - 0.5 * tie)
        img = base[None, None, :] * shade[..., None]
    elif kind == "woven":
        base = _jitter_colour(SLAT_COLOURS[rng.integers(len(SLAT_COLOURS))], rng, 15)
        cell = max(4.0, rng.uniform(6, 20) * mm)
        cx, cy = np.floor(ax / cell), np.floor(ay / cell)
        fx, fy = (ax / cell) % 1.0, (ay / cell) % 1.0
        over = ((cx + cy) % 2).astype(np.float32)  # which strand is on top in this cell
        strand = over * (1 - 0.35 * (2 * fy - 1) ** 2) + (1 - over) * (1 - 0.35 * (2 * fx - 1) ** 2)
        edge = np.minimum(np.minimum(fx, 1 - fx), np.minimum(fy, 1 - fy))
        shade = strand * (0.7 + 0.3 * np.clip(edge * 8, 0, 1)) * (1 + 0.06 * noise((h, w), 40 * mm, rng))
        img = base[None, None, :] * shade[..., None]
    elif kind == "plaid":
        cols = [_jitter_colour(CLOTH_COLOURS[rng.integers(len(CLOTH_COLOURS))], rng, 40) for _ in range(3)]
        step = rng.uniform(20, 70) * mm
        sx = (np.sin(ax / step * 2 * np.pi) > rng.uniform(0.2, 0.7)).astype(np.float32)
        sy = (np.sin(ay / step * 2 * np.pi) > rng.uniform(0.2, 0.7)).astype(np.float32)
        fine = (np.sin(ax / step * 6 * np.pi) > 0.8).astype(np.float32) * 0.5
        m1 = np.clip(0.5 * sx + 0.5 * sy, 0, 1)[..., None]
        img = cols[0][None, None] * (1 - m1) + cols[1][None, None] * m1
        img = img * (1 - 0.3 * fine[..., None]) + cols[2][None, None] * 0.3 * fine[..., None]
        img *= (0.92 + 0.08 * fbm((h, w), 150 * mm, rng, 2))[..., None]
    else:  # bedsheet: pale cloth in long soft folds (ridged noise, stretched along the fold direction)
        base = _jitter_colour([(235, 235, 240), (220, 210, 200), (200, 215, 235), (215, 230, 220),
                               (190, 190, 200)][rng.integers(5)], rng, 10)  # fmt: skip
        sh = (max(2, h // 3), w) if abs(np.cos(ang)) > 0.7 else (h, max(2, w // 3))
        ridges = 1 - 2 * np.abs(cv2.resize(fbm(sh, 150 * mm, rng, 3), (w, h), interpolation=cv2.INTER_LINEAR))
        img = base[None, None, :] * (0.9 + 0.08 * ridges + 0.03 * fbm((h, w), 500 * mm, rng, 2))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def wall_colour(rng: np.random.Generator) -> np.ndarray:
    """What lies beyond the table's far edge in low shots: a dim, blurred room colour."""
    return np.clip(rng.normal([90, 100, 110], 30, 3), 10, 230)

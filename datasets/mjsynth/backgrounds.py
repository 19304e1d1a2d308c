"""Procedural table surfaces: felt, wood, cloth, plastic, stone and patterned tablecloths.

Textures are made in table millimetres (``mm_per_px``) so that the scene camera foreshortens their pattern
like a real table; every kind mixes noise at several scales, never a single flat colour.
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
    return np.clip(up / 2.0, -1, 1)


def fbm(shape: tuple[int, int], cell_px: float, rng: np.random.Generator, octaves: int = 4) -> np.ndarray:
    out = np.zeros(shape, np.float32)
    amp, total = 1.0, 0.0
    for k in range(octaves):
        out += amp * noise(shape, cell_px / (2**k), rng)
        total += amp
        amp *= 0.5
    return out / total


def _jitter_colour(c, rng: np.random.Generator, amount: float = 18) -> np.ndarray:
    return np.clip(np.array(c, np.float32) + rng.normal(0, amount, 3), 0, 255)


def table_texture(kind: str, size: tuple[int, int], mm_per_px: float, rng: np.random.Generator) -> np.ndarray:
    """A ``(h, w)`` BGR texture of ``kind``, ``mm_per_px`` millimetres per pixel."""
    h, w = size
    mm = 1.0 / mm_per_px  # pixels per mm
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
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
        speck = (rng.random((h, w)) < 0.002).astype(np.float32) * rng.uniform(-0.3, 0.3)
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
    return np.clip(img, 0, 255).astype(np.uint8)


def wall_colour(rng: np.random.Generator) -> np.ndarray:
    """What lies beyond the table's far edge in low shots: a dim, blurred room colour."""
    return np.clip(rng.normal([90, 100, 110], 30, 3), 10, 230)

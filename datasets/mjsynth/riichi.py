"""Suit faces as Japanese (riichi) sets print them: what the reader misread on a real riichi set.

A real riichi set (``../shared/data/camerash-pr4``, the camera frames) differs from the Chinese faces
``procedural`` draws in exactly the places the reader failed (issue 22):

- **characters**: a small brush numeral on top (一二三四伍六七八九) over a large red 萬 that is the same on
  every tile, so 七/九, 四/伍 and 六/八 differ only in the top third; the numerals are drawn here as
  brush strokes (thick, tapered, the real set's 四 a rounded box), not from a font;
- **circles**: outlined rings with a six-dot flower inside, one ink, with *red accents* on fixed circles
  (1p centre, 3p middle, 5p centre, 6p/7p lower four, 9p middle row); the 1p a large ornate wheel;
- **bamboo**: outlined "bone" sticks, red accents on 5s (centre), 7s (top stick), 9s (middle column);
- **red fives**: every circle / stick red, the 5m numeral red.

The colours come from the style (``ProcStyle``): an all-black ink set, a colour set (blue/green/red
circles, green sticks) and a navy one. Drawing goes onto ``procedural``'s 2x canvas; this module only
needs its ``w``, ``h``, ``d`` (a Pillow ``ImageDraw``) and ``text``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PIL import ImageDraw

#: an RGB colour (Pillow draws in RGB)
RGB = tuple[int, int, int]


class Canvas(Protocol):
    """What the faces here are drawn on: ``procedural``'s 2x canvas, described by its shape (procedural
    imports this module, so it cannot be imported back)."""

    w: int
    h: int
    d: ImageDraw.ImageDraw

    def text(self, s: str, cx: float, cy: float, size: float, colour: RGB, font: str) -> None: ...


class RiichiStyle(Protocol):
    """The parts of a ``procedural.ProcStyle`` a riichi suit face reads."""

    @property
    def face(self) -> RGB: ...
    @property
    def numeral(self) -> RGB: ...
    @property
    def five_numeral(self) -> str: ...
    @property
    def numerals(self) -> str: ...
    @property
    def ink(self) -> RGB: ...
    @property
    def colour_suits(self) -> bool: ...


RED = (200, 30, 35)
PINK_RED = (205, 60, 75)
GREEN = (20, 130, 60)
BLUE = (25, 60, 150)

#: circles printed red in a riichi set (indices into ``procedural._CIRCLE_POS[n]``)
CIRCLE_RED: dict[int, set[int]] = {1: {0}, 3: {1}, 5: {2}, 6: {2, 3, 4, 5}, 7: {3, 4, 5, 6}, 9: {3, 4, 5}}
#: the colour set's other circles: riichi colour sets print 2p/4p/8p in blue and green
CIRCLE_COLOUR: dict[int, list[tuple[int, int, int]]] = {
    2: [GREEN, BLUE], 3: [BLUE, RED, GREEN], 4: [BLUE, GREEN, GREEN, BLUE],
    5: [BLUE, GREEN, RED, GREEN, BLUE], 6: [GREEN, GREEN] + [RED] * 4, 7: [GREEN] * 3 + [RED] * 4,
    8: [BLUE] * 8, 9: [BLUE] * 3 + [RED] * 3 + [GREEN] * 3,
}  # fmt: skip

# Brush numerals: strokes as (x, y, half width) points in a unit box, y down; width in box heights.
_P = tuple[float, float, float]
_FIVE: list[list[_P]] = [
    [(0.15, 0.1, 0.04), (0.85, 0.08, 0.07)],
    [(0.47, 0.1, 0.05), (0.4, 0.86, 0.05)],
    [(0.22, 0.45, 0.04), (0.74, 0.42, 0.05), (0.7, 0.86, 0.06)],
    [(0.04, 0.9, 0.05), (0.96, 0.87, 0.09)],
]
BRUSH: dict[str, list[list[_P]]] = {
    "一": [[(0.05, 0.55, 0.06), (0.5, 0.48, 0.08), (0.95, 0.52, 0.11)]],
    "二": [
        [(0.22, 0.25, 0.05), (0.76, 0.22, 0.08)],
        [(0.04, 0.8, 0.06), (0.5, 0.74, 0.08), (0.96, 0.78, 0.1)],
    ],
    "三": [
        [(0.2, 0.1, 0.05), (0.78, 0.08, 0.07)],
        [(0.3, 0.46, 0.04), (0.7, 0.44, 0.06)],
        [(0.04, 0.88, 0.06), (0.5, 0.82, 0.08), (0.96, 0.86, 0.1)],
    ],
    # the real set's 四: a rounded box with two short legs inside
    "四": [
        [(0.12, 0.15, 0.07), (0.08, 0.88, 0.06)],
        [(0.1, 0.14, 0.06), (0.7, 0.08, 0.07), (0.93, 0.3, 0.07), (0.9, 0.88, 0.07)],
        [(0.08, 0.88, 0.05), (0.9, 0.88, 0.06)],
        [(0.4, 0.14, 0.05), (0.3, 0.62, 0.05)],
        [(0.6, 0.14, 0.05), (0.62, 0.55, 0.05), (0.74, 0.62, 0.04)],
    ],
    "五": _FIVE,
    "伍": [
        [(0.28, 0.0, 0.05), (0.04, 0.5, 0.05)],
        [(0.17, 0.32, 0.06), (0.17, 0.98, 0.06)],
    ]
    + [[(0.34 + 0.66 * x, y, w * 0.85) for x, y, w in s] for s in _FIVE],
    "六": [
        [(0.44, 0.0, 0.07), (0.56, 0.16, 0.08)],
        [(0.04, 0.36, 0.05), (0.5, 0.32, 0.07), (0.96, 0.35, 0.1)],
        [(0.38, 0.5, 0.06), (0.14, 0.92, 0.06)],
        [(0.62, 0.5, 0.05), (0.88, 0.94, 0.09)],
    ],
    "七": [
        [(0.04, 0.48, 0.05), (0.5, 0.42, 0.07), (0.96, 0.32, 0.08)],
        [(0.36, 0.02, 0.07), (0.36, 0.74, 0.07), (0.46, 0.9, 0.06), (0.94, 0.9, 0.07), (0.98, 0.72, 0.05)],
    ],
    "八": [
        [(0.42, 0.12, 0.06), (0.3, 0.55, 0.06), (0.04, 0.92, 0.03)],
        [(0.56, 0.18, 0.04), (0.76, 0.6, 0.07), (0.97, 0.92, 0.1)],
    ],
    "九": [
        [(0.42, 0.02, 0.06), (0.4, 0.45, 0.06), (0.08, 0.96, 0.03)],
        [
            (0.08, 0.34, 0.05), (0.6, 0.28, 0.07), (0.62, 0.8, 0.07), (0.76, 0.93, 0.06),
            (0.97, 0.9, 0.06), (0.98, 0.72, 0.04),
        ],
    ],
}  # fmt: skip


def brush(
    cv: Canvas,
    strokes: list[list[_P]],
    box: tuple[float, float, float, float],
    colour: RGB,
    weight: float = 1.0,
) -> None:
    """Paint brush strokes into ``box`` (x0, y0, x1, y1 in face fractions): a disc stamped along each
    stroke, its radius following the stroke's widths times ``weight`` (a brush pressed harder at the end)."""
    x0, y0, x1, y1 = box[0] * cv.w, box[1] * cv.h, box[2] * cv.w, box[3] * cv.h
    bw, bh = x1 - x0, y1 - y0
    for s in strokes:
        for (ax, ay, aw), (bx, by, bw_) in itertools.pairwise(s):
            steps = max(2, int(((bx - ax) ** 2 * bw * bw + (by - ay) ** 2 * bh * bh) ** 0.5 / 1.5))
            for k in range(steps + 1):
                t = k / steps
                x, y = x0 + (ax + (bx - ax) * t) * bw, y0 + (ay + (by - ay) * t) * bh
                r = (aw + (bw_ - aw) * t) * bh * weight
                cv.d.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def man(cv: Canvas, sp: RiichiStyle, n: int, red5: bool, font: str) -> None:
    """A character tile: the numeral small on top, the red 萬 large below (the same on every tile)."""
    glyph = sp.five_numeral if n == 5 else "一二三四五六七八九"[n - 1]
    colour = RED if red5 else sp.numeral
    if sp.numerals == "brush":
        wide = 0.74 if glyph == "伍" else 0.62
        brush(cv, BRUSH[glyph], (0.5 - wide / 2, 0.07, 0.5 + wide / 2, 0.35), colour, 1.5)
    else:
        cv.text(glyph, 0.5, 0.21, 0.36, colour, font)
    cv.text("萬", 0.5, 0.67, 0.5, RED, font)


def _discs(cv: Canvas, x: float, y: float, rr: float) -> Callable[..., None]:
    """A painter of discs about (``x``, ``y``): ``disc(f, colour, dx, dy)`` fills a disc of radius
    ``f * rr`` at that offset (a circle tile is drawn as discs laid over one another)."""

    def disc(f: float, col: RGB, dx: float = 0.0, dy: float = 0.0) -> None:
        cv.d.ellipse([x + dx - rr * f, y + dy - rr * f, x + dx + rr * f, y + dy + rr * f], fill=col)

    return disc


def ring(cv: Canvas, cx: float, cy: float, r: float, rim: RGB, fill: RGB, bg: RGB) -> None:
    """One riichi circle: an outlined ring around a ring of six dots and a centre dot (``fill``)."""
    x, y, rr = cx * cv.w, cy * cv.h, r * cv.w
    disc = _discs(cv, x, y, rr)

    disc(1.0, rim)
    disc(0.8, bg)
    disc(0.68, fill)
    disc(0.56, bg)
    for k in range(6):
        a = k * math.pi / 3
        disc(0.13, fill, math.cos(a) * rr * 0.34, math.sin(a) * rr * 0.34)
    disc(0.12, fill)


def wheel(cv: Canvas, rim: RGB, fill: RGB, bg: RGB) -> None:
    """The 1-circle: a large ornate wheel (a scalloped band between two rims) around a flower."""
    x, y, rr = 0.5 * cv.w, 0.5 * cv.h, 0.45 * cv.w
    disc = _discs(cv, x, y, rr)

    disc(1.0, rim)
    disc(0.92, bg)
    for k in range(22):
        a = k * 2 * math.pi / 22
        disc(0.075, rim, math.cos(a) * rr * 0.8, math.sin(a) * rr * 0.8)
    disc(0.68, rim)
    disc(0.62, bg)
    for k in range(8):
        a = k * math.pi / 4
        disc(0.15, fill, math.cos(a) * rr * 0.36, math.sin(a) * rr * 0.36)
    disc(0.2, fill)
    disc(0.09, bg)


def pin(cv: Canvas, sp: RiichiStyle, n: int, red5: bool, pos: list[tuple[float, float]], r: float) -> None:
    """A circles tile: the style's ink (or the colour set's colours) with the riichi red accents."""
    bg = sp.face
    accents = CIRCLE_RED.get(n, set())
    if n == 1:
        fill = RED if red5 else PINK_RED
        wheel(cv, RED if red5 else (sp.ink if not sp.colour_suits else BLUE), fill, bg)
        return
    for i, (x, y) in enumerate(pos):
        if red5:
            rim = fill = RED
        elif sp.colour_suits:
            rim = fill = CIRCLE_COLOUR[n][i]
        else:
            rim, fill = sp.ink, (PINK_RED if i in accents else sp.ink)
        ring(cv, x, y, r, rim, fill, bg)


def bone(cv: Canvas, cx: float, cy: float, length: float, width: float, colour: RGB, bg: RGB) -> None:
    """An outlined bamboo stick as riichi sets draw it: knobbed ends and a knobbed middle joint, hollow
    between them, a thin line down the middle."""
    x, y = cx * cv.w, cy * cv.h
    hl, hw = length * cv.h / 2, width * cv.w / 2
    d = cv.d
    d.rounded_rectangle([x - hw * 0.75, y - hl, x + hw * 0.75, y + hl], radius=hw * 0.5, fill=colour)
    for fy in (-0.92, 0.0, 0.92):
        yy = y + fy * hl
        d.ellipse([x - hw * 1.1, yy - hw * 0.42, x + hw * 1.1, yy + hw * 0.42], fill=colour)
    for a, b in ((-0.8, -0.12), (0.12, 0.8)):  # the hollows between the joints
        d.rectangle([x - hw * 0.38, y + a * hl, x + hw * 0.38, y + b * hl], fill=bg)
    d.line([x, y - hl * 0.78, x, y + hl * 0.78], fill=colour, width=max(1, int(hw * 0.22)))


def slanted_bone(
    cv: Canvas, cx: float, cy: float, length: float, width: float, angle: float, colour: RGB, bg: RGB
) -> None:
    """A ``bone`` stick turned by ``angle`` (radians): the 8-bamboo's slanted sticks."""
    x, y = cx * cv.w, cy * cv.h
    hl, hw = length * cv.h / 2, width * cv.w / 2
    c, s = math.cos(angle), math.sin(angle)

    def at(dx: float, dy: float) -> tuple[float, float]:
        return (x + dx * c - dy * s, y + dx * s + dy * c)

    d = cv.d
    d.polygon([at(-hw * 0.75, -hl), at(hw * 0.75, -hl), at(hw * 0.75, hl), at(-hw * 0.75, hl)], fill=colour)
    for fy in (-0.92, 0.0, 0.92):
        px, py = at(0.0, fy * hl)
        d.ellipse([px - hw * 0.95, py - hw * 0.95, px + hw * 0.95, py + hw * 0.95], fill=colour)
    for a, b in ((-0.78, -0.14), (0.14, 0.78)):
        d.polygon(
            [at(-hw * 0.36, a * hl), at(hw * 0.36, a * hl), at(hw * 0.36, b * hl), at(-hw * 0.36, b * hl)],
            fill=bg,
        )

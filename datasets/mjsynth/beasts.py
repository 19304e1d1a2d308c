"""Dragon tiles drawn as dragons: the red and green dragon as a *picture* of a beast (issue 22).

Some Chinese sets print the red dragon (7z) and the green dragon (6z) not as 中 / 發 but as a serpentine
Chinese dragon standing upright on the face, in one ink (red for 7z, dark green for 6z): a head at the top
(open jaws, an eye, horns, whiskers, a mane), an S-curved scaly body down the face, two to four small
clawed legs and a curling tail at the bottom, in thin line art filling about 70 % of the face height. The
reader had never seen one and read the red beasts as a red five and the green ones as a flower, so the
generator must draw them.

One exact drawing would teach the reader that drawing only, so a dragon comes in ``N_VARIANTS``
deterministic variants: three body shapes (an S, a C that bulges to one side, a tighter double wave),
each with its own line weight and legs, facing right or left. A style picks one variant for its 7z and
the mirror image for its 6z (such sets print the two dragons facing each other).

Everything is drawn onto ``procedural``'s 2x canvas; this module only needs its ``w``, ``h`` and ``d``
(a Pillow ``ImageDraw``), as ``riichi`` does. Lines are drawn, areas are left in the face colour: the
body is an outlined tube (an ink disc track under a face-colour disc track) so scales, belly plates and
legs can be drawn over it as strokes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PIL import Image, ImageDraw

Pt = tuple[float, float]
#: what Pillow fills with: an RGB colour, or a pixel as ``Image.getpixel`` gives it
Ink = float | tuple[int, ...] | None


class Canvas(Protocol):
    """What a dragon is drawn on: ``procedural``'s 2x canvas, described by its shape (procedural
    imports this module, so it cannot be imported back)."""

    w: int
    h: int
    img: Image.Image
    d: ImageDraw.ImageDraw


@dataclass(frozen=True)
class Shape:
    """One body shape, facing right, in face fractions.

    ``spine`` runs from the neck (just under the head) to the tail tip; ``legs`` are (t along the
    spine, side: +1 the back, -1 the belly, near: drawn over the body or behind it); ``weight`` is the
    line width as a fraction of the face width (real sets use 2-4 %); ``girth`` the body's largest
    half width."""

    spine: tuple[Pt, ...]
    legs: tuple[tuple[float, int, bool], ...]
    weight: float
    girth: float
    head: float  # head size, a fraction of the face width


SHAPES: tuple[Shape, ...] = (
    # an S: neck to the left, belly swinging right, the tail curling back under
    Shape(
        ((0.40, 0.30), (0.33, 0.40), (0.40, 0.50), (0.60, 0.56), (0.68, 0.65), (0.58, 0.74),
         (0.38, 0.77), (0.30, 0.83), (0.38, 0.89), (0.50, 0.88), (0.52, 0.83), (0.46, 0.82)),
        ((0.10, -1, True), (0.22, 1, False), (0.50, -1, True), (0.58, 1, False)),
        0.026, 0.075, 0.30,
    ),
    # a C: the body bulging to the back, the tail swept forward and curled up
    Shape(
        ((0.42, 0.30), (0.30, 0.40), (0.24, 0.53), (0.30, 0.66), (0.46, 0.74), (0.64, 0.79),
         (0.74, 0.86), (0.66, 0.91), (0.58, 0.87), (0.63, 0.84)),
        ((0.14, -1, True), (0.48, -1, True)),
        0.034, 0.082, 0.32,
    ),
    # a reversed S: the neck swept forward under the jaws, a slimmer body, four legs
    Shape(
        ((0.48, 0.30), (0.60, 0.39), (0.56, 0.49), (0.36, 0.55), (0.30, 0.64), (0.42, 0.71),
         (0.62, 0.75), (0.70, 0.82), (0.62, 0.89), (0.48, 0.89), (0.45, 0.84), (0.51, 0.82)),
        ((0.17, -1, True), (0.27, 1, False), (0.50, -1, True), (0.60, 1, False)),
        0.021, 0.066, 0.28,
    ),
)  # fmt: skip

#: variant k: body shape ``k // 2``, facing right for even k and left for odd k
N_VARIANTS = 2 * len(SHAPES)
#: the shapes are drawn shrunk about the face centre by this much: horn tips to tail about 75 % of the
#: face height, as the real sets print it (the line weight is not shrunk)
SCALE = 0.84


def mirror_variant(variant: int) -> int:
    """The same dragon facing the other way (a style's 6z faces its 7z)."""
    return variant ^ 1


def _catmull_rom(pts: tuple[Pt, ...], per: int = 24) -> list[Pt]:
    """A smooth curve through ``pts`` (the ends repeated so it starts and stops at them)."""

    def cr(a: float, b: float, c: float, d: float, t: float) -> float:
        return 0.5 * (
            2 * b + (c - a) * t + (2 * a - 5 * b + 4 * c - d) * t * t + (3 * b - a - 3 * c + d) * t**3
        )

    p = [pts[0], *pts, pts[-1]]
    out: list[Pt] = []
    for i in range(1, len(p) - 2):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = p[i - 1], p[i], p[i + 1], p[i + 2]
        out += [(cr(x0, x1, x2, x3, k / per), cr(y0, y1, y2, y3, k / per)) for k in range(per)]
    out.append(pts[-1])
    return out


def _girth(t: float) -> float:
    """The body's half width along it (1 = the shape's girth): a neck, a full chest, a long taper."""
    if t < 0.12:
        return 0.8 + 0.2 * t / 0.12
    if t < 0.35:
        return 1.0
    return max(0.12, 1.0 - 0.95 * (t - 0.35) / 0.65)


class _Pen:
    """Pixel geometry of one dragon: the spine in canvas pixels, its arc length, normals and widths."""

    def __init__(self, cv: Canvas, shape: Shape, facing: int) -> None:
        self.cv, self.f = cv, facing
        self.lw = max(2, round(shape.weight * cv.w))
        pts = [(0.5 + (x - 0.5) * facing * SCALE, 0.5 + (y - 0.5) * SCALE) for x, y in shape.spine]
        self.pts = [(x * cv.w, y * cv.h) for x, y in _catmull_rom(tuple(pts))]
        acc = [0.0]
        for (ax, ay), (bx, by) in zip(self.pts, self.pts[1:], strict=False):
            acc.append(acc[-1] + math.hypot(bx - ax, by - ay))
        self.length = acc[-1]
        self.acc = acc
        self.girth = shape.girth * cv.w * SCALE

    def at(self, t: float) -> tuple[Pt, Pt, float]:
        """Point, unit tangent (toward the tail) and half width at fraction ``t`` of the length."""
        s = min(max(t, 0.0), 1.0) * self.length
        i = 0
        while i < len(self.acc) - 2 and self.acc[i + 1] < s:
            i += 1
        (ax, ay), (bx, by) = self.pts[i], self.pts[i + 1]
        seg = max(self.acc[i + 1] - self.acc[i], 1e-6)
        u = (s - self.acc[i]) / seg
        dx, dy = (bx - ax) / seg, (by - ay) / seg
        return (ax + (bx - ax) * u, ay + (by - ay) * u), (dx, dy), _girth(t) * self.girth

    def back(self, tangent: Pt) -> Pt:
        """The unit normal toward the dragon's back (away from the side its snout points to at the neck)."""
        return (-tangent[1] * self.f, tangent[0] * self.f)

    def line(self, pts: list[Pt], colour: Ink, width: float) -> None:
        self.cv.d.line(pts, fill=colour, width=max(1, round(width)), joint="curve")
        r = width / 2  # round caps, which Pillow's lines lack
        for x, y in (pts[0], pts[-1]):
            self.cv.d.ellipse([x - r, y - r, x + r, y + r], fill=colour)

    def disc(self, x: float, y: float, r: float, colour: Ink) -> None:
        self.cv.d.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def dragon(cv: Canvas, colour: Ink, variant: int, face: tuple[int, int, int] | None = None) -> None:
    """Draw dragon ``variant`` (0 .. ``N_VARIANTS`` - 1) in ``colour`` on ``cv``; ``face`` is the face
    colour the outlined areas are filled with (default: the canvas's corner pixel)."""
    shape, facing = SHAPES[(variant // 2) % len(SHAPES)], (1 if variant % 2 == 0 else -1)
    bg = face if face is not None else cv.img.getpixel((2, 2))
    pen = _Pen(cv, shape, facing)
    for t, side, near in shape.legs:
        if not near:
            _leg(pen, t, side, colour, bg)
    _spikes(pen, colour)
    _tail_tuft(pen, colour)
    _body(pen, colour, bg)
    for t, side, near in shape.legs:
        if near:
            _leg(pen, t, side, colour, bg)
    _head(pen, shape, colour, bg)


def _body(pen: _Pen, colour: Ink, bg: Ink) -> None:
    """The outlined, tapering body; a belly line with plates across it on the belly side; a row of
    scales (small arcs opening toward the head) along the back half."""
    n = max(60, int(pen.length / 1.5))
    track = [pen.at(k / n) for k in range(n + 1)]
    for (x, y), _, r in track:
        pen.disc(x, y, r, colour)
    for (x, y), _, r in track:
        pen.disc(x, y, max(r - pen.lw, 0.5), bg)
    thin = pen.lw * 0.6
    belly: list[Pt] = []
    for k in range(n + 1):
        t = k / n
        if 0.02 < t < 0.9:
            (x, y), tan, r = track[k]
            bx, by = pen.back(tan)
            belly.append((x - bx * r * 0.45, y - by * r * 0.45))
    if len(belly) > 1:
        pen.cv.d.line(belly, fill=colour, width=max(1, round(thin)), joint="curve")
    step = max(pen.girth * 0.55, 6.0) / pen.length
    t = 0.04
    while t < 0.86:  # belly plates: rungs between the belly line and the belly edge
        (x, y), tan, r = pen.at(t)
        bx, by = pen.back(tan)
        pen.cv.d.line(
            [
                (x - bx * r * 0.45, y - by * r * 0.45),
                (x - bx * (r - pen.lw * 0.6), y - by * (r - pen.lw * 0.6)),
            ],
            fill=colour,
            width=max(1, round(thin)),
        )
        t += step
    t, row = 0.05, 0
    while t < 0.85:  # scales on the back half, staggered in two rows
        (x, y), tan, r = pen.at(t)
        bx, by = pen.back(tan)
        off = r * (0.05 if row % 2 else 0.45)
        sr = r * 0.3
        cx, cy = x + bx * off, y + by * off
        a = math.degrees(math.atan2(tan[1], tan[0]))  # bulging toward the tail
        pen.cv.d.arc(
            [cx - sr, cy - sr, cx + sr, cy + sr], a - 75, a + 75, fill=colour, width=max(1, round(thin))
        )
        t += step * 0.6
        row += 1


def _spikes(pen: _Pen, colour: Ink) -> None:
    """Dorsal fins: small ink triangles along the back, drawn before the body so it covers their bases."""
    t = 0.06
    while t < 0.8:
        (x, y), tan, r = pen.at(t)
        bx, by = pen.back(tan)
        h = r * 0.45 + pen.lw * 0.6
        base = r * 0.35
        tip = (x + bx * (r + h) - tan[0] * base * 0.8, y + by * (r + h) - tan[1] * base * 0.8)
        pen.cv.d.polygon(
            [(x - tan[0] * base, y - tan[1] * base), (x + tan[0] * base, y + tan[1] * base), tip], fill=colour
        )
        t += max(pen.girth * 1.1, 8.0) / pen.length


def _tail_tuft(pen: _Pen, colour: Ink) -> None:
    """A flame-like tuft at the tail tip: three curving strokes fanning out."""
    (x, y), tan, _ = pen.at(0.97)
    bx, by = pen.back(tan)
    s = pen.girth * 0.9
    for k, spread in enumerate((-0.9, 0.0, 0.9)):
        dx, dy = tan[0] + bx * spread, tan[1] + by * spread
        m = math.hypot(dx, dy)
        dx, dy = dx / m, dy / m
        ln = s * (1.2 if k == 1 else 0.9)
        mid = (x + dx * ln * 0.5 - dy * ln * 0.15, y + dy * ln * 0.5 + dx * ln * 0.15)
        pen.line([(x, y), mid, (x + dx * ln, y + dy * ln)], colour, pen.lw * 0.8)


def _leg(pen: _Pen, t: float, side: int, colour: Ink, bg: Ink) -> None:
    """A small leg sprawling out from the body, the elbow raised and the foot planted below it,
    outlined like the body, ending in three hooked claws."""
    (x, y), tan, r = pen.at(t)
    bx, by = pen.back(tan)
    ox, oy = bx * side, by * side  # outward
    span = pen.cv.w * 0.13 * SCALE
    hip = (x + ox * (r - pen.lw), y + oy * (r - pen.lw))
    knee = (hip[0] + ox * span * 0.6, hip[1] + oy * span * 0.6 - span * 0.2)
    sx = 1.0 if knee[0] >= hip[0] else -1.0  # which way the leg sprawls
    foot = (knee[0] + sx * span * 0.2, knee[1] + span * 0.5)
    edge = pen.lw * 0.8
    wide = 2 * edge + pen.cv.w * 0.03 * SCALE
    pen.line([hip, knee, foot], colour, wide)
    pen.line([hip, knee, foot], bg, wide - 2 * edge)
    for k in (-1, 0, 1):  # the claws: hooks fanning down and out
        a = math.atan2(1.0, sx * 0.5) + k * 0.6
        cx, cy = math.cos(a), math.sin(a)
        ln = span * 0.32
        root = (foot[0] + cx * wide * 0.3, foot[1] + cy * wide * 0.3)
        p1 = (root[0] + cx * ln * 0.7, root[1] + cy * ln * 0.7)
        p2 = (p1[0] + cx * ln * 0.2 - cy * ln * 0.3 * sx, p1[1] + cy * ln * 0.2 + cx * ln * 0.3 * sx)
        pen.line([root, p1, p2], colour, edge)


# the head outline facing right: (u forward, v down) in head sizes, from the nape round the skull, the
# snout and the open jaws to the throat
_HEAD: tuple[Pt, ...] = (
    (-0.30, 0.05), (-0.28, -0.20), (-0.10, -0.38), (0.15, -0.42), (0.35, -0.36), (0.50, -0.30),
    (0.78, -0.30), (0.92, -0.26), (0.96, -0.14), (0.88, -0.08), (0.40, -0.02), (0.82, 0.16),
    (0.86, 0.24), (0.70, 0.28), (0.30, 0.28), (0.05, 0.30),
)  # fmt: skip
# the mane: flame points streaming back from the skull and the nape
_MANE: tuple[tuple[Pt, Pt, Pt], ...] = (
    ((-0.05, -0.36), (-0.45, -0.42), (-0.22, -0.22)),
    ((-0.24, -0.20), (-0.62, -0.16), (-0.30, -0.02)),
    ((-0.29, 0.00), (-0.58, 0.14), (-0.26, 0.16)),
)


def _head(pen: _Pen, shape: Shape, colour: Ink, bg: Ink) -> None:
    """The head at the top of the neck: mane and horns behind, the outlined skull with open jaws and
    teeth, an eye under a brow ridge, a nostril, and two whiskers streaming from the upper lip."""
    cv, f, lw = pen.cv, pen.f, pen.lw
    (nx, ny), _, _ = pen.at(0.0)
    s = shape.head * cv.w * SCALE
    ox, oy = nx + f * 0.05 * s, ny - 0.22 * s  # the head sits on the neck

    def p(u: float, v: float) -> Pt:
        return (ox + f * u * s, oy + v * s)

    for a, b, c in _MANE:
        cv.d.polygon([p(*a), p(*b), p(*c)], fill=colour)
    for base, mid, tip in (
        ((0.02, -0.38), (-0.12, -0.62), (-0.34, -0.70)),
        ((0.18, -0.40), (0.12, -0.66), (-0.02, -0.78)),
    ):
        pen.line([p(*base), p(*mid), p(*tip)], colour, lw * 1.1)  # horns, swept back
    pen.line([p(-0.06, -0.58), p(-0.16, -0.50)], colour, lw * 0.8)  # a tine on the first horn
    outline = [p(u, v) for u, v in _HEAD]
    cv.d.polygon(outline, fill=bg)
    cv.d.line([*outline, outline[0]], fill=colour, width=lw, joint="curve")
    for u in (0.52, 0.64, 0.76):  # upper teeth
        cv.d.polygon([p(u, -0.055 - 0.01 * (u - 0.5)), p(u + 0.08, -0.065), p(u + 0.03, 0.04)], fill=colour)
    for u in (0.58, 0.70):  # lower teeth
        cv.d.polygon([p(u, 0.13), p(u + 0.08, 0.17), p(u + 0.05, 0.07)], fill=colour)
    ex, ey = p(0.30, -0.20)
    er = 0.085 * s
    cv.d.ellipse(
        [ex - er, ey - er * 0.8, ex + er, ey + er * 0.8], outline=colour, width=max(1, round(lw * 0.7))
    )
    pen.disc(ex + f * er * 0.25, ey, er * 0.45, colour)  # the pupil, looking forward
    pen.line([p(0.14, -0.33), p(0.30, -0.36), p(0.46, -0.28)], colour, lw * 0.9)  # the brow ridge
    pen.disc(*p(0.84, -0.21), 0.04 * s, colour)  # nostril
    pen.line([p(0.92, -0.20), p(1.08, -0.32), p(1.02, -0.50), p(1.14, -0.64)], colour, lw * 0.6)  # whiskers
    pen.line([p(0.86, -0.10), p(1.08, -0.02), p(1.16, 0.14), p(1.06, 0.30)], colour, lw * 0.6)
    pen.line([p(0.55, 0.28), p(0.50, 0.42), p(0.58, 0.50)], colour, lw * 0.7)  # the beard

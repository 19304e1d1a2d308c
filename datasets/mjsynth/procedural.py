"""Procedurally drawn tile faces: the styles no installed set has.

Real sets differ in exactly the things drawn here: red fives in Chinese and western styles, the white dragon
as a blank / blue frame / ornate frame / frame with "B" / "P" or "Wh" index, corner index numerals and
letters, bird 1-bamboos in other colours, flowers and seasons with their numerals. Each named style is a
fixed ``ProcStyle`` (palette, fonts, designs), so "style" means the same thing as for an artwork set.

Drawing is done with Pillow at twice the face size (CJK text needs a font engine; OpenCV has none) and
downsampled, which anti-aliases the strokes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from mjsynth.artwork import FACE_CODES, FACE_H, FACE_W, Source, Style, recolour_ink

if TYPE_CHECKING:
    from mjsynth.artwork import Artwork

FONT_DIRS = (Path("/usr/share/fonts/opentype/noto"), Path("/usr/share/fonts/truetype/dejavu"))
CJK_FONTS = {
    "serif": "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
    "sans": "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "serif-regular": "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
}
LATIN_FONTS = {
    "sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
}

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWER_CHARS = "梅蘭菊竹春夏秋冬"
WIND_LETTERS = "ESWN"

# RGB colours (Pillow draws in RGB)
RED = (200, 30, 35)
GREEN = (20, 130, 60)
BLUE = (25, 60, 150)
BLACK = (25, 25, 30)


@dataclass(frozen=True)
class ProcStyle:
    """What makes one procedural style: palette, fonts and the design variants."""

    name: str
    face: tuple[int, int, int]  # RGB face colour
    numeral: tuple[int, int, int]  # colour of the character-suit numerals and winds
    cjk_font: str
    circle: str  # rings | flower
    white: str  # blank | blue_frame | ornate_frame | frame_b | index_p | index_wh
    index: bool  # corner index numerals/letters
    five_numeral: str = "五"  # some sets write 伍
    bird_donor: tuple[str, ...] = ("kde-default",)
    bird_colour: tuple[int, int, int] = (40, 140, 60)  # BGR recolour of the borrowed bird


PROC_STYLES: tuple[ProcStyle, ...] = (
    ProcStyle("proc-classic", (236, 232, 214), BLUE, "serif", "rings", "blue_frame", False, "伍",
              ("xmj-real", "kde-traditional")),
    ProcStyle("proc-western", (242, 240, 232), BLACK, "sans", "rings", "index_p", True, "五",
              ("kde-traditional", "kde-default"), (40, 40, 200)),
    ProcStyle("proc-hk", (226, 222, 200), BLACK, "serif", "flower", "blank", False, "五",
              ("kde-classic", "kde-default"), (160, 90, 30)),
    ProcStyle("proc-ornate", (238, 230, 200), (20, 90, 50), "serif-regular", "flower", "ornate_frame", False,
              "伍", ("kde-default", "xmj-dorothys"), (30, 120, 150)),
    ProcStyle("proc-bold", (248, 248, 246), (20, 40, 110), "sans", "rings", "frame_b", True, "五",
              ("fluffy-regular", "kde-classic"), (20, 20, 20)),
    ProcStyle("proc-wh", (240, 236, 226), BLACK, "sans", "flower", "index_wh", True, "伍",
              ("xmj-dorothys", "fluffy-regular"), (150, 40, 40)),
)  # fmt: skip

_CIRCLE_POS = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.25, 0.2), (0.5, 0.5), (0.75, 0.8)],
    4: [(0.29, 0.28), (0.71, 0.28), (0.29, 0.72), (0.71, 0.72)],
    5: [(0.27, 0.22), (0.73, 0.22), (0.5, 0.5), (0.27, 0.78), (0.73, 0.78)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.55), (0.7, 0.55), (0.3, 0.82), (0.7, 0.82)],
    7: [(0.2, 0.12), (0.5, 0.22), (0.8, 0.32), (0.3, 0.6), (0.7, 0.6), (0.3, 0.85), (0.7, 0.85)],
    8: [(x, y) for y in (0.14, 0.38, 0.62, 0.86) for x in (0.3, 0.7)],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.2, 0.5, 0.8)],
}
_CIRCLE_COL = {
    1: [RED], 2: [GREEN, BLUE], 3: [BLUE, RED, GREEN], 4: [BLUE, GREEN, GREEN, BLUE],
    5: [BLUE, GREEN, RED, GREEN, BLUE], 6: [GREEN, GREEN, RED, RED, RED, RED],
    7: [GREEN, GREEN, GREEN, RED, RED, RED, RED], 8: [BLUE] * 8,
    9: [BLUE] * 3 + [RED] * 3 + [GREEN] * 3,
}  # fmt: skip
_STICK_POS = {
    2: [(0.5, 0.28), (0.5, 0.72)],
    3: [(0.5, 0.28), (0.3, 0.72), (0.7, 0.72)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.22, 0.28), (0.78, 0.28), (0.5, 0.5), (0.22, 0.72), (0.78, 0.72)],
    6: [(x, y) for y in (0.28, 0.72) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.18)] + [(x, y) for y in (0.5, 0.82) for x in (0.2, 0.5, 0.8)],
    8: [(x, y) for y in (0.28, 0.72) for x in (0.14, 0.38, 0.62, 0.86)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)],
}
_STICK_RED = {5: {2}, 7: {0}, 9: {1, 4, 7}}


def _fonts_ok() -> bool:
    return all(Path(p).is_file() for p in CJK_FONTS.values())


@functools.lru_cache(maxsize=64)
def _font(path: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


class _Canvas:
    """A 2x face canvas with the drawing primitives the designs need."""

    S = 2

    def __init__(self, colour: tuple[int, int, int]) -> None:
        from PIL import Image, ImageDraw

        self.w, self.h = FACE_W * self.S, FACE_H * self.S
        self.img = Image.new("RGB", (self.w, self.h), colour)
        self.d = ImageDraw.Draw(self.img)

    def text(
        self, s: str, cx: float, cy: float, size: float, colour, font: str, box_h: float | None = None
    ) -> None:
        """Draw ``s`` centred at (cx, cy) in face fractions, ``size`` as a fraction of the face height."""
        f = _font(font, max(6, int(size * self.h)))
        x0, t, r, b = self.d.textbbox((0, 0), s, font=f)
        x = cx * self.w - (x0 + r) / 2
        y = cy * self.h - (t + b) / 2
        self.d.text((x, y), s, font=f, fill=colour)

    def circle(self, cx: float, cy: float, r: float, colour, design: str) -> None:
        x, y, rr = cx * self.w, cy * self.h, r * self.w
        d = self.d
        if design == "rings":
            d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=colour)
            d.ellipse(
                [x - rr * 0.78, y - rr * 0.78, x + rr * 0.78, y + rr * 0.78], fill=self.img.getpixel((2, 2))
            )
            d.ellipse([x - rr * 0.6, y - rr * 0.6, x + rr * 0.6, y + rr * 0.6], fill=colour)
            d.ellipse(
                [x - rr * 0.36, y - rr * 0.36, x + rr * 0.36, y + rr * 0.36], fill=self.img.getpixel((2, 2))
            )
            d.ellipse([x - rr * 0.18, y - rr * 0.18, x + rr * 0.18, y + rr * 0.18], fill=colour)
        else:  # flower: petals around a dot
            for k in range(8):
                a = k * np.pi / 4
                px, py = x + np.cos(a) * rr * 0.55, y + np.sin(a) * rr * 0.55
                d.ellipse([px - rr * 0.38, py - rr * 0.38, px + rr * 0.38, py + rr * 0.38], fill=colour)
            d.ellipse(
                [x - rr * 0.42, y - rr * 0.42, x + rr * 0.42, y + rr * 0.42], fill=self.img.getpixel((2, 2))
            )
            d.ellipse([x - rr * 0.25, y - rr * 0.25, x + rr * 0.25, y + rr * 0.25], fill=colour)

    def stick(self, cx: float, cy: float, length: float, width: float, colour, angle: float = 0.0) -> None:
        x, y = cx * self.w, cy * self.h
        hl, hw = length * self.h / 2, width * self.w / 2
        if angle == 0.0:
            self.d.rounded_rectangle([x - hw, y - hl, x + hw, y + hl], radius=hw * 0.8, fill=colour)
            dark = tuple(int(c * 0.55) for c in colour)
            for fy in (-0.72, 0.0, 0.72):
                self.d.rectangle(
                    [x - hw * 1.15, y + fy * hl - hw * 0.22, x + hw * 1.15, y + fy * hl + hw * 0.22],
                    fill=dark,
                )
            self.d.line(
                [x, y - hl * 0.6, x, y + hl * 0.6],
                fill=self.img.getpixel((2, 2)),
                width=max(1, int(hw * 0.3)),
            )
        else:
            c, s = np.cos(angle), np.sin(angle)
            pts = [
                (x + dx * c - dy * s, y + dx * s + dy * c)
                for dx, dy in ((-hw, -hl), (hw, -hl), (hw, hl), (-hw, hl))
            ]
            self.d.polygon(pts, fill=colour)

    def frame(self, colour, inset: float, width: float) -> None:
        i, w = inset * self.w, max(2, int(width * self.w))
        self.d.rectangle([i, i * 1.1, self.w - i, self.h - i * 1.1], outline=colour, width=w)

    def to_bgr(self) -> np.ndarray:
        arr = np.asarray(self.img)[..., ::-1]
        return cv2.resize(arr, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


def index_label(code: str, white_variant: str = "index_p") -> str:
    """The western corner index of a tile: 1..9 for suits and bonus tiles, E S W N, C F, and P/Wh/B."""
    n, s = code[0], code[1]
    if s in "mps":
        return "5" if n == "0" else n
    if s == "f":
        return str((int(n) - 1) % 4 + 1)
    if s == "z" and int(n) <= 4:
        return WIND_LETTERS[int(n) - 1]
    return {"6": "F", "7": "C"}.get(n, {"index_wh": "Wh", "frame_b": "B"}.get(white_variant, "P"))


def add_corner_index(
    face: np.ndarray, code: str, colour_bgr=(40, 40, 180), white_variant: str = "index_p", both: bool = False
) -> np.ndarray:
    """Overlay a western corner index (top-left, optionally also bottom-right upside down) on any face.

    Drawn with OpenCV's Hershey font so it can run at scene time on any style's face without Pillow.
    """
    out = face.copy()
    label = index_label(code, white_variant)
    scale = 0.62 if len(label) == 1 else 0.5
    (_tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
    cv2.putText(out, label, (7, 7 + th), cv2.FONT_HERSHEY_DUPLEX, scale, colour_bgr, 2, cv2.LINE_AA)
    if both:
        r = cv2.rotate(out, cv2.ROTATE_180)
        cv2.putText(r, label, (7, 7 + th), cv2.FONT_HERSHEY_DUPLEX, scale, colour_bgr, 2, cv2.LINE_AA)
        out = cv2.rotate(r, cv2.ROTATE_180)
    return out


class ProceduralSource(Source):
    """Faces drawn from a ``ProcStyle``; 1-bamboo birds are borrowed from another set and recoloured."""

    name = "procedural"

    def __init__(self, artwork: Artwork | None = None) -> None:
        self.artwork = artwork
        self._spec = {s.name: s for s in PROC_STYLES}

    def available(self) -> bool:
        return _fonts_ok()

    def styles(self) -> list[Style]:
        if not self.available():
            return []
        out = []
        for sp in PROC_STYLES:
            codes = set(FACE_CODES)
            st = Style(sp.name, self.name, codes, f"procedural ({sp.cjk_font} font, white={sp.white})")
            st.derived["1s"] = "bird " + ("/".join(sp.bird_donor)) + " recoloured"
            out.append(st)
        return out

    def render(self, style: str, code: str) -> np.ndarray:
        sp = self._spec[style]
        n, suit = int(code[0]), code[1]
        red5 = n == 0
        if red5:
            n = 5
        if suit == "s" and n == 1:
            return self._bird(sp)
        cv = _Canvas(sp.face)
        font = CJK_FONTS[sp.cjk_font]
        ink = RED if red5 else None
        if suit == "m":
            num = sp.five_numeral if n == 5 else NUMERALS[n - 1]
            cv.text(num, 0.5, 0.3, 0.34, ink or sp.numeral, font)
            cv.text("萬", 0.5, 0.7, 0.4, RED, font)
        elif suit == "p":
            pos = _CIRCLE_POS[n]
            r = {1: 0.4, 2: 0.21, 3: 0.19, 4: 0.19, 5: 0.17, 6: 0.15, 7: 0.13, 8: 0.12, 9: 0.13}[n]
            for (x, y), col in zip(pos, _CIRCLE_COL[n], strict=True):
                cv.circle(x, y, r, ink or col, sp.circle)
            if n == 1:
                cv.circle(
                    0.5, 0.5, 0.16, RED if red5 else GREEN, "flower" if sp.circle == "rings" else "rings"
                )
        elif suit == "s":
            pos = _STICK_POS[n]
            length = {2: 0.34, 3: 0.34, 4: 0.34, 5: 0.34, 6: 0.34, 7: 0.26, 8: 0.36, 9: 0.26}[n]
            width = 0.11 if n < 8 else 0.09
            for i, (x, y) in enumerate(pos):
                col = ink or (
                    RED if i in _STICK_RED.get(n, set()) else (BLUE if n == 8 and y > 0.5 else GREEN)
                )
                ang = (0.35 if (i % 2) else -0.35) if n == 8 else 0.0
                cv.stick(x, y, length, width, col, ang)
        elif suit == "z":
            if n <= 4:
                cv.text(WINDS[n - 1], 0.5, 0.52, 0.62, sp.numeral, font)
            elif n == 6:
                cv.text("發", 0.5, 0.52, 0.62, GREEN, font)
            elif n == 7:
                cv.text("中", 0.5, 0.52, 0.66, RED, font)
            else:
                self._white(cv, sp)
        elif suit == "f":
            self._bonus(cv, sp, n, font)
        face = cv.to_bgr()
        if sp.index and not (suit == "z" and n == 5 and sp.white in ("index_p", "index_wh", "frame_b")):
            col = (40, 40, 190) if suit in "mpsz" else (120, 60, 20)
            face = add_corner_index(face, code, col, sp.white)
        return face

    def _white(self, cv: _Canvas, sp: ProcStyle) -> None:
        blue = (40, 80, 190)
        if sp.white == "blank":
            return
        if sp.white == "blue_frame":
            cv.frame(blue, 0.16, 0.05)
        elif sp.white == "ornate_frame":
            cv.frame(blue, 0.12, 0.035)
            cv.frame(blue, 0.22, 0.02)
            for fx, fy in ((0.17, 0.15), (0.83, 0.15), (0.17, 0.85), (0.83, 0.85)):
                cv.circle(fx, fy, 0.06, blue, "flower")
        elif sp.white == "frame_b":
            cv.frame(BLACK, 0.15, 0.04)
            cv.text("B", 0.5, 0.52, 0.32, BLACK, LATIN_FONTS["serif"])
        elif sp.white == "index_p":
            cv.frame(blue, 0.18, 0.035)
            cv.text("P", 0.16, 0.1, 0.12, BLACK, LATIN_FONTS["sans"])
        elif sp.white == "index_wh":
            cv.frame(blue, 0.2, 0.035)
            cv.text("Wh", 0.2, 0.09, 0.1, BLACK, LATIN_FONTS["sans"])

    def _bonus(self, cv: _Canvas, sp: ProcStyle, n: int, font: str) -> None:
        """Flower (1-4) or season (5-8): a small drawing, its CJK name and its numeral."""
        k = (n - 1) % 4
        season = n > 4
        petal = (
            [(200, 60, 90), (150, 70, 170), (220, 160, 30), (40, 140, 60)][k]
            if not season
            else [(60, 170, 60), (230, 120, 30), (200, 90, 30), (70, 110, 200)][k]
        )
        d = cv.d
        cx, cy, r = 0.5 * cv.w, 0.58 * cv.h, 0.16 * cv.w
        d.line([cx, cy + r * 0.3, cx - r * 0.2, cv.h * 0.9], fill=(60, 110, 50), width=5)
        for j in range(5):
            a = j * 2 * np.pi / 5 + k
            px, py = cx + np.cos(a) * r, cy + np.sin(a) * r
            d.ellipse([px - r * 0.55, py - r * 0.55, px + r * 0.55, py + r * 0.55], fill=petal)
        d.ellipse([cx - r * 0.4, cy - r * 0.4, cx + r * 0.4, cy + r * 0.4], fill=(230, 200, 60))
        cv.text(FLOWER_CHARS[n - 1], 0.72, 0.18, 0.2, RED if season else BLUE, font)
        cv.text(str(k + 1), 0.2, 0.13, 0.14, RED if season else BLUE, LATIN_FONTS["serif"])

    def _bird(self, sp: ProcStyle) -> np.ndarray:
        donor = None
        if self.artwork is not None:
            for d in sp.bird_donor:
                if d in self.artwork.styles and "1s" in self.artwork.styles[d].codes:
                    donor = self.artwork.face(d, "1s")
                    break
        if donor is None:  # nothing to borrow: a simple drawn bird
            cv = _Canvas(sp.face)
            d = cv.d
            w, h = cv.w, cv.h
            d.ellipse([w * 0.25, h * 0.4, w * 0.75, h * 0.7], fill=(40, 130, 60))
            d.polygon([(w * 0.3, h * 0.5), (w * 0.1, h * 0.15), (w * 0.45, h * 0.42)], fill=(30, 90, 160))
            d.ellipse([w * 0.6, h * 0.3, w * 0.8, h * 0.45], fill=(200, 40, 40))
            d.line([w * 0.45, h * 0.7, w * 0.45, h * 0.85], fill=(120, 60, 20), width=6)
            return cv.to_bgr()
        face = recolour_ink(donor, sp.bird_colour)
        bg = np.array(sp.face[::-1], np.float32)  # replace the donor's face colour by this style's
        f = face.astype(np.float32)
        border = np.concatenate([f[:4].reshape(-1, 3), f[-4:].reshape(-1, 3)])
        d = np.linalg.norm(f - np.median(border, axis=0), axis=2)[..., None]
        w = np.clip((d - 20) / 40, 0, 1)
        return np.clip(f * w + bg * (1 - w), 0, 255).astype(np.uint8)

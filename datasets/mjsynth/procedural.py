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

from mahjong_camera_scorer.mjsynth import beasts, riichi
from mahjong_camera_scorer.mjsynth.faces import (
    FACE_CODES,
    FACE_H,
    FACE_W,
    FaceLibrary,
    Source,
    Style,
    recolour_ink,
)
from mahjong_camera_scorer.mjsynth.hands import WIND_LETTERS

if TYPE_CHECKING:
    from PIL import ImageFont

#: an RGB colour (Pillow draws in RGB)
RGB = riichi.RGB

CJK_FONTS = {
    "serif": "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
    "sans": "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "serif-regular": "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
}
LATIN_FONTS = {
    "sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
}

#: what the faces print: character-suit numerals 1-9, the winds 1z-4z (東南西北), flowers and seasons 1f-8f
NUMERALS = "一二三四五六七八九"
WIND_GLYPHS = "東南西北"
FLOWER_CHARS = "梅蘭菊竹春夏秋冬"

# RGB colours (Pillow draws in RGB)
RED = (200, 30, 35)
GREEN = (20, 130, 60)
BLUE = (25, 60, 150)
BLACK = (25, 25, 30)
DARK_GREEN = (15, 100, 50)


@dataclass(frozen=True)
class ProcStyle:
    """What makes one procedural style: palette, fonts and the design variants."""

    name: str
    face: tuple[int, int, int]  # RGB face colour
    numeral: tuple[int, int, int]  # colour of the character-suit numerals and winds
    cjk_font: str
    circle: str  # rings | flower
    white: str  # blank | thin_frame | blue_frame | ornate_frame | frame_b | index_p | index_wh
    index: bool  # corner index numerals/letters
    five_numeral: str = "五"  # some sets write 伍
    bird_donor: tuple[str, ...] = ("kde-default",)
    bird_colour: tuple[int, int, int] = (40, 140, 60)  # BGR recolour of the borrowed bird
    #: a drawn 1-bamboo bird instead of a borrowed one: peacock | sparrow | crane
    bird: str = ""
    #: honours (winds and all three dragons) in this one ink: an all-black green dragon, green winds
    mono_honours: tuple[int, int, int] | None = None
    #: how seasons show their number: small (a small numeral) | big_red | cjk_red (一二三四 in red)
    season: str = "small"
    #: bamboo sticks drawn as jointed canes (Taiwanese and HK sets) rather than plain bars
    canes: bool = False
    #: "chinese" faces, or "riichi" suits (``mjsynth.riichi``: brush numerals over a red 萬, outlined
    #: circles and sticks with the red accents of Japanese sets)
    design: str = "chinese"
    #: riichi: the one ink of circles and sticks (unless ``colour_suits``)
    ink: tuple[int, int, int] = BLACK
    #: riichi: circles in blue/green/red and green sticks, as colour riichi sets print them
    colour_suits: bool = False
    #: riichi: how the character numerals are written: "brush" strokes or the style's "font"
    numerals: str = "font"
    #: riichi: sticks as outlined "bone" shapes or filled "bars"
    sticks: str = "bars"
    #: the green dragon's ink: green, or black as some riichi sets print it (中 stays red)
    green_dragon: tuple[int, int, int] = GREEN
    #: the drawn bird repainted in the style's one ink (red kept): a black-ink set's bird
    bird_ink: bool = False
    #: the red and green dragons as the characters 中 / 發 ("glyph") or as a drawn dragon ("beast",
    #: ``mjsynth.beasts``): red for 7z, ``green_dragon`` for 6z, the two facing each other
    dragons: str = "glyph"
    #: beast: the 7z's drawing (``beasts.N_VARIANTS`` of them); the 6z is its mirror image
    beast: int = 0


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
    # designs real photos showed and the sets above lack: all-black honours (a black 發), green winds
    # and a green 中 (green alone is not 發), jointed canes with red accents, drawn birds, red seasons
    ProcStyle("proc-mono", (240, 238, 230), BLACK, "sans", "rings", "blank", False, "五",
              bird="sparrow", mono_honours=BLACK, season="big_red"),
    ProcStyle("proc-taiwan", (236, 232, 210), BLUE, "serif", "flower", "blue_frame", False, "五",
              bird="peacock", season="cjk_red", canes=True),
    ProcStyle("proc-jade", (244, 242, 236), (20, 90, 50), "serif-regular", "rings", "blank", False, "伍",
              bird="crane", mono_honours=(20, 100, 50), season="big_red", canes=True),
    # riichi sets (camerash-pr4, the camera frames): brush numerals over a red 萬, red-accented circles
    # and sticks, red fives, a black or a green 發, blank or thinly framed whites
    ProcStyle("proc-riichi-ink", (246, 246, 240), BLACK, "serif", "rings", "blank", False, "伍",
              bird="peacock", bird_ink=True, season="big_red", design="riichi", numerals="brush",
              sticks="bone", green_dragon=BLACK),
    ProcStyle("proc-riichi-colour", (240, 238, 226), (20, 40, 110), "serif", "rings", "thin_frame", False,
              "五", bird="sparrow", season="cjk_red", design="riichi", colour_suits=True),
    ProcStyle("proc-riichi-navy", (248, 247, 242), (25, 35, 90), "sans", "rings", "blank", False, "伍",
              bird="crane", season="big_red", design="riichi", ink=(25, 35, 90), numerals="brush",
              green_dragon=(10, 110, 55)),
    # sets that print the red and green dragons as a picture of a dragon (issue 22: read as a red five
    # and a flower before the generator drew them); each style a different drawing, its other faces
    # as the Chinese styles above draw them
    ProcStyle("proc-beast-classic", (236, 232, 214), BLUE, "serif", "rings", "blue_frame", False, "伍",
              ("xmj-real", "kde-traditional"), green_dragon=DARK_GREEN, dragons="beast", beast=0),
    ProcStyle("proc-beast-hk", (228, 224, 202), BLACK, "sans", "flower", "blank", False, "五",
              bird="sparrow", season="cjk_red", canes=True, green_dragon=DARK_GREEN, dragons="beast",
              beast=2),
    ProcStyle("proc-beast-ivory", (244, 242, 234), (20, 40, 110), "serif-regular", "rings", "blue_frame",
              True, "五", bird="crane", season="big_red", green_dragon=(15, 95, 55), dragons="beast",
              beast=5),
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
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
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

    def text(self, s: str, cx: float, cy: float, size: float, colour: RGB, font: str) -> None:
        """Draw ``s`` centred at (cx, cy) in face fractions, ``size`` as a fraction of the face height."""
        f = _font(font, max(6, int(size * self.h)))
        x0, t, r, b = self.d.textbbox((0, 0), s, font=f)
        x = cx * self.w - (x0 + r) / 2
        y = cy * self.h - (t + b) / 2
        self.d.text((x, y), s, font=f, fill=colour)

    def circle(self, cx: float, cy: float, r: float, colour: RGB, design: str) -> None:
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

    def stick(
        self, cx: float, cy: float, length: float, width: float, colour: RGB, angle: float = 0.0
    ) -> None:
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

    def cane(self, cx: float, cy: float, length: float, width: float, colour: RGB) -> None:
        """A jointed bamboo cane: two or three segments with swollen nodes (Taiwanese/HK bamboo)."""
        x, y = cx * self.w, cy * self.h
        hl, hw = length * self.h / 2, width * self.w / 2
        bg = self.img.getpixel((2, 2))
        self.d.rounded_rectangle([x - hw * 0.8, y - hl, x + hw * 0.8, y + hl], radius=hw * 0.5, fill=colour)
        dark = tuple(int(c * 0.5) for c in colour)
        for fy in (-1.0, -0.33, 0.33, 1.0):
            yy = y + fy * hl * 0.97
            self.d.ellipse([x - hw * 1.1, yy - hw * 0.35, x + hw * 1.1, yy + hw * 0.35], fill=dark)
        self.d.line(
            [x - hw * 0.3, y - hl * 0.8, x - hw * 0.3, y + hl * 0.8], fill=bg, width=max(1, int(hw * 0.25))
        )

    def frame(self, colour: RGB, inset: float, width: float) -> None:
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
    face: np.ndarray,
    code: str,
    colour_bgr: tuple[int, int, int] = (40, 40, 180),
    white_variant: str = "index_p",
    both: bool = False,
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


#: Where green and blue inks may go in ``swap_inks`` (red never moves: it marks the red fives).
INK_TARGETS = {"green": ("black", "blue", "teal"), "blue": ("green", "black", "blue")}


def swap_inks(face: np.ndarray, green_to: str, blue_to: str) -> np.ndarray:
    """Repaint a face's green ink and its blue ink (BGR in, BGR out): sets print 發, bamboo and winds in
    many inks, so green alone must never mean 發. Red ink and the face colour are left as they are."""
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    h, sat, val = hsv[..., 0], hsv[..., 1].astype(np.float32), hsv[..., 2].astype(np.float32)
    ink = (sat > 60) & (val > 25)
    masks = {"green": ink & (h >= 35) & (h <= 90), "blue": ink & (h > 90) & (h <= 135)}
    hue = {"green": 60, "blue": 112, "teal": 88}
    out = hsv.copy()
    for src, dst in (("green", green_to), ("blue", blue_to)):
        m = masks[src]
        if dst == "black":
            out[..., 1][m] = (sat[m] * 0.15).astype(np.uint8)
            out[..., 2][m] = (val[m] * 0.3).astype(np.uint8)
        else:
            out[..., 0][m] = hue[dst]
    return cv2.cvtColor(out, cv2.COLOR_HSV2BGR)


class ProceduralSource(Source):
    """Faces drawn from a ``ProcStyle``; 1-bamboo birds are borrowed from another set and recoloured."""

    name = "procedural"

    def __init__(self, artwork: FaceLibrary | None = None) -> None:
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
            st.derived["1s"] = (
                f"drawn {sp.bird}" if sp.bird else "bird " + ("/".join(sp.bird_donor)) + " recoloured"
            )
            out.append(st)
        return out

    def render(self, style: str, code: str) -> np.ndarray:
        sp = self._spec[style]
        n, suit = int(code[0]), code[1]
        red5 = n == 0
        if red5:
            n = 5
        if suit == "s" and n == 1:
            if not sp.bird:
                return self._bird(sp)
            bird = self._drawn_bird(sp)
            return swap_inks(bird, "black", "black") if sp.bird_ink else bird
        cv = _Canvas(sp.face)
        font = CJK_FONTS[sp.cjk_font]
        ink = RED if red5 else None
        if sp.design == "riichi" and suit in "mps":
            self._riichi_suit(cv, sp, n, suit, red5, font)
        elif suit == "m":
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
                if sp.canes and ang == 0.0:
                    cv.cane(x, y, length, width, col)
                else:
                    cv.stick(x, y, length, width, col, ang)
        elif suit == "z":
            mono = sp.mono_honours
            if n <= 4:
                cv.text(WIND_GLYPHS[n - 1], 0.5, 0.52, 0.62, mono or sp.numeral, font)
            elif sp.dragons == "beast" and n in (6, 7):
                red = n == 7
                variant = sp.beast if red else beasts.mirror_variant(sp.beast)
                beasts.dragon(cv, mono or (RED if red else sp.green_dragon), variant, sp.face)
            elif n == 6:
                cv.text("發", 0.5, 0.52, 0.62, mono or sp.green_dragon, font)
            elif n == 7:
                cv.text("中", 0.5, 0.52, 0.66, mono or RED, font)
            else:
                self._white(cv, sp)
        elif suit == "f":
            self._bonus(cv, sp, n, font)
        face = cv.to_bgr()
        if sp.index and not (suit == "z" and n == 5 and sp.white in ("index_p", "index_wh", "frame_b")):
            col = (40, 40, 190) if suit in "mpsz" else (120, 60, 20)
            face = add_corner_index(face, code, col, sp.white)
        return face

    def _riichi_suit(self, cv: _Canvas, sp: ProcStyle, n: int, suit: str, red5: bool, font: str) -> None:
        """Characters, circles and bamboo (2-9) of a riichi style (``mjsynth.riichi``)."""
        if suit == "m":
            riichi.man(cv, sp, n, red5, font)
        elif suit == "p":
            r = {1: 0.45, 2: 0.22, 3: 0.19, 4: 0.2, 5: 0.18, 6: 0.16, 7: 0.13, 8: 0.13, 9: 0.155}[n]
            riichi.pin(cv, sp, n, red5, _CIRCLE_POS[n], r)
        else:
            length = {2: 0.36, 3: 0.34, 4: 0.36, 5: 0.34, 6: 0.36, 7: 0.26, 8: 0.36, 9: 0.27}[n]
            width = (0.12 if n < 8 else 0.1) * (1.3 if sp.sticks == "bone" else 1.0)  # real bones are wide
            base = GREEN if sp.colour_suits else sp.ink
            for i, (x, y) in enumerate(_STICK_POS[n]):
                col = RED if red5 or i in _STICK_RED.get(n, set()) else base
                if sp.colour_suits and n in (4, 8) and y > 0.5:
                    col = BLUE if not red5 else RED
                # the 8-bamboo: slanted sticks, the lower row mirrored (a W over an M)
                ang = ((0.35 if (i % 2) else -0.35) * (-1 if y > 0.5 else 1)) if n == 8 else 0.0
                if sp.sticks == "bone":
                    if ang:
                        riichi.slanted_bone(cv, x, y, length, width, ang, col, sp.face)
                    else:
                        riichi.bone(cv, x, y, length, width, col, sp.face)
                else:
                    cv.stick(x, y, length, width, col, ang)

    def _white(self, cv: _Canvas, sp: ProcStyle) -> None:
        blue = (40, 80, 190)
        if sp.white == "blank":
            return
        if sp.white == "thin_frame":  # a thin line near the edge, as some riichi whites have
            cv.frame(blue, 0.09, 0.018)
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
        if season and sp.season == "big_red":  # a large red numeral, the name in black
            cv.text(FLOWER_CHARS[n - 1], 0.72, 0.18, 0.2, BLACK, font)
            cv.text(str(k + 1), 0.22, 0.17, 0.26, RED, LATIN_FONTS["sans"])
        elif season and sp.season == "cjk_red":  # the name and a Chinese numeral, both red
            cv.text(FLOWER_CHARS[n - 1], 0.75, 0.16, 0.2, RED, font)
            cv.text(NUMERALS[k], 0.22, 0.16, 0.2, RED, font)
        else:
            cv.text(FLOWER_CHARS[n - 1], 0.72, 0.18, 0.2, RED if season else BLUE, font)
            cv.text(str(k + 1), 0.2, 0.13, 0.14, RED if season else BLUE, LATIN_FONTS["serif"])

    def _drawn_bird(self, sp: ProcStyle) -> np.ndarray:
        """Three bird designs real 1-bamboos use: a peacock with its tail spread, a sparrow on a bamboo
        twig, a crane on one leg."""
        cv = _Canvas(sp.face)
        d, w, h = cv.d, cv.w, cv.h
        if sp.bird == "peacock":
            cx, cy = 0.5 * w, 0.62 * h
            for k in range(9):  # the fan: feathers with eye spots
                a = np.pi * (0.1 + 0.8 * k / 8)
                ex, ey = cx - np.cos(a) * w * 0.38, cy - np.sin(a) * h * 0.4
                d.line([cx, cy, ex, ey], fill=(30, 120, 60), width=6)
                r = w * 0.065
                d.ellipse([ex - r, ey - r * 1.3, ex + r, ey + r * 1.3], fill=(40, 150, 70))
                d.ellipse([ex - r * 0.6, ey - r * 0.8, ex + r * 0.6, ey + r * 0.8], fill=(30, 70, 170))
                d.ellipse([ex - r * 0.25, ey - r * 0.3, ex + r * 0.25, ey + r * 0.3], fill=(200, 40, 40))
            d.ellipse([cx - w * 0.11, cy - h * 0.06, cx + w * 0.11, cy + h * 0.14], fill=(30, 80, 170))
            d.line([cx, cy, cx + w * 0.05, cy - h * 0.2], fill=(30, 80, 170), width=14)  # neck
            d.ellipse([cx - w * 0.0, cy - h * 0.25, cx + w * 0.1, cy - h * 0.18], fill=(30, 80, 170))
            for j in range(3):  # crest
                d.line(
                    [cx + w * 0.05, cy - h * 0.25, cx + w * (0.02 + 0.03 * j), cy - h * 0.31],
                    fill=(30, 120, 60),
                    width=3,
                )
            d.polygon(
                [
                    (cx + w * 0.1, cy - h * 0.22),
                    (cx + w * 0.16, cy - h * 0.21),
                    (cx + w * 0.1, cy - h * 0.19),
                ],
                fill=(220, 160, 40),
            )
            d.line([cx - w * 0.04, cy + h * 0.13, cx - w * 0.06, cy + h * 0.3], fill=(120, 70, 30), width=5)
            d.line([cx + w * 0.04, cy + h * 0.13, cx + w * 0.06, cy + h * 0.3], fill=(120, 70, 30), width=5)
        elif sp.bird == "sparrow":
            ink = (25, 25, 30)
            d.line([w * 0.1, h * 0.85, w * 0.9, h * 0.62], fill=GREEN, width=12)  # the twig
            for t in (0.3, 0.6):
                d.ellipse(
                    [
                        w * (0.1 + 0.8 * t) - 9,
                        h * (0.85 - 0.23 * t) - 9,
                        w * (0.1 + 0.8 * t) + 9,
                        h * (0.85 - 0.23 * t) + 9,
                    ],
                    fill=(10, 90, 40),
                )
            d.polygon([(w * 0.3, h * 0.5), (w * 0.08, h * 0.66), (w * 0.16, h * 0.7)], fill=ink)  # tail
            d.ellipse([w * 0.22, h * 0.36, w * 0.7, h * 0.66], fill=(150, 100, 60))
            d.chord([w * 0.22, h * 0.36, w * 0.7, h * 0.66], 180, 330, fill=ink)  # wing
            d.ellipse([w * 0.52, h * 0.24, w * 0.8, h * 0.44], fill=(150, 100, 60))
            d.ellipse([w * 0.66, h * 0.3, w * 0.71, h * 0.34], fill=ink)
            d.polygon([(w * 0.79, h * 0.32), (w * 0.92, h * 0.35), (w * 0.79, h * 0.38)], fill=(220, 150, 40))
            d.line([w * 0.45, h * 0.65, w * 0.43, h * 0.74], fill=ink, width=4)
        else:  # crane: white body, black neck and wing tips, red crown, standing on one leg
            ink = (20, 20, 25)
            d.ellipse([w * 0.2, h * 0.38, w * 0.72, h * 0.6], fill=(250, 250, 250), outline=ink, width=3)
            d.chord([w * 0.2, h * 0.38, w * 0.72, h * 0.6], 150, 230, fill=ink)
            d.line(
                [w * 0.62, h * 0.45, w * 0.72, h * 0.2, w * 0.66, h * 0.1], fill=ink, width=9, joint="curve"
            )
            d.ellipse([w * 0.6, h * 0.06, w * 0.72, h * 0.14], fill=ink)
            d.ellipse([w * 0.63, h * 0.05, w * 0.69, h * 0.08], fill=(210, 30, 30))
            d.polygon([(w * 0.61, h * 0.1), (w * 0.46, h * 0.13), (w * 0.61, h * 0.12)], fill=(200, 150, 40))
            d.line([w * 0.45, h * 0.59, w * 0.45, h * 0.9], fill=ink, width=5)
            d.line([w * 0.45, h * 0.72, w * 0.58, h * 0.66, w * 0.5, h * 0.62], fill=ink, width=4)
            d.line([w * 0.35, h * 0.9, w * 0.58, h * 0.9], fill=GREEN, width=6)
        return cv.to_bgr()

    def _bird(self, sp: ProcStyle) -> np.ndarray:
        donor = None
        if self.artwork is not None:
            for name in sp.bird_donor:
                if name in self.artwork.styles and "1s" in self.artwork.styles[name].codes:
                    donor = self.artwork.face(name, "1s")
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
        bird: np.ndarray = np.clip(f * w + bg * (1 - w), 0, 255).astype(np.uint8)
        return bird

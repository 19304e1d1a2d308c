"""Real tiles in new places: real tile crops pasted into rows, with faceless tiles and clutter (issue 22).

Synthetic scenes decide most of what the models know about a set they never saw, and rendered faces
do not look like photographed ones. Here every face is a photographed one where one exists: crops
cut from labelled real photos (the camerash train fold, the Chinese/HK *train* pictures; never the
camera frames, camerash-pr4 or a test split, which measure unseen sets) are laid out as players lay
tiles out -- rows of concealed tiles, a claimed tile turned sideways, a kong with two face-down
tiles -- with the tile's body showing at its lower edge, on a table surface, and then the whole scene
is put under one light and one camera: a smooth light fall-off and colour cast, a perspective warp,
blur at the scale of the tiles, sensor noise and JPEG. What a real photo shows and no crop set has:

- **blank white dragons** (``5z``) in the variants real sets have: plain, a thin frame, a ``B`` or
  a ``P``, on an ivory face of the set's own tone (:func:`blank_white`);
- **face-down tiles** (``back``) of any colour: yellow, orange, green, blue, ivory and two-tone
  backs, with a sheen (:func:`back_face`);
- **drawn faces** where the crop bank has none or few: with a :class:`ProcMix`, a fraction of the
  rows' tiles (and every code the bank lacks) are procedural faces of one drawn style per scene --
  the riichi styles by default (``mjsynth.riichi``: brush numerals, red accents, red fives, black
  發) -- under the same body, light and camera as the real crops;
- **clutter** the reader must call ``none``, drawn to look as much like a faceless tile as clutter
  can: white paper with a few lines of print, book spines, dark plastic holders, key caps, dice,
  scoring sticks, a remote control (:func:`clutter_item`). Blank whites and backs are tiles; these
  are not, and the reader learns the difference from both at once.

:func:`compose` makes one scene (image, tiles, clutter boxes); :func:`reader_crops` cuts each as the
runtime cuts a detector box (:func:`vision.crops.crop_box`). :func:`generate` writes a classify
folder set (``<out>/cls/<code>/*.jpg`` + ``crops.csv`` with ``upright_in_crop``) for
``scripts/train_reader.py --synth`` and the scenes in YOLO form (``<out>/det``: classes ``tile`` and
``back``) for the detector.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth.backgrounds import table_texture
from mahjong_camera_scorer.mjsynth.faces import FaceLibrary
from mahjong_camera_scorer.mjsynth.recolour import RED_OF, redden
from mahjong_camera_scorer.vision.classes import BACK, NOT_A_TILE, READER_CLASSES
from mahjong_camera_scorer.vision.crops import CROP_SIZE, crop_box

#: Face-down tile colours (BGR) as real sets have them; "two-tone" backs add an ivory layer.
BACKS: dict[str, tuple[int, int, int]] = {
    "yellow": (40, 185, 225),
    "orange": (30, 115, 230),
    "green": (60, 125, 35),
    "dark_green": (45, 85, 25),
    "blue": (160, 90, 25),
    "light_blue": (205, 160, 90),
    "ivory": (170, 215, 235),
    "pink": (150, 120, 225),
    "black": (35, 32, 32),
}
#: A red five's crop is a real plain five of the same suit, repainted (:func:`mjsynth.recolour.redden`).
RED_SOURCE = {red: plain for plain, red in RED_OF.items()}
#: The blank white dragon's variants (issue 22): plain, a thin frame, a B, a P.
WHITE_VARIANTS = ("plain", "frame", "B", "P")
#: Clutter kinds drawn as ``none``.
CLUTTER = ("paper", "spine", "holder", "keycap", "dice", "stick", "remote")
#: A die's pips on a 4 x 4 grid, by face.
PIPS = {
    1: [(2, 2)],
    2: [(1, 1), (3, 3)],
    3: [(1, 1), (2, 2), (3, 3)],
    4: [(1, 1), (1, 3), (3, 1), (3, 3)],
    5: [(1, 1), (1, 3), (3, 1), (3, 3), (2, 2)],
    6: [(1, 1), (1, 2), (1, 3), (3, 1), (3, 2), (3, 3)],
}
TABLES = ("felt", "mat", "wood", "cloth", "plastic")
FACE_W, FACE_H = 150, 200  # px, the face as drawn before the scene is scaled (a riichi face: 0.75)


@dataclass
class Placed:
    """One thing in a scene: its box in the final image (x0, y0, x1, y1), code, and which way its
    top points (degrees clockwise from up; 0 for clutter)."""

    box: tuple[float, float, float, float]
    code: str
    turn: int = 0
    source: str = ""


@dataclass
class Scene:
    image: np.ndarray
    tiles: list[Placed] = field(default_factory=list)
    clutter: list[Placed] = field(default_factory=list)


# -- faces ----------------------------------------------------------------------------------------


def _ivory(rng: random.Random) -> np.ndarray:
    base = rng.choice([(222, 236, 242), (210, 228, 238), (235, 240, 240), (200, 222, 232), (228, 232, 226)])
    return np.array([c * rng.uniform(0.9, 1.03) for c in base], np.float32)


def _sheen(h: int, w: int, rng: random.Random) -> np.ndarray:
    """A soft diagonal gradient with a highlight: how a glossy face catches a lamp."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    g = (np.cos(a) * xx / w + np.sin(a) * yy / h) * rng.uniform(0.04, 0.14)
    cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.3, 0.8) * w
    spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * rng.uniform(0.0, 0.12)
    sheen: np.ndarray = (1.0 + g - g.mean() + spot)[..., None]
    return sheen


def blank_white(rng: random.Random, variant: str | None = None) -> np.ndarray:
    """A blank white dragon's face: plain ivory, a thin (blue, green, black or gold) frame, or a
    ``B``/``P`` index, drawn small as real sets print it."""
    variant = variant or rng.choice(WHITE_VARIANTS)
    face = np.clip(np.ones((FACE_H, FACE_W, 3), np.float32) * _ivory(rng), 0, 255).astype(np.uint8)
    ink = rng.choice([(150, 70, 20), (60, 110, 30), (40, 40, 40), (40, 140, 190)])
    if variant == "frame":
        inset = rng.uniform(0.1, 0.2)
        x0, y0 = int(FACE_W * inset), int(FACE_H * inset * 0.8)
        cv2.rectangle(face, (x0, y0), (FACE_W - x0, FACE_H - y0), ink, rng.randint(2, 5), cv2.LINE_AA)
    elif variant in ("B", "P"):
        scale = rng.uniform(0.6, 1.6)
        (tw, th), _ = cv2.getTextSize(variant, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        if rng.random() < 0.5:  # a corner index
            org = (rng.randint(6, 14), th + rng.randint(6, 14))
        else:
            org = ((FACE_W - tw) // 2, (FACE_H + th) // 2)
        cv2.putText(face, variant, org, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 2, cv2.LINE_AA)
    white: np.ndarray = np.clip(face * _sheen(FACE_H, FACE_W, rng), 0, 255).astype(np.uint8)
    return white


def back_face(rng: random.Random, colour: str | None = None) -> np.ndarray:
    """A face-down tile seen from above: the back's colour with a sheen; a two-tone back shows an
    ivory layer along one edge (the tile's front half, seen past the back)."""
    name = colour or rng.choice(sorted(BACKS))
    c = np.array(BACKS[name], np.float32) + np.array([rng.gauss(0, 8) for _ in range(3)], np.float32)
    face = np.ones((FACE_H, FACE_W, 3), np.float32) * c
    if rng.random() < 0.35:  # two-tone
        k = int(FACE_H * rng.uniform(0.08, 0.3))
        face[FACE_H - k :] = _ivory(rng)
    back: np.ndarray = np.clip(face * _sheen(FACE_H, FACE_W, rng), 0, 255).astype(np.uint8)
    return back


def with_body(face: np.ndarray, rng: random.Random, back: tuple[int, int, int] | None = None) -> np.ndarray:
    """A face with the tile's body below it, as a camera above and in front of a standing or lying
    tile sees it: an ivory layer then the back's colour, a few to 25 % of the face's height."""
    h, w = face.shape[:2]
    side = int(h * rng.uniform(0.0, 0.25))
    if not side:
        return face
    colour = np.array(back or BACKS[rng.choice(sorted(BACKS))], np.float32)
    body = np.empty((side, w, 3), np.float32)
    split = int(side * rng.uniform(0.3, 0.7))
    body[:split] = _ivory(rng) * 0.85
    body[split:] = colour * rng.uniform(0.6, 0.95)
    return np.vstack([face, body.astype(np.uint8)])


# -- clutter --------------------------------------------------------------------------------------


def _text_lines(img: np.ndarray, rng: random.Random, colour: tuple[int, int, int] = (50, 50, 50)) -> None:
    h, w = img.shape[:2]
    y = rng.randint(h // 8, h // 3)
    while y < h - 8:
        x0 = rng.randint(4, max(5, w // 5))
        cv2.line(img, (x0, y), (rng.randint(w // 2, w - 4), y), colour, rng.randint(1, 3))
        y += rng.randint(8, 22)


def clutter_item(kind: str, rng: random.Random) -> np.ndarray:
    """One piece of clutter about a tile's size, drawn: what the reader must call ``none``."""
    if kind == "paper":  # a white booklet or note: the blank white's worst look-alike
        img = np.full((rng.randint(150, 260), rng.randint(130, 200), 3), rng.randint(215, 250), np.uint8)
        _text_lines(img, rng)
        if rng.random() < 0.5:
            cv2.putText(
                img, rng.choice(["User", "Manual", "NOTE", "Guide"]), (10, 40), 0, 0.8, (40, 40, 40), 2
            )
    elif kind == "spine":  # a row of book spines
        w = rng.randint(120, 220)
        img = np.zeros((rng.randint(180, 260), w, 3), np.uint8)
        x = 0
        while x < w:
            sw = rng.randint(14, 40)
            img[:, x : x + sw] = [rng.randint(30, 250) for _ in range(3)]
            for y in range(rng.randint(10, 40), img.shape[0] - 20, rng.randint(18, 30)):
                cv2.rectangle(img, (x + 3, y), (x + sw - 4, y + rng.randint(6, 14)), (20, 20, 20), -1)
            x += sw + 1
    elif kind == "holder":  # dark plastic: a card holder, a phone stand
        img = np.full((rng.randint(150, 220), rng.randint(110, 170), 3), rng.randint(25, 70), np.uint8)
        cv2.rectangle(img, (8, 8), (img.shape[1] - 8, img.shape[0] - 8), (90, 90, 90), 2)
    elif kind == "keycap":  # a keyboard key: square, a letter or none
        s = rng.randint(120, 170)
        img = np.full((s, s, 3), rng.choice([235, 220, 40, 60]), np.uint8)
        ink = (30, 30, 30) if img[0, 0, 0] > 128 else (230, 230, 230)
        cv2.rectangle(img, (10, 10), (s - 10, s - 10), [int(c * 0.9) for c in img[0, 0]], 3)
        if rng.random() < 0.7:
            cv2.putText(img, rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ1234"), (s // 4, s * 2 // 3), 0, 1.6, ink, 3)
    elif kind == "dice":  # a white die, pips in black or red
        s = rng.randint(90, 130)
        img = np.full((s, s, 3), rng.randint(215, 245), np.uint8)
        n = rng.randint(1, 6)
        spots = PIPS[n]
        ink = (30, 30, 200) if n in (1, 4) and rng.random() < 0.7 else (25, 25, 25)
        for a, b in spots:
            cv2.circle(img, (a * s // 4, b * s // 4), s // 10, ink, -1, cv2.LINE_AA)
    elif kind == "stick":  # a riichi scoring stick: long, thin, white, dots
        img = np.full((rng.randint(24, 36), rng.randint(260, 360), 3), rng.randint(220, 245), np.uint8)
        h, w = img.shape[:2]
        for k in range(rng.choice([1, 1, 4, 8])):
            cv2.circle(img, (w // 2 + (k - 2) * 18, h // 2), 5, rng.choice([(30, 30, 200), (30, 30, 30)]), -1)
    else:  # a remote control: dark, rounded, rubber buttons
        img = np.full((rng.randint(240, 320), rng.randint(80, 110), 3), rng.randint(20, 60), np.uint8)
        h, w = img.shape[:2]
        for y in range(40, h - 30, 28):
            for x in (w // 4, w // 2, 3 * w // 4):
                cv2.circle(img, (x, y), 8, [rng.randint(60, 200) for _ in range(3)], -1, cv2.LINE_AA)
    return img


# -- real crops -----------------------------------------------------------------------------------


@dataclass
class Crop:
    """A real tile's crop and whether it is known to show the tile upright: camerash's crops are;
    a labelled box of a scene photo may hold a tile upside down (the labels do not say)."""

    image: np.ndarray
    upright: bool = True


CropBank = dict[str, list[Crop]]


def bank_from_folders(pairs: list[tuple[Path, str]], limit_per_code: int = 60, seed: int = 0) -> CropBank:
    """Real tile crops by code from ``(image path, code)`` pairs (each read once, kept in memory)."""
    rng = random.Random(seed)
    by: dict[str, list[Path]] = {}
    for p, c in pairs:
        by.setdefault(c, []).append(p)
    out: CropBank = {}
    for c, paths in by.items():
        rng.shuffle(paths)
        imgs = [
            im
            for im in (cv2.imread(str(p), cv2.IMREAD_COLOR) for p in paths[:limit_per_code])
            if im is not None
        ]
        if imgs:
            out[c] = [Crop(im) for im in imgs]
    return out


def cut_labels(image: np.ndarray, boxes: list[tuple[str, tuple[float, float, float, float]]]) -> CropBank:
    """Tight crops of a labelled photo's tiles (portrait: landscape boxes are skipped, they may be
    tiles lying sideways or several tiles)."""
    out: CropBank = {}
    h, w = image.shape[:2]
    for code, (x0, y0, x1, y1) in boxes:
        if code not in READER_CLASSES or x1 - x0 < 12 or y1 - y0 < 16 or (x1 - x0) > (y1 - y0):
            continue
        cut = image[max(0, int(y0)) : min(h, int(y1)), max(0, int(x0)) : min(w, int(x1))]
        if cut.size:
            out.setdefault(code, []).append(Crop(cut.copy(), upright=False))
    return out


# -- drawn faces -----------------------------------------------------------------------------------

#: The drawn styles mixed in by default: the riichi designs real crop banks lack (issue 22).
RIICHI_STYLES = ("proc-riichi-ink", "proc-riichi-colour", "proc-riichi-navy")


@dataclass(frozen=True)
class ProcMix:
    """Procedural faces mixed into the rows of real crops: one of ``styles`` per scene (a set is one
    style), drawn for ``fraction`` of the face-up tiles and for every code the crop bank lacks."""

    faces: FaceLibrary
    styles: tuple[str, ...] = RIICHI_STYLES
    fraction: float = 0.15

    def codes(self, style: str) -> set[str]:
        """The reader classes ``style`` draws, red fives excepted (a plain five is turned red later,
        as for real crops) and the face-down class (drawn by :func:`back_face`)."""
        have = self.faces.styles[style].codes
        return {c for c in READER_CLASSES if c in have and c not in RED_SOURCE and c != BACK}


def drawn_face(faces: FaceLibrary, style: str, code: str, rng: random.Random) -> np.ndarray:
    """A procedural face as a pasted tile shows it: at the pasted face size, a little soft (a print,
    not a vector drawing) and with the glossy sheen of a real face."""
    face = cv2.resize(faces.face(style, code), (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    sigma = rng.uniform(0.0, 1.0)
    if sigma > 0.3:
        face = cv2.GaussianBlur(face, (0, 0), sigma)
    drawn: np.ndarray = np.clip(face * _sheen(FACE_H, FACE_W, rng), 0, 255).astype(np.uint8)
    return drawn


# -- the scene ------------------------------------------------------------------------------------


def draw_tile(
    rng: random.Random, codes: list[str], p_back: float, p_white: float, back: bool = False
) -> tuple[str, str]:
    """Which tile comes next, as (kind, code) for :func:`tile_image`: a back (``back`` forces one,
    as a concealed kong's middle does), a blank white, or a face of ``codes`` (a five now and then
    made red). One random draw decides the kind whatever ``back`` says, so scenes stay the same for
    a seed."""
    r = rng.random()
    if back or r < p_back:
        return "back", BACK
    if r < p_back + p_white:
        return "white", "5z"
    code = rng.choice(codes)
    if code in RED_OF and rng.random() < 0.3:
        code = RED_OF[code]
    return "real", code


def tile_image(
    kind: str,
    code: str,
    bank: CropBank,
    rng: random.Random,
    proc: ProcMix | None = None,
    style: str = "",
) -> tuple[np.ndarray, str]:
    """The tile's picture and its source: ``back``, ``white``, ``real`` (upright), ``photo`` (a
    scene photo's crop: its way up is not known) or ``proc`` (a drawn face of ``style``, upright)."""
    if kind == "back":
        return with_body(back_face(rng), rng), kind
    if kind == "white":
        return with_body(blank_white(rng), rng), kind
    if (
        proc is not None
        and code in proc.faces.styles[style].codes
        and (RED_SOURCE.get(code, code) not in bank or rng.random() < proc.fraction)
    ):
        return with_body(drawn_face(proc.faces, style, code, rng), rng), "proc"
    chosen = rng.choice(bank[RED_SOURCE.get(code, code)])
    crop = cv2.resize(chosen.image, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    if code in RED_SOURCE:  # a red five: a real plain five with its ink repainted red
        crop = redden(crop, rng)
    return with_body(crop, rng), "real" if chosen.upright else "photo"


def light(img: np.ndarray, rng: random.Random) -> np.ndarray:
    """One light over the whole scene: a smooth fall-off, a colour cast, a brightness."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(-0.3, 1.3) * w, rng.uniform(-0.3, 1.3) * h
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / max(h, w)
    gain = 1.15 - rng.uniform(0.1, 0.55) * d
    cast = np.array([rng.uniform(0.9, 1.06), rng.uniform(0.95, 1.04), rng.uniform(0.9, 1.08)], np.float32)
    out = img.astype(np.float32) * gain[..., None] * cast * rng.uniform(0.7, 1.15)
    lit: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return lit


def camera(
    img: np.ndarray,
    rng: random.Random,
    pad: int = 0,
    squeeze: float = 0.22,
    drop: float = 0.2,
    turn: float = 8.0,
    border: int = cv2.BORDER_REFLECT,
) -> tuple[np.ndarray, np.ndarray]:
    """A camera above and in front: the far edge shrinks (by up to ``squeeze`` of the width on each
    side, the top drops by up to ``drop`` of the height), the photo turns by up to ``turn`` degrees.
    With ``pad``, the view is the canvas inside a border of that many pixels, so that where it tilts
    past its edge the photo shows more of the scene rather than a reflected border (desk scenes).
    Returns the warped image and the 3x3 homography from canvas to photo."""
    h, w = img.shape[0] - 2 * pad, img.shape[1] - 2 * pad
    k = rng.uniform(0.0, squeeze) * w  # foreshortening of the far (top) edge
    dy = rng.uniform(0.0, drop) * h
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[k, dy], [w - k, dy], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    a = math.radians(rng.uniform(-turn, turn))
    rot = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]], np.float64)
    t1 = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], np.float64)
    t2 = np.array([[1, 0, w / 2], [0, 1, h / 2], [0, 0, 1]], np.float64)
    shift = np.array([[1, 0, -pad], [0, 1, -pad], [0, 0, 1]], np.float64)
    m = t2 @ rot @ t1 @ m @ shift
    return cv2.warpPerspective(img, m, (w, h), borderMode=border), m


def _warp_box(m: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = box
    pts = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.float32)
    corners: np.ndarray = cv2.perspectiveTransform(pts, m).reshape(4, 2)
    return corners


def _paste(
    canvas: np.ndarray, img: np.ndarray, x: int, y: int, shadow: bool = True
) -> tuple[int, int, int, int]:
    h, w = img.shape[:2]
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return (x0, y0, x0, y0)
    if shadow:  # a soft shadow down and to the right
        s = max(2, w // 12)
        sx0, sy0, sx1, sy1 = min(W, x0 + s), min(H, y0 + s), min(W, x1 + s), min(H, y1 + s)
        canvas[sy0:sy1, sx0:sx1] = (canvas[sy0:sy1, sx0:sx1] * 0.6).astype(canvas.dtype)
    canvas[y0:y1, x0:x1] = img[y0 - y : y1 - y, x0 - x : x1 - x]
    return (x0, y0, x1, y1)


def compose(
    rng: random.Random,
    bank: CropBank,
    size: tuple[int, int] = (720, 960),
    p_white: float = 0.1,
    p_back: float = 0.1,
    p_sideways: float = 0.1,
    p_upside: float = 0.1,
    clutter: int | None = None,
    proc: ProcMix | None = None,
) -> Scene:
    """One photo: 1-3 rows of tiles (real crops, blank whites, backs; now and then a claimed tile
    sideways, a tile upside down, a concealed kong's two backs; with ``proc``, drawn faces of one
    style too), clutter around them, then one light and one camera over all of it. Boxes are those
    of the final image."""
    h, w = size
    nrng = np.random.default_rng(rng.randrange(2**32))
    canvas = table_texture(rng.choice(TABLES), (h, w), rng.uniform(0.5, 1.2), nrng).copy()
    codes = sorted(bank)
    style = ""
    if proc is not None:
        style = rng.choice(proc.styles)
        codes = sorted(set(codes) | proc.codes(style))
    th = rng.randint(70, 130)  # tile height on the canvas, face and body
    scale = th / FACE_H
    rows = rng.randint(1, 3)
    placed: list[tuple[tuple[int, int, int, int], str, int, str]] = []
    y = rng.randint(10, max(11, h // 6))
    for _ in range(rows):
        x = rng.randint(10, max(11, w // 8))
        n = rng.randint(4, 14)
        kong = rng.random() < 0.15
        for k in range(n):
            kind, code = draw_tile(rng, codes, p_back, p_white, back=kong and k in (1, 2))
            img, kind = tile_image(kind, code, bank, rng, proc, style)
            img = cv2.resize(img, (max(8, int(img.shape[1] * scale)), max(8, int(img.shape[0] * scale))))
            turn = 0
            if kind != "back" and rng.random() < p_sideways:  # a claimed tile, lying sideways
                turn = rng.choice([90, 270])
                img = cv2.rotate(
                    img, cv2.ROTATE_90_CLOCKWISE if turn == 90 else cv2.ROTATE_90_COUNTERCLOCKWISE
                )
            elif kind != "back" and rng.random() < p_upside:
                turn = 180
                img = cv2.rotate(img, cv2.ROTATE_180)
            top = y + (th - img.shape[0] if turn in (90, 270) else 0)
            box = _paste(canvas, img, x, top)
            if box[2] - box[0] > 4 and box[3] - box[1] > 4:
                placed.append((box, code, turn, kind))
            x += img.shape[1] + rng.randint(0, max(1, th // 12))
            if x > w - 20:
                break
        y += th + rng.randint(th // 4, th)
        if y > h - th:
            break
    others: list[tuple[tuple[int, int, int, int], str]] = []
    for _ in range(rng.randint(1, 4) if clutter is None else clutter):
        kind = rng.choice(CLUTTER)
        img = clutter_item(kind, rng)
        f = th / max(120, img.shape[0]) * rng.uniform(0.7, 1.3)
        img = cv2.resize(img, (max(6, int(img.shape[1] * f)), max(6, int(img.shape[0] * f))))
        cx, cy = rng.randint(0, max(1, w - img.shape[1])), rng.randint(y - th // 2 if y < h else 0, h - 1)
        cy = min(cy, h - img.shape[0]) if rng.random() < 0.7 else rng.randint(0, max(1, h - img.shape[0]))
        box = (cx, cy, cx + img.shape[1], cy + img.shape[0])
        if any(_overlap(box, b) > 0.05 for b, *_ in placed):
            continue
        others.append((_paste(canvas, img, cx, cy), kind))
    canvas = light(canvas, rng)
    canvas, m = camera(canvas, rng)
    sigma = rng.uniform(0.0, 1.6)
    if sigma > 0.3:
        canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
    small = rng.uniform(0.35, 1.0)  # tiles 25-130 px tall in the photo
    canvas = cv2.resize(canvas, (int(w * small), int(h * small)), interpolation=cv2.INTER_AREA)
    noise = nrng.normal(0, rng.uniform(0, 6), canvas.shape)
    canvas = np.clip(canvas + noise, 0, 255).astype(np.uint8)
    _, enc = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(55, 95)])
    photo = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    assert photo is not None  # what was just encoded decodes
    H, W = photo.shape[:2]

    def final(box: tuple[int, int, int, int]) -> tuple[float, float, float, float] | None:
        q = _warp_box(m, box) * small
        x0, y0 = float(q[:, 0].min()), float(q[:, 1].min())
        x1, y1 = float(q[:, 0].max()), float(q[:, 1].max())
        if x0 < 0 or y0 < 0 or x1 > W or y1 > H:
            return None  # cut by the frame: no whole tile
        return (x0, y0, x1, y1)

    scene = Scene(photo)
    for box, code, turn, kind in placed:
        if (b := final(box)) is not None:
            scene.tiles.append(Placed(b, code, turn, kind))
    for box, kind in others:
        if (b := final(box)) is not None:
            scene.clutter.append(Placed(b, NOT_A_TILE, 0, kind))
    return scene


def _overlap(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    return ix * iy / max(1, (a[2] - a[0]) * (a[3] - a[1]))


def reader_crops(scene: Scene, size: int = CROP_SIZE) -> list[tuple[np.ndarray, str, bool | None, str]]:
    """Each tile and clutter item cut as the runtime cuts a detector box: (crop, code, upright in
    the crop -- None when it has no way up --, source kind). ``crop_box`` turns a landscape box
    clockwise, so a tile lying with its top to the left (270) comes out upright."""
    out = []
    for t in scene.tiles:
        crop, turned = crop_box(scene.image, t.box, size=size)
        up = (t.turn + (90 if turned else 0)) % 360
        unknown = t.code == BACK or t.source == "photo" or up in (90, 270)
        upright = None if unknown else up == 0
        out.append((crop, t.code, upright, t.source))
    for c in scene.clutter:
        crop, _ = crop_box(scene.image, c.box, size=size)
        out.append((crop, NOT_A_TILE, None, c.source))
    return out

"""Desk scenes: keyboards, laptops, phones, remotes, dice and sticks with loose real tiles on them (issue 22).

A user's desk photo with two keyboards had 43 keys boxed as tiles and the loose tiles lying on the
keys missed. A row of key caps is the hardest negative there is: tile-sized, square-ish, in rows at
a steady pitch, light caps as pale as a blank white dragon. :mod:`mjsynth.pasted` pastes one key cap
at a time among rows of tiles; here the whole object is drawn at its real size in millimetres, so
the detector sees what a desk shows:

- **keyboards** (:func:`keyboard`): full-size (with the navigation block and the number pad),
  tenkeyless, and laptop decks (flat chiclet keys, a half-height function row, a palm rest with a
  touch pad). Keys sit on a 19.05 mm pitch (laptops 18-19 mm) with their real unit widths (Tab 1.5,
  Caps 1.75, Shift 2.25/2.75, space 6.25), sculpted caps show a darker skirt round a smaller top;
  legends light on dark caps or dark on light ones, inside the board's frame;
- **phones** (:func:`phone`): a dark glossy screen, or a lit one with a grid of app icons;
- **remote controls** (:func:`remote`): rows of rubber buttons with digits, a d-pad, rockers;
- **dice** and **scoring sticks**, as :func:`mjsynth.pasted.clutter_item` draws them, at real size.

Real tile crops (the crop bank :mod:`mjsynth.pasted` builds; blank whites and face-down backs too)
lie LOOSE on and beside them, singly and in small groups, turned any way. The tiles are the only
detector boxes (``tile``/``back``); keys, icons and buttons get none, and a share of them (with
dice, sticks and tile-shaped windows on the devices) are cut as the runtime cuts a box and written
as ``none`` reader crops (:func:`reader_crops`). :func:`compose` also returns every key, icon and
button box (:attr:`DeskScene.parts`) so that ``scripts/eval_desk.py`` can say where a false box lies.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth.backgrounds import table_texture
from mahjong_camera_scorer.mjsynth.clutter import icon
from mahjong_camera_scorer.mjsynth.pasted import (
    FACE_H,
    FACE_W,
    CropBank,
    Placed,
    ProcMix,
    Scene,
    camera,
    clutter_item,
    draw_tile,
    light,
    tile_image,
)
from mahjong_camera_scorer.vision.classes import BACK, NOT_A_TILE
from mahjong_camera_scorer.vision.crops import CROP_SIZE, crop_box

#: A full-size keyboard's key pitch (ISO/ANSI): 19.05 mm; laptops use 18-19 mm.
PITCH_MM = 19.05
#: Device kinds and how often a scene draws each.
DEVICE_WEIGHTS: dict[str, float] = {
    "full": 2.0,
    "tkl": 1.0,
    "laptop": 2.0,
    "phone": 1.2,
    "remote": 0.8,
    "dice": 0.8,
    "sticks": 0.8,
}
KEYBOARDS = ("full", "tkl", "laptop")
#: Devices a loose tile may lie on (their flat tops); dice and sticks are too small.
SURFACES = ("full", "tkl", "laptop", "phone", "remote")
DESKS = ("wood", "plastic", "cloth", "mat", "felt")
#: Part kinds written as ``none`` reader crops (besides ``window``: a tile-shaped box on a device).
PART_KINDS = ("key", "icon", "button", "dice", "stick")
#: A colour as OpenCV draws it: one value (the alpha mask) or BGR.
Colour = float | tuple[float, ...]

#: ANSI rows: (legend, width in units); a legend "" is a blank gap of that width.
MAIN_ROWS: list[Sequence[tuple[str, float]]] = [
    [("`", 1)] + [(c, 1) for c in "1234567890-="] + [("Backspace", 2)],
    [("Tab", 1.5)] + [(c, 1) for c in "QWERTYUIOP[]"] + [("\\", 1.5)],
    [("Caps", 1.75)] + [(c, 1) for c in "ASDFGHJKL;'"] + [("Enter", 2.25)],
    [("Shift", 2.25)] + [(c, 1) for c in "ZXCVBNM,./"] + [("Shift", 2.75)],
    [
        ("Ctrl", 1.25),
        ("Win", 1.25),
        ("Alt", 1.25),
        ("space", 6.25),
        ("Alt", 1.25),
        ("Fn", 1.25),
        ("Menu", 1.25),
        ("Ctrl", 1.25),
    ],
]
F_ROW: list[tuple[str, float]] = (
    [("Esc", 1), ("", 1)]
    + [(f"F{i}", 1) for i in range(1, 5)]
    + [("", 0.5)]
    + [(f"F{i}", 1) for i in range(5, 9)]
    + [("", 0.5)]
    + [(f"F{i}", 1) for i in range(9, 13)]
)
LAPTOP_BOTTOM: list[tuple[str, float]] = [
    ("fn", 1),
    ("ctrl", 1),
    ("opt", 1),
    ("cmd", 1.25),
    ("space", 5),
    ("cmd", 1.25),
    ("opt", 1),
    ("<", 1),
    ("v", 1),
    (">", 1),
]


@dataclass
class Part:
    """A drawn thing on a device that is not a tile: its kind (``key``, ``icon``, ``button``,
    ``dice``, ``stick``), its rectangle in the device's pixels, its row and width in key units
    (keys only: the pitch test reads them)."""

    kind: str
    rect: tuple[float, float, float, float]
    row: int = -1
    units: float = 1.0
    legend: str = ""


@dataclass
class Device:
    """One object drawn at ``ppm`` pixels per millimetre: its picture, its outline (alpha), its
    parts, where a tile may lie on it (``top``, device pixels) and for keyboards the key pitch."""

    kind: str
    image: np.ndarray
    alpha: np.ndarray
    parts: list[Part]
    top: tuple[float, float, float, float]
    ppm: float
    pitch_mm: float = 0.0


@dataclass
class Loose(Placed):
    """A loose tile in a desk scene: what it lies on (``desk`` or a device's name such as
    ``laptop#1``), its outline in the final image and the share of it inside the frame."""

    on: str = "desk"
    quad: np.ndarray = field(default_factory=lambda: np.zeros((4, 2), np.float32))
    inside: float = 1.0


@dataclass
class PartBox(Placed):
    """A key, icon, button, die or stick in the final image: its device, outline and the share of
    it no tile hides."""

    device: str = ""
    quad: np.ndarray = field(default_factory=lambda: np.zeros((4, 2), np.float32))
    visible: float = 1.0


@dataclass
class DeskScene(Scene):
    """A desk photo: ``tiles`` (all :class:`Loose`, every pasted tile), ``clutter`` (the boxes
    written as ``none`` crops), ``parts`` (every key, icon, button, die and stick), ``devices``
    (name -> outline in the final image)."""

    parts: list[PartBox] = field(default_factory=list)
    devices: dict[str, np.ndarray] = field(default_factory=dict)
    #: tiles drawn onto the canvas (each is in ``tiles``: the labels cover every pasted tile)
    pasted: int = 0


# -- drawing helpers ------------------------------------------------------------------------------


def _rounded(img: np.ndarray, rect: tuple[float, float, float, float], r: float, colour: Colour) -> None:
    """A filled rounded rectangle (works on 1- and 3-channel images)."""
    x0, y0, x1, y1 = (round(v) for v in rect)
    r = int(max(0, min(r, (x1 - x0) / 2, (y1 - y0) / 2)))
    if r < 1:
        cv2.rectangle(img, (x0, y0), (x1, y1), colour, -1)
        return
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), colour, -1)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), colour, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(img, (cx, cy), r, colour, -1, cv2.LINE_AA)


def _text(img: np.ndarray, text: str, org: tuple[float, float], px: float, colour: Colour) -> None:
    """``text`` about ``px`` pixels tall with its baseline-left at ``org``."""
    if not text or px < 3:
        return
    scale = px / 22.0
    cv2.putText(
        img,
        text,
        (int(org[0]), int(org[1])),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        colour,
        max(1, round(scale * 1.6)),
        cv2.LINE_AA,
    )


def _grey(v: float, rng: random.Random, tint: float = 6) -> tuple[int, int, int]:
    a, b, c = (int(np.clip(v + rng.uniform(-tint, tint), 0, 255)) for _ in range(3))
    return a, b, c


# -- devices --------------------------------------------------------------------------------------


def keyboard(kind: str, rng: random.Random, ppm: float) -> Device:
    """A full-size (``full``), tenkeyless (``tkl``) or laptop (``laptop``) keyboard at ``ppm``."""
    laptop = kind == "laptop"
    pitch_mm = rng.uniform(18.0, 19.05) if laptop else PITCH_MM
    u = pitch_mm * ppm
    light_caps = rng.random() < (0.3 if laptop else 0.45)
    cap_v = rng.uniform(205, 245) if light_caps else rng.uniform(22, 60)
    cap = np.array(_grey(cap_v, rng), np.float32)
    if light_caps and rng.random() < 0.35:  # a beige / ivory board
        cap = cap * np.array([0.86, 0.95, 1.0], np.float32)
    legend = (35, 35, 35) if light_caps else (225, 225, 225)
    frame_v = (
        rng.choice([30.0, 45.0, 180.0, 200.0, 225.0]) if not laptop else rng.choice([40.0, 175.0, 200.0])
    )
    frame = _grey(frame_v, rng, 4)
    # the key field in units: main block 15 u (+ the navigation block and number pad)
    cols = 15.0 + (0.0 if laptop else 3.25) + (4.25 if kind == "full" else 0.0)
    rows_u = 6.0 if laptop else 6.5  # the function row, a half-unit gap (full-size), five rows
    f_h = rng.uniform(0.5, 0.7) if laptop else 1.0
    if laptop:
        rows_u = 5.0 + f_h + 0.1
    side = (rng.uniform(15, 25) if laptop else rng.uniform(8, 20)) * ppm
    top_m = (rng.uniform(12, 25) if laptop else rng.uniform(10, 25)) * ppm
    bottom_m = (rng.uniform(75, 100) if laptop else rng.uniform(8, 20)) * ppm
    w = int(cols * u + 2 * side)
    h = int(rows_u * u + top_m + bottom_m)
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    _rounded(img, (0, 0, w - 1, h - 1), 6 * ppm, frame)
    _rounded(alpha, (0, 0, w - 1, h - 1), 6 * ppm, 255)
    if laptop:  # the touch pad in the palm rest
        pw, ph = rng.uniform(90, 130) * ppm, rng.uniform(55, 75) * ppm
        px0 = (w - pw) / 2
        py0 = top_m + rows_u * u + (bottom_m - ph) / 2
        pad = _grey(frame_v * 0.92 + 6, rng, 2)
        _rounded(img, (px0, py0, px0 + pw, py0 + ph), 4 * ppm, pad)
    parts: list[Part] = []
    gap_mm = rng.uniform(2.5, 3.5) if laptop else rng.uniform(0.8, 1.4)

    def key(x: float, y: float, units: float, label: str, row: int, height: float = 1.0) -> None:
        x0, y0 = x + gap_mm * ppm / 2, y + gap_mm * ppm / 2
        x1, y1 = x + units * u - gap_mm * ppm / 2, y + height * u - gap_mm * ppm / 2
        shade = cap * rng.uniform(0.96, 1.04)
        if laptop:  # flat chiclet: one face, a thin darker rim
            _rounded(img, (x0, y0, x1, y1), 1.5 * ppm, tuple(float(c) for c in shade * 0.8))
            _rounded(
                img,
                (x0 + 0.4 * ppm, y0 + 0.3 * ppm, x1 - 0.4 * ppm, y1 - 0.6 * ppm),
                1.3 * ppm,
                tuple(float(c) for c in shade),
            )
        else:  # sculpted: a darker skirt round a smaller top set towards the back
            _rounded(img, (x0, y0, x1, y1), 1.2 * ppm, tuple(float(c) for c in shade * 0.78))
            _rounded(
                img,
                (x0 + 2.4 * ppm, y0 + 1.2 * ppm, x1 - 2.4 * ppm, y1 - 3.6 * ppm),
                1.8 * ppm,
                tuple(float(c) for c in np.clip(shade * 1.05, 0, 255)),
            )
        px = (y1 - y0) * (0.3 if len(label) == 1 else 0.2)
        if label == "space":
            label = ""
        if len(label) == 1:
            if laptop or rng.random() < 0.3:  # centred
                (tw, _), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, px / 22, 1)
                _text(img, label, ((x0 + x1 - tw) / 2, (y0 + y1) / 2 + px / 2), px, legend)
            else:  # top left of the cap's top
                _text(img, label, (x0 + 3.2 * ppm, y0 + 2.0 * ppm + px), px, legend)
        elif label:
            _text(img, label, (x0 + 2.6 * ppm, y1 - 4.2 * ppm if not laptop else y1 - 2 * ppm), px, legend)
        parts.append(Part("key", (x0, y0, x1, y1), row, units, label))

    y = top_m
    x = side
    for label, units in F_ROW:
        if label:
            key(x, y, units, label, 0, f_h)
        x += units * u
    if not laptop:  # Print / Scroll / Pause over the navigation block
        x += 0.25 * u
        for label in ("Prt", "Scr", "Pau"):
            key(x, y, 1, label, 0)
            x += u
    y += (f_h + (0.5 if not laptop else 0.1)) * u
    rows = [*MAIN_ROWS[:4], LAPTOP_BOTTOM if laptop else MAIN_ROWS[4]]
    for r, keys in enumerate(rows, start=1):
        x = side
        for label, units in keys:
            if laptop and label in ("<", ">", "v"):  # the arrow keys: half height, up over down
                key(x, y + 0.5 * u, units, label, r, 0.5)
                if label == "v":
                    key(x, y, units, "^", r, 0.5)
            else:
                key(x, y, units, label, r)
            x += units * u
        y += u
    if not laptop:  # the navigation block and its arrows
        x0 = side + 15.25 * u
        y1 = top_m + 1.5 * u
        for r, labels in enumerate((("Ins", "Hom", "PgU"), ("Del", "End", "PgD"))):
            for c, label in enumerate(labels):
                key(x0 + c * u, y1 + r * u, 1, label, r + 1)
        key(x0 + u, y1 + 3 * u, 1, "^", 4)
        for c, label in enumerate("<v>"):
            key(x0 + c * u, y1 + 4 * u, 1, label, 5)
    if kind == "full":  # the number pad
        x0 = side + 18.5 * u
        y1 = top_m + 1.5 * u
        numpad = [["Num", "/", "*", "-"], ["7", "8", "9", "+"], ["4", "5", "6", ""], ["1", "2", "3", "Ent"]]
        for r, pad_row in enumerate(numpad):
            for c, label in enumerate(pad_row):
                if label == "+" or label == "Ent":
                    key(x0 + c * u, y1 + r * u, 1, label, r + 1, 2.0)
                elif label:
                    key(x0 + c * u, y1 + r * u, 1, label, r + 1)
        key(x0, y1 + 4 * u, 2, "0", 5)
        key(x0 + 2 * u, y1 + 4 * u, 1, ".", 5)
    field_ = (side, top_m, w - side, top_m + rows_u * u)
    return Device(kind, img, alpha, parts, field_, ppm, pitch_mm)


def phone(rng: random.Random, ppm: float) -> Device:
    """A phone seen from above: a dark glossy screen, or a lit one with a grid of app icons."""
    wm, hm = rng.uniform(68, 78), rng.uniform(140, 162)
    w, h = int(wm * ppm), int(hm * ppm)
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    body = _grey(rng.choice([20.0, 35.0, 190.0, 215.0]), rng, 8)
    _rounded(img, (0, 0, w - 1, h - 1), 9 * ppm, body)
    _rounded(alpha, (0, 0, w - 1, h - 1), 9 * ppm, 255)
    b = rng.uniform(1.5, 3.5) * ppm
    screen = (b, b, w - 1 - b, h - 1 - b)
    parts: list[Part] = []
    if rng.random() < 0.45:  # dark: black glass with a reflection streak
        _rounded(img, screen, 7 * ppm, _grey(12, rng, 4))
        streak = np.zeros_like(img)
        x = rng.uniform(0, w)
        cv2.line(streak, (int(x), 0), (int(x + rng.uniform(-0.6, 0.6) * h), h), (60, 60, 60), int(w * 0.25))
        img[:] = cv2.add(img, cv2.GaussianBlur(streak, (0, 0), w * 0.08) * (alpha[..., None] > 0))
    else:  # lit: a wallpaper, a status bar, a grid of icons and a dock
        sx0, sy0, sx1, sy1 = (int(v) for v in screen)
        c1 = np.array([rng.randint(20, 230) for _ in range(3)], np.float32)
        c2 = np.array([rng.randint(20, 230) for _ in range(3)], np.float32)
        t = np.linspace(0, 1, sy1 - sy0, dtype=np.float32)[:, None, None]
        wall = np.broadcast_to(c1 * (1 - t) + c2 * t, (sy1 - sy0, sx1 - sx0, 3)).astype(np.uint8)
        mask = np.zeros((h, w), np.uint8)
        _rounded(mask, screen, 7 * ppm, 255)
        region = img[sy0:sy1, sx0:sx1]
        m = mask[sy0:sy1, sx0:sx1, None] > 0
        img[sy0:sy1, sx0:sx1] = np.where(m, wall, region)
        _text(img, "9:41", (sx0 + 6 * ppm, sy0 + 6 * ppm), 3 * ppm, (240, 240, 240))
        s = int(rng.uniform(10.5, 13) * ppm)
        cols = 4
        gx = ((sx1 - sx0) - cols * s) / (cols + 1)
        y = sy0 + 12 * ppm
        while y + s < sy1 - 30 * ppm:
            for c in range(cols):
                if rng.random() < 0.12:
                    continue
                x = sx0 + gx + c * (s + gx)
                icon(img, int(x), int(y), s, rng)
                parts.append(Part("icon", (x, y, x + s, y + s)))
            y += s + rng.uniform(6, 9) * ppm
        dy = sy1 - 6 * ppm - s
        for c in range(cols):
            x = sx0 + gx + c * (s + gx)
            icon(img, int(x), int(dy), s, rng)
            parts.append(Part("icon", (x, dy, x + s, dy + s)))
    return Device("phone", img, alpha, parts, screen, ppm)


def remote(rng: random.Random, ppm: float) -> Device:
    """A remote control: a long rounded body, a red power button, a d-pad, digits 1-0 in rows of
    three rubber buttons, rockers."""
    wm, hm = rng.uniform(40, 52), rng.uniform(160, 210)
    w, h = int(wm * ppm), int(hm * ppm)
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    dark = rng.random() < 0.75
    body = _grey(rng.uniform(18, 55) if dark else rng.uniform(170, 210), rng, 5)
    _rounded(img, (0, 0, w - 1, h - 1), min(w, h) * 0.3, body)
    _rounded(alpha, (0, 0, w - 1, h - 1), min(w, h) * 0.3, 255)
    button = np.array(_grey(rng.uniform(60, 110) if dark else rng.uniform(225, 245), rng, 6), np.float32)
    ink = (235, 235, 235) if dark else (30, 30, 30)
    parts: list[Part] = []
    cv2.circle(img, (int(w * 0.25), int(12 * ppm)), int(4 * ppm), (40, 40, 190), -1, cv2.LINE_AA)
    parts.append(Part("button", (w * 0.25 - 4 * ppm, 8 * ppm, w * 0.25 + 4 * ppm, 16 * ppm)))
    cy, r = 40 * ppm, min(w * 0.33, 17 * ppm)
    cv2.circle(img, (w // 2, int(cy)), int(r), tuple(float(c) for c in button * 0.85), -1, cv2.LINE_AA)
    cv2.circle(img, (w // 2, int(cy)), int(r * 0.42), tuple(float(c) for c in button), -1, cv2.LINE_AA)
    bw, bh = (w - 2 * 6 * ppm) / 3 - 2 * ppm, rng.uniform(6.5, 9) * ppm
    y = cy + r + 8 * ppm
    digits = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "-", "0", "OK"]
    for k, label in enumerate(digits):
        c = k % 3
        x0 = 6 * ppm + c * (bw + 3 * ppm)
        y0 = y + (k // 3) * (bh + 4 * ppm)
        if y0 + bh > h - 12 * ppm:
            break
        _rounded(img, (x0, y0, x0 + bw, y0 + bh), 2 * ppm, tuple(float(v) for v in button))
        _text(img, label, (x0 + bw * 0.35, y0 + bh * 0.72), bh * 0.45, ink)
        parts.append(Part("button", (x0, y0, x0 + bw, y0 + bh), k // 3, 1.0, label))
    y = y + 4 * (bh + 4 * ppm) + 4 * ppm
    if y + 28 * ppm < h - 6 * ppm:  # volume and channel rockers
        for x0 in (6 * ppm, w - 6 * ppm - bw):
            _rounded(img, (x0, y, x0 + bw, y + 28 * ppm), 3 * ppm, tuple(float(v) for v in button))
            _text(img, "+", (x0 + bw * 0.35, y + 8 * ppm), 5 * ppm, ink)
            parts.append(Part("button", (x0, y, x0 + bw, y + 28 * ppm)))
    return Device("remote", img, alpha, parts, (0, 0, w, h), ppm)


def dice_or_sticks(kind: str, rng: random.Random, ppm: float) -> Device:
    """Two or three dice side by side, or two to five scoring sticks in a loose bundle."""
    if kind == "dice":
        n, s = rng.randint(2, 3), rng.uniform(12, 18) * ppm
        gap = rng.uniform(2, 10) * ppm
        w, h = int(n * s + (n - 1) * gap) + 2, int(s) + 2
        img = np.zeros((h, w, 3), np.uint8)
        alpha = np.zeros((h, w), np.uint8)
        parts = []
        for k in range(n):
            die = cv2.resize(clutter_item("dice", rng), (int(s), int(s)), interpolation=cv2.INTER_AREA)
            x = int(k * (s + gap))
            img[: die.shape[0], x : x + die.shape[1]] = die
            _rounded(alpha, (x, 0, x + die.shape[1] - 1, die.shape[0] - 1), s * 0.15, 255)
            parts.append(Part("dice", (x, 0, x + die.shape[1], die.shape[0])))
        return Device(kind, img, alpha, parts, (0, 0, w, h), ppm)
    n = rng.randint(2, 5)
    lw, lh = rng.uniform(85, 100) * ppm, rng.uniform(8, 10) * ppm
    gap = rng.uniform(1, 6) * ppm
    w, h = int(lw) + 2, int(n * lh + (n - 1) * gap) + 2
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    parts = []
    for k in range(n):
        stick = cv2.resize(clutter_item("stick", rng), (int(lw), int(lh)), interpolation=cv2.INTER_AREA)
        y = int(k * (lh + gap))
        img[y : y + stick.shape[0], : stick.shape[1]] = stick
        _rounded(alpha, (0, y, stick.shape[1] - 1, y + stick.shape[0] - 1), lh * 0.3, 255)
        parts.append(Part("stick", (0, y, stick.shape[1], y + stick.shape[0])))
    return Device(kind, img, alpha, parts, (0, 0, w, h), ppm)


def make_device(kind: str, rng: random.Random, ppm: float) -> Device:
    if kind in KEYBOARDS:
        return keyboard(kind, rng, ppm)
    if kind == "phone":
        return phone(rng, ppm)
    if kind == "remote":
        return remote(rng, ppm)
    return dice_or_sticks(kind, rng, ppm)


# -- pasting at any angle -------------------------------------------------------------------------


def _affine(w: int, h: int, centre: tuple[float, float], turn: float) -> np.ndarray:
    """2x3 map from an object's pixels to the canvas: its centre to ``centre``, turned ``turn``
    degrees clockwise (as a top that pointed up then points ``turn`` clockwise)."""
    m = cv2.getRotationMatrix2D((w / 2, h / 2), -turn, 1.0)
    m[0, 2] += centre[0] - w / 2
    m[1, 2] += centre[1] - h / 2
    return m


def _map(m: np.ndarray, rect: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = rect
    pts = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], np.float64)
    mapped: np.ndarray = (pts @ m.T).astype(np.float32)
    return mapped


def _paste(
    canvas: np.ndarray, img: np.ndarray, alpha: np.ndarray, m: np.ndarray, shadow: float = 0.0
) -> np.ndarray:
    """Paste ``img`` through ``alpha`` with the map ``m`` (only the covered region is warped);
    a soft shadow ``shadow`` pixels down-right first. Returns the coverage (0..1) on the canvas."""
    H, W = canvas.shape[:2]
    h, w = img.shape[:2]
    q = _map(m, (0, 0, w, h))
    pad = int(shadow * 2) + 2
    x0, y0 = max(0, int(q[:, 0].min()) - pad), max(0, int(q[:, 1].min()) - pad)
    x1, y1 = min(W, int(q[:, 0].max()) + pad + 1), min(H, int(q[:, 1].max()) + pad + 1)
    cover = np.zeros((H, W), np.float32)
    if x1 <= x0 or y1 <= y0:
        return cover
    mm = m.copy()
    mm[0, 2] -= x0
    mm[1, 2] -= y0
    size = (x1 - x0, y1 - y0)
    part = cv2.warpAffine(img, mm, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    a = cv2.warpAffine(alpha, mm, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    a = a.astype(np.float32)[..., None] / 255.0
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        sm = mm.copy()
        sm[0, 2] += shadow
        sm[1, 2] += shadow
        s: np.ndarray = (
            cv2.warpAffine(alpha, sm, size, borderMode=cv2.BORDER_CONSTANT).astype(np.float32) / 255.0
        )
        s = cv2.GaussianBlur(s, (0, 0), max(0.8, shadow / 2))[..., None]
        roi = roi * (1 - 0.45 * s)
    canvas[y0:y1, x0:x1] = np.clip(roi * (1 - a) + part.astype(np.float32) * a, 0, 255).astype(np.uint8)
    cover[y0:y1, x0:x1] = a[..., 0]
    return cover


def _poly_area(q: np.ndarray) -> float:
    return float(abs(cv2.contourArea(q.astype(np.float32))))


def overlap_area(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two convex outlines (4x2)."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


def _inside(q: np.ndarray, rect: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = rect
    return bool(
        (q[:, 0] >= x0).all() and (q[:, 0] <= x1).all() and (q[:, 1] >= y0).all() and (q[:, 1] <= y1).all()
    )


# -- the scene ------------------------------------------------------------------------------------


def _pick(rng: random.Random, weights: dict[str, float]) -> str:
    names = sorted(weights)
    return rng.choices(names, [weights[n] for n in names])[0]


def _tile_turn(rng: random.Random) -> float:
    """A loose tile's turn: often near a quarter turn (pushed about, still square to the desk),
    otherwise any angle."""
    if rng.random() < 0.45:
        return rng.choice([0, 90, 180, 270]) + rng.uniform(-8, 8)
    return rng.uniform(0, 360)


def compose(
    rng: random.Random,
    bank: CropBank,
    size: tuple[int, int] = (900, 1200),
    proc: ProcMix | None = None,
    p_back: float = 0.15,
    p_white: float = 0.08,
    none_share: float = 0.12,
    none_max: int = 12,
) -> DeskScene:
    """One desk photo: one to three devices (a keyboard in most), two to six groups of one to
    four loose tiles on and beside them at any angle, one light, one camera. Every pasted tile is
    labelled; ``none_share`` of the visible keys, icons and buttons (at most ``none_max``), every
    die and stick and a tile-shaped window on a device or two become the ``none`` boxes."""
    h, w = size
    nrng = np.random.default_rng(rng.randrange(2**32))
    ppm = rng.uniform(1.8, 3.2)
    pad = int(0.2 * max(h, w))  # the desk round the view: what the tilted camera sees past its edge
    canvas = table_texture(rng.choice(DESKS), (h + 2 * pad, w + 2 * pad), 1 / ppm, nrng).copy()
    margin = 0.1 * min(h, w)
    safe = (pad + margin, pad + margin, pad + w - margin, pad + h - margin)
    view = np.array([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]], np.float32)
    # devices: a keyboard in most scenes, two now and then (the user's photo had two)
    kinds: list[str] = []
    if rng.random() < 0.85:
        kinds.append(rng.choice(["full", "full", "tkl", "laptop", "laptop"]))
        if rng.random() < 0.25:
            kinds.append(rng.choice(KEYBOARDS))
    for _ in range(rng.randint(0 if kinds else 1, 2)):
        kinds.append(_pick(rng, DEVICE_WEIGHTS))
    devices: list[tuple[str, Device, np.ndarray]] = []  # name, device, canvas map
    outlines: list[np.ndarray] = []
    for n, kind in enumerate(kinds):
        dev = make_device(kind, rng, ppm)
        dh, dw = dev.image.shape[:2]
        for _ in range(25):
            turn = rng.uniform(-15, 15) if kind in KEYBOARDS else rng.uniform(0, 360)
            if kind in KEYBOARDS and rng.random() < 0.3:
                turn = rng.choice([-1, 1]) * rng.uniform(15, 35) + rng.choice([0, 180])
            centre = (pad + rng.uniform(0.15, 0.85) * w, pad + rng.uniform(0.15, 0.85) * h)
            m = _affine(dw, dh, centre, turn)
            q = _map(m, (0, 0, dw, dh))
            shown = overlap_area(q, view) / max(1.0, _poly_area(q))
            if shown < (0.35 if kind in KEYBOARDS else 0.8):
                continue
            if any(overlap_area(q, o) > 0 for o in outlines):
                continue
            _paste(canvas, dev.image, dev.alpha, m, shadow=rng.uniform(2, 5) * ppm)
            devices.append((f"{kind}#{n}", dev, m))
            outlines.append(q)
            break
    # loose tiles, singly and in small groups, on the devices' tops and on the desk
    codes = sorted(bank)
    style = ""
    if proc is not None:
        style = rng.choice(proc.styles)
        codes = sorted(set(codes) | proc.codes(style))
    tile_w_mm = rng.uniform(19, 27)
    tw = tile_w_mm * ppm
    tiles: list[tuple[np.ndarray, str, float, str, str, np.ndarray]] = []  # quad, code, turn, src, on, cover
    cover_all = np.zeros(canvas.shape[:2], np.float32)
    surfaces = [(name, dev, m) for name, dev, m in devices if dev.kind in SURFACES]
    for _ in range(rng.randint(2, 6)):
        n = rng.choice([1, 1, 1, 2, 2, 3, 4])
        imgs = []
        for _k in range(n):
            kind, code = draw_tile(rng, codes, p_back, p_white)
            img, src = tile_image(kind, code, bank, rng, proc, style)
            th = tw / FACE_W * img.shape[0]
            imgs.append(
                (cv2.resize(img, (max(8, int(tw)), max(8, int(th))), interpolation=cv2.INTER_AREA), code, src)
            )
        gap = rng.uniform(1, 4) * ppm  # with the turns' jitter below, never touching
        on_device = bool(surfaces) and rng.random() < 0.6
        for _try in range(30):
            turn = _tile_turn(rng)
            if on_device:
                name, dev, m = rng.choice(surfaces)
                x0, y0, x1, y1 = dev.top
                c = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1), 1.0]) @ m.T
                centre = (float(c[0]), float(c[1]))
            else:
                name = "desk"
                centre = (rng.uniform(safe[0], safe[2]), rng.uniform(safe[1], safe[3]))
            # the group lies along the tiles' own x axis, centred on ``centre``
            total = sum(im.shape[1] for im, _, _ in imgs) + gap * (n - 1)
            a = math.radians(turn)
            ux, uy = math.cos(a), math.sin(a)
            placed = []
            offset = -total / 2
            for im, code, src in imgs:
                t = turn + rng.uniform(-1.5, 1.5)
                cx = centre[0] + (offset + im.shape[1] / 2) * ux
                cy = centre[1] + (offset + im.shape[1] / 2) * uy
                mm = _affine(im.shape[1], im.shape[0], (cx, cy), t)
                placed.append((im, code, src, t, mm, _map(mm, (0, 0, im.shape[1], im.shape[0]))))
                offset += im.shape[1] + gap
            quads = [p[5] for p in placed]
            if not all(_inside(q, safe) for q in quads):
                continue
            if any(overlap_area(q, t[0]) > 0 for q in quads for t in tiles):
                continue
            if any(overlap_area(a, b) > 0 for k, a in enumerate(quads) for b in quads[k + 1 :]):
                continue
            if name == "desk":  # beside the devices: on none of them
                if any(overlap_area(q, o) > 0 for q in quads for o in outlines):
                    continue
            else:  # on one device: wholly on its outline, touching no other
                own = outlines[[d[0] for d in devices].index(name)]
                if not all(overlap_area(q, own) >= 0.98 * _poly_area(q) for q in quads):
                    continue
                if any(overlap_area(q, o) > 0 for q in quads for o in outlines if o is not own):
                    continue
            for im, code, src, t, mm, q in placed:
                alpha = np.full(im.shape[:2], 255, np.uint8)
                cov = _paste(canvas, im, alpha, mm, shadow=rng.uniform(0.8, 2.5) * ppm)
                cover_all = np.maximum(cover_all, cov)
                tiles.append((q, code, t % 360, src, name, cov))
            break
    # the parts in canvas pixels and how much of each the tiles hide
    parts: list[tuple[np.ndarray, str, str, float]] = []
    for name, dev, m in devices:
        for p in dev.parts:
            q = _map(m, p.rect)
            mask = np.zeros(canvas.shape[:2], np.uint8)
            cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1)
            area = float(mask.sum())
            hidden = float((cover_all * mask).sum()) / max(1.0, area)
            parts.append((q, p.kind, name, 1.0 - hidden if area > 0 else 0.0))
    # one light and one camera over all of it
    canvas = light(canvas, rng)
    # the view inside the padding: where it tilts past its edge the photo shows more desk and
    # devices, not a smeared border that would draw tiles and keys with no outline
    canvas, hm = camera(canvas, rng, pad, squeeze=0.2, drop=0.18, turn=6.0, border=cv2.BORDER_REPLICATE)
    sigma = rng.uniform(0.0, 1.3)
    if sigma > 0.3:
        canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
    small = rng.uniform(0.5, 1.0)
    canvas = cv2.resize(canvas, (int(w * small), int(h * small)), interpolation=cv2.INTER_AREA)
    noise = nrng.normal(0, rng.uniform(0, 5), canvas.shape)
    canvas = np.clip(canvas + noise, 0, 255).astype(np.uint8)
    _, enc = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(60, 95)])
    photo = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    assert photo is not None  # what was just encoded decodes
    H, W = photo.shape[:2]
    frame = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)

    def final(q: np.ndarray) -> tuple[np.ndarray, tuple[float, float, float, float], float]:
        """The outline in the photo, its box clipped to the frame and the share inside it."""
        f = cv2.perspectiveTransform(q.reshape(-1, 1, 2).astype(np.float32), hm).reshape(4, 2) * small
        inside = overlap_area(f, frame) / max(1e-6, _poly_area(f))
        x0, y0 = max(0.0, float(f[:, 0].min())), max(0.0, float(f[:, 1].min()))
        x1, y1 = min(float(W), float(f[:, 0].max())), min(float(H), float(f[:, 1].max()))
        return f, (x0, y0, x1, y1), inside

    scene = DeskScene(photo, pasted=len(tiles))
    for q, code, turn, src, on, _ in tiles:
        f, box, inside = final(q)
        scene.tiles.append(Loose(box, code, round(turn) % 360, src, on=on, quad=f, inside=inside))
    for name, _dev, m in devices:
        dh, dw = _dev.image.shape[:2]
        scene.devices[name] = final(_map(m, (0, 0, dw, dh)))[0]
    for q, kind, name, visible in parts:
        f, box, inside = final(q)
        if inside < 0.999 or box[2] - box[0] < 3 or box[3] - box[1] < 3:
            continue
        scene.parts.append(PartBox(box, NOT_A_TILE, 0, kind, device=name, quad=f, visible=visible))
    # the none boxes: a share of the parts no tile touches, every die and stick, windows
    clear = [p for p in scene.parts if p.visible >= 0.999]
    keys = [p for p in clear if p.source in ("key", "icon", "button")]
    rng.shuffle(keys)
    chosen = keys[: min(none_max, max(1, round(none_share * len(keys)))) if keys else 0]
    chosen += [p for p in clear if p.source in ("dice", "stick")]
    scene.clutter = [Placed(p.box, NOT_A_TILE, 0, p.source) for p in chosen]
    th = tw / FACE_W * FACE_H * small  # about a tile's size in the photo
    for name, outline in scene.devices.items():
        if name.split("#")[0] not in SURFACES or rng.random() < 0.4:
            continue
        for _ in range(10):
            cx = rng.uniform(outline[:, 0].min(), outline[:, 0].max())
            cy = rng.uniform(outline[:, 1].min(), outline[:, 1].max())
            bw, bh = th * 0.75 * rng.uniform(0.8, 1.3), th * rng.uniform(0.8, 1.3)
            if rng.random() < 0.3:
                bw, bh = bh, bw
            q = np.array(
                [
                    [cx - bw / 2, cy - bh / 2],
                    [cx + bw / 2, cy - bh / 2],
                    [cx + bw / 2, cy + bh / 2],
                    [cx - bw / 2, cy + bh / 2],
                ],
                np.float32,
            )
            if overlap_area(q, outline) < 0.999 * _poly_area(q) or not _inside(q, (0, 0, W, H)):
                continue
            # (every tile of a desk scene is Loose: the test only tells the type checker)
            if any(overlap_area(q, t.quad) > 0 for t in scene.tiles if isinstance(t, Loose)):
                continue
            scene.clutter.append(
                Placed(
                    (float(q[0, 0]), float(q[0, 1]), float(q[2, 0]), float(q[2, 1])), NOT_A_TILE, 0, "window"
                )
            )
            break
    return scene


def reader_crops(scene: DeskScene, size: int = CROP_SIZE) -> list[tuple[np.ndarray, str, bool | None, str]]:
    """Each loose tile (wholly in the frame) and each ``none`` box cut as the runtime cuts a
    detector box: (crop, code, upright in the crop -- None when it has no clear way up --, source).
    A tile turned within 15 degrees of up or down (after the crop's own quarter turn of a landscape
    box) has a way up; a tile lying askew has none."""
    out = []
    for t in scene.tiles:
        assert isinstance(t, Loose)  # a desk scene's tiles all lie loose
        if t.inside < 0.999:
            continue
        crop, turned = crop_box(scene.image, t.box, size=size)
        up = (t.turn + (90 if turned else 0)) % 360
        near_up, near_down = min(up, 360 - up) <= 15, abs(up - 180) <= 15
        unknown = t.code == BACK or t.source == "photo" or not (near_up or near_down)
        out.append((crop, t.code, None if unknown else near_up, t.source))
    for c in scene.clutter:
        crop, _ = crop_box(scene.image, c.box, size=size)
        out.append((crop, NOT_A_TILE, None, c.source))
    return out


class LooseRecord(TypedDict):
    box: list[float]
    code: str
    turn: int
    on: str
    inside: float


class PartRecord(TypedDict):
    box: list[float]
    kind: str
    device: str
    visible: float


class DeskRecord(TypedDict):
    """A desk scene as ``<out>/det/desk/<name>.json`` holds it (:func:`scene_record`)."""

    size: list[int]  # height, width
    tiles: list[LooseRecord]
    parts: list[PartRecord]
    devices: dict[str, list[list[float]]]  # name -> outline in the photo


def scene_record(scene: DeskScene) -> DeskRecord:
    """What ``scripts/eval_desk.py`` needs of a scene, JSON-ready: the tiles (box, code, what they
    lie on, share in the frame) and every part (box, kind, device, share visible) and device outline."""

    def box(b: tuple[float, float, float, float]) -> list[float]:
        return [round(v, 1) for v in b]

    return {
        "size": list(scene.image.shape[:2]),
        "tiles": [
            {"box": box(t.box), "code": t.code, "turn": t.turn, "on": t.on, "inside": round(t.inside, 3)}
            for t in scene.tiles
            if isinstance(t, Loose)
        ],
        "parts": [
            {"box": box(p.box), "kind": p.source, "device": p.device, "visible": round(p.visible, 3)}
            for p in scene.parts
        ],
        "devices": {k: [[round(float(x), 1) for x in pt] for pt in v] for k, v in scene.devices.items()},
    }

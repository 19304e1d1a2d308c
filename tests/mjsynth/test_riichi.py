"""Riichi designs (issue 22): what the reader misread on a real Japanese set must be drawn as such a
set prints it -- red accents where they are, red fives red, a black 發 without green, blank whites,
numerals that differ only in the small top character."""

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.faces import FACE_CODES, FACE_H, FACE_W
from mahjong_camera_scorer.mjsynth.riichi import BRUSH
from tests.mjsynth.mjsynth_testutil import hue_share, needs_fonts

RIICHI = ("proc-riichi-ink", "proc-riichi-colour", "proc-riichi-navy")
GREEN, RED = (35, 80), (170, 10)
TOP, BOTTOM = np.s_[: int(FACE_H * 0.38), :], np.s_[int(FACE_H * 0.42) :, :]


def _ink(face: np.ndarray, region=np.s_[:, :]) -> float:
    """Share of pixels far from the face colour (the median of the face's border)."""
    border = np.concatenate([face[:3].reshape(-1, 3), face[-3:].reshape(-1, 3)]).astype(np.float32)
    d = np.linalg.norm(face.astype(np.float32) - np.median(border, axis=0), axis=2)
    return float((d[region] > 60).mean())


@needs_fonts
@pytest.mark.parametrize("style", RIICHI)
def test_every_code_is_drawn_and_no_two_faces_are_alike(proc, style):
    codes = proc.styles[style].codes
    assert set(FACE_CODES) <= codes and {"0m", "0p", "0s"} <= codes
    assert not proc.styles[style].derived.get("0p", "").startswith("recoloured")  # drawn, not derived
    small = {}
    for code in sorted(codes):
        face = proc.face(style, code)
        assert face.shape == (FACE_H, FACE_W, 3) and face.dtype == np.uint8
        if code != "5z":
            assert _ink(face) > 0.02, code
        small[code] = cv2.resize(face, (36, 48), interpolation=cv2.INTER_AREA).astype(int)
    names = sorted(small)
    for i, a in enumerate(names):
        for b in names[:i]:
            assert np.abs(small[a] - small[b]).mean() > 1.5, (a, b)


@needs_fonts
@pytest.mark.parametrize("style", RIICHI)
@pytest.mark.parametrize("pair", [("7m", "9m"), ("4m", "5m"), ("6m", "8m"), ("2m", "3m")])
def test_character_numerals_differ_only_in_the_top_character(proc, style, pair):
    a, b = (proc.face(style, c).astype(int) for c in pair)
    diff = np.abs(a - b).sum(axis=2) > 40
    assert diff[TOP].mean() > 0.02  # the numerals differ
    assert diff[BOTTOM].mean() == 0.0  # the red 萬 is the same on every tile
    assert hue_share(proc.face(style, pair[0]), *RED, region=BOTTOM) > 0.08
    assert hue_share(proc.face(style, pair[0]), *RED, region=TOP) < 0.002  # the numeral is not red


@needs_fonts
@pytest.mark.parametrize("style", RIICHI)
def test_red_fives_are_red_where_the_plain_five_is_not(proc, style):
    f5m, f0m = proc.face(style, "5m"), proc.face(style, "0m")
    assert hue_share(f5m, *RED, region=TOP) < 0.002 and hue_share(f0m, *RED, region=TOP) > 0.03
    corner = np.s_[: FACE_H // 4, : FACE_W * 2 // 5]  # the top-left circle, the top-left stick
    centre = np.s_[FACE_H * 2 // 5 : FACE_H * 3 // 5, FACE_W * 2 // 5 : FACE_W * 3 // 5]
    for suit in "ps":
        plain, red = proc.face(style, "5" + suit), proc.face(style, "0" + suit)
        assert hue_share(plain, *RED, region=corner) < 0.005, suit
        assert hue_share(red, *RED, region=corner) > 0.08, suit
        assert hue_share(plain, *RED, region=centre) > 0.1, suit  # the plain five's red centre


@needs_fonts
@pytest.mark.parametrize("style", RIICHI)
def test_red_accents_nine_circles_middle_row_nine_and_seven_bamboo(proc, style):
    rows = [np.s_[int(FACE_H * y) - 18 : int(FACE_H * y) + 18, :] for y in (0.2, 0.5, 0.8)]
    nine_p = proc.face(style, "9p")
    assert hue_share(nine_p, *RED, region=rows[1]) > 0.1
    if style == "proc-riichi-ink" or style == "proc-riichi-navy":  # one ink: only the middle row red
        assert (
            hue_share(nine_p, *RED, region=rows[0]) < 0.005
            and hue_share(nine_p, *RED, region=rows[2]) < 0.005
        )
    nine_s = proc.face(style, "9s")
    middle, side = np.s_[:, 58:86], np.s_[:, :40]
    assert hue_share(nine_s, *RED, region=middle) > 0.1 and hue_share(nine_s, *RED, region=side) < 0.005
    seven = proc.face(style, "7s")
    assert (
        hue_share(seven, *RED, region=np.s_[:60, :]) > 0.03
        and hue_share(seven, *RED, region=np.s_[70:, :]) < 0.005
    )
    one_p = proc.face(style, "1p")
    assert hue_share(one_p, *RED, region=np.s_[80:112, 56:88]) > 0.2  # the wheel's red centre
    assert hue_share(one_p, *RED, region=np.s_[:, :20]) < 0.005


@needs_fonts
def test_green_dragon_in_black_ink_and_in_green_and_a_red_red_dragon(proc):
    black = proc.face("proc-riichi-ink", "6z")
    assert hue_share(black, *GREEN) < 0.002 and _ink(black) > 0.1 and black.min() < 60
    assert hue_share(proc.face("proc-riichi-colour", "6z"), *GREEN) > 0.05
    assert hue_share(proc.face("proc-riichi-navy", "6z"), *GREEN) > 0.05
    for style in RIICHI:
        assert hue_share(proc.face(style, "7z"), *RED) > 0.05, style


@needs_fonts
def test_white_dragons_blank_or_a_thin_frame(proc):
    for style in ("proc-riichi-ink", "proc-riichi-navy"):
        assert _ink(proc.face(style, "5z")) == 0.0, style
    framed = proc.face("proc-riichi-colour", "5z")
    inner = np.s_[30:-30, 25:-25]
    assert 0.01 < _ink(framed) < 0.12 and _ink(framed, inner) == 0.0


@needs_fonts
def test_birds_differ_and_the_ink_set_bird_has_no_green(proc):
    ink_bird = proc.face("proc-riichi-ink", "1s")
    assert hue_share(ink_bird, *GREEN) < 0.002 and _ink(ink_bird) > 0.1
    assert {proc.styles[s].derived["1s"] for s in RIICHI} == {"drawn peacock", "drawn sparrow", "drawn crane"}


def test_brush_numerals_cover_every_numeral():
    assert set("一二三四五伍六七八九") <= set(BRUSH)
    for glyph, strokes in BRUSH.items():
        pts = [p for s in strokes for p in s]
        assert all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 and 0.0 < w < 0.2 for x, y, w in pts), glyph

"""Dragons drawn as beasts (issue 22): sets that print 7z / 6z as a picture of a dragon, which the reader
read as a red five and a flower. The drawing must stay a red (green) line-art dragon that holds no 中 /
發, in several different drawings, and change nothing else of its style."""

from __future__ import annotations

import dataclasses
import itertools

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth import beasts
from mahjong_camera_scorer.mjsynth.faces import FACE_CODES, FACE_H, FACE_W
from mahjong_camera_scorer.mjsynth.procedural import PROC_STYLES, RED, ProceduralSource, _Canvas
from tests.mjsynth.mjsynth_testutil import hue_share, needs_fonts

BEASTS = tuple(s.name for s in PROC_STYLES if s.dragons == "beast")
GREEN_HUE, RED_HUE = (35, 80), (170, 10)
FACE = (236, 232, 214)


def _ink(face: np.ndarray) -> np.ndarray:
    """Pixels far from the face colour (the median of the face's top and bottom rows)."""
    border = np.concatenate([face[:3].reshape(-1, 3), face[-3:].reshape(-1, 3)]).astype(np.float32)
    return np.linalg.norm(face.astype(np.float32) - np.median(border, axis=0), axis=2) > 60


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))


def _drawn(variant: int, colour=RED) -> np.ndarray:
    cv = _Canvas(FACE)
    beasts.dragon(cv, colour, variant)
    return cv.to_bgr()


@pytest.fixture(scope="module")
def twins() -> ProceduralSource:
    """A procedural source that also knows each beast style's twin with 中 / 發 glyphs ("<name>-glyph")."""
    src = ProceduralSource()
    for sp in PROC_STYLES:
        if sp.dragons == "beast":
            src._spec[sp.name + "-glyph"] = dataclasses.replace(sp, name=sp.name + "-glyph", dragons="glyph")
    return src


def test_there_are_beast_styles_and_they_use_every_drawing():
    assert len(BEASTS) >= 2
    drawings = set()
    for sp in PROC_STYLES:
        if sp.dragons == "beast":
            drawings |= {sp.beast, beasts.mirror_variant(sp.beast)}
    assert drawings == set(range(beasts.N_VARIANTS))
    assert {s.dragons for s in PROC_STYLES} == {"glyph", "beast"}


@needs_fonts
@pytest.mark.parametrize("style", BEASTS)
def test_red_dragon_is_a_red_drawing_that_holds_no_zhong(twins, style):
    beast, glyph = twins.render(style, "7z"), twins.render(style + "-glyph", "7z")
    assert hue_share(beast, *RED_HUE) > 0.06 and hue_share(beast, *GREEN_HUE) < 0.005
    assert _iou(_ink(beast), _ink(glyph)) < 0.4  # not the 中 in another place or size
    green = twins.render(style, "6z")
    assert hue_share(green, *GREEN_HUE) > 0.05 and hue_share(green, *RED_HUE) < 0.01
    assert _iou(_ink(green), _ink(twins.render(style + "-glyph", "6z"))) < 0.4


@needs_fonts
@pytest.mark.parametrize("style", BEASTS)
def test_the_dragon_is_line_art_standing_upright(twins, style):
    for code in ("6z", "7z"):
        ink = _ink(twins.render(style, code))
        assert 0.05 < ink.mean() < 0.3, code  # strokes, not a blob and not a speck
        rows = np.flatnonzero(ink.any(axis=1))
        assert 0.6 < (rows[-1] - rows[0]) / FACE_H < 0.9, code  # about 70 % of the face height
        for third in np.array_split(ink, 3, axis=0):  # head, body and tail: ink all the way down
            assert third.mean() > 0.04, code
        n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
        assert stats[1:, cv2.CC_STAT_AREA].max() > 0.9 * ink.sum(), code  # one drawing, not scattered marks
        # outlines enclose the face colour: body, head, legs, eye and scales leave holes a blob has not
        n, lab = cv2.connectedComponents((~ink).astype(np.uint8), connectivity=4)
        outside = set(np.unique(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])))
        holes = [k for k in range(1, n) if k not in outside and (lab == k).sum() >= 4]
        assert len(holes) >= 12, (code, len(holes))  # 中 leaves 2


@needs_fonts
@pytest.mark.parametrize("style", BEASTS)
def test_green_dragon_faces_the_red_one(twins, style):
    red, green = _ink(twins.render(style, "7z")), _ink(twins.render(style, "6z"))
    assert _iou(red, green[:, ::-1]) > 0.8 and _iou(red, green) < 0.5


def test_variants_are_different_drawings():
    inks = [_ink(_drawn(v)) for v in range(beasts.N_VARIANTS)]
    for a, b in itertools.combinations(range(beasts.N_VARIANTS), 2):
        assert _iou(inks[a], inks[b]) < 0.6, (a, b)
    for v in range(0, beasts.N_VARIANTS, 2):  # odd variants are the even ones facing the other way
        assert _iou(inks[v], inks[v + 1][:, ::-1]) > 0.9
    weights = {s.weight for s in beasts.SHAPES}
    assert len(weights) == len(beasts.SHAPES) and all(0.02 <= w <= 0.04 for w in weights)


def test_drawing_is_deterministic():
    for v in range(beasts.N_VARIANTS):
        assert np.array_equal(_drawn(v), _drawn(v))


@needs_fonts
@pytest.mark.parametrize("style", BEASTS)
def test_only_the_red_and_green_dragons_change(twins, style):
    fresh = ProceduralSource()
    for code in FACE_CODES:
        face = twins.render(style, code)
        assert face.shape == (FACE_H, FACE_W, 3) and face.dtype == np.uint8
        assert np.array_equal(face, fresh.render(style, code)), code  # deterministic across sources
        same = np.array_equal(face, twins.render(style + "-glyph", code))
        assert same == (code not in ("6z", "7z")), code


@needs_fonts
def test_artwork_lists_and_caches_the_beast_styles(proc):
    for style in BEASTS:
        assert {"6z", "7z"} <= proc.styles[style].codes
        assert np.array_equal(proc.face(style, "7z"), ProceduralSource().render(style, "7z"))

"""Tile designs the real photos showed: monochrome honours, green that is not 發, red accents, drawn
birds, seasons with red numerals."""

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.procedural import swap_inks
from mahjong_camera_scorer.mjsynth.scene import SceneOptions, render_scene
from tests.mjsynth.mjsynth_testutil import FAST_STYLES, hue_share, needs_fonts

NEW = ("proc-mono", "proc-taiwan", "proc-jade")


GREEN, RED = (35, 80), (170, 10)


@needs_fonts
def test_monochrome_honours_and_green_that_is_not_the_green_dragon(proc):
    assert hue_share(proc.face("proc-classic", "6z"), *GREEN) > 0.03
    black_green_dragon = proc.face("proc-mono", "6z")
    assert hue_share(black_green_dragon, *GREEN) < 0.002 and black_green_dragon.min() < 60
    assert hue_share(proc.face("proc-mono", "7z"), *RED) < 0.002  # a black 中 too
    assert hue_share(proc.face("proc-jade", "1z"), *GREEN) > 0.03  # a green east wind
    assert hue_share(proc.face("proc-jade", "7z"), *GREEN) > 0.03


@needs_fonts
def test_three_drawn_birds(proc):
    birds = [proc.face(s, "1s").astype(int) for s in NEW]
    assert {proc.styles[s].derived["1s"] for s in NEW} == {"drawn sparrow", "drawn peacock", "drawn crane"}
    for i in range(3):
        assert birds[i].std() > 20
        for j in range(i):
            assert (
                np.abs(
                    cv2.resize(birds[i].astype(np.uint8), (48, 64)).astype(int)
                    - cv2.resize(birds[j].astype(np.uint8), (48, 64)).astype(int)
                ).mean()
                > 12
            )


@needs_fonts
@pytest.mark.parametrize("style", ["proc-mono", "proc-taiwan", "proc-jade"])
def test_seasons_carry_red_numerals_and_bamboo_red_accents(proc, style):
    top = np.s_[:60, :]
    for code in ("5f", "6f", "7f", "8f"):
        assert hue_share(proc.face(style, code), *RED, region=top) > 0.01, code
    nine = proc.face(style, "9s")
    middle, side = np.s_[:, 55:90], np.s_[:, :40]
    assert hue_share(nine, *RED, region=middle) > 0.05 and hue_share(nine, *RED, region=side) < 0.01
    assert hue_share(proc.face(style, "7s"), *RED, region=np.s_[:60, :]) > 0.03  # red top stick


@needs_fonts
def test_ink_swap_moves_green_and_blue_but_never_red(proc):
    fa = proc.face("proc-classic", "6z")
    for target in ("black", "blue", "teal"):
        assert hue_share(swap_inks(fa, target, "blue"), *GREEN) < 0.2 * hue_share(fa, *GREEN)
    red_five = proc.face("proc-classic", "0p")
    swapped = swap_inks(red_five, "black", "green")
    assert abs(hue_share(swapped, *RED) - hue_share(red_five, *RED)) < 0.002
    assert hue_share(swap_inks(proc.face("proc-classic", "1z"), "black", "green"), *GREEN) > 0.03


@pytest.mark.slow
def test_scenes_swap_inks_per_set(art):
    _, man = render_scene(3, art, SceneOptions(img_size=256, styles=FAST_STYLES, p_ink_swap=1.0))
    assert man["inks"] and man["inks"][0] in ("black", "blue", "teal")
    _, man = render_scene(3, art, SceneOptions(img_size=256, styles=FAST_STYLES, p_ink_swap=0.0))
    assert man["inks"] is None

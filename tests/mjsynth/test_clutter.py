import random

import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth import clutter, negatives
from mahjong_camera_scorer.mjsynth.generate import GenerateConfig, generate
from mahjong_camera_scorer.mjsynth.scene import SceneOptions, render_scene
from mahjong_camera_scorer.vision.classes import NOT_A_TILE
from tests.mjsynth.mjsynth_testutil import FAST_STYLES, needs_fonts


def test_a_keyboard_has_letter_keys_the_size_of_tiles():
    img, parts = clutter.keyboard_texture(random.Random(3), 440, 140, 2.5)
    assert len(parts) >= 30 and {k for k, _ in parts} == {"keycap"}
    body = img[1, 1].astype(int)
    for _, (a0, b0, a1, b1) in parts:
        assert 0 <= a0 < a1 <= 1 and 0 <= b0 < b1 <= 1
        w_mm, h_mm = (a1 - a0) * 440, (b1 - b0) * 140
        assert 13 < w_mm < 19 and 13 < h_mm < 19  # a tile is 24-30 x 32-40 mm: same scale, squarer
        x0, y0, x1, y1 = (
            int(a0 * img.shape[1]),
            int(b0 * img.shape[0]),
            int(a1 * img.shape[1]),
            int(b1 * img.shape[0]),
        )
        assert np.abs(img[y0:y1, x0:x1].astype(int) - body).sum(axis=2).mean() > 10  # a key, not the body


@pytest.mark.slow
def test_props_never_stand_on_tiles():
    tiles = np.array([[x, 0.0] for x in np.arange(-200, 200, 27)])
    for seed in range(15):
        rng = random.Random(seed)
        props = clutter.place_props(
            tiles,
            28.0,
            rng,
            np.random.default_rng(seed),
            4,
            lambda rng=rng: (rng.uniform(-500, 500), rng.uniform(-500, 500)),
        )
        for p in props:
            if p.flat:
                continue
            c, r = clutter.footprint(p)
            assert np.min(np.linalg.norm(tiles - c, axis=1)) >= r + 28.0


def _iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


@pytest.mark.slow
def test_scenes_with_clutter_list_hard_negatives_that_are_not_tiles(art):
    opts = SceneOptions(img_size=480, styles=FAST_STYLES, clutter_fraction=1.0)
    kinds = set()
    for seed in range(10):
        img, man = render_scene(seed, art, opts)
        h, w = img.shape[:2]
        assert man["props"]
        tiles = [t["box"] for t in man["tiles"] if t["labelled"]]
        for n in man["negatives"]:
            x0, y0, x1, y1 = n["box"]
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h and min(x1 - x0, y1 - y0) >= negatives.MIN_PX
            assert all(_iou(n["box"], b) < 0.6 for b in tiles), n
        kinds |= {n["what"] for n in man["negatives"]}
    assert kinds & set(negatives.PROP_PARTS) and "tile_side" in kinds


def test_choose_spreads_over_kinds():
    negs = [{"what": "keycap"}] * 30 + [{"what": "cup_rim"}]
    picks = negatives.choose(negs, 4, random.Random(0))
    assert len(set(picks)) == 4 and 30 in picks


@pytest.mark.slow
@needs_fonts
def test_none_crops_are_a_modest_share(tmp_path):
    cfg = GenerateConfig(
        out=tmp_path,
        count=8,
        seed=5,
        workers=1,
        shared_dir=None,
        progress=False,
        scene=SceneOptions(img_size=320, styles=FAST_STYLES, clutter_fraction=1.0),
    )
    summary = generate(cfg)
    rows = (tmp_path / "cls" / "crops.csv").read_text().splitlines()[1:]
    none = [r for r in rows if r.split(",")[1] == NOT_A_TILE]
    assert none and 0.02 <= len(none) / summary["crops"] <= 0.2
    for r in none:
        assert (tmp_path / "cls" / r.split(",")[0]).is_file()

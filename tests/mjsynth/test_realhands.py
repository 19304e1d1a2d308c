"""Hands composed from real camerash crops: valid hands, boxes on the tiles, layout conventions kept."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import pytest

from mahjong_camera_scorer.mjsynth.realhands import compose, draw_hand, generate, load_crops
from tests.mjsynth.mjsynth_testutil import SHARED
from tests.scripts.scriptutil import load_script

ROOT = Path(__file__).resolve().parents[2]
CAMERASH = SHARED / "data" / "camerash"
SPLIT = ROOT / "models" / "camerash-split.csv"
needs_camerash = pytest.mark.skipif(
    not (CAMERASH / "tiles-resized").is_dir(), reason="../shared/data/camerash not present"
)


def test_drawn_hands_use_only_what_the_set_has() -> None:
    have = {f"{n}{s}" for n in range(1, 10) for s in "mps"} | {f"{n}z" for n in range(1, 8)} - {"9s", "5z"}
    rng = random.Random(1)
    for _ in range(30):
        hand = draw_hand(rng, have)
        assert hand is not None
        assert set(hand.all_tiles()) <= have  # no red fives, nothing the set lacks
        assert not any(m.type == "kong" and not m.open for m in hand.melds)  # no backs in camerash
    assert draw_hand(rng, {"1m"}, tries=20) is None


@pytest.mark.slow
@needs_camerash
def test_composed_photos_are_read_exactly_by_the_layout_from_their_true_tiles(tmp_path: Path) -> None:
    summary = generate(tmp_path, count=6, seed=3, split_csv=SPLIT, camerash=CAMERASH)
    assert summary["photos"] == 6
    e2e = load_script("eval_e2e")
    for path in sorted((tmp_path / "manifests").glob("*.json")):
        m = json.loads(path.read_text())
        image = cv2.imread(str(tmp_path / m["image"]))
        h, w = image.shape[:2]
        assert [w, h] == m["image_size"]
        for t in m["tiles"]:
            x0, y0, x1, y1 = t["box"]
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        assert e2e.compare(m["hand"], e2e.oracle_result(m).layout.to_dict()) is None, path.name


@pytest.mark.slow
@needs_camerash
def test_only_held_out_tiles_are_used_and_the_seed_fixes_the_photo() -> None:
    crops = load_crops(SPLIT, CAMERASH)
    train = load_crops(SPLIT, CAMERASH, fold="train")
    assert not {p for s in crops.values() for ps in s.values() for p in ps} & {
        p for s in train.values() for ps in s.values() for p in ps
    }
    hand = draw_hand(random.Random(4), set(crops["13"]))
    assert hand is not None
    a, ta = compose(hand, crops["13"], random.Random(9))
    b, tb = compose(hand, crops["13"], random.Random(9))
    assert (a == b).all() and ta == tb


def test_script_says_what_is_missing(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    mod = load_script("make_real_hands")
    assert mod.main(["--camerash", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")]) == 2
    assert "camerash crops not found" in capsys.readouterr().err

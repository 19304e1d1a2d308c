"""The committed camerash split: folds by tile set, camerash's labels (with the checked fixes)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.scripts.scriptutil import load_script

ROOT = Path(__file__).resolve().parents[2]
SPLIT = ROOT / "models" / "camerash-split.csv"
DATA = ROOT.parent / "shared" / "data" / "camerash" / "labels" / "data.csv"


def test_folds_are_whole_tile_sets_and_the_test_fold_has_every_class() -> None:
    mod = load_script("eval_camerash_split")
    rows = list(csv.DictReader(SPLIT.open(encoding="utf-8")))
    assert len(rows) == 629
    for r in rows:
        assert r["set"] == mod.photo_set(r["photo"])
        assert r["fold"] == ("test" if r["set"] in mod.TEST_SETS else "train")
    test = [r for r in rows if r["fold"] == "test"]
    assert len(test) == 218 and len({r["code"] for r in test}) == 42


def test_codes_are_camerash_labels_except_the_checked_fixes() -> None:
    mod = load_script("eval_camerash_split")
    for r in csv.DictReader(SPLIT.open(encoding="utf-8")):
        fix = mod.LABEL_FIXES.get(r["crop"])
        assert r["code"] == (fix[0] if fix else mod.CAMERASH_TO_CODE[r["label"]]), r["crop"]
    assert {"133.jpg", "350.jpg"} <= set(mod.LABEL_FIXES)


@pytest.mark.skipif(not DATA.is_file(), reason="../shared/data/camerash not present")
def test_split_covers_every_labelled_crop_with_camerash_own_label() -> None:
    rows = {r["crop"]: r["label"] for r in csv.DictReader(SPLIT.open(encoding="utf-8"))}
    labels = {r["image-name"]: r["label-name"] for r in csv.DictReader(DATA.open(encoding="utf-8-sig"))}
    assert rows == labels


def test_a_crop_is_found_upright_or_turned_even_when_it_spans_the_photo() -> None:
    import numpy as np

    match_crop = load_script("eval_camerash_split").match_crop
    rng = np.random.default_rng(0)
    photo = rng.integers(0, 256, (40, 200), dtype=np.uint8)
    crop = photo[:, 120:150].copy()  # as tall as the photo (a one-row photo)
    score, where = match_crop(photo, crop, (30, 40))
    assert score > 0.99 and where == (120, 0)
    score, where = match_crop(photo, crop[::-1, ::-1].copy(), (30, 40))  # the tile upside down
    assert score > 0.99 and where == (120, 0)
    assert match_crop(photo, crop, (30, 41))[0] == -1.0  # taller than the photo: no match

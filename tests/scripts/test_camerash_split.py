"""The committed camerash split: folds by tile set, camerash's labels (with the checked fixes)."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPLIT = ROOT / "models" / "camerash-split.csv"
DATA = ROOT.parent / "shared" / "data" / "camerash" / "labels" / "data.csv"


def _split_module():  # type: ignore[no-untyped-def]
    path = ROOT / "scripts" / "eval_camerash_split.py"
    spec = importlib.util.spec_from_file_location("camerash_split", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_folds_are_whole_tile_sets_and_the_test_fold_has_every_class() -> None:
    mod = _split_module()
    rows = list(csv.DictReader(SPLIT.open(encoding="utf-8")))
    assert len(rows) == 629
    for r in rows:
        assert r["set"] == mod.photo_set(r["photo"])
        assert r["fold"] == ("test" if r["set"] in mod.TEST_SETS else "train")
    test = [r for r in rows if r["fold"] == "test"]
    assert len(test) == 218 and len({r["code"] for r in test}) == 42


def test_codes_are_camerash_labels_except_the_checked_fixes() -> None:
    mod = _split_module()
    for r in csv.DictReader(SPLIT.open(encoding="utf-8")):
        fix = mod.LABEL_FIXES.get(r["crop"])
        assert r["code"] == (fix[0] if fix else mod.CAMERASH_TO_CODE[r["label"]]), r["crop"]
    assert {"133.jpg", "350.jpg"} <= set(mod.LABEL_FIXES)


@pytest.mark.skipif(not DATA.is_file(), reason="../shared/data/camerash not present")
def test_split_covers_every_labelled_crop_with_camerash_own_label() -> None:
    rows = {r["crop"]: r["label"] for r in csv.DictReader(SPLIT.open(encoding="utf-8"))}
    labels = {r["image-name"]: r["label-name"] for r in csv.DictReader(DATA.open(encoding="utf-8-sig"))}
    assert rows == labels

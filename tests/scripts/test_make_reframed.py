"""The real training photos re-framed for the detector (``scripts/make_reframed.py``)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.scripts.scriptutil import load_script

mod = load_script("make_reframed")
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "real"


def test_a_label_line_is_the_box_centre_and_size_over_the_picture() -> None:
    assert mod.yolo_line((10.0, 20.0, 30.0, 60.0), 100, 200) == "0 0.200000 0.200000 0.200000 0.200000"


def test_boxes_that_overlap_their_neighbours_are_loose_and_side_by_side_tiles_are_not() -> None:
    row = [(10.0 + 31 * i, 0.0, 40.0 + 31 * i, 40.0) for i in range(6)]
    assert not mod.loose_labels(row)
    sheared = [(10.0 + 15 * i, 0.0, 70.0 + 15 * i, 60.0) for i in range(6)]
    assert mod.loose_labels(sheared)
    assert not mod.loose_labels(row[:1])


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/real is not here")
def test_a_few_training_photos_give_labelled_pictures_and_never_a_test_photo(tmp_path: Path) -> None:
    assert mod.main(["--out", str(tmp_path), "--limit", "6", "--kinds", "far,turn90"]) == 0
    images = sorted((tmp_path / "det" / "images" / "train").glob("*.jpg"))
    assert images and all((tmp_path / "det" / "labels" / "train" / f"{p.stem}.txt").is_file() for p in images)
    split = Path(__file__).resolve().parents[2] / "models" / "real-split.csv"
    with split.open(encoding="utf-8") as fh:
        held_out = {Path(r["file"]).stem[:60] for r in csv.DictReader(fh) if r["split"] != "train"}
    assert held_out and not any(p.name.startswith(f"{stem}-") for p in images for stem in held_out)


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/real is not here")
def test_tiles_cut_by_a_crop_are_labelled_by_how_much_of_them_is_inside(tmp_path: Path) -> None:
    def lines(share: str) -> int:
        out = tmp_path / share
        assert mod.main(["--out", str(out), "--limit", "8", "--kinds", "crop", "--label-visible", share]) == 0
        return sum(len(p.read_text().splitlines()) for p in (out / "det" / "labels" / "train").glob("*.txt"))

    half, whole = lines("0.5"), lines("1.0")
    assert 0 < whole < half  # the same crops: only the tiles wholly inside keep a label at 1.0


def test_a_share_outside_zero_to_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        mod.main(["--out", str(tmp_path), "--label-visible", "1.5"])

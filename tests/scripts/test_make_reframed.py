"""The real training photos re-framed for the detector (``scripts/make_reframed.py``)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from tests.scripts.scriptutil import load_script

mod = load_script("make_reframed")
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "real"
REAL_CROPS = Path(__file__).resolve().parents[2] / "data" / "real" / "cls" / "crops.csv"


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


def test_a_standing_tile_is_cut_turned_only_where_the_reframing_lays_it_on_its_side() -> None:
    h, w = 200, 300
    box = (100.0, 50.0, 130.0, 90.0)  # standing, its top up ("0": not upside down)
    same = np.eye(3)
    assert mod.cut_way(box, "0", same) == (False, "0")
    assert mod.cut_way(box, "1", same) == (False, "1")
    half = np.array([[-1.0, 0.0, w], [0.0, -1.0, h], [0.0, 0.0, 1.0]])  # a half turn
    assert mod.cut_way(box, "0", half) == (False, "1")
    # a quarter turn anticlockwise (numpy.rot90): the top points left; cut turned clockwise it
    # points up again
    quarter = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, float(w)], [0.0, 0.0, 1.0]])
    assert mod.cut_way(box, "0", quarter) == (True, "0")
    assert mod.cut_way(box, "", quarter) == (True, "")
    # a seat view squashes the tile (its box comes out wide) but leaves it standing
    squash = np.diag([1.0, 0.4, 1.0])
    assert mod.cut_way(box, "0", squash) == (False, "0")


def test_a_tile_lying_or_boxed_square_in_the_photo() -> None:
    lying = (100.0, 50.0, 140.0, 80.0)
    quarter = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 300.0], [0.0, 0.0, 1.0]])
    assert mod.cut_way(lying, "0", np.eye(3)) == (True, "")  # which way its top points is not known
    assert mod.cut_way(lying, "0", quarter) == (False, "")
    assert mod.cut_way((100.0, 50.0, 130.0, 80.0), "0", np.eye(3)) is None


@pytest.mark.slow
@pytest.mark.skipif(
    not (SHARED.is_dir() and REAL_CROPS.is_file()), reason="needs ../shared and real_photos.py's crops"
)
def test_reader_crops_of_training_photos_are_written_with_their_table(tmp_path: Path) -> None:
    assert mod.main(["--out", str(tmp_path), "--limit", "4", "--kinds", "far,turn180", "--reader-crops"]) == 0
    with (tmp_path / "cls" / "crops.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and {r["kind"] for r in rows} <= {"far", "turn180"}
    assert all((tmp_path / "cls" / r["file"]).is_file() and r["split"] == "train" for r in rows)


@pytest.mark.slow
@pytest.mark.models
@pytest.mark.skipif(
    not (SHARED.is_dir() and REAL_CROPS.is_file()), reason="needs ../shared and real_photos.py's crops"
)
def test_negatives_are_written_as_not_a_tile_beside_the_tiles(tmp_path: Path) -> None:
    argv = ["--out", str(tmp_path), "--limit", "6", "--kinds", "far,crop", "--reader-crops", "--negatives"]
    assert mod.main(argv) == 0
    with (tmp_path / "cls" / "crops.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    none = [r for r in rows if r["code"] == "none"]
    assert none and len(none) < len(rows) and all(r["file"].startswith("train/none/") for r in none)
    assert all((tmp_path / "cls" / r["file"]).is_file() for r in none)


def test_reader_crops_need_the_real_crops_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not SHARED.is_dir():
        pytest.skip("../shared/data/real is not here")
    missing = tmp_path / "nothing"
    assert mod.main(["--out", str(tmp_path), "--reader-crops", "--real-crops", str(missing)]) == 2
    assert "real_photos.py" in capsys.readouterr().err


def test_a_sliver_is_not_cut() -> None:
    assert mod.cut_way((100.0, 50.0, 110.0, 90.0), "0", np.eye(3)) is None
    assert mod.cut_way((100.0, 50.0, 140.0, 60.0), "0", np.eye(3)) is None

"""The real photos' class tables, labels and split (mjsynth.realphotos, scripts/real_photos.py)."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.realphotos import (
    CHINESE,
    CHINESE_CLASSES,
    RIICHI,
    RIICHI_CLASSES,
    UNKNOWN_FACE,
    RealPhoto,
    assign_splits,
    frame_time,
    load_picture,
    published_box,
    read_labels,
    source_of,
)
from mahjong_camera_scorer.vision.classes import TILE_CLASSES

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "data" / "real"
SPLIT = ROOT / "models" / "real-split.csv"


def test_class_tables_name_every_tile_once() -> None:
    # 34 kinds + 8 bonus tiles in the Chinese set, 34 kinds + one unknown face in the camera frames
    assert sorted(CHINESE_CLASSES) == sorted(c for c in TILE_CLASSES if c[0] != "0" and c != "back")
    assert set(RIICHI_CLASSES) - {UNKNOWN_FACE} == {c for c in TILE_CLASSES if c[1] in "mpsz" and c[0] != "0"}
    # checked by eye: class 20 is the plum (1f), class 0 spring (5f), 24 the white dragon
    assert (CHINESE_CLASSES[0], CHINESE_CLASSES[20], CHINESE_CLASSES[24]) == ("5f", "1f", "5z")
    assert (RIICHI_CLASSES[28], RIICHI_CLASSES[29], RIICHI_CLASSES[34]) == ("7z", "5z", "1z")


def test_source_names_and_frame_times() -> None:
    assert source_of("hand_012_jpg.rf.0a1b.jpg") == "hand_012"
    assert source_of("Screenshot-2025-09-20-02-48-09_png.rf.b98e.jpg") == "Screenshot-2025-09-20-02-48-09"
    assert frame_time("Screenshot-2025-09-20-02-48-09").minute == 48
    assert frame_time("hand_012") is None


def test_labels_read_boxes_and_polygons(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    img = tmp_path / "images" / "a_jpg.rf.x.jpg"
    img.write_bytes(b"")
    lines = "1 0.5 0.5 0.2 0.4\n24 0.1 0.1 0.3 0.1 0.3 0.5 0.1 0.5\n"
    (tmp_path / "labels" / "a_jpg.rf.x.txt").write_text(lines)
    labels = read_labels(RealPhoto(CHINESE, "train", img), 100, 200)
    assert [lab.code for lab in labels] == ["1m", "5z"]
    assert labels[0].box == pytest.approx((40, 60, 60, 140))
    assert labels[1].box == pytest.approx((10, 20, 30, 100))  # a polygon's bounds


def test_camera_frames_come_back_at_the_width_the_webcam_gave(tmp_path: Path) -> None:
    """Published squashed to 640x640 from 16:9: read 1138 wide, the labels (normalised) follow,
    and a box on the restored frame goes back to published pixels for the audit file."""
    import cv2

    (tmp_path / "images").mkdir()
    img = tmp_path / "images" / "f_png.rf.x.jpg"
    cv2.imwrite(str(img), np.full((64, 64, 3), 128, np.uint8))
    assert load_picture(RealPhoto(RIICHI, "train", img)).shape == (64, 114, 3)
    assert load_picture(RealPhoto(CHINESE, "train", img)).shape == (64, 64, 3)
    assert published_box(RIICHI, (16 / 9 * 10, 5, 16 / 9 * 20, 9)) == pytest.approx((10, 5, 20, 9))
    with pytest.raises(OSError, match="cannot read"):
        load_picture(RealPhoto(RIICHI, "train", tmp_path / "none.jpg"))


def test_split_keeps_a_source_photo_in_one_split_and_frames_near_a_test_frame_out() -> None:
    def photo(ds: str, split: str, name: str) -> RealPhoto:
        return RealPhoto(ds, split, Path(f"/x/{ds}/{split}/images/{name}"))

    items = [
        photo(CHINESE, "train", "hand_001_jpg.rf.a.jpg"),
        photo(CHINESE, "test", "hand_001_jpg.rf.b.jpg"),  # the same source published twice
        photo(CHINESE, "train", "other_jpg.rf.c.jpg"),
        photo(CHINESE, "train", "copy_jpg.rf.d.jpg"),  # another name, the same picture as a test one
        photo(CHINESE, "test", "orig_jpg.rf.e.jpg"),
        photo(RIICHI, "test", "Screenshot-2025-09-20-02-48-09_png.rf.f.jpg"),
        photo(RIICHI, "train", "Screenshot-2025-09-20-02-48-30_png.rf.g.jpg"),  # 21 s later
        photo(RIICHI, "train", "Screenshot-2025-09-20-04-00-00_png.rf.h.jpg"),
    ]
    rng = np.random.default_rng(0)
    hashes = {p.path: [int(rng.integers(0, 2**62))] * 8 for p in items}
    hashes[items[3].path] = hashes[items[4].path]
    split = assign_splits(items, hashes, kept_out=())
    # a published-train copy of a test photo is neither trained on nor measured (loosened boxes)
    assert split[items[0].path] == "excluded" and split[items[1].path] == "test"
    assert split[items[3].path] == "excluded"
    assert split[items[2].path] == "train"
    assert split[items[6].path] == "excluded" and split[items[7].path] == "train"
    # a data set kept out of the base models' training: test stays test, the rest is for teaching
    split = assign_splits(items, hashes, kept_out=(RIICHI,))
    assert split[items[5].path] == "test"
    assert split[items[6].path] == "teach" and split[items[7].path] == "teach"
    assert split[items[2].path] == "train"


@pytest.mark.skipif(not (REAL.is_dir() and SPLIT.is_file()), reason="needs ../shared/data/real")
def test_committed_split_covers_every_picture_and_no_source_crosses_the_test_line() -> None:
    rows = list(csv.DictReader(SPLIT.open(encoding="utf-8")))
    on_disk = {p.name for p in REAL.glob("*/*/images/*.jpg")}
    assert {r["file"] for r in rows} == on_disk
    splits = defaultdict(set)
    for r in rows:
        splits[(r["dataset"], r["source"])].add(r["split"])
    # a source photo is either measured or trained on, never both (its copies may be left out)
    assert not [k for k, v in splits.items() if "test" in v and v & {"train", "val", "teach"}]
    assert sum(r["split"] == "test" for r in rows) >= 150

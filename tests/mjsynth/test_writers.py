import json
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
import yaml

from mahjong_camera_scorer.mjsynth.generate import GenerateConfig, generate
from mahjong_camera_scorer.mjsynth.scene import SceneOptions
from mahjong_camera_scorer.vision.classes import DETECTOR_CLASSES, READER_CLASSES
from mahjong_camera_scorer.vision.crops import CROP_SIZE
from tests.mjsynth.mjsynth_testutil import FAST_STYLES, HAS_FONTS, needs_fonts

pytestmark = pytest.mark.slow  # each test generates a small data set

ROOT = Path(__file__).resolve().parents[2]


def _make(out: Path, seed: int = 3, count: int = 4, only: str | None = None) -> dict:
    cfg = GenerateConfig(
        out=out,
        count=count,
        seed=seed,
        workers=1,
        val_fraction=0.5,
        shared_dir=None,
        scene=SceneOptions(img_size=256, styles=FAST_STYLES),
        progress=False,
        only=only,
    )
    return generate(cfg)


@needs_fonts
def test_tiny_dataset_has_all_three_outputs(tmp_path):
    summary = _make(tmp_path)
    assert summary["images"] == 4 and summary["labels"] > 0 and summary["crops"] > 0
    data = yaml.safe_load((tmp_path / "det" / "data.yaml").read_text())
    assert [data["names"][i] for i in range(len(DETECTOR_CLASSES))] == list(DETECTOR_CLASSES)
    labels = sorted((tmp_path / "det" / "labels").rglob("*.txt"))
    images = sorted((tmp_path / "det" / "images").rglob("*.jpg"))
    assert len(labels) == len(images) == 4
    for lab in labels:
        for line in lab.read_text().split("\n"):
            if not line:
                continue
            c, *xywh = line.split()
            assert int(c) in (0, 1)
            x, y, w, h = map(float, xywh)
            eps = 1e-5
            assert x - w / 2 >= -eps and x + w / 2 <= 1 + eps and y - h / 2 >= -eps and y + h / 2 <= 1 + eps
    classes = {p.name for p in (tmp_path / "cls").glob("*/*") if p.is_dir()}
    assert classes and classes <= set(READER_CLASSES)
    crop = cv2.imread(str(next((tmp_path / "cls").rglob("*.jpg"))))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    rows = (tmp_path / "cls" / "crops.csv").read_text().splitlines()
    assert rows[0].startswith("file,class,orientation") and len(rows) == summary["crops"] + 1
    man = json.loads((tmp_path / "manifests" / "000000.json").read_text())
    assert {"hands", "tiles", "image", "split"} <= set(man)
    assert (tmp_path / man["image"]).is_file()


@needs_fonts
def test_only_one_split_writes_exactly_that_splits_files_of_a_full_run(tmp_path):
    _make(tmp_path / "all", count=4)
    summary = _make(tmp_path / "val", count=4, only="val")
    full = {p.name for p in (tmp_path / "all" / "det" / "labels" / "val").glob("*.txt")}
    assert 0 < summary["images"] == len(full) < 4
    assert not (tmp_path / "val" / "det" / "labels" / "train").exists()
    for name in full:
        rel = Path("det") / "labels" / "val" / name
        assert (tmp_path / "val" / rel).read_bytes() == (tmp_path / "all" / rel).read_bytes()


@needs_fonts
def test_dataset_is_reproducible_from_its_seed(tmp_path):
    _make(tmp_path / "a", count=2)
    _make(tmp_path / "b", count=2)
    for f in sorted((tmp_path / "a").rglob("*.txt")) + sorted((tmp_path / "a" / "manifests").glob("*.json")):
        assert f.read_bytes() == (tmp_path / "b" / f.relative_to(tmp_path / "a")).read_bytes()


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_dataset.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_rejects_bad_arguments_cleanly(tmp_path):
    r = _cli("--count", "0")
    assert r.returncode == 2 and "must be >= 1" in r.stderr and "Traceback" not in r.stderr
    r = _cli("--table-fraction", "1.5")
    assert r.returncode == 2 and "fraction" in r.stderr
    r = _cli("--shared", str(tmp_path / "missing"), "--out", str(tmp_path / "o"), "--count", "1")
    assert r.returncode == 2 and "no artwork" in r.stderr and "Traceback" not in r.stderr
    if HAS_FONTS:
        r = _cli(
            "--styles",
            "no-such-style",
            "--out",
            str(tmp_path / "o"),
            "--count",
            "1",
            "--no-progress",
            "--cache",
            str(ROOT / "data" / "cache" / "artwork"),
        )
        assert r.returncode == 2 and "unknown style" in r.stderr and "Traceback" not in r.stderr

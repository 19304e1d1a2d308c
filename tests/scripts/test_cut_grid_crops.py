"""Grid photos cut into labelled crops (scripts/cut_grid_crops.py): every box paired with its code."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np

from mahjong_camera_scorer.vision.read import TileRead
from tests.scripts.scriptutil import load_script

cut = load_script("cut_grid_crops")


class _Seen:
    def __init__(self, tiles: list[TileRead]) -> None:
        self.tiles = tiles


class _Reader:
    """A stand-in for PhotoReader: boxes four tiles in a row and reads the third wrong."""

    def read(self, image: np.ndarray) -> _Seen:
        codes = ["1m", "2m", "7z", "5z"]
        return _Seen(
            [
                TileRead((5 + 45 * i, 10, 40 + 45 * i, 58), c, 0.9, "upright", index=i)
                for i, c in enumerate(codes)
            ]
        )


def _photo(tmp_path: Path) -> Path:
    photo = tmp_path / "photos" / "15-1.jpg"
    photo.parent.mkdir(parents=True)
    cv2.imwrite(str(photo), np.full((80, 200, 3), 200, np.uint8))
    return photo


def test_cut_photo_writes_each_paired_box_under_its_code(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    photo = _photo(tmp_path)
    monkeypatch.setattr(cut, "grid_set", lambda p: "set-a")
    rows, missed = cut.cut_photo(_Reader(), photo, [["1m", "2m", "3m", "x"]], tmp_path / "out")
    assert [(r["code"], r["read"]) for r in rows] == [("1m", "1m"), ("2m", "2m"), ("3m", "7z")]
    assert missed == 0  # the x (a joker) is neither cut nor missed
    assert all((tmp_path / "out" / r["file"]).is_file() for r in rows)
    assert rows[2]["file"] == "set-a/3m/15-1_2.jpg"
    rows, missed = cut.cut_photo(_Reader(), photo, [["1m", "2m", "3m", "5z", "6z"]], tmp_path / "out")
    assert missed == 1 and [r["code"] for r in rows] == ["1m", "2m", "3m", "5z"]


def test_main_says_what_is_missing_without_a_traceback(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(cut, "camerash_grids", lambda: [(tmp_path / "nowhere.jpg", [["1m"]])])
    monkeypatch.setattr(cut, "pr4_grids", lambda: [])
    assert cut.main(["--out", str(tmp_path / "out")]) == 2
    assert "no grid photo" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_main_writes_the_crops_and_their_table(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    photo = _photo(tmp_path)
    monkeypatch.setattr(cut, "camerash_grids", lambda: [(photo, [["1m", "2m", "3m", "x"]])])
    monkeypatch.setattr(cut, "pr4_grids", lambda: [])
    monkeypatch.setattr(cut, "grid_set", lambda p: "set-a")
    monkeypatch.setattr(cut, "load_model", lambda path: None)
    monkeypatch.setattr(cut, "PhotoReader", lambda det, rdr: _Reader())
    out = tmp_path / "out"
    (out / "stale").mkdir(parents=True)  # a crop set of an earlier run is replaced, not mixed in
    assert cut.main(["--out", str(out)]) == 0
    table = list(csv.DictReader((out / "crops.csv").open()))
    assert [r["code"] for r in table] == ["1m", "2m", "3m"] and table[2]["read"] == "7z"
    assert {r["set"] for r in table} == {"set-a"} and table[0]["photo"] == "15-1.jpg"
    assert not (out / "stale").exists()

"""The desk-scene measurement (scripts/eval_desk.py): its options, where a false box lies, the counts."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.vision.read import TileRead
from tests.scripts.scriptutil import load_script

ev = load_script("eval_desk")

#: one scene: a keyboard (outline and two keys) and two loose tiles, one on a key, one on the desk
RECORD = {
    "size": [400, 600],
    "tiles": [
        {"box": [100, 100, 140, 150], "code": "1m", "turn": 0, "on": "full#0", "inside": 1.0},
        {"box": [400, 300, 440, 350], "code": "back", "turn": 45, "on": "desk", "inside": 1.0},
    ],
    "parts": [
        {"box": [100, 105, 130, 135], "kind": "key", "device": "full#0", "visible": 0.2},
        {"box": [200, 105, 230, 135], "kind": "key", "device": "full#0", "visible": 1.0},
        {"box": [260, 105, 290, 135], "kind": "key", "device": "full#0", "visible": 1.0},
    ],
    "devices": {"full#0": [[50, 50], [350, 50], [350, 200], [50, 200]]},
}


def _set(tmp_path: Path, n: int = 2) -> Path:
    det = tmp_path / "det"
    (det / "desk").mkdir(parents=True)
    (det / "images" / "train").mkdir(parents=True)
    for i in range(n):
        cv2.imwrite(str(det / "images" / "train" / f"d1_{i:05d}.jpg"), np.zeros((400, 600, 3), np.uint8))
        (det / "desk" / f"d1_{i:05d}.json").write_text(json.dumps(RECORD))
    return tmp_path


def _models(tmp_path: Path) -> list[str]:
    for name in ("det.onnx", "rdr.onnx"):
        (tmp_path / name).write_bytes(b"")
    return ["--detector", str(tmp_path / "det.onnx"), "--reader", str(tmp_path / "rdr.onnx")]


def test_no_scenes_is_refused_with_how_to_write_them(tmp_path, capsys) -> None:
    assert ev.main([*_models(tmp_path), "--data", str(tmp_path / "empty")]) == 2
    assert "--desk-fraction" in capsys.readouterr().err


def test_a_missing_model_is_refused(tmp_path, capsys) -> None:
    data = _set(tmp_path)
    assert ev.main(["--detector", str(tmp_path / "none.onnx"), "--data", str(data)]) == 2
    assert "no model" in capsys.readouterr().err


def test_a_negative_limit_is_refused(tmp_path, capsys) -> None:
    assert ev.main([*_models(tmp_path), "--data", str(_set(tmp_path)), "--limit", "-1"]) == 2
    assert "--limit" in capsys.readouterr().err


def test_scenes_load_from_the_set_or_its_det_folder(tmp_path) -> None:
    data = _set(tmp_path, 3)
    assert len(ev.load_scenes(data)) == len(ev.load_scenes(data / "det")) == 3
    (data / "det" / "images" / "train" / "d1_00001.jpg").unlink()  # a record without its photo
    assert [p.stem for p, _ in ev.load_scenes(data)] == ["d1_00000", "d1_00002"]


def test_where_a_false_box_lies() -> None:
    assert ev.where((200, 105, 230, 135), RECORD) == "key"
    assert ev.where((195, 100, 235, 140), RECORD) == "key"  # round a key and its gaps
    assert ev.where((110, 95, 150, 150), RECORD) == "near_tile"
    assert ev.where((300, 150, 330, 190), RECORD) == "device"
    assert ev.where((500, 20, 540, 70), RECORD) == "desk"


def _read(box, code, score=0.9, conf=0.9, index=0) -> TileRead:
    return TileRead(tuple(map(float, box)), code, conf, "upright", detector_score=score, index=index)


class FakeReader:
    """Reads every photo the same: the tile on the key found and read 2m (a misread), a key boxed
    as a tile (flagged), a second key dropped as ``none``; the back on the desk missed."""

    def read_and_score(self, source):
        assert isinstance(source, np.ndarray)
        tiles = [
            _read((101, 100, 141, 151), "2m", index=0),
            _read((200, 105, 230, 135), "5z", conf=0.2, index=1),
        ]
        rejected = [_read((260, 105, 290, 135), "none", index=2)]
        return SimpleNamespace(tiles=tiles, rejected=rejected, warned=set())


def test_evaluate_counts_false_boxes_drops_and_recall(tmp_path) -> None:
    out = ev.evaluate(FakeReader(), ev.load_scenes(_set(tmp_path, 2)))
    assert (out["photos"], out["tiles"], out["reported"]) == (2, 4, 4)
    assert out["false_boxes_per_photo"] == out["false_on_keys_per_photo"] == 1.0
    assert out["false_where"] == {"key": 2} and out["false_flagged_share"] == 1.0
    assert out["dropped_as_none_per_photo"] == 1.0 and out["dropped_where"] == {"key": 2}
    assert out["dropped_on_tiles"] == 0
    rec = out["recall"]
    assert rec["all"]["recall"] == 0.5 and rec["all"]["read_recall"] == 0.0
    assert rec["on_keyboard"]["recall"] == 1.0 and rec["beside"]["recall"] == 0.0
    assert rec["back"]["tiles"] == 2 and rec["askew"]["tiles"] == 2 and rec["square"]["found"] == 2
    assert out["per_photo"]["d1_00000"] == {
        "tiles": 2,
        "found": 1,
        "false_boxes": 1,
        "false_on_keys": 1,
        "dropped_as_none": 1,
    }


@pytest.mark.parametrize(
    "turn,lie", [(0, "square"), (95, "square"), (352, "square"), (30, "askew"), (135, "askew")]
)
def test_square_or_askew(turn: int, lie: str) -> None:
    assert ev._lie(turn) == lie

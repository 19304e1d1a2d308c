"""Crops of the table between standing tiles cut from a generated scene set (scripts/make_gap_crops.py)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.scripts.scriptutil import load_script


@pytest.fixture(scope="module")
def gc():  # type: ignore[no-untyped-def]
    return load_script("make_gap_crops")


def _scene(det: Path, stem: str, lines: list[str]) -> None:
    (det / "images" / "train").mkdir(parents=True, exist_ok=True)
    (det / "labels" / "train").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(det / "images" / "train" / f"{stem}.jpg"), np.full((200, 400, 3), 120, np.uint8))
    (det / "labels" / "train" / f"{stem}.txt").write_text("\n".join(lines) + "\n")


def test_gaps_between_face_up_tiles_standing_apart_are_cut_into_none(gc, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    det = tmp_path / "synth" / "det"
    # three face-up tiles 40 px wide standing 60 px apart (1.5 widths: beyond the real pictures'
    # 1.3, within the generated scenes' 1.6), then a back beside the last one
    _scene(det, "a", [f"0 {x / 400} 0.5 0.1 0.3" for x in (100, 160, 220)] + ["1 0.7 0.5 0.1 0.3"])
    _scene(det, "b", ["1 0.25 0.5 0.1 0.3", "1 0.35 0.5 0.1 0.3"])  # two backs: no gap cut
    out = tmp_path / "cls"
    assert gc.main([str(det), "--out", str(out)]) == 0
    crops = sorted(p.name for p in (out / "none").glob("*.jpg"))
    assert crops == ["synth_a_g0.jpg", "synth_a_g1.jpg"]
    assert cv2.imread(str(out / "none" / crops[0])).shape[:2] == (96, 96)
    boxes = gc.face_boxes(det / "labels" / "train" / "a.txt", 400, 200)
    assert boxes[0] == pytest.approx((80, 70, 120, 130)) and len(boxes) == 3


def test_a_set_without_training_images_is_a_clear_error(gc, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert gc.main([str(tmp_path / "nothing"), "--out", str(tmp_path / "cls")]) == 2
    assert "no training images" in capsys.readouterr().err

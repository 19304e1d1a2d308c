"""Gathering and recording the label audit (scripts/audit_real_labels.py)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.realphotos import CHINESE, Label, read_audit
from tests.scripts.scriptutil import load_script

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "data" / "real"


def test_verdicts_take_numbers_ranges_notes_and_condemned_labels() -> None:
    mod = load_script("audit_real_labels")
    text = "# a comment\n1 tile heap\n2-4 clutter  mat # why\nbad_label a.jpg 8 on no tile\n5 part\n"
    verdicts, bad = mod.parse_verdicts(text, 5)
    assert verdicts == {
        1: ("tile", "heap"),
        2: ("clutter", "mat"),
        3: ("clutter", "mat"),
        4: ("clutter", "mat"),
        5: ("part", ""),
    }
    assert bad == [mod.BadLabel("a.jpg", 8, "on no tile")]
    for wrong in ("1 maybe", "6 tile", "1 tile\n1 part", "x tile", "1 bad_label", "bad_label a.jpg x"):
        with pytest.raises(ValueError, match="line"):
            mod.parse_verdicts(wrong, 5)


def test_record_appends_judged_boxes_and_keeps_the_rows_there(tmp_path: Path) -> None:
    mod = load_script("audit_real_labels")
    audit = tmp_path / "audit.csv"
    cands = [
        {"file": "a.jpg", "dataset": CHINESE, "box": [1.0, 2.0, 30.5, 40.0]},
        {"file": "b.jpg", "dataset": CHINESE, "box": [5.0, 6.0, 7.0, 8.0]},
    ]
    assert mod.record(cands, {1: ("tile", "heap")}, [], tmp_path, audit) == 1
    assert mod.record(cands, {2: ("clutter", "")}, [], tmp_path, audit) == 1
    rows = list(csv.DictReader(audit.open(encoding="utf-8")))
    assert [(r["file"], r["x1"], r["verdict"], r["note"]) for r in rows] == [
        ("a.jpg", "30.5", "tile", "heap"),
        ("b.jpg", "7.0", "clutter", ""),
    ]
    assert [b.verdict for b in read_audit(audit)[CHINESE, "a.jpg"]] == ["tile"]


@pytest.mark.slow
def test_sheets_number_every_candidate(tmp_path: Path) -> None:
    mod = load_script("audit_real_labels")
    image = np.full((200, 300, 3), 90, np.uint8)
    views = {"a.jpg": (image, [Label("1m", (10, 10, 40, 50))])}
    cands = [
        mod.Candidate(CHINESE, "test", "a.jpg", (float(x), 100.0, x + 30.0, 140.0), "tile", 0.5)
        for x in range(0, 270, 10)
    ]
    paths = mod.sheets(cands, views, tmp_path)
    per = mod.COLS * mod.ROWS
    assert len(paths) == -(-len(cands) // per)
    sheet = cv2.imread(str(paths[0]))
    assert sheet.shape[1] == mod.COLS * (2 * mod.CELL + 6)
    # a box at the picture's corner is still centred in its view (grey beyond the picture)
    v = mod.view(image, (0.0, 0.0, 20.0, 20.0), 1.5, [])
    assert v.shape == (mod.CELL, mod.CELL, 3) and tuple(v[2, 2]) == (90, 90, 90)


def test_gathering_without_the_real_photos_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mod = load_script("audit_real_labels")
    assert mod.main(["--real", str(tmp_path / "none"), "--out", str(tmp_path)]) == 2
    assert "no real photos" in capsys.readouterr().err
    assert mod.main(["--out", str(tmp_path), "--record", str(tmp_path / "v.txt")]) == 2


@pytest.mark.models
@pytest.mark.slow
@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real not present")
def test_every_val_candidate_of_the_shipped_detector_is_judged(tmp_path: Path) -> None:
    """Re-gathering with the shipped detector finds nothing new (val only: the test split takes 30 s)."""
    mod = load_script("audit_real_labels")
    assert mod.main(["--out", str(tmp_path), "--split", "val"]) == 0
    assert json.loads((tmp_path / "candidates.json").read_text())["candidates"] == []

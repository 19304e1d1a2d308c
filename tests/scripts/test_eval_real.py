"""The real-photo measurement with the label audit (scripts/eval_real.py, models/real-audit.csv)."""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from mahjong_camera_scorer.mjsynth.realphotos import (
    AUDIT_VERDICTS,
    CHINESE,
    UNKNOWN_FACE,
    AuditBox,
    Label,
    RealPhoto,
    apply_audit,
    load_picture,
    read_audit,
)
from tests.scripts.scriptutil import load_script

ROOT = Path(__file__).resolve().parents[2]
AUDIT = ROOT / "models" / "real-audit.csv"
SPLIT = ROOT / "models" / "real-split.csv"
REAL = ROOT.parent / "shared" / "data" / "real"


@dataclass
class Reading:
    """The fields of a vision.read.TileRead that the measurement looks at."""

    box: tuple[float, float, float, float]
    code: str
    detector_score: float = 0.9
    flagged: bool = False
    index: int = 0


def counts(labels: list[Label], pred: list[Reading]) -> Counter:
    mod = load_script("eval_real")
    k: Counter = Counter()
    mod.tally(k, Counter(), pred, set(), labels, copy=False)
    return k


def test_the_committed_audit_parses_and_judges_no_training_picture() -> None:
    audit = read_audit(AUDIT)
    boxes = [b for rows in audit.values() for b in rows]
    assert len(boxes) >= 800 and {b.verdict for b in boxes} <= set(AUDIT_VERDICTS)
    assert {"tile", "clutter", "part", "double", "bad_label"} <= {b.verdict for b in boxes}
    split = {(r["dataset"], r["file"]): r["split"] for r in csv.DictReader(SPLIT.open(encoding="utf-8"))}
    # audited on test and val; Roboflow's training copies of test photos were test when audited;
    # the camera frames' teach split is measured as unseen frames (scripts/eval_unseen.py): two of
    # its labels are condemned there. Never a picture any model trains on.
    assert {split.get(key) for key in audit} <= {"test", "val", "teach", "excluded"}
    frames_teach = [b for key, rows in audit.items() if split.get(key) == "teach" for b in rows]
    assert frames_teach and {b.verdict for b in frames_teach} <= {"bad_label", "tile"}


def test_a_reading_on_an_audited_tile_is_no_false_box_but_one_on_clutter_is() -> None:
    labels = [Label("1m", (0, 0, 40, 60))]
    audited = [
        AuditBox(CHINESE, "a.jpg", (100, 0, 140, 60), "tile"),
        AuditBox(CHINESE, "a.jpg", (200, 0, 240, 60), "clutter"),
        AuditBox(CHINESE, "a.jpg", (300, 0, 340, 60), "back"),
    ]
    pred = [
        Reading((1, 1, 40, 60), "1m"),
        Reading((102, 2, 141, 61), "9p"),  # on the audited tile: its code is not judged
        Reading((200, 0, 240, 58), "2s"),  # on clutter
    ]
    raw = counts(labels, pred)
    assert (raw["false_boxes"], raw["box_tp"], raw["tile_tp"], raw["missed"]) == (2, 1, 1, 0)
    k = counts(apply_audit(labels, audited), pred)
    # the audited tile is a box label: found; the back is a box label too: missed; clutter stays false
    assert (k["false_boxes"], k["box_tp"], k["labels"], k["missed"]) == (1, 2, 3, 1)
    # no tile-code credit nor blame for the audited tile: 1 right of 2 coded readings, 1 coded label
    assert (k["tile_tp"], k["misread"], k["coded_labels"], k["reported_unknown_face"]) == (1, 0, 1, 1)


def test_a_bad_label_is_dropped_and_other_verdicts_change_nothing() -> None:
    labels = [Label("8s", (10, 10, 50, 70)), Label("2p", (60, 10, 100, 70))]
    audited = [
        AuditBox(CHINESE, "a.jpg", (10.0, 10.0, 50.0, 70.0), "bad_label"),
        *(AuditBox(CHINESE, "a.jpg", (200, 0, 240, 60), v) for v in ("part", "side", "clutter", "double")),
    ]
    assert apply_audit(labels, audited) == [labels[1]]
    assert apply_audit(labels, audited[1:]) == labels
    assert apply_audit(labels, [AuditBox(CHINESE, "a.jpg", (0, 0, 9, 9), "tile")])[-1].code == UNKNOWN_FACE


def test_the_audit_file_must_be_well_formed(tmp_path: Path) -> None:
    head = "file,dataset,x0,y0,x1,y1,verdict,note\n"
    bad = [
        f"a.jpg,{CHINESE},1,2,3,4,maybe,\n",  # no such verdict
        f"a.jpg,{CHINESE},1,2,x,4,tile,\n",  # not a number
        f"a.jpg,{CHINESE},5,2,3,4,tile,\n",  # x0 > x1
        "a.jpg,nowhere,1,2,3,4,tile,\n",  # no such data set
    ]
    for row in bad:
        p = tmp_path / "audit.csv"
        p.write_text(head + row)
        with pytest.raises(ValueError, match=r"audit\.csv:2"):  # the message names the line
            read_audit(p)
    p.write_text("file,verdict\n")
    with pytest.raises(ValueError, match="header"):
        read_audit(p)
    assert read_audit(tmp_path / "missing.csv") == {}


def test_a_missing_audit_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mod = load_script("eval_real")
    assert mod.main(["--real", str(tmp_path), "--audit", str(tmp_path / "none.csv")]) == 2
    assert "no label audit" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real not present")
def test_every_audited_box_lies_inside_its_picture() -> None:
    folder = {(r["dataset"], r["file"]): r["published"] for r in csv.DictReader(SPLIT.open(encoding="utf-8"))}
    for (dataset, name), boxes in read_audit(AUDIT).items():
        image = load_picture(
            RealPhoto(
                dataset, folder[dataset, name], REAL / dataset / folder[dataset, name] / "images" / name
            )
        )
        h, w = image.shape[:2]  # read_audit gives the boxes on the picture as taken (width restored)
        for b in boxes:
            x0, y0, x1, y1 = b.box
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h, (name, b)

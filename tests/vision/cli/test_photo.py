"""The photo commands end to end: the bundled example reads exactly; a batch survives bad files."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring.cli import run
from mahjong_camera_scorer.vision.cli import build_parser
from mahjong_camera_scorer.vision.models import DETECTOR_FILE, MODELS_DIR, READER_FILE

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "hand.jpg"
EXAMPLE_TRUTH = ROOT / "examples" / "hand.json"

needs_models = pytest.mark.skipif(
    not (MODELS_DIR / DETECTOR_FILE).is_file() or not (MODELS_DIR / READER_FILE).is_file(),
    reason="models not built (make models)",
)
needs_example = pytest.mark.skipif(
    not EXAMPLE.is_file() or not EXAMPLE_TRUTH.is_file(), reason="no bundled example photo"
)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The ``mahjong-score`` command as vision.cli builds it, stdout into a buffer."""
    parser, _ = build_parser()
    buf = io.StringIO()
    code = run(parser, argv, out=buf)
    return code, buf.getvalue(), capsys.readouterr().err


def _truth() -> dict:
    data = json.loads(EXAMPLE_TRUTH.read_text())
    return data.get("hand", data) if isinstance(data.get("hand"), dict) else data


def _tiles(mpsz: str) -> list[str]:
    out, digits = [], ""
    for ch in mpsz:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return sorted(out)


def test_photo_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(
        ["photo", str(tmp_path / "none.jpg"), "--rules", "riichi", "--models", str(tmp_path)], capsys
    )
    assert code == 2 and err.count("\n") == 1 and "error:" in err
    code, _, err = _run(["photo", "x.jpg", "--rules", "riichi", "--dora", "9x"], capsys)
    assert code == 2 and "error:" in err and "Traceback" not in err
    code, _, err = _run(
        ["photos", str(tmp_path), "--rules", "riichi", "--out", str(tmp_path / "r.csv")], capsys
    )
    assert code == 2 and "no images" in err


@pytest.mark.models
@pytest.mark.slow
@needs_models
@needs_example
def test_bundled_example_reads_exactly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    truth = _truth()
    ann = tmp_path / "ann.jpg"
    _, out, _ = _run(
        [
            "photo",
            str(EXAMPLE),
            "--rules",
            "riichi",
            "--json",
            "--annotate",
            str(ann),
            "--win-by",
            truth.get("win_by", "discard"),
        ],
        capsys,
    )
    rec = json.loads(out)
    hand = rec["hand"]
    assert _tiles(hand["hand"]) == _tiles(truth["hand"])
    assert sorted((m["type"], m["open"], tuple(_tiles(m["tiles"]))) for m in hand["melds"]) == sorted(
        (m["type"], m["open"], tuple(_tiles(m["tiles"]))) for m in truth.get("melds", [])
    )
    assert hand["winning_tile"] == truth["winning_tile"]
    assert sorted(hand["bonus_tiles"]) == sorted(truth.get("bonus_tiles", []))
    assert all({"code", "box", "confidence", "orientation"} <= set(t) for t in rec["tiles"])
    assert "score" in rec and ann.is_file()
    assert rec["warnings"] == [] and rec["boxes_left_out"] == [] and rec["boxes_taken_in"] == []
    _, out, _ = _run(["photo", str(EXAMPLE), "--rules", "riichi"], capsys)
    assert "Read:" in out and "Hand:" in out


@pytest.mark.models
@needs_models
@needs_example
def test_batch_goes_on_past_a_corrupt_photo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "table"
    folder.mkdir()
    shutil.copy(EXAMPLE, folder / "a.jpg")
    (folder / "b.jpg").write_bytes(EXAMPLE.read_bytes()[:300])  # a truncated JPEG
    (folder / "c.png").write_text("not an image")
    (folder / "notes.txt").write_text("ignored: not an image suffix")
    out_csv = tmp_path / "results.csv"
    code, out, _ = _run(["photos", str(folder), "--rules", "riichi", "--out", str(out_csv)], capsys)
    assert code == 0 and "3 photos" in out
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text())))
    assert [r["file"] for r in rows] == ["a.jpg", "b.jpg", "c.png"]
    assert rows[0]["tiles"] and not rows[0]["error"].startswith("not an image") and rows[0]["mended"] == "0"
    assert "not an image" in rows[1]["error"] and "not an image" in rows[2]["error"]
    lines = [json.loads(x) for x in out_csv.with_suffix(".jsonl").read_text().splitlines()]
    assert len(lines) == 3 and "error" in lines[1]
    assert (tmp_path / "results-annotated" / "a.jpg").is_file()

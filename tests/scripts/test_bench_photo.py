"""The photo benchmark runs end to end and reports its same-run peer ratio."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.scripts.scriptutil import load_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.models
@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / "models" / "detector.onnx").is_file(), reason="no shipped models")
def test_bench_reports_stages_and_the_ratio_to_a_640px_detector_pass(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "bench.json"
    assert load_script("bench_photo").main(["--runs", "1", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    med = result["median_ms"]
    assert set(med) == {"decode", "detect", "read", "gaps", "layout", "score", "total"}
    assert med["total"] >= med["detect"] > 0 and result["tiles"] == 15
    # the same hand cropped tight (no slices), seen from afar (its 15 tiles found: by the first
    # look since 2026-11-27's detector, in 4 slices before) and turned a quarter (looked at again
    # turned upright)
    cases = result["cases"]
    assert set(cases) == {"12mp", "crop", "far", "turned"} and cases["12mp"]["median_ms"] == med
    assert cases["crop"]["slices"] == 0 and cases["far"]["slices"] in (0, 4) and cases["far"]["tiles"] == 15
    assert cases["turned"]["turned"] and not any(cases[k]["turned"] for k in ("12mp", "crop", "far"))
    assert cases["turned"]["tiles"] == 15
    assert all(c["ratio_total_to_reference"] > 0 for c in cases.values())
    assert result["reference_ms"] > 0
    ratio = med["total"] / result["reference_ms"]  # one run: the median ratio is that run's ratio
    assert result["ratio_total_to_reference"] == pytest.approx(ratio, rel=0.02)
    assert result["target_ratio"] == 4.35
    assert "x the 640 px detector pass" in capsys.readouterr().out
    assert result["reference"].startswith("the YOLO11n detector ONNX at 640x640")


def test_bench_says_why_when_the_photo_cannot_be_read(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    argv = ["--image", str(bad), "--runs", "1", "--out", str(tmp_path / "b.json")]
    assert load_script("bench_photo").main(argv) == 2
    assert "cannot read" in capsys.readouterr().err
    assert not (tmp_path / "b.json").exists()

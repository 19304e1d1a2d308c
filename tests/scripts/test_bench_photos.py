"""The workers benchmark runs both sides in the same run and prints their ratio."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.scripts.scriptutil import load_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.models
@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / "models" / "detector.onnx").is_file(), reason="no shipped models")
def test_bench_times_one_worker_against_two_and_a_session(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "bench.json"
    argv = ["--rounds", "1", "--count", "2", "--side", "800", "--rules", "riichi", "--out", str(out)]
    assert load_script("bench_photos").main(argv) == 0
    result = json.loads(out.read_text())
    one, two = result["median_s"]["1"], result["median_s"]["2"]
    assert one > 0 and two > 0 and result["speedup"] == pytest.approx(one / two, rel=0.01)
    assert result["session_median_s"] > 0
    printed = capsys.readouterr().out
    assert "speed-up" in printed and "session of 2 photos" in printed


def test_the_bench_folder_and_manifest(tmp_path: Path) -> None:
    bench = load_script("bench_photos")
    names = bench.make_folder(tmp_path / "t", 5, 300, None)
    assert names == [f"h0{i}.jpg" for i in range(1, 6)] and (tmp_path / "t" / "h05.jpg").stat().st_size > 0
    bench.write_manifest(tmp_path / "m.csv", names)
    lines = (tmp_path / "m.csv").read_text().splitlines()
    assert lines[0] == "photo,table,hand,seat,win_by" and lines[5] == "h05.jpg,1,5,E,self_draw"

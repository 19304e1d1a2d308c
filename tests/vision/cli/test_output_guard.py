"""Issue 37 item 3: the one output guard (scoring.output_paths) knows the taught sets and locks an
output against a concurrent run. Each hostile case is built here: the command exits 2 with one
line saying what to do, and the user's files (a set, an earlier batch, an earlier camera run, the
target of a dangling link) are byte for byte what they were."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.scoring.cli import run
from mahjong_camera_scorer.scoring.output_paths import (
    OutputError,
    guarded_outputs,
    lock_outputs,
    taught_set_paths,
)
from mahjong_camera_scorer.vision.cli import build_parser
from mahjong_camera_scorer.vision.cli import camera as camera_cli
from mahjong_camera_scorer.vision.teach.profile import Example, SetError, TileSet
from mahjong_camera_scorer.vision.teach.store import SetStore
from tests.vision.support import EXAMPLE, ROOT, TruthReader

SESSION = ROOT / "examples" / "session-mcr.yaml"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser, _ = build_parser()
    buf = io.StringIO()
    code = run(parser, argv, out=buf)
    return code, buf.getvalue(), capsys.readouterr().err


def _refused(code: int, err: str, *words: str) -> None:
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert all(w in err for w in words), (words, err)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    rng = np.random.default_rng(0)
    crops = [rng.integers(0, 255, (96, 96, 3), dtype=np.uint8) for _ in range(2)]
    root = tmp_path / "sets"
    SetStore(root).save(TileSet("club", [Example("1m", crops[0]), Example("2m", crops[1])]))
    monkeypatch.setenv("MAHJONG_SETS", str(root))  # the commands without --profile protect it too
    return root


def test_no_command_writes_a_sets_file_even_with_force(
    profile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(profile)
    set_json, lock = profile / "club" / "set.json", profile / ".club.lock"
    crop = next((profile / "club" / "crops").iterdir())
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "hand.jpg").write_bytes(EXAMPLE.read_bytes())
    cases = [
        ["photos", str(photos), "--rules", "mcr", "--set", "club", "--out", str(set_json), "--force"],
        ["photo", str(EXAMPLE), "--rules", "mcr", "--annotate", str(crop.with_suffix(".png")), "--force"],
        ["teach", "--profile", str(profile), "--set", "club", "--export", str(lock), "--force"],
        ["teach", "--profile", str(profile), "--set", "club", "--export", str(set_json), "--force"],
        ["session", str(SESSION), "--rules", "mcr", "--csv", str(set_json), "--force"],
    ]
    for argv in cases:
        code, _, err = _run(argv, capsys)
        _refused(code, err, "which is not to be written")
    assert _snapshot(profile) == before and lock.exists()


def test_taught_set_paths_lists_each_set_its_lock_and_a_cut_replace(tmp_path: Path) -> None:
    root = tmp_path / "sets"
    for name in ("club/crops", ".club.new", "making/crops", "results"):
        (root / name).mkdir(parents=True)
    (root / "club" / "set.json").write_text("{}")
    (root / ".club.lock").write_bytes(b"")
    (root / "notes.txt").write_text("mine")  # not a set's: an output may go there
    names = sorted(p.name for p in taught_set_paths(root))
    assert names == [".club.lock", ".club.new", "club", "making"]  # "results" is the user's
    assert taught_set_paths(tmp_path / "none") == [] and taught_set_paths(None) == []


def test_a_sets_lock_that_is_a_link_is_not_followed(profile: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    lock = profile / ".club.lock"
    lock.unlink()
    lock.symlink_to(victim)
    with pytest.raises(SetError, match="link"):
        SetStore(profile).load("club")
    assert victim.read_text() == "keep me"
    (profile / ".other.lock").symlink_to(tmp_path / "created-by-the-lock")  # dangling: not created
    with pytest.raises(SetError, match="link"):
        SetStore(profile).save(TileSet("other"))
    assert not (tmp_path / "created-by-the-lock").exists()


def test_an_output_another_run_is_writing_is_refused(
    profile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "same.csv"
    with lock_outputs([out]):  # the first run, between its check and its last row
        code, _, err = _run(["session", str(SESSION), "--rules", "mcr", "--csv", str(out)], capsys)
        _refused(code, err, "being written by another run", "wait for it to finish")
        assert not out.exists()
    assert not any(p.name.endswith("-lock") for p in tmp_path.iterdir())  # the lock files go with the run
    code, _, _ = _run(["session", str(SESSION), "--rules", "mcr", "--csv", str(out)], capsys)
    assert code == 0 and out.exists()


def test_the_guard_checks_again_under_the_lock(tmp_path: Path) -> None:
    """Two runs that both passed the check: the one that takes the lock second finds the file the
    first one wrote, and is refused without --force."""
    out = tmp_path / "o.csv"
    with guarded_outputs([("--out", out)]):
        out.write_text("first run")
    with pytest.raises(OutputError, match="exists already"), guarded_outputs([("--out", out)]):
        pass
    assert out.read_text() == "first run"


@pytest.mark.slow
@pytest.mark.models  # in the two processes
def test_two_batches_started_together_never_mix(tmp_path: Path) -> None:
    """As the issue saw it: two ``photos … --out same.csv`` started together. One writes, the other
    is refused (busy, or the file exists): the CSV is one batch's, whole."""
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "hand.jpg").write_bytes(EXAMPLE.read_bytes())
    out = tmp_path / "same.csv"
    argv = ["photos", str(photos), "--out", str(out), "--no-annotate", "--quiet", "--workers", "1"]
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "mahjong_camera_scorer.vision.cli", *argv, "--rules", rules],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for rules in ("mcr", "riichi")
    ]
    results = [(p.wait(timeout=300), p.stderr.read() if p.stderr else "") for p in runs]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 2], results
    refused = next(err for code, err in results if code == 2)
    assert "being written by another run" in refused or "exists already" in refused
    rows = out.read_text().splitlines()
    assert len(rows) == 2 and rows[0].startswith("file,")
    records = [json.loads(x) for x in out.with_suffix(".jsonl").read_text().splitlines()]
    assert len(records) == 1


def _batch(tmp_path: Path, rules: str, rows: int = 1) -> tuple[Path, Path, Path]:
    """A folder of one photo and the CSV and JSON lines an earlier batch under ``rules`` left."""
    from mahjong_camera_scorer.vision.cli.photos import CSV_HEADER

    photos = tmp_path / "photos"
    photos.mkdir(exist_ok=True)
    (photos / "hand.jpg").write_bytes(EXAMPLE.read_bytes())
    csv_path, jsonl = tmp_path / "b.csv", tmp_path / "b.jsonl"
    cells = ",".join([""] * (len(CSV_HEADER) - 1))
    csv_path.write_text(",".join(CSV_HEADER) + "\n" + "".join(f"x{i}.jpg,{cells}\n" for i in range(rows)))
    record = {"file": "", "score": {"rules": rules, "valid": True}}
    jsonl.write_text("".join(json.dumps({**record, "file": f"x{i}.jpg"}) + "\n" for i in range(rows)))
    return photos, csv_path, jsonl


def test_resume_under_other_rules_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photos, csv_path, jsonl = _batch(tmp_path, "mcr")
    before = (csv_path.read_bytes(), jsonl.read_bytes())
    argv = ["photos", str(photos), "--out", str(csv_path), "--resume", "--no-annotate"]
    code, _, err = _run([*argv, "--rules", "riichi"], capsys)
    _refused(code, err, "scored under mcr, not riichi", "--rules mcr")
    assert (csv_path.read_bytes(), jsonl.read_bytes()) == before


def test_resume_replaces_no_json_lines_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos, csv_path, jsonl = _batch(tmp_path, "mcr", rows=3)
    csv_path.unlink()  # JSON lines alone: not a batch to go on with
    before = jsonl.read_bytes()
    argv = ["photos", str(photos), "--out", str(csv_path), "--resume", "--no-annotate", "--rules", "mcr"]
    code, _, err = _run(argv, capsys)
    _refused(code, err, "holds JSON lines", "--force")
    assert jsonl.read_bytes() == before and not csv_path.exists()
    photos, csv_path, jsonl = _batch(tmp_path, "mcr", rows=3)
    csv_path.write_text(csv_path.read_text().splitlines()[0] + "\n")  # the CSV lost its rows, not 1
    code, _, err = _run(argv, capsys)
    _refused(code, err, "differ by 3 rows", "--force")
    assert jsonl.read_bytes() == before


def test_a_dangling_link_is_never_written_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside.txt"
    dest = tmp_path / "ex"
    dest.mkdir()
    (dest / "hand.jpg").symlink_to(outside)
    code, _, err = _run(["examples", str(dest)], capsys)
    _refused(code, err, "is a dangling link", "not written")
    assert not outside.exists() and sorted(p.name for p in dest.iterdir()) == ["hand.jpg"]
    link = tmp_path / "sheet.csv"
    link.symlink_to(tmp_path / "elsewhere.csv")
    code, _, err = _run(["session", str(SESSION), "--rules", "mcr", "--csv", str(link), "--force"], capsys)
    _refused(code, err, "is a dangling link")
    assert not (tmp_path / "elsewhere.csv").exists()


def _video(path: Path, frames: int = 3) -> Path:
    image = cv2.imread(str(EXAMPLE))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, image.shape[1::-1])
    for _ in range(frames):
        writer.write(image)
    writer.release()
    return path


def test_camera_replaces_an_earlier_run_only_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(camera_cli, "make_reader", lambda args: TruthReader())
    video, out_dir = _video(tmp_path / "v.avi"), tmp_path / "run"
    out_dir.mkdir()
    earlier = {"summary.json": b"{}", "readings.jsonl": b"earlier\n", "frame_000099.jpg": b"old"}
    for name, data in earlier.items():
        (out_dir / name).write_bytes(data)
    (out_dir / "notes.txt").write_text("mine")
    argv = ["camera", "--source", str(video), "--rules", "mcr", "--headless", "--out", str(out_dir)]
    code, _, err = _run(argv, capsys)
    _refused(code, err, "earlier run", "--force")
    assert all((out_dir / n).read_bytes() == d for n, d in earlier.items())
    code, _, err = _run([*argv, "--force"], capsys)
    assert code == 0, err
    names = sorted(p.name for p in out_dir.iterdir())
    assert "frame_000099.jpg" not in names and "notes.txt" in names  # nothing of two runs mixed
    assert json.loads((out_dir / "summary.json").read_text())["frames"] == 3


def test_features_cache_takes_the_umask_mode(tmp_path: Path) -> None:
    from mahjong_camera_scorer.vision.teach import adapt

    old = os.umask(0o002)
    try:
        looks = adapt.CropLooks(np.zeros((2, 4), np.float32), ("1m",), (0.9,))
        adapt._write_cache(tmp_path / "features.npz", "fp", ["a1b2"], looks)
    finally:
        os.umask(old)
    assert (tmp_path / "features.npz").stat().st_mode & 0o777 == 0o664  # was 0600 from mkstemp

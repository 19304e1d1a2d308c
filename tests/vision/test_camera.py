"""The camera command on a short generated video: camera motion, then a steady view of the hand.

The video is made at test time from the bundled synthetic scene (``examples/hand.jpg``, mjsynth's
seed-0 hand scene, ground truth in ``examples/hand.json``): frames shaken, turned, zoomed and
motion-blurred as by a hand-held camera settling down, then still frames with sensor noise.
``--headless`` must read the hand once, on the steady frames, and read it right.
"""

from __future__ import annotations

import io
import json
import math
import os
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.scoring.cli import run
from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.tiles import tile
from mahjong_camera_scorer.vision.camera import LiveScorer, Steadiness, breakdown, overlay
from mahjong_camera_scorer.vision.cli import build_parser
from mahjong_camera_scorer.vision.cli import camera as camera_cli
from mahjong_camera_scorer.vision.render.camera import candidates_line, guessed, hand_line
from tests.vision.support import EXAMPLE, EXAMPLE_TRUTH, ROOT, TruthReader, models_present

MOVING, STEADY, FPS = 18, 22, 15
TRUTH = json.loads(EXAMPLE_TRUTH.read_text())["hand"]


def make_video(
    path: Path, base: np.ndarray, moving: int = MOVING, steady: int = STEADY, seed: int = 0
) -> Path:
    """A hand-held camera settling over the hand: ``moving`` shaken frames, then ``steady`` still ones."""
    rng = np.random.default_rng(seed)
    h, w = base.shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (w, h))
    assert writer.isOpened()
    noise = [rng.normal(0, 2.0, base.shape).round().astype(np.int16) for _ in range(3)]  # sensor noise
    prev = (0.0, 0.0)
    for i in range(moving + steady):
        if i < moving:  # circling and settling: at least a few pixels of movement every frame
            t = i / moving
            r, a = 40 * (1 - 0.5 * t), 2 * math.pi * 1.5 * t
            dx, dy = r * math.cos(a), r * math.sin(a)
            m = cv2.getRotationMatrix2D((w / 2, h / 2), 3 * math.sin(a), 1 + 0.04 * math.sin(2 * a))
            m[:, 2] += (dx, dy)
            frame = cv2.warpAffine(base, m, (w, h), borderMode=cv2.BORDER_REFLECT)
            speed = math.hypot(dx - prev[0], dy - prev[1])
            prev = (dx, dy)
            k = max(1, int(speed))
            if k > 1:  # motion blur (horizontal: cheap, and enough to smear the tiles)
                frame = cv2.blur(frame, (k, 1))
        else:
            frame = base
        noisy = np.clip(frame.astype(np.int16) + noise[i % len(noise)], 0, 255).astype(np.uint8)
        writer.write(noisy)
    writer.release()
    return path


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_video(tmp_path_factory.mktemp("camera") / "hand.avi", cv2.imread(str(EXAMPLE)))


def _run(args: list[str], capsys) -> tuple[int, str, str]:
    """``mahjong-score ARGS`` as vision.cli assembles it; stdout into a buffer (``scoring.cli.run``
    binds sys.stdout at import), stderr from capsys."""
    parser, _ = build_parser()
    buf = io.StringIO()
    rc = run(parser, args, out=buf)
    return rc, buf.getvalue(), capsys.readouterr().err


def _readings(out_dir: Path) -> list[dict]:
    return [json.loads(ln) for ln in (out_dir / "readings.jsonl").read_text().splitlines() if ln.strip()]


@pytest.mark.slow
def test_headless_reads_the_hand_once_on_the_steady_frames(
    video: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    reader = TruthReader()
    monkeypatch.setattr(camera_cli, "make_reader", lambda args: reader)
    out_dir = tmp_path / "frames"
    rc, out, err = _run(
        [
            "camera",
            "--source",
            str(video),
            "--headless",
            "--out",
            str(out_dir),
            "--rules",
            "riichi",
            "--win-by",
            "self_draw",
            "--seat",
            "W",
        ],
        capsys,
    )
    assert rc == 0, err
    readings = _readings(out_dir)
    assert len(readings) == 1, [r["frame"] for r in readings]
    r = readings[0]
    assert MOVING <= r["frame"] < MOVING + 8  # read only once the view is still
    assert r["hand"]["hand"] == TRUTH["hand"]
    assert r["hand"]["melds"] == TRUTH["melds"]
    assert r["hand"]["winning_tile"] == TRUTH["winning_tile"]
    assert r["score"]["valid"] and r["score"]["han"] == 3
    # the live look ran on every frame, and the photo road once more on the steady view it read
    assert reader.calls["detect"] == MOVING + STEADY + 1
    assert reader.calls["read"] == 1
    frames = sorted(out_dir.glob("frame_*.jpg"))
    assert len(frames) == MOVING + STEADY
    assert (out_dir / f"read_{r['frame']:06d}.jpg").is_file()
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["frames"] == MOVING + STEADY and summary["readings"] == 1 and summary["fps"] > 0
    assert "frames/s" in out and f"frame {r['frame']}:" in out
    if os.environ.get("MAHJONG_SCREENSHOT") and not models_present():
        shutil.copyfile(out_dir / f"read_{r['frame']:06d}.jpg", ROOT / "docs" / "camera.jpg")


def test_without_a_display_it_says_so_and_exits(video: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(camera_cli, "make_reader", lambda args: TruthReader())
    rc, _, err = _run(["camera", "--source", str(video), "--rules", "mcr"], capsys)
    assert rc == 2
    assert "no display" in err and "--headless --out" in err and "Traceback" not in err


def test_source_and_argument_errors(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(camera_cli, "make_reader", lambda args: TruthReader())
    base = ["camera", "--rules", "riichi", "--headless", "--out", str(tmp_path / "o")]
    rc, _, err = _run([*base, "--source", str(tmp_path / "missing.mp4")], capsys)
    assert rc == 2 and "no such video file" in err
    rc, _, err = _run([*base, "--source", "37"], capsys)
    assert rc == 2 and "cannot open camera 37" in err
    not_video = tmp_path / "notes.mp4"
    not_video.write_text("not a video")
    rc, _, err = _run([*base, "--source", str(not_video)], capsys)
    assert rc in (0, 2) and "Traceback" not in err
    rc, _, err = _run(["camera", "--rules", "riichi", "--headless"], capsys)
    assert rc == 2 and "--out" in err
    rc, _, err = _run([*base, "--source", "0", "--dora", "9x"], capsys)
    assert rc == 2 and "error:" in err


def test_models_missing_is_a_clear_error(tmp_path: Path, video: Path, capsys) -> None:
    rc, _, err = _run(
        [
            "camera",
            "--rules",
            "riichi",
            "--source",
            str(video),
            "--headless",
            "--out",
            str(tmp_path),
            "--models",
            str(tmp_path),
        ],
        capsys,
    )
    assert rc == 2 and "model not found" in err


@pytest.mark.slow
def test_steadiness() -> None:
    rng = np.random.default_rng(1)
    base = cv2.imread(str(EXAMPLE))
    s = Steadiness(frames=3)
    noisy = lambda: np.clip(base + rng.normal(0, 2, base.shape), 0, 255).astype(np.uint8)  # noqa: E731
    assert [s.update(noisy(), 15) for _ in range(5)] == [False, False, False, True, True]
    assert not s.update(np.roll(base, 12, axis=1), 15)  # the camera moved
    s2 = Steadiness(frames=2)
    assert [s2.update(base, n) for n in (15, 15, 15, 14, 14, 14)] == [False, False, True, False, False, True]
    assert not Steadiness(frames=1).update(base, 0) and not any(
        Steadiness(frames=1).update(base, 0) for _ in range(3)
    )


def test_overlay_and_breakdown_draw_on_a_copy() -> None:
    base = cv2.imread(str(EXAMPLE))
    ctx = HandContext(win_by="self_draw", seat_wind="W", winning_tile=tile("4s"))
    scorer = LiveScorer(TruthReader(), "riichi", {}, ctx, Steadiness(frames=1))
    states = [scorer.process(base) for _ in range(3)]
    assert states[1].new_reading and states[1].reading is not None and not states[2].new_reading
    img = overlay(base, states[2], 12.5, "riichi")
    assert img.shape == base.shape and not np.array_equal(img, base)
    out = breakdown(base, states[2].reading)
    assert out.shape[1] == base.shape[1] and out.shape[0] > base.shape[0]  # the breakdown below the frame
    assert "345m" in hand_line(states[2].reading.result)


def test_a_hand_in_one_row_shows_its_candidates_live_frozen_and_in_the_readings() -> None:
    from tests.vision.support import one_row_manifest

    base = cv2.imread(str(EXAMPLE))
    ctx = HandContext(win_by="self_draw", seat_wind="W")
    scorer = LiveScorer(TruthReader(one_row_manifest()), "riichi", {}, ctx, Steadiness(frames=1))
    reading = [scorer.process(base) for _ in range(2)][1].reading
    assert reading is not None and guessed(reading.result) and reading.score.valid
    best = reading.result.candidates[0].tile.code
    assert f"win {best}? (best of 6)" in hand_line(reading.result)
    line = candidates_line(reading.result)
    assert line.startswith(f"won by? {best}* ") and line.count(",") == 5
    record = reading.to_json()
    assert record["winning_tile_from"] == "candidate" and len(record["candidates"]) == 6
    plain = breakdown(base, reading)
    scorer_known = LiveScorer(
        TruthReader(one_row_manifest()),
        "riichi",
        {},
        HandContext(win_by="self_draw", seat_wind="W", winning_tile=tile("4s")),
        Steadiness(frames=1),
    )
    known = [scorer_known.process(base) for _ in range(2)][1].reading
    assert not guessed(known.result) and known.score.valid
    assert plain.shape[0] > breakdown(base, known).shape[0]  # the candidates' lines in the panel


@pytest.mark.models
@pytest.mark.slow
@pytest.mark.skipif(not models_present(), reason="models/detector.onnx and models/reader.onnx not built yet")
def test_headless_with_the_real_models(video: Path, tmp_path: Path, capsys) -> None:
    rc, out, err = _run(
        [
            "camera",
            "--source",
            str(video),
            "--headless",
            "--out",
            str(tmp_path),
            "--every",
            "0",
            "--rules",
            "riichi",
            "--win-by",
            "self_draw",
            "--seat",
            "W",
        ],
        capsys,
    )
    assert rc == 0, err
    readings = _readings(tmp_path)
    assert readings, out
    steady = [r for r in readings if r["frame"] >= MOVING]
    assert steady, [r["frame"] for r in readings]
    hand = steady[-1]["hand"]
    assert hand["hand"] == TRUTH["hand"] and hand["melds"] == TRUTH["melds"], hand
    assert hand["winning_tile"] == TRUTH["winning_tile"], steady[-1]["problems"]
    if os.environ.get("MAHJONG_SCREENSHOT"):
        shutil.copyfile(tmp_path / f"read_{steady[-1]['frame']:06d}.jpg", ROOT / "docs" / "camera.jpg")
    print(out.strip().splitlines()[-1])


def test_model_reader_detects_on_the_shrunk_frame_and_scales_boxes_back(monkeypatch) -> None:
    from mahjong_camera_scorer.vision import camera
    from mahjong_camera_scorer.vision.detect import Detection

    seen = {}

    def fake_detect(model, image, conf=0.35, iou=0.5, size=None):
        seen["shape"], seen["conf"], seen["size"] = image.shape, conf, size
        return [Detection((10.0, 20.0, 30.0, 60.0), "tile", 0.9)]

    class Model:
        imgsz, dynamic = (480, 480), False

    class Reader:
        det, conf = Model(), 0.5

        def detector_model(self) -> Model:  # the declared way the camera asks for the detector
            return self.det

    monkeypatch.setattr(camera, "detect", fake_detect)
    dets = camera.ModelFrameReader(Reader()).detect(np.zeros((768, 1024, 3), np.uint8))
    assert seen["shape"] == (360, 480, 3) and seen["conf"] == 0.5
    assert dets[0].box == pytest.approx((10 * 1024 / 480, 20 * 1024 / 480, 30 * 1024 / 480, 60 * 1024 / 480))
    # a model with dynamic axes runs at the live size instead of its own
    Reader.det.dynamic = True
    dets = camera.ModelFrameReader(Reader()).detect(np.zeros((768, 1024, 3), np.uint8))
    live = camera.LIVE_DETECT_SIZE
    assert seen["shape"] == (round(768 * live / 1024), live, 3) and seen["size"] == (live, live)
    assert dets[0].box == pytest.approx(
        (10 * 1024 / live, 20 * 1024 / live, 30 * 1024 / live, 60 * 1024 / live)
    )


@pytest.mark.models
@pytest.mark.slow
@pytest.mark.skipif(not models_present(), reason="models/detector.onnx and models/reader.onnx not built yet")
def test_camera_reads_with_a_taught_set(video: Path, tmp_path: Path, capsys) -> None:
    """``--set``: the camera reads with the taught set (one that calls this set's 3-characters
    7-characters, so its effect shows); an unknown set is a one-line error before any frame."""
    profile = tmp_path / "sets"
    rc, _, err = _run(
        ["teach", "--profile", str(profile), "--set", "odd", str(EXAMPLE), "745m 55888p 44s | 4s | ?11p?"],
        capsys,
    )
    assert rc == 0, err
    base = ["camera", "--source", str(video), "--headless", "--out", str(tmp_path / "out"), "--every", "0"]
    base += ["--rules", "riichi", "--win-by", "self_draw", "--seat", "W", "--profile", str(profile)]
    rc, _, err = _run([*base, "--set", "nosuch"], capsys)
    assert rc == 2 and "no taught set 'nosuch'" in err and err.count("\n") == 1
    rc, _, err = _run([*base, "--set", "odd"], capsys)
    assert rc == 0, err
    steady = [r for r in _readings(tmp_path / "out") if r["frame"] >= MOVING]
    assert steady and steady[-1]["hand"]["hand"].startswith("457m"), steady[-1]["hand"]

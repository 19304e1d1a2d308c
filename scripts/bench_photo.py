#!/usr/bin/env python3
"""Median time to score one 12-megapixel photo, split into decode / detect / read / layout / score.

The photo is the bundled example (or ``--image``) scaled to 4000x3000 and saved as a JPEG of
camera-like quality, so the decode stage sees a real 12 MP file. onnxruntime runs on 2 threads,
as on the target 2-core machine. Runtime only (onnxruntime + OpenCV + NumPy).

Shared machines drift (the same command has given 109 and 175 ms an hour apart), so the same run
also times a peer: one plain onnxruntime pass of the YOLO11n detector at 640x640, the reference
the issue quotes ("its ONNX runs in ~23 ms at 640") next to its 100 ms target. The printed ratio
``total / reference`` is comparable between machines; the target is 100 / 23 = 4.3.

    python scripts/bench_photo.py --runs 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnxruntime as ort

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402

#: The issue's own yardstick: 100 ms per photo where YOLO11n's ONNX takes ~23 ms at 640 px.
TARGET_MS, ISSUE_REF_MS, REF_SIZE = 100.0, 23.0, 640


class Reference:
    """The peer: the detector at 640 px in a session of its own with onnxruntime's default options
    (how anyone would run it), timed one pass at a time between the photo runs, so that the
    machine's drift hits both sides of the ratio alike."""

    def __init__(self, path: Path, threads: int = 2) -> None:
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        shape = self.session.get_inputs()[0].shape
        #: a fixed-size export other than 640 px cannot be the peer
        self.usable = not (isinstance(shape[2], int) and (shape[2], shape[3]) != (REF_SIZE, REF_SIZE))
        self.x = np.random.default_rng(0).random((1, 3, REF_SIZE, REF_SIZE), dtype=np.float32)
        self.name = self.session.get_inputs()[0].name

    def time_one(self) -> float:
        t0 = time.perf_counter()
        self.session.run(None, {self.name: self.x})
        return time.perf_counter() - t0


def tight_crop(image: np.ndarray, truth: Path) -> np.ndarray:
    """The example's hand as a phone crops it: the row turned level (the photo shows it downhill)
    and cut to its tiles plus a tenth of a tile, about 6:1."""
    tiles = [t for t in json.loads(truth.read_text())["tiles"] if t.get("labelled", True)]
    centres = np.array([((t["box"][0] + t["box"][2]) / 2, (t["box"][1] + t["box"][3]) / 2) for t in tiles])
    slope = np.polyfit(centres[:, 0], centres[:, 1], 1)[0]
    angle = float(np.degrees(np.arctan(slope)))
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    level = cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    corners = np.array([[x, y, 1.0] for t in tiles for x in t["box"][::2] for y in t["box"][1::2]]) @ m.T
    size = float(np.median([t["box"][3] - t["box"][1] for t in tiles]))
    x0, y0 = corners.min(axis=0) - 0.1 * size
    x1, y1 = corners.max(axis=0) + 0.1 * size
    y_mid, half = (y0 + y1) / 2, max(y1 - y0, size) / 2 * 0.85  # the rotated corners overshoot
    return np.ascontiguousarray(
        level[int(max(0, y_mid - half)) : int(y_mid + half), int(max(0, x0)) : int(x1)]
    )


def far_view(image: np.ndarray, tile_px: float, truth: Path) -> np.ndarray:
    """The example seen from afar: shrunk so that its tiles are ``tile_px`` tall, in a grey frame
    of 800x600 (as ``scripts/eval_scenes.py``'s far views: the detector's first look sees too
    little, so the photo is looked at again in slices)."""
    tiles = json.loads(truth.read_text())["tiles"]
    k = tile_px / float(np.median([t["box"][3] - t["box"][1] for t in tiles]))
    small = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    frame = np.full((600, 800, 3), 128, np.uint8)
    y, x = (600 - small.shape[0]) // 2, (800 - small.shape[1]) // 2
    frame[y : y + small.shape[0], x : x + small.shape[1]] = small
    return frame


def bench(reader: PhotoReader, peer: Reference, path: Path, runs: int, rules: str) -> dict[str, Any]:
    """Median seconds per stage of reading ``path`` ``runs`` times (after two warm-up runs), each
    run followed by one peer pass: the ratio of each run to the pass after it."""
    stages: dict[str, list[float]] = {k: [] for k in (*STAGES, "total")}
    ratios: list[float] = []
    peer_times: list[float] = []
    for i in range(runs + 2):
        t0 = time.perf_counter()
        res = reader.read_and_score(path, rules=rules)
        t2 = time.perf_counter()
        if i == 0 and res.score is not None and not res.score.valid:
            print(f"note: {path.name}: the hand did not score: {res.score.error}")
        ref = peer.time_one() if peer.usable else None
        if i < 2:  # warm-up: first session runs allocate
            continue
        if ref:
            peer_times.append(ref)
            ratios.append((t2 - t0) / ref)
        for k in STAGES:
            stages[k].append(res.timings.get(k, 0.0))
        stages["total"].append(t2 - t0)
    h, w = res.image_shape[:2]
    return {
        "photo": f"{w}x{h} JPEG q92",
        "size_mb": round(path.stat().st_size / 1e6, 2),
        "runs": runs,
        "tiles": len(res.tiles),
        "slices": res.second_pass.slices if res.second_pass is not None and res.second_pass.slices > 1 else 0,
        "turned": bool(res.second_pass is not None and res.second_pass.turned),
        "median_ms": {k: round(statistics.median(v) * 1000, 1) for k, v in stages.items()},
        "reference_ms": round(statistics.median(peer_times) * 1000, 1) if peer_times else None,
        #: median of the per-run ratios (each photo run against the peer pass right after it)
        "ratio_total_to_reference": round(statistics.median(ratios), 2) if ratios else None,
    }


#: the stages a read's timings name (vision.pipeline's steps add into them)
STAGES = ("decode", "detect", "read", "gaps", "layout", "score")
#: the photos the bench reads: a 12 MP phone photo of a hand, a tight crop of its row, a far view,
#: the example turned a quarter (its tiles on their side: looked at again turned upright)
PHOTOS = ("12mp", "crop", "far", "turned")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--image", type=Path, default=ROOT / "examples" / "hand.jpg")
    ap.add_argument("--truth", type=Path, default=ROOT / "examples" / "hand.json", help="its tiles' boxes")
    ap.add_argument("--photos", default=",".join(PHOTOS), help="which photos: %(default)s")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--rules", default="riichi")
    ap.add_argument("--models", type=Path, default=ROOT / "models", help="folder with the two ONNX models")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "metrics" / "bench.json")
    args = ap.parse_args(argv)
    src = cv2.imread(str(args.image))
    if src is None:
        print(f"error: cannot read {args.image}", file=sys.stderr)
        return 2
    chosen = [p for p in args.photos.split(",") if p]
    if not chosen or any(p not in PHOTOS for p in chosen):
        print(f"error: --photos takes {', '.join(PHOTOS)}", file=sys.stderr)
        return 2
    if any(p != "12mp" for p in chosen) and not args.truth.is_file():
        print(
            f"error: cannot read {args.truth} (the crop and the far view need the tiles' boxes)",
            file=sys.stderr,
        )
        return 2
    made = {
        "12mp": lambda: cv2.resize(src, (4000, 3000), interpolation=cv2.INTER_CUBIC),
        "crop": lambda: tight_crop(src, args.truth),
        "far": lambda: far_view(src, 16.0, args.truth),
        "turned": lambda: cv2.rotate(src, cv2.ROTATE_90_CLOCKWISE),
    }
    reader = PhotoReader(args.models)
    peer = Reference(reader.det.path)
    cases: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in chosen:
            path = Path(tmp) / f"photo-{name}.jpg"
            cv2.imwrite(str(path), made[name](), [cv2.IMWRITE_JPEG_QUALITY, 92])
            cases[name] = bench(reader, peer, path, args.runs, args.rules)
    first = cases[chosen[0]]
    result = {
        **first,
        "threads": 2,
        "reference": f"the YOLO11n detector ONNX at {REF_SIZE}x{REF_SIZE}, own session, default options",
        "target_ratio": round(TARGET_MS / ISSUE_REF_MS, 2),
        "cases": cases,
    }
    print(json.dumps(result, indent=1))
    for name, case in cases.items():
        looks = f"{case['slices']} slices" + (", turned" if case["turned"] else "")
        if case["reference_ms"]:
            print(
                f"{name}: total {case['median_ms']['total']} ms; run by run "
                f"{case['ratio_total_to_reference']} x the 640 px detector pass (median "
                f"{case['reference_ms']} ms), {looks}; target {TARGET_MS:.0f} ms where "
                f"that pass takes {ISSUE_REF_MS:.0f} ms, i.e. < {result['target_ratio']} x"
            )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

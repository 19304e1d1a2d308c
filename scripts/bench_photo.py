#!/usr/bin/env python3
"""Median time to score one 12-megapixel photo, split into decode / detect / read / layout / score.

The photo is the bundled example (or ``--image``) scaled to 4000x3000 and saved as a JPEG of
camera-like quality, so the decode stage sees a real 12 MP file. onnxruntime runs on 2 threads,
as on the target 2-core machine. Runtime only (onnxruntime + OpenCV + NumPy).

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

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring.rules import score_hand  # noqa: E402
from scoring.structured import hand_from_dict  # noqa: E402
from vision.pipeline import PhotoReader, hand_dict  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--image", type=Path, default=ROOT / "examples" / "hand.jpg")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--rules", default="riichi")
    ap.add_argument("--models", type=Path, default=ROOT / "models", help="folder with the two ONNX models")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "metrics" / "bench.json")
    args = ap.parse_args(argv)
    src = cv2.imread(str(args.image))
    if src is None:
        print(f"error: cannot read {args.image}", file=sys.stderr)
        return 2
    big = cv2.resize(src, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    reader = PhotoReader(args.models)
    stages: dict[str, list[float]] = {k: [] for k in ("decode", "detect", "read", "layout", "score", "total")}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "photo-12mp.jpg"
        cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
        size_mb = path.stat().st_size / 1e6
        for i in range(args.runs + 2):
            t0 = time.perf_counter()
            res = reader.read_photo(path)
            t1 = time.perf_counter()
            try:
                score_hand(hand_from_dict(hand_dict(res.layout, {"win_by": "discard"})), args.rules, {})
            except Exception as exc:  # the timing still counts; say why the hand did not score
                if i == 0:
                    print(f"note: scoring raised {type(exc).__name__}: {exc}")
            t2 = time.perf_counter()
            if i < 2:  # warm-up: first session runs allocate
                continue
            for k in ("decode", "detect", "read", "layout"):
                stages[k].append(res.timings[k])
            stages["score"].append(t2 - t1)
            stages["total"].append(t2 - t0)
    med = {k: round(statistics.median(v) * 1000, 1) for k, v in stages.items()}
    result = {
        "photo": "4000x3000 JPEG q92",
        "size_mb": round(size_mb, 2),
        "runs": args.runs,
        "tiles": len(res.readings),
        "threads": 2,
        "median_ms": med,
    }
    print(json.dumps(result, indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

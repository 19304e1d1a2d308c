#!/usr/bin/env python3
"""Detector recall and precision on the 25 camerash product photos, against hand counts.

The photos have no box labels; ``tests/vision/data/camerash_tile_counts.csv`` holds the number
of tiles in each, counted by hand once (tiles cut by the frame to a sliver are not counted).
Per photo, detections are checked against that count and against the photo's own grid: a
detection much smaller or larger than the median tile (area outside 0.35–2.5× the median), or one
covering most of another detection, is a false positive; the rest are taken as true positives,
capped at the hand count. recall = TP / count, precision = TP / detections. A miss and a
spurious box inside the size band could cancel out, so the annotated images
(``--annotate DIR``) were also looked at. Runtime only (onnxruntime + OpenCV + NumPy).

    python scripts/eval_detector.py --annotate runs/eval-detector
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

from mahjong_camera_scorer.vision.annotate import draw  # noqa: E402
from mahjong_camera_scorer.vision.detect import DETECTOR_CONF, detect  # noqa: E402
from mahjong_camera_scorer.vision.images import load_image  # noqa: E402
from mahjong_camera_scorer.vision.models import load_model  # noqa: E402
from mahjong_camera_scorer.vision.read import TileRead  # noqa: E402

CAMERASH = ROOT.parent / "shared" / "data" / "camerash"
COUNTS = ROOT / "tests" / "vision" / "data" / "camerash_tile_counts.csv"


def plausible(boxes: np.ndarray) -> np.ndarray:
    """Mask of detections that look like one of the photo's tiles (size near the median, no duplicate)."""
    if not len(boxes):
        return np.zeros(0, bool)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    med = float(np.median(area))
    ok = (area > 0.35 * med) & (area < 2.5 * med)
    for i in range(len(boxes)):
        for j in range(len(boxes)):
            if i == j or not ok[i] or not ok[j]:
                continue
            x0, y0 = max(boxes[i, 0], boxes[j, 0]), max(boxes[i, 1], boxes[j, 1])
            x1, y1 = min(boxes[i, 2], boxes[j, 2]), min(boxes[i, 3], boxes[j, 3])
            inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
            if inter > 0.6 * min(area[i], area[j]) and area[i] <= area[j]:
                ok[i] = False
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=ROOT / "models" / "detector.onnx")
    ap.add_argument("--conf", type=float, default=DETECTOR_CONF)
    ap.add_argument("--annotate", type=Path, help="write annotated photos here")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "metrics" / "detector.json")
    args = ap.parse_args(argv)
    model = load_model(args.model)
    rows = list(csv.DictReader(COUNTS.open(encoding="utf-8")))
    per_photo = []
    tp_all = det_all = true_all = 0
    for r in rows:
        image = load_image(CAMERASH / "raw-images" / r["photo"])
        dets = detect(model, image, conf=args.conf)
        boxes = np.array([d.box for d in dets]).reshape(-1, 4)
        ok = plausible(boxes)
        true = int(r["tiles"])
        tp = min(int(ok.sum()), true)
        per_photo.append(
            {
                "photo": r["photo"],
                "tiles": true,
                "detections": len(dets),
                "tp": tp,
                "recall": round(tp / true, 4),
                "precision": round(tp / max(1, len(dets)), 4),
            }
        )
        tp_all, det_all, true_all = tp_all + tp, det_all + len(dets), true_all + true
        print(
            f"{r['photo']:>8}: {true:4d} tiles, {len(dets):4d} detections, recall {tp / true:.3f}", flush=True
        )
        if args.annotate:
            readings = [TileRead(d.box, d.label, d.score, "upright", index=i) for i, d in enumerate(dets)]
            draw(image, readings, args.annotate / f"{Path(r['photo']).stem}.jpg")
    result = {
        "model": args.model.name,
        "conf": args.conf,
        "photos": len(rows),
        "tiles": true_all,
        "detections": det_all,
        "recall": round(tp_all / true_all, 4),
        "precision": round(tp_all / max(1, det_all), 4),
        "per_photo": per_photo,
    }
    print(
        f"total: {true_all} tiles, {det_all} detections: recall {result['recall']:.4f}, "
        f"precision {result['precision']:.4f}"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

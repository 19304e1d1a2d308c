#!/usr/bin/env python3
"""Measure the photo reader on the real test split (``models/real-split.csv``), per data set.

Each test picture goes through the runtime as a user's photo would (detector at the shipped
confidence, reader with its second look, ``none`` boxes rejected); the tiles it reports are matched
to the labelled tiles (IoU >= 0.5, best score first). Per data set:

- box precision / recall / F1 (a tile found where one is labelled, whatever its code);
- tile precision / recall / F1 (box **and** code right; labels without a visible face only count
  for boxes);
- false boxes per picture (reported tiles on no labelled tile) and missed tiles per picture;
- exact pictures: every labelled tile found with its code, nothing else reported;
- errors flagged: of the errors a user would score (false boxes and misread tiles), the share the
  tool flags (low confidence, or a layout warning on that tile); missed tiles are counted apart;
  and its price, the share of right tiles flagged too.

Caveat written into the card: many pictures label only some tiles in view (heaps, walls), so some
"false boxes" are real tiles nobody labelled; the number is an upper bound.

    python scripts/eval_real.py --out models/metrics/real.json [--models DIR] [--label before]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))

from mjsynth.realphotos import UNKNOWN_FACE, RealPhoto, read_labels  # noqa: E402

from vision.detect import iou  # noqa: E402
from vision.models import MODELS_DIR, load_model  # noqa: E402
from vision.pipeline import PhotoReader  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real"
SPLIT_CSV = ROOT / "models" / "real-split.csv"


def test_photos(root: Path, split: str = "test") -> list[RealPhoto]:
    rows = csv.DictReader(SPLIT_CSV.open(encoding="utf-8"))
    return [
        RealPhoto(r["dataset"], r["published"], root / r["dataset"] / r["published"] / "images" / r["file"])
        for r in rows
        if r["split"] == split
    ]


def match(pred: list, labels: list) -> list[tuple[int, int]]:  # type: ignore[type-arg]
    """Greedy one-to-one matching, best detector score first, IoU >= 0.5."""
    pairs = []
    used: set[int] = set()
    for i in sorted(range(len(pred)), key=lambda i: -pred[i].detector_score):
        best, bj = 0.5, -1
        for j, lab in enumerate(labels):
            if j not in used and (v := iou(pred[i].box, lab.box)) >= best:
                best, bj = v, j
        if bj >= 0:
            used.add(bj)
            pairs.append((i, bj))
    return pairs


def f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def evaluate(reader: PhotoReader, photos: list[RealPhoto]) -> dict:
    c: dict[str, Counter] = defaultdict(Counter)
    misreads: dict[str, Counter] = defaultdict(Counter)
    seconds = 0.0
    for p in photos:
        image = cv2.imread(str(p.path), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        labels = read_labels(p, w, h)
        t0 = time.perf_counter()
        result = reader.read_and_score(image)
        seconds += time.perf_counter() - t0
        pred = list(result.tiles)
        warned = result.warned  # readings a check names (vision.checks)
        pairs = match(pred, labels)
        k = c[p.dataset]
        k["pictures"] += 1
        k["labels"] += len(labels)
        k["coded_labels"] += sum(lab.code != UNKNOWN_FACE for lab in labels)
        k["reported"] += len(pred)
        k["rejected"] += len(result.rejected)
        k["box_tp"] += len(pairs)
        matched = {i for i, _ in pairs}
        right = 0
        for i, j in pairs:
            if labels[j].code == UNKNOWN_FACE:
                k["reported_unknown_face"] += 1
                continue
            if pred[i].code == labels[j].code:
                right += 1
                k["right_flagged"] += int(pred[i].flagged or pred[i].index in warned)
            else:
                k["misread"] += 1
                k["misread_flagged"] += int(pred[i].flagged or pred[i].index in warned)
                misreads[p.dataset][f"{labels[j].code}->{pred[i].code}"] += 1
        false = [pred[i] for i in range(len(pred)) if i not in matched]
        k["false_boxes"] += len(false)
        k["false_flagged"] += sum(int(t.flagged or t.index in warned) for t in false)
        k["tile_tp"] += right
        k["missed"] += len(labels) - len(pairs)
        k["exact"] += int(not false and len(pairs) == len(labels) and right == k_coded(labels))
    out: dict = {"seconds_per_picture": round(seconds / max(1, len(photos)), 3)}
    for ds, k in c.items():
        bp, br = k["box_tp"] / max(1, k["reported"]), k["box_tp"] / max(1, k["labels"])
        coded_reported = k["reported"] - k["reported_unknown_face"]
        tp, tr = k["tile_tp"] / max(1, coded_reported), k["tile_tp"] / max(1, k["coded_labels"])
        errors = k["false_boxes"] + k["misread"]
        out[ds] = {
            **dict(k),
            "box_precision": round(bp, 4),
            "box_recall": round(br, 4),
            "box_f1": round(f1(bp, br), 4),
            "tile_precision": round(tp, 4),
            "tile_recall": round(tr, 4),
            "tile_f1": round(f1(tp, tr), 4),
            "false_boxes_per_picture": round(k["false_boxes"] / max(1, k["pictures"]), 3),
            "missed_per_picture": round(k["missed"] / max(1, k["pictures"]), 3),
            "exact_pictures": f"{k['exact']}/{k['pictures']}",
            "errors_flagged": round((k["false_flagged"] + k["misread_flagged"]) / max(1, errors), 4),
            # the price of flagging: right tiles flagged too (the player checks them for nothing)
            "right_tiles_flagged": round(k["right_flagged"] / max(1, k["tile_tp"]), 4),
            "top_misreads": misreads[ds].most_common(15),
        }
    return out


def k_coded(labels: list) -> int:  # type: ignore[type-arg]
    return sum(lab.code != UNKNOWN_FACE for lab in labels)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=REAL)
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--detector", type=Path, help="another detector ONNX (default: the models folder's)")
    ap.add_argument("--reader", type=Path, help="another reader ONNX")
    ap.add_argument("--split", default="test", choices=["test", "val", "teach", "train"])
    ap.add_argument(
        "--dataset",
        help="only this data set (e.g. riichi-camera-frames: its training frames are a set the reader "
        "never trained on, a second validation set for reader settings)",
    )
    ap.add_argument("--reject-at", type=float, help="another vision.read.REJECT_AT (for choosing it)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--label", default="", help="a name for this run in the JSON (e.g. before/after)")
    args = ap.parse_args(argv)
    if not args.real.is_dir() or not SPLIT_CSV.is_file():
        print(f"error: no real photos at {args.real} or no {SPLIT_CSV}", file=sys.stderr)
        return 2
    if args.reject_at is not None:
        import vision.read

        vision.read.REJECT_AT = args.reject_at
    det = load_model(args.detector or args.models / "detector.onnx")
    rdr = load_model(args.reader or args.models / "reader.onnx")
    chosen = [p for p in test_photos(args.real, args.split) if args.dataset in (None, p.dataset)]
    result = evaluate(PhotoReader(det=det, rdr=rdr), chosen)
    result = {
        "label": args.label,
        "split": args.split,
        "detector": str(det.path),
        "reader": str(rdr.path),
        **result,
    }
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

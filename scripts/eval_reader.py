#!/usr/bin/env python3
"""Measure the tile reader on crops it was not trained on; write metrics JSON and a confusion PNG.

- Real: the camerash *test* fold of ``models/camerash-split.csv`` (whole tile sets held out), each
  crop read upright and turned 180°, prepared by :func:`vision.crops.prepare_tile_image` exactly as
  at run time; top-1 overall and per class.
- Real, in their photos: the same test-fold tiles found in the product photos they were cut
  from (template matching at the photo's detected tile size) and read the way a photo is read:
  the detector's box, :func:`vision.crops.crop_box` with its margin and the real surroundings,
  the reader with its 180° second look. The crops as given are cut tight to the tile's edge, a
  framing the runtime never produces (it adds 8 % of the box on each side), so this is the
  number that says how well a photographed tile is read.
- Synthetic: a held-out crop set (``--synth``: a classify folder set from another generator seed),
  for the classes camerash lacks (red fives, backs) and as a cross-check.

Runs with the runtime only (onnxruntime + OpenCV + NumPy).

    python scripts/eval_reader.py --synth data/vision-holdout/cls/train
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
from eval_camerash_split import match_crop  # noqa: E402

from mahjong_camera_scorer.mjsynth.recolour import RED_OF, redden  # noqa: E402
from mahjong_camera_scorer.vision.classes import TILE_CLASSES  # noqa: E402
from mahjong_camera_scorer.vision.crops import CROP_SIZE, prepare_tile_image  # noqa: E402
from mahjong_camera_scorer.vision.detect import DETECTOR_CONF, detect, iou  # noqa: E402
from mahjong_camera_scorer.vision.models import OnnxModel, load_model  # noqa: E402
from mahjong_camera_scorer.vision.read import classify, read_tiles  # noqa: E402

CAMERASH = ROOT.parent / "shared" / "data" / "camerash"
SPLIT = ROOT / "models" / "camerash-split.csv"


def _batched(model, crops: list[np.ndarray], tta: bool, batch: int = 128) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    probs, flips = [], []
    for i in range(0, len(crops), batch):
        p, f = classify(model, crops[i : i + batch], tta)
        probs.append(p)
        flips.append(f)
    return np.concatenate(probs), np.concatenate(flips)


#: Template width (px) for finding a crop in its photo: small enough to be quick, big enough to
#: tell tiles apart (several copies of one kind match equally well, which is fine: same label).
FIND_W = 32
#: A found place counts when it overlaps a detector box this much (IoU).
FIND_IOU = 0.5


def tiles_in_photos(
    rows: list[dict[str, str]], det: OnnxModel, rdr: OnnxModel, tta: bool
) -> tuple[np.ndarray, np.ndarray, int, int, list[dict]]:
    """(truth, reading) class indices for the test-fold tiles found in their source photos, the
    number of crops not found on a detector box, the number of boxes with two labels (left out),
    and each misread tile (photo, box, truth, reading, the crops that put it there) to check by eye.
    """
    by_photo: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        by_photo.setdefault(r["photo"], []).append(r)
    truth: list[int] = []
    read: list[int] = []
    lost = clashes = 0
    misread: list[dict] = []
    for photo, items in sorted(by_photo.items()):
        image = cv2.imread(str(CAMERASH / "raw-images" / photo), cv2.IMREAD_COLOR)
        dets = detect(det, image, conf=DETECTOR_CONF) if image is not None else []
        if not dets:
            lost += len(items)
            continue
        bw = float(np.median([d.width for d in dets]))
        bh = float(np.median([d.height for d in dets]))
        f = FIND_W / bw
        small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)  # only to find the tile; it is read in colour
        tw, th = FIND_W, max(8, round(bh * f))
        labels: dict[int, set[int]] = {}
        sources: dict[int, list[str]] = {}
        for r in items:
            crop = cv2.cvtColor(cv2.imread(str(CAMERASH / "tiles-resized" / r["crop"])), cv2.COLOR_BGR2GRAY)
            _, (x, y) = match_crop(grey, crop, (tw, th))
            found = (x / f, y / f, x / f + bw, y / f + bh)
            overlap = [iou(found, d.box) for d in dets]
            k = int(np.argmax(overlap))
            if overlap[k] < FIND_IOU:
                lost += 1
                continue
            labels.setdefault(k, set()).add(TILE_CLASSES.index(r["code"]))
            sources.setdefault(k, []).append(r["crop"])
        keep = [k for k, v in sorted(labels.items()) if len(v) == 1]
        clashes += len(labels) - len(keep)
        readings = read_tiles(rdr, image, [dets[k] for k in keep], tta=tta)
        for k, reading in zip(keep, readings, strict=True):
            truth.append(next(iter(labels[k])))
            read.append(TILE_CLASSES.index(reading.code))
            if reading.code != TILE_CLASSES[truth[-1]]:
                misread.append(
                    {
                        "photo": photo,
                        "box": [round(v) for v in dets[k].box],
                        "truth": TILE_CLASSES[truth[-1]],
                        "read": reading.code,
                        "confidence": round(reading.confidence, 3),
                        "crops": sources[k],
                    }
                )
    return np.array(truth, int), np.array(read, int), lost, clashes, misread


def confusion_png(conf: np.ndarray, labels: list[str], out: Path, title: str) -> None:
    """A row-normalised confusion matrix drawn with OpenCV (no plotting library at run time)."""
    n = len(labels)
    cell, margin = 16, 34
    size = margin + n * cell + 4
    img = np.full((size + 24, size, 3), 255, np.uint8)
    rows = conf.sum(1, keepdims=True)
    norm = np.divide(conf, rows, out=np.zeros_like(conf, dtype=float), where=rows > 0)
    for i in range(n):
        for j in range(n):
            if conf[i, j] == 0:
                continue
            v = norm[i, j]
            colour = (
                (int(255 * (1 - v)), int(255 * (1 - v * 0.6)), 255)
                if i != j
                else (int(255 * (1 - v)), 200, int(255 * (1 - v)))
            )
            y0, x0 = margin + i * cell, margin + j * cell
            cv2.rectangle(img, (x0, y0), (x0 + cell - 1, y0 + cell - 1), colour, -1)
            if i != j:
                cv2.putText(
                    img, str(int(conf[i, j])), (x0 + 2, y0 + 12), cv2.FONT_HERSHEY_PLAIN, 0.7, (0, 0, 0), 1
                )
    for k, name in enumerate(labels):
        cv2.putText(img, name, (2, margin + k * cell + 12), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 0, 0), 1)
        tx = np.full((cell, 30, 3), 255, np.uint8)
        cv2.putText(tx, name, (1, 12), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 0, 0), 1)
        img[2:32, margin + k * cell : margin + (k + 1) * cell] = cv2.rotate(
            tx, cv2.ROTATE_90_COUNTERCLOCKWISE
        )[:30, :cell]
    cv2.putText(img, title, (4, size + 16), cv2.FONT_HERSHEY_PLAIN, 1.0, (0, 0, 0), 1)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), img)


def per_class(y: np.ndarray, pred: np.ndarray) -> dict[str, dict[str, float]]:
    out = {}
    for c in sorted(set(y.tolist())):
        m = y == c
        out[TILE_CLASSES[c]] = {"n": int(m.sum()), "top1": round(float((pred[m] == c).mean()), 4)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=ROOT / "models" / "reader.onnx")
    ap.add_argument(
        "--detector",
        type=Path,
        default=ROOT / "models" / "detector.onnx",
        help="detector for reading the test tiles in their photos",
    )
    ap.add_argument("--synth", type=Path, help="held-out classify folder set <dir>/<code>/*.jpg")
    ap.add_argument("--synth-max", type=int, default=60, help="crops per class from --synth")
    ap.add_argument("--no-tta", action="store_true")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "metrics" / "reader.json")
    ap.add_argument("--png", type=Path, default=ROOT / "models" / "reader-confusion.png")
    args = ap.parse_args(argv)
    model = load_model(args.model)
    tta = not args.no_tta
    result: dict = {"model": args.model.name, "tta": tta}

    rows = [r for r in csv.DictReader(SPLIT.open(encoding="utf-8")) if r["fold"] == "test"]
    crops = [
        prepare_tile_image(cv2.imread(str(CAMERASH / "tiles-resized" / r["crop"])), CROP_SIZE) for r in rows
    ]
    y = np.array([TILE_CLASSES.index(r["code"]) for r in rows])
    probs, flips = _batched(model, crops, tta)
    pred = probs.argmax(1)
    probs_r, flips_r = _batched(model, [cv2.rotate(c, cv2.ROTATE_180) for c in crops], tta)
    pred_r = probs_r.argmax(1)
    conf = np.zeros((len(TILE_CLASSES),) * 2, int)
    for a, b in zip(y, pred, strict=True):
        conf[a, b] += 1
    errors = Counter((TILE_CLASSES[a], TILE_CLASSES[b]) for a, b in zip(y, pred, strict=True) if a != b)
    result["camerash_test"] = {
        "crops": len(rows),
        "photos": sorted({r["photo"] for r in rows}),
        "sets": sorted({r["set"] for r in rows}),
        "top1": round(float((pred == y).mean()), 4),
        "top1_upside_down": round(float((pred_r == y).mean()), 4),
        "orientation_acc_upright": round(float((flips < 0.5).mean()), 4),
        "orientation_acc_upside_down": round(float((flips_r > 0.5).mean()), 4),
        "per_class": per_class(y, pred),
        "top_confusions": [f"{a}→{b} ×{n}" for (a, b), n in errors.most_common(12)],
    }
    labels = [
        c for c in TILE_CLASSES if conf[TILE_CLASSES.index(c)].sum() or conf[:, TILE_CLASSES.index(c)].sum()
    ]
    idx = [TILE_CLASSES.index(c) for c in labels]
    confusion_png(
        conf[np.ix_(idx, idx)],
        labels,
        args.png,
        f"reader on {len(rows)} held-out camerash crops: top-1 {result['camerash_test']['top1']:.3f}",
    )
    print(
        f"camerash test fold: {len(rows)} crops, top-1 {result['camerash_test']['top1']:.4f} "
        f"(turned 180°: {result['camerash_test']['top1_upside_down']:.4f})"
    )
    for c in ("1s", "5z"):
        print(f"  {c}: {result['camerash_test']['per_class'].get(c)}")

    if args.detector.is_file():
        yt, yp, lost, clashes, misread = tiles_in_photos(rows, load_model(args.detector), model, tta)
        wrong = Counter((TILE_CLASSES[a], TILE_CLASSES[b]) for a, b in zip(yt, yp, strict=True) if a != b)
        kinds = yt < TILE_CLASSES.index("0m")  # the 34 kinds come first in the class list
        flowers = (yt >= TILE_CLASSES.index("1f")) & (yt <= TILE_CLASSES.index("8f"))
        result["camerash_test_in_photos"] = {
            "tiles": len(yt),
            "crops_not_found_on_a_box": lost,
            "boxes_with_two_labels_left_out": clashes,
            "top1": round(float((yp == yt).mean()), 4) if len(yt) else None,
            "top1_34_kinds": round(float((yp[kinds] == yt[kinds]).mean()), 4) if kinds.any() else None,
            "top1_flowers": round(float((yp[flowers] == yt[flowers]).mean()), 4) if flowers.any() else None,
            "per_class": per_class(yt, yp),
            "top_confusions": [f"{a}→{b} ×{n}" for (a, b), n in wrong.most_common(12)],
            "misread": misread,
        }
        r = result["camerash_test_in_photos"]
        print(
            f"the same tiles read in their photos (detector box + runtime crop): {r['tiles']} tiles, "
            f"top-1 {r['top1']} (34 kinds {r['top1_34_kinds']}, flowers {r['top1_flowers']}); "
            f"{lost} crops not found on a box, {clashes} boxes with two labels"
        )

    # Red fives on real photos: camerash has none, so the test fold's plain fives are repainted
    # red (mjsynth.recolour, 3 variants each) and must read as red fives, while the originals
    # must still read as plain fives (counted in per_class above).
    fives = [(r, k) for r in rows if r["code"] in RED_OF for k in range(3)]
    if fives:
        red_crops = [
            prepare_tile_image(
                redden(cv2.imread(str(CAMERASH / "tiles-resized" / r["crop"])), random.Random(k)), CROP_SIZE
            )
            for r, k in fives
        ]
        yr = np.array([TILE_CLASSES.index(RED_OF[r["code"]]) for r, _ in fives])
        pr = _batched(model, red_crops, tta)[0].argmax(1)
        result["camerash_test_reddened_fives"] = {
            "crops": len(fives),
            "top1": round(float((pr == yr).mean()), 4),
            "per_class": per_class(yr, pr),
            "read_as": dict(Counter(TILE_CLASSES[c] for c in pr).most_common()),
        }
        print(
            f"real test-fold fives repainted red: {len(fives)} crops, top-1 "
            f"{result['camerash_test_reddened_fives']['top1']:.4f} "
            f"{result['camerash_test_reddened_fives']['per_class']}"
        )

    if args.synth and args.synth.is_dir():
        items: list[tuple[Path, int]] = []
        for d in sorted(p for p in args.synth.iterdir() if p.is_dir() and p.name in TILE_CLASSES):
            files = sorted(d.glob("*.jpg"))[: args.synth_max]
            items += [(f, TILE_CLASSES.index(d.name)) for f in files]
        if not items:
            print(f"error: no <class code>/*.jpg folders in {args.synth}", file=sys.stderr)
            return 2
        s_crops = [cv2.imread(str(p)) for p, _ in items]
        ys = np.array([c for _, c in items])
        ps, _ = _batched(model, s_crops, tta)
        preds = ps.argmax(1)
        result["synthetic_holdout"] = {
            "crops": len(items),
            "top1": round(float((preds == ys).mean()), 4),
            "per_class": per_class(ys, preds),
        }
        print(f"synthetic held-out: {len(items)} crops, top-1 {result['synthetic_holdout']['top1']:.4f}")
        for c in ("0m", "0p", "0s", "back", "1s", "5z"):
            print(f"  {c}: {result['synthetic_holdout']['per_class'].get(c)}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False))
    print(f"→ {args.out}, {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Measure the photo reader on the real test split (``models/real-split.csv``), per data set.

Each test picture goes through the runtime as a user's photo would (detector at the shipped
confidence, reader with its second look, ``none`` boxes rejected); the tiles it reports are matched
to the labelled tiles (IoU >= 0.5, best score first). Per data set:

- box precision / recall / F1 (a tile found where one is labelled, whatever its code);
- tile precision / recall / F1 (box **and** code right; labels without a visible face only count
  for boxes);
- false boxes per picture (reported tiles on no labelled tile) and missed tiles per picture; how
  many false boxes lie near a label (see :data:`NEAR_LABEL`), and the rate without Roboflow's
  augmented training copies (``..._without_copies``);
- exact pictures: every labelled tile found with its code, nothing else reported;
- errors flagged: of the errors a user would score (false boxes and misread tiles), the share the
  tool flags (low confidence, or a layout warning on that tile); missed tiles are counted apart;
  and its price, the share of right tiles flagged too.

Many pictures label only some tiles in view (heaps, walls, rows of standing tiles), so a "false
box" may be a real tile nobody labelled. The label audit (``models/real-audit.csv``, made with
``scripts/audit_real_labels.py``) judged by eye every box the detectors find on no label: each data
set is measured twice, on the published labels (**raw**, the keys as they always were) and with
the audit applied (the ``audited`` entry): boxes judged ``tile`` or ``back`` become box-only labels
(they count for box precision and recall, a tile reported there is no false box; like the labels
without a visible face they do not count for the tile-code metrics), and labels judged ``bad_label``
are dropped. Every other reported box on no label stays a false box: the ones judged ``part``,
``side``, ``clutter`` or ``double``, and any box nobody audited, so the audited false-box rate is
still an upper bound.

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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

from mahjong_camera_scorer.mjsynth.realphotos import (  # noqa: E402
    AUDITED_TILES,
    UNKNOWN_FACE,
    AuditBox,
    Label,
    RealPhoto,
    apply_audit,
    load_picture,
    read_audit,
    read_labels,
)
from mahjong_camera_scorer.vision.detect import iou  # noqa: E402
from mahjong_camera_scorer.vision.models import MODELS_DIR, OnnxModel, load_model, load_small_detector  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real"
SPLIT_CSV = ROOT / "models" / "real-split.csv"
AUDIT_CSV = ROOT / "models" / "real-audit.csv"
#: A false box overlapping a label at least this much (but under the 0.5 of a match) is most likely
#: the labelled tile found with the label's box off it (``false_near_a_label``). That happens mostly
#: on the test split's 22 pictures that Roboflow published as training copies (``copy_...``): turned
#: and sheared copies of test photos whose label boxes were moved with the picture and fit loosely.
NEAR_LABEL = 0.3


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


def tally(
    k: Counter, misreads: Counter, pred: list, warned: set[int], labels: list[Label], copy: bool
) -> None:  # type: ignore[type-arg]
    """Add one picture's readings against its labels to the data set's counts (``copy``: the picture
    is one of Roboflow's augmented training copies, see :data:`NEAR_LABEL`)."""
    pairs = match(pred, labels)
    k["pictures"] += 1
    k["labels"] += len(labels)
    k["coded_labels"] += k_coded(labels)
    k["reported"] += len(pred)
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
            misreads[f"{labels[j].code}->{pred[i].code}"] += 1
    false = [pred[i] for i in range(len(pred)) if i not in matched]
    k["false_boxes"] += len(false)
    k["false_near_a_label"] += sum(any(iou(t.box, lab.box) >= NEAR_LABEL for lab in labels) for t in false)
    if copy:
        k["copy_pictures"] += 1
        k["copy_false_boxes"] += len(false)
    k["false_flagged"] += sum(int(t.flagged or t.index in warned) for t in false)
    k["tile_tp"] += right
    k["missed"] += len(labels) - len(pairs)
    k["exact"] += int(not false and len(pairs) == len(labels) and right == k_coded(labels))


def summary(k: Counter, misreads: Counter) -> dict:  # type: ignore[type-arg]
    """A data set's counts and the metrics made of them."""
    bp, br = k["box_tp"] / max(1, k["reported"]), k["box_tp"] / max(1, k["labels"])
    coded_reported = k["reported"] - k["reported_unknown_face"]
    tp, tr = k["tile_tp"] / max(1, coded_reported), k["tile_tp"] / max(1, k["coded_labels"])
    errors = k["false_boxes"] + k["misread"]
    return {
        **dict(k),
        "box_precision": round(bp, 4),
        "box_recall": round(br, 4),
        "box_f1": round(f1(bp, br), 4),
        "tile_precision": round(tp, 4),
        "tile_recall": round(tr, 4),
        "tile_f1": round(f1(tp, tr), 4),
        "false_boxes_per_picture": round(k["false_boxes"] / max(1, k["pictures"]), 3),
        "false_boxes_per_picture_without_copies": round(
            (k["false_boxes"] - k["copy_false_boxes"]) / max(1, k["pictures"] - k["copy_pictures"]), 3
        ),
        "missed_per_picture": round(k["missed"] / max(1, k["pictures"]), 3),
        "exact_pictures": f"{k['exact']}/{k['pictures']}",
        "errors_flagged": round((k["false_flagged"] + k["misread_flagged"]) / max(1, errors), 4),
        # the price of flagging: right tiles flagged too (the player checks them for nothing)
        "right_tiles_flagged": round(k["right_flagged"] / max(1, k["tile_tp"]), 4),
        "top_misreads": misreads.most_common(15),
    }


def evaluate(
    reader: PhotoReader, photos: list[RealPhoto], audit: dict[tuple[str, str], list[AuditBox]] | None = None
) -> dict:
    """Per data set: the metrics on the published labels and, given an audit, with it applied."""
    raw: dict[str, Counter] = defaultdict(Counter)
    fixed: dict[str, Counter] = defaultdict(Counter)
    misreads: dict[str, Counter] = defaultdict(Counter)
    fixed_misreads: dict[str, Counter] = defaultdict(Counter)
    applied: dict[str, Counter] = defaultdict(Counter)  # what the audit changed, per data set
    seconds = 0.0
    for p in photos:
        image = load_picture(p)
        h, w = image.shape[:2]
        labels = read_labels(p, w, h)
        t0 = time.perf_counter()
        result = reader.read_and_score(image)
        seconds += time.perf_counter() - t0
        pred = list(result.tiles)
        warned = result.warned  # readings a check names (vision.checks)
        raw[p.dataset]["rejected"] += len(result.rejected)
        copy = p.published == "train"
        tally(raw[p.dataset], misreads[p.dataset], pred, warned, labels, copy)
        if audit is not None:
            boxes = audit.get((p.dataset, p.path.name), [])
            audited = apply_audit(labels, boxes)
            fixed[p.dataset]["rejected"] += len(result.rejected)
            tally(fixed[p.dataset], fixed_misreads[p.dataset], pred, warned, audited, copy)
            added = sum(a.verdict in AUDITED_TILES for a in boxes)
            applied[p.dataset]["labels_added"] += added
            applied[p.dataset]["labels_removed"] += len(labels) - (len(audited) - added)
            for a in boxes:
                applied[p.dataset][f"judged_{a.verdict}"] += 1
    out: dict = {"seconds_per_picture": round(seconds / max(1, len(photos)), 3)}
    for ds, k in raw.items():
        out[ds] = summary(k, misreads[ds])
        if audit is not None:
            out[ds]["audited"] = {
                **dict(sorted(applied[ds].items())),
                **summary(fixed[ds], fixed_misreads[ds]),
            }
    return out


def shown(path: Path) -> str:
    """A path as the JSON keeps it: relative to the repository when inside it (the same on every clone)."""
    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def add_small_detector_option(ap: argparse.ArgumentParser) -> None:
    """``--small-detector``: the detector of the runtime's closer looks (slices, a closer region)."""
    ap.add_argument(
        "--small-detector",
        type=Path,
        help="the closer looks' detector ONNX (default: the models folder's detector-small.onnx when "
        "--detector is the folder's or not given, else --detector itself, measured alone)",
    )


def small_detector(args: argparse.Namespace, models: Path, det: OnnxModel) -> OnnxModel:
    """The closer looks' detector a measurement runs with (:func:`add_small_detector_option`): the
    shipped pair unless another first-look detector is measured, which then looks closer alone."""
    if args.small_detector is not None:
        return load_model(args.small_detector)
    own = det.path.resolve() == (models / "detector.onnx").resolve()
    return (load_small_detector(models) if own else None) or det


def save_json(result: dict, path: Path | None) -> None:  # type: ignore[type-arg]
    """Write a measurement as the metrics files keep it (indented JSON, a final newline), making
    its folder; nothing when no ``--out`` was given."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=1) + "\n")


def audit_lines(result: dict) -> list[str]:
    """One line per data set: what the audit changed and the false boxes before and after."""
    out = []
    for ds, m in result.items():
        if isinstance(m, dict) and "audited" in m:
            a = m["audited"]
            out.append(
                f"{ds}: audit adds {a['labels_added']} box-only labels ({a.get('judged_tile', 0)} tile, "
                f"{a.get('judged_back', 0)} back), drops {a['labels_removed']} published; false boxes "
                f"per picture {m['false_boxes_per_picture']} raw, {a['false_boxes_per_picture']} audited"
            )
    return out


def k_coded(labels: list) -> int:  # type: ignore[type-arg]
    return sum(lab.code != UNKNOWN_FACE for lab in labels)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=REAL)
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--detector", type=Path, help="another detector ONNX (default: the models folder's)")
    ap.add_argument("--reader", type=Path, help="another reader ONNX")
    add_small_detector_option(ap)
    ap.add_argument("--split", default="test", choices=["test", "val", "train", "teach"])
    ap.add_argument(
        "--dataset",
        help="only this data set (e.g. riichi-camera-frames: its training frames are a set the reader "
        "never trained on, a second validation set for reader settings)",
    )
    ap.add_argument(
        "--reject-at",
        type=float,
        help="another mahjong_camera_scorer.vision.read.REJECT_AT (for choosing it)",
    )
    ap.add_argument("--audit", type=Path, default=AUDIT_CSV, help="the label audit (default: %(default)s)")
    ap.add_argument("--no-audit", action="store_true", help="published labels only (no 'audited' entries)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--label", default="", help="a name for this run in the JSON (e.g. before/after)")
    args = ap.parse_args(argv)
    if not args.real.is_dir() or not SPLIT_CSV.is_file():
        print(f"error: no real photos at {args.real} or no {SPLIT_CSV}", file=sys.stderr)
        return 2
    audit = None
    if not args.no_audit:
        if not args.audit.is_file():
            print(f"error: no label audit at {args.audit} (or give --no-audit)", file=sys.stderr)
            return 2
        try:
            audit = read_audit(args.audit)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.reject_at is not None:
        import mahjong_camera_scorer.vision.read

        mahjong_camera_scorer.vision.read.REJECT_AT = args.reject_at
    det = load_model(args.detector or args.models / "detector.onnx")
    rdr = load_model(args.reader or args.models / "reader.onnx")
    small = small_detector(args, args.models, det)
    chosen = [p for p in test_photos(args.real, args.split) if args.dataset in (None, p.dataset)]
    result = evaluate(PhotoReader(det=det, rdr=rdr, small_det=small), chosen, audit)
    result = {
        "label": args.label,
        "split": args.split,
        "detector": str(det.path),
        "small_detector": str(small.path),
        "reader": str(rdr.path),
        "audit": None if audit is None else shown(args.audit),
        **result,
    }
    print(json.dumps(result, indent=1))
    for line in audit_lines(result):
        print(line, file=sys.stderr)
    save_json(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

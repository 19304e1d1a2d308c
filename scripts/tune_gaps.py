#!/usr/bin/env python3
"""Choose :mod:`vision.ask`'s thresholds: every gap slot of the hand's rows, read, against the labels.

For each picture of a split (``val``: the Chinese/HK pictures; ``teach``: the camera frames'
teaching pictures; never ``test``), the photo is read as :meth:`vision.pipeline.PhotoReader.read_and_score`
reads it without asking (``ask_gaps=False``), and the labels it misses are noted. Then every gap slot
is found with loose limits (:data:`LOOSE_TOLERANCE`, :data:`LOOSE_MOST`: any room within half
a pitch of 1..3 tiles) and read in
one batch, and each slot is written as one JSON line: the free room in pitches, how many tiles it
holds, what the reader says there (code, confidence, whether it is a tile), and the truth: whether
a label the reader missed lies there (IoU >= 0.5, the evaluation's match), with its code, or any
label at all. The summary prints, per confidence threshold and room tolerance, the slots taken,
how many of them hold a missed tile read right, and how many are false boxes.

    python scripts/tune_gaps.py --split val --split teach --out /tmp/gaps.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import eval_real  # noqa: E402

import mahjong_camera_scorer.vision.ask as ask_mod  # noqa: E402
from mahjong_camera_scorer.mjsynth.realphotos import load_picture, read_labels  # noqa: E402
from mahjong_camera_scorer.vision.detect import Detection, iou  # noqa: E402
from mahjong_camera_scorer.vision.layout import lay_out  # noqa: E402
from mahjong_camera_scorer.vision.models import load_model  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402

#: a faint box (under the detector's threshold) does not take its place (--faint-free)
#: loose limits, to see what lies just outside the shipped ones
LOOSE_TOLERANCE, LOOSE_MOST = (0.5, 0.5), 3


def slots_of(reader: PhotoReader, split: str, faint_free: bool = False) -> list[dict]:  # type: ignore[type-arg]
    out = []
    for p in eval_real.test_photos(eval_real.REAL, split):
        image = load_picture(p)
        h, w = image.shape[:2]
        labels = read_labels(p, w, h)
        result = reader.read_and_score(image)
        pairs = eval_real.match(list(result.tiles), labels)
        missed = [labels[j] for j in set(range(len(labels))) - {j for _, j in pairs}]
        seen = reader.read(image, mend_boxes=True)
        kept = [t for t in seen.tiles if t.detector_score >= reader.conf]
        layout = lay_out(kept)
        taken = [*kept, *seen.rejected] if faint_free else [*seen.tiles, *seen.rejected]
        slots = ask_mod.gap_slots(layout, [r.box for r in taken], image.shape, LOOSE_TOLERANCE, LOOSE_MOST)
        if not slots:
            continue
        read = {r.index: r for r in reader.read_boxes(image, [Detection(s.box, "tile", 0.0) for s in slots])}
        for i, s in enumerate(slots):
            r = read[i]
            best = max(missed, key=lambda lab: iou(s.box, lab.box), default=None)
            hit = best is not None and iou(s.box, best.box) >= 0.5
            near = max((iou(s.box, lab.box) for lab in labels), default=0.0)
            out.append(
                {
                    "split": split,
                    "dataset": p.dataset,
                    "picture": p.path.name,
                    "room": round(s.room, 3),
                    "missing": s.missing,
                    "code": r.code,
                    "confidence": round(r.confidence, 4),
                    "is_tile": r.is_tile,
                    "missed_label": best.code if hit and best is not None else None,
                    "any_label_iou": round(near, 3),
                }
            )
    return out


def dropped_slots(reader: PhotoReader, split: str) -> list[dict]:  # type: ignore[type-arg]
    """Misses made on purpose: each tile inside a row of the hand (not at its ends) whose box
    matches a label is taken away with every box on it, as if the detector had missed it, and
    the slot the layout then asks about there (IoU >= 0.5 with the label) is read; all of one
    picture's slots in one batch. What the reader says on a tile's predicted place: the
    positives the real splits do not have (the shipped detector misses no tile in a gap there)."""
    out = []
    for p in eval_real.test_photos(eval_real.REAL, split):
        image = load_picture(p)
        h, w = image.shape[:2]
        labels = read_labels(p, w, h)
        seen = reader.read(image, mend_boxes=True)
        every = [*seen.tiles, *seen.rejected]
        kept = [t for t in seen.tiles if t.detector_score >= reader.conf]
        layout = lay_out(kept)
        label_of = dict(eval_real.match(kept, labels))
        asks: list[tuple[ask_mod.Slot, str, str]] = []
        for g_row in sorted({g.row for g in layout.groups}):
            row = sorted(
                (t for g in layout.groups if g.row == g_row for t in g.tiles),
                key=lambda t: t.box[0] + t.box[2],
            )
            for t in row[1:-1]:
                i = kept.index(t)
                if i not in label_of:
                    continue
                lab = labels[label_of[i]]
                rest = [r for r in kept if r is not t and iou(r.box, t.box) < 0.3]
                taken = [r.box for r in every if r is not t and iou(r.box, t.box) < 0.3]
                slots = ask_mod.gap_slots(lay_out(rest), taken, image.shape)
                on = [s for s in slots if iou(s.box, lab.box) >= 0.5]
                if on:
                    asks.append((on[0], lab.code, t.code))
                else:
                    out.append({"split": split, "picture": p.path.name, "found": False, "label": lab.code})
        if not asks:
            continue
        dets = [Detection(s.box, "tile", 0.0) for s, _, _ in asks]
        read = {r.index: r for r in reader.read_boxes(image, dets)}
        for i, (s, code, was) in enumerate(asks):
            r = read[i]
            out.append(
                {
                    "split": split,
                    "picture": p.path.name,
                    "found": True,
                    "label": code,
                    "box_read": was,
                    "room": round(s.room, 3),
                    "missing": s.missing,
                    "code": r.code,
                    "confidence": round(r.confidence, 4),
                    "is_tile": r.is_tile,
                }
            )
    return out


def dropped_summary(rows: list[dict]) -> None:  # type: ignore[type-arg]
    found = [r for r in rows if r["found"]]
    print(f"{len(rows)} tiles taken away; a slot asked on {len(found)}")
    for conf in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
        taken = [r for r in found if r["is_tile"] and r["code"] != "back" and r["confidence"] >= conf]
        right = sum(r["code"] == r["label"] for r in taken)
        white = [r for r in found if r["label"] == "5z"]
        white_right = sum(r in taken and r["code"] == "5z" for r in white)
        print(f"  conf>={conf}: taken {len(taken)}, right {right}; blank whites {white_right}/{len(white)}")


def summary(rows: list[dict]) -> None:  # type: ignore[type-arg]
    print(f"{len(rows)} slots; {sum(r['missed_label'] is not None for r in rows)} on a missed label")
    for tol in ((0.3, 0.4), (0.3, 0.5), (0.5, 0.5), (0.25, 0.3)):
        for k_max in (1, 2):
            for conf in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
                taken = [
                    r
                    for r in rows
                    if r["missing"] <= k_max
                    and r["missing"] - tol[0] <= r["room"] <= r["missing"] + tol[1]
                    and r["is_tile"]
                    and r["code"] != "back"
                    and r["confidence"] >= conf
                ]
                right = sum(r["missed_label"] == r["code"] for r in taken)
                wrong = sum(r["missed_label"] is not None and r["missed_label"] != r["code"] for r in taken)
                false = sum(r["missed_label"] is None for r in taken)
                print(
                    f"tol {tol} k<={k_max} conf>={conf}: taken {len(taken)}, right {right}, "
                    f"misread {wrong}, false {false}"
                )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", action="append", choices=["val", "teach", "train"], required=True)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--drop", action="store_true", help="take tiles away on purpose (dropped_slots)")
    ap.add_argument("--detector", type=Path, help="another detector ONNX (one that misses more tiles)")
    ap.add_argument("--faint-free", action="store_true", help="faint boxes do not take a slot's place")
    args = ap.parse_args(argv)
    reader = PhotoReader(ask_gaps=False, det=load_model(args.detector) if args.detector else None)
    if args.drop:  # the shipped limits: where the layout would ask
        rows = [r for s in args.split for r in dropped_slots(reader, s)]
        report(rows, args.split, args.out, dropped_summary)
    else:
        rows = [r for s in args.split for r in slots_of(reader, s, args.faint_free)]
        report(rows, args.split, args.out, summary)
    return 0


def report(
    rows: list[dict], splits: list[str], out: Path | None, summarize: Callable[[list[dict]], None]
) -> None:  # type: ignore[type-arg]
    """The rows as JSON lines in ``out`` (when given), and each split's summary."""
    if out:
        out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for split in splits:
        print(f"== {split}")
        summarize([r for r in rows if r["split"] == split])


if __name__ == "__main__":
    raise SystemExit(main())

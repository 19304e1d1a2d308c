#!/usr/bin/env python3
"""Turn the labelled real photos of ``../shared/data/real`` into the detector's and the reader's data.

    python scripts/real_photos.py                 # split + detector set + reader crops + none crops
    python scripts/real_photos.py --split-only    # just (re)write models/real-split.csv

Writes (nothing from ``../shared`` is copied into the repository; ``data/`` is git-ignored):

- ``models/real-split.csv`` (committed): every picture with its data set, published split, source
  photo and **our** split (train / val / test / excluded / teach, see :mod:`mjsynth.realphotos`). The test
  split is fixed by this file: it is never trained on.
- ``data/real/det``: ultralytics detection set (symlinked pictures, labels as class 0 ``tile``;
  the real sets label no face-down tiles), ``data.yaml`` with train and val.
- ``data/real/cls/<split>/<code>/*.jpg`` and ``crops.csv``: every labelled tile cut exactly as at
  run time (:func:`vision.crops.crop_box`, 8 % margin, landscape turned to portrait). Roboflow's
  training copies may be mirrored; a mirrored tile is not a tile, so each Chinese training picture
  is read by the shipped reader as it is and mirrored, and pictures that read better mirrored are
  flipped back (``mirrored`` column). Which way up each crop lies is the shipped reader's answer
  where it is sure (``upside_down`` 0/1), else empty (the trainer then leaves that crop's
  orientation out of the loss).
- ``data/real/cls/<split>/none/*.jpg`` (``--negatives``): hard negatives for the reader's ``none``
  class from the training pictures: boxes of part of a labelled tile (a tile cut by the frame, a
  tile's side) and, only in pictures whose labels look complete (no confident detector box on no
  label), the shipped detector's boxes that lie on no labelled tile and patches between tiles;
  and (kind ``gap``, every picture) tile-sized boxes straddling the gap between two labelled
  neighbours (:func:`gap_boxes`), what the detector boxed as a back between standing tiles.
  Many pictures label only some of the tiles in view: a box there is as often a missed tile as
  clutter (seen on contact sheets), and a tile taught as ``none`` would be thrown away at run time.
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
sys.path.insert(0, str(ROOT / "datasets"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

from mahjong_camera_scorer.mjsynth.realphotos import (  # noqa: E402
    CHINESE,
    UNKNOWN_FACE,
    RealPhoto,
    assign_splits,
    hashes,
    load_picture,
    photos,
    read_labels,
)
from mahjong_camera_scorer.vision.crops import crop_box  # noqa: E402
from mahjong_camera_scorer.vision.detect import detect, iou  # noqa: E402
from mahjong_camera_scorer.vision.models import load_model  # noqa: E402
from mahjong_camera_scorer.vision.read import classify  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real"
SPLIT_CSV = ROOT / "models" / "real-split.csv"
#: The models that judge the training pictures (which Roboflow copies are mirrored, which way up a
#: crop lies, which detector boxes are clutter for ``none``): the last ones trained on synthetic
#: data only (commit 1f90cb0). A reader trained on these pictures has learned some mirrored copies
#: as ordinary tiles and no longer tells them apart: judged by it, 52 of the 104 mirrored training
#: pictures stayed mirrored, and the reader retrained on those crops misread 23 tiles of the val
#: split against 16.
JUDGE_COMMIT = "1f90cb0"
JUDGE_DIR = ROOT / "runs" / "judge-models"


def judge_models(folder: Path = JUDGE_DIR) -> Path:
    """The judging models' folder, written from git history when missing."""
    import subprocess

    for name in ("reader.onnx", "detector.onnx"):
        dst = folder / name
        if dst.is_file():
            continue
        folder.mkdir(parents=True, exist_ok=True)
        try:
            data = subprocess.run(
                ["git", "-C", str(ROOT), "show", f"{JUDGE_COMMIT}:models/{name}"],
                check=True,
                capture_output=True,
            ).stdout
        except (OSError, subprocess.CalledProcessError) as exc:
            raise SystemExit(
                f"error: cannot get {name} of commit {JUDGE_COMMIT} from git ({exc}); "
                f"put the judging models in {folder} or pass --models"
            ) from None
        dst.write_bytes(data)
    return folder


NONE = "none"


def load(p: RealPhoto) -> np.ndarray:
    """The picture as taken (the camera frames' width restored: :func:`load_picture`)."""
    try:
        return load_picture(p)
    except OSError as exc:
        raise SystemExit(f"error: {exc}") from None


def write_split(items: list[RealPhoto], split: dict[Path, str]) -> None:
    SPLIT_CSV.parent.mkdir(parents=True, exist_ok=True)
    with SPLIT_CSV.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["dataset", "published", "file", "source", "split"])
        for p in items:
            w.writerow([p.dataset, p.published, p.path.name, p.source, split[p.path]])


def read_split(root: Path = REAL, split_csv: Path = SPLIT_CSV) -> list[tuple[RealPhoto, str]]:
    """The committed split, resolved against ``root`` (raises if the data is missing)."""
    out = []
    for r in csv.DictReader(split_csv.open(encoding="utf-8")):
        path = root / r["dataset"] / r["published"] / "images" / r["file"]
        out.append((RealPhoto(r["dataset"], r["published"], path), r["split"]))
    return out


def write_det(items: list[tuple[RealPhoto, str]], out: Path) -> None:
    n = Counter()
    for p, split in items:
        if split not in ("train", "val", "test"):
            continue
        image = load(p)
        h, w = image.shape[:2]
        labels = read_labels(p, w, h)
        img_dir, lab_dir = out / "images" / split, out / "labels" / split
        img_dir.mkdir(parents=True, exist_ok=True)
        lab_dir.mkdir(parents=True, exist_ok=True)
        name = f"{p.dataset[:3]}_{p.path.stem}"
        dst = img_dir / f"{name}.jpg"
        if not dst.exists():
            dst.symlink_to(p.path.resolve())
        lines = []
        for b in (lab.box for lab in labels):
            cx, cy, bw, bh = (
                (b[0] + b[2]) / 2 / w,
                (b[1] + b[3]) / 2 / h,
                (b[2] - b[0]) / w,
                (b[3] - b[1]) / h,
            )
            lines.append(f"0 {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
        (lab_dir / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        n[split] += 1
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\ntest: images/test\n"
        "names:\n  0: tile\n  1: back\n"
    )
    print(f"detector set {out}: {dict(n)} pictures", flush=True)


def _label_logprob(reader, image: np.ndarray, labels: list) -> float:  # type: ignore[no-untyped-def]
    coded = [lab for lab in labels if lab.code in reader.classes]
    if not coded:
        return 0.0
    crops = [crop_box(image, lab.box)[0] for lab in coded]
    probs, _ = classify(reader, crops, tta=False)
    idx = [reader.classes.index(lab.code) for lab in coded]
    return float(np.mean(np.log(probs[np.arange(len(idx)), idx] + 1e-6)))


def write_crops(items: list[tuple[RealPhoto, str]], out: Path, reader) -> None:  # type: ignore[no-untyped-def]
    rows = []
    flipped = 0
    for p, split in items:
        if split not in ("train", "val", "test"):
            continue
        image = load(p)
        h, w = image.shape[:2]
        labels = [lab for lab in read_labels(p, w, h) if lab.code != UNKNOWN_FACE]
        mirrored = False
        if p.dataset == CHINESE and p.published == "train" and labels:
            mirror = image[:, ::-1].copy()
            mlabels = [
                type(lab)(lab.code, (w - lab.box[2], lab.box[1], w - lab.box[0], lab.box[3]))
                for lab in labels
            ]
            if _label_logprob(reader, mirror, mlabels) > _label_logprob(reader, image, labels) + 0.3:
                image, labels, mirrored = mirror, mlabels, True
                flipped += 1
        cuts = [crop_box(image, lab.box) for lab in labels]
        if not cuts:
            continue
        _, p_flip = classify(reader, [c for c, _ in cuts], tta=True)
        for k, (lab, (crop, turned), pf) in enumerate(zip(labels, cuts, p_flip, strict=True)):
            d = out / split / lab.code
            d.mkdir(parents=True, exist_ok=True)
            f = d / f"{p.dataset[:3]}_{p.path.stem}_{k}.jpg"
            cv2.imwrite(str(f), crop)
            sure = abs(2 * float(pf) - 1) > 0.6
            rows.append(
                {
                    "file": str(f.relative_to(out)),
                    "code": lab.code,
                    "split": split,
                    "dataset": p.dataset,
                    "photo": p.path.name,
                    "box": json.dumps([round(v, 1) for v in lab.box]),
                    "turned": int(turned),
                    "mirrored": int(mirrored),
                    "upside_down": (str(int(pf > 0.5)) if sure else ""),
                }
            )
    with (out / "crops.csv").open("w", newline="", encoding="utf-8") as fh:
        wr = csv.DictWriter(fh, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)
    by = Counter((r["split"], r["dataset"]) for r in rows)
    print(f"reader crops {out}: {dict(by)}; {flipped} mirrored training pictures flipped back", flush=True)


def _inside(a, b) -> float:  # type: ignore[no-untyped-def]
    """How much of box ``a`` lies inside box ``b`` (0..1)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    area = max(1e-6, (a[2] - a[0]) * (a[3] - a[1]))
    return ix * iy / area


#: Two labelled tiles are neighbours when their centres lie within this many of their widths
#: along the row and they overlap this much across it (a share of the smaller one's height).
NEIGHBOUR_PITCH, NEIGHBOUR_OVERLAP = 1.3, 0.7
#: gap boxes taken from one picture (evenly over its neighbour pairs)
GAPS_PER_PICTURE = 3


def gap_boxes(boxes: list, pitch: float = NEIGHBOUR_PITCH) -> list[tuple]:  # type: ignore[type-arg]
    """Tile-sized boxes centred on the gap between two neighbouring labelled tiles: half of each
    tile and the table between them. On the camera frames the detector boxed such gaps as face-down
    tiles (the mat in shadow between two standing tiles), and the reader, never shown one as "not
    a tile", called 11 of them a back. A box overlapping any labelled tile as much as a match
    would (IoU 0.4) is left out: that is a tile. Deterministic (no random draw), so adding them
    leaves every other negative of the set as it was. ``pitch``: how far apart (in tile widths,
    centre to centre) two tiles may stand and still be neighbours."""
    # side by side only: the gap between a tile and the one below it shows a 萬 over a numeral, as
    # a man tile turned upside down does
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            width = (a[2] - a[0] + b[2] - b[0]) / 2
            overlap = min(a[3], b[3]) - max(a[1], b[1])
            lower = min(a[3] - a[1], b[3] - b[1])
            if abs(a[0] + a[2] - b[0] - b[2]) / 2 > pitch * width or overlap < NEIGHBOUR_OVERLAP * lower:
                continue
            mid = (a[0] + a[2] + b[0] + b[2]) / 4
            box = (mid - width / 2, (a[1] + b[1]) / 2, mid + width / 2, (a[3] + b[3]) / 2)
            if all(iou(box, c) < 0.4 for c in boxes):
                out.append(box)
    step = max(1, len(out) // GAPS_PER_PICTURE)
    return out[::step][:GAPS_PER_PICTURE]


def negative_boxes(image: np.ndarray, labels: list, det, rng: random.Random) -> list[tuple[str, tuple]]:  # type: ignore[no-untyped-def]
    """(kind, box) of things that are not a whole tile in one training picture."""
    h, w = image.shape[:2]
    boxes = [lab.box for lab in labels]
    out: list[tuple[str, tuple]] = []
    stray = [
        d
        for d in detect(det, image, conf=0.2)
        if all(iou(d.box, b) < 0.2 and _inside(d.box, b) < 0.6 and _inside(b, d.box) < 0.6 for b in boxes)
    ]
    # Many pictures label only some of the tiles in view (heaps, walls, other hands): there a
    # box on no label is as often an unlabelled tile as clutter (checked by eye on contact
    # sheets). A picture with a confident box on no label is taken as incompletely labelled: it
    # gives only parts of its labelled tiles, no boxes or patches.
    complete = all(d.score < 0.5 for d in stray)
    if complete:
        out += [("false_box", d.box) for d in stray]
    for b in rng.sample(boxes, min(3, len(boxes))):  # part of a tile: a third to a half of it
        bw, bh = b[2] - b[0], b[3] - b[1]
        f = rng.uniform(0.3, 0.5)
        side = rng.choice("lrtb")
        if side == "l":
            part = (b[0] - bw * 0.1, b[1], b[0] + bw * f, b[3])
        elif side == "r":
            part = (b[2] - bw * f, b[1], b[2] + bw * 0.1, b[3])
        elif side == "t":
            part = (b[0], b[1] - bh * 0.1, b[2], b[1] + bh * f)
        else:
            part = (b[0], b[3] - bh * f, b[2], b[3] + bh * 0.1)
        out.append(("part", part))
    if boxes and complete:
        med_w = float(np.median([b[2] - b[0] for b in boxes]))
        med_h = float(np.median([b[3] - b[1] for b in boxes]))
        for _ in range(20):  # empty patches, the size of a tile
            if len([k for k, _ in out if k == "patch"]) >= 2:
                break
            x0, y0 = rng.uniform(0, max(1, w - med_w)), rng.uniform(0, max(1, h - med_h))
            box = (x0, y0, x0 + med_w, y0 + med_h)
            if all(_inside(box, b) < 0.1 and _inside(b, box) < 0.1 for b in boxes):
                out.append(("patch", box))
    out += [("gap", b) for b in gap_boxes(boxes)]
    return out


def write_negatives(items: list[tuple[RealPhoto, str]], out: Path, reader, det, seed: int = 0) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    n: Counter = Counter()
    skipped = 0
    rows = []
    for p, split in items:
        if split != "train":
            continue
        image = load(p)
        h, w = image.shape[:2]
        labels = read_labels(p, w, h)
        negs = negative_boxes(image, labels, det, rng)
        if not negs:
            continue
        crops = [crop_box(image, b)[0] for _, b in negs]
        probs, _ = classify(reader, crops, tta=True)
        d = out / split / NONE
        d.mkdir(parents=True, exist_ok=True)
        for k, ((kind, _box), crop, pr) in enumerate(zip(negs, crops, probs, strict=True)):
            if kind == "false_box" and float(pr.max()) >= 0.97:
                skipped += 1
                continue
            f = d / f"{p.dataset[:3]}_{p.path.stem}_n{k}.jpg"
            cv2.imwrite(str(f), crop)
            rows.append({"file": str(f.relative_to(out)), "kind": kind, "photo": p.path.name})
            n[kind] += 1
    with (out / "none.csv").open("w", newline="", encoding="utf-8") as fh:
        wr = csv.DictWriter(fh, fieldnames=["file", "kind", "photo"])
        wr.writeheader()
        wr.writerows(rows)
    print(f"none crops: {dict(n)}; {skipped} sure-looking false boxes left out (likely unlabelled tiles)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=REAL)
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "real")
    ap.add_argument("--split-only", action="store_true", help="only (re)write models/real-split.csv")
    ap.add_argument("--resplit", action="store_true", help="recompute the split (it is committed: rarely)")
    ap.add_argument("--no-negatives", dest="negatives", action="store_false")
    ap.add_argument(
        "--models", type=Path, help=f"judging models (default: commit {JUDGE_COMMIT}'s, see JUDGE_COMMIT)"
    )
    args = ap.parse_args(argv)
    if not args.real.is_dir():
        print(
            f"error: no real photos at {args.real} (the shared folder beside the checkout)", file=sys.stderr
        )
        return 2
    if args.resplit or args.split_only or not SPLIT_CSV.is_file():
        items = list(photos(args.real))
        hash_of = {p.path: hashes(load(p)) for p in items}
        split = assign_splits(items, hash_of)
        write_split(items, split)
        print(f"split {SPLIT_CSV}: {dict(Counter((p.dataset, split[p.path]) for p in items))}")
        if args.split_only:
            return 0
    items = read_split(args.real)
    judges = args.models or judge_models()
    reader = load_model(judges / "reader.onnx")
    write_det(items, args.out / "det")
    write_crops(items, args.out / "cls", reader)
    if args.negatives:
        write_negatives(items, args.out / "cls", reader, load_model(judges / "detector.onnx"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

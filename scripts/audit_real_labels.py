#!/usr/bin/env python3
"""Gather the boxes detectors find on no published label of the real test/val pictures, for judging by eye.

The published labels of the real sets often leave out tiles in view (scattered heaps, walls, rows
of standing tiles), so a "false box" of ``scripts/eval_real.py`` may be a real tile nobody
labelled. This script finds the candidates and records a person's verdicts in the audit
(``models/real-audit.csv``, read by ``mjsynth.realphotos.read_audit``):

1. **gather**: every detection (confidence >= ``vision.detect.DETECTOR_CONF``) of each detector
   given, on the test and val pictures of ``models/real-split.csv``, that overlaps no published
   label (IoU < 0.3); boxes of several detectors on one tile are merged (IoU >= 0.5) and boxes
   already audited (IoU >= 0.5, any verdict) are left out. Writes numbered contact sheets
   (``sheet-NN.png``: each box in red, in close-up and in its surroundings with the published
   labels in green) and ``candidates.json`` into ``--out``.
2. A person looks at every sheet and writes a verdicts file, one line per box:
   ``N verdict [note]`` or ``N-M verdict [note]`` (verdicts: ``mjsynth.realphotos.AUDIT_VERDICTS``);
   a published label seen to be plainly wrong (on no tile) is ``bad_label FILE LINE [note]``, LINE
   counted from 0 in its labels file as in ``LABEL_FIXES`` (wrong codes go there, not here).
3. **record**: ``--record VERDICTS`` appends those rows to the audit file (rows already there are
   kept as they are). Gather again afterwards: a condemned label no longer hides the tiles under it.

    python scripts/audit_real_labels.py models/detector.onnx /tmp/det-stage3.onnx --out runs/audit
    python scripts/audit_real_labels.py --out runs/audit --record runs/audit/verdicts.txt
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "datasets", ROOT / "scripts"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
from eval_real import REAL, test_photos  # noqa: E402

from mahjong_camera_scorer.mjsynth.realphotos import (  # noqa: E402
    AUDIT_COLUMNS,
    AUDIT_VERDICTS,
    AuditBox,
    Label,
    apply_audit,
    load_picture,
    published_box,
    read_audit,
    read_labels,
)
from mahjong_camera_scorer.vision.detect import DETECTOR_CONF, detect, iou  # noqa: E402
from mahjong_camera_scorer.vision.models import MODELS_DIR, ModelError, load_model  # noqa: E402

AUDIT_CSV = ROOT / "models" / "real-audit.csv"
#: A detection overlapping a published label less than this is on no label (a candidate).
ON_NO_LABEL = 0.3
#: Two boxes overlapping at least this much are one tile (merging detectors, skipping audited ones).
SAME_TILE = 0.5
CELL = 200  # each of a candidate's two views is CELL x CELL pixels
COLS = 4  # candidates per sheet row
ROWS = 6


Box = tuple[float, float, float, float]  # xyxy in the picture's pixels
Views = dict[str, tuple[np.ndarray, list[Label]]]  # picture name → (picture, its labels)


@dataclass
class Candidate:
    """One box to judge: where it is and which detectors found it (best score kept)."""

    dataset: str
    split: str
    file: str
    box: Box
    label: str
    score: float
    detectors: list[str] = field(default_factory=list)


def rounded(box: Box) -> Box:
    """A box to 0.1 px, as the audit file keeps it."""
    x0, y0, x1, y1 = (round(v, 1) for v in box)
    return x0, y0, x1, y1


def on_no_label(box: Box, labels: list[Label]) -> bool:
    return all(iou(box, lab.box) < ON_NO_LABEL for lab in labels)


def gather(
    detectors: list[Path], splits: list[str], real: Path, audit: dict[tuple[str, str], list[AuditBox]]
) -> tuple[list[Candidate], Views]:
    """The candidates of every chosen picture, and each picture's labels drawn for the sheets."""
    models = [load_model(d) for d in detectors]
    out: list[Candidate] = []
    images: Views = {}
    photos = [(s, p) for s in splits for p in test_photos(real, s)]
    for n, (split, photo) in enumerate(photos, 1):
        try:
            image = load_picture(photo)
        except OSError as exc:
            raise SystemExit(f"error: {exc}") from None
        h, w = image.shape[:2]
        audited = audit.get((photo.dataset, photo.path.name), [])
        labels = apply_audit(read_labels(photo, w, h), [a for a in audited if a.verdict == "bad_label"])
        done = [a.box for a in audited]
        mine: list[Candidate] = []
        for path, model in zip(detectors, models, strict=True):
            for d in detect(model, image, conf=DETECTOR_CONF):
                if not on_no_label(d.box, labels) or any(iou(d.box, b) >= SAME_TILE for b in done):
                    continue
                same = next((c for c in mine if iou(c.box, d.box) >= SAME_TILE), None)
                if same is None:
                    same = Candidate(photo.dataset, split, photo.path.name, rounded(d.box), d.label, d.score)
                    mine.append(same)
                elif d.score > same.score:
                    same.box, same.label, same.score = rounded(d.box), d.label, d.score
                if str(path) not in same.detectors:
                    same.detectors.append(str(path))
        if mine:
            images[photo.path.name] = (image, labels)
            out += sorted(mine, key=lambda c: (c.box[1], c.box[0]))
        if n % 50 == 0 or n == len(photos):
            print(f"{n}/{len(photos)} pictures, {len(out)} candidates", file=sys.stderr)
    return out, images


def view(image: np.ndarray, box: Box, margin: float, labels: list[Label]) -> np.ndarray:
    """A square CELL-pixel view centred on ``box``, ``margin`` box sizes around it: the box in red,
    the published labels in green (to tell a box far off a labelled tile from a new one)."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * (1 + 2 * margin)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s = CELL / side
    # an affine map keeps the view centred even where it leaves the picture (grey outside)
    m = np.array([[s, 0, CELL / 2 - cx * s], [0, s, CELL / 2 - cy * s]], np.float32)
    out = cv2.warpAffine(image, m, (CELL, CELL), flags=cv2.INTER_AREA, borderValue=(90, 90, 90))

    def at(b: tuple[float, ...], grow: int) -> tuple[tuple[int, int], tuple[int, int]]:
        return (
            (round((b[0] - cx) * s + CELL / 2) - grow, round((b[1] - cy) * s + CELL / 2) - grow),
            (round((b[2] - cx) * s + CELL / 2) + grow, round((b[3] - cy) * s + CELL / 2) + grow),
        )

    if margin >= 1:  # the close-up stays clean: the face must be seen
        for lab in labels:
            cv2.rectangle(out, *at(lab.box, 0), (0, 200, 0), 1)
    cv2.rectangle(out, *at(box, 1), (0, 0, 255), 1 if margin < 1 else 2)
    return out


def sheets(cands: list[Candidate], images: Views, out: Path) -> list[Path]:
    """Numbered contact sheets: each candidate in close-up (left) and in its surroundings (right)."""
    per = COLS * ROWS
    paths = []
    head = 22
    for first in range(0, len(cands), per):
        cells = []
        for n, c in enumerate(cands[first : first + per], first + 1):
            img, labels = images[c.file]
            pair = np.hstack([view(img, c.box, 0.25, labels), view(img, c.box, 1.5, labels)])
            title = np.full((head, 2 * CELL, 3), 255, np.uint8)
            text = f"{n}  {c.label} {c.score:.2f}  {c.dataset[:7]}/{c.split}  {len(c.detectors)}d"
            cv2.putText(title, text, (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
            cell = np.vstack([title, pair])
            cells.append(cv2.copyMakeBorder(cell, 3, 3, 3, 3, cv2.BORDER_CONSTANT, value=(255, 255, 255)))
        while len(cells) % COLS:
            cells.append(np.full_like(cells[0], 255))
        rows = [np.hstack(cells[i : i + COLS]) for i in range(0, len(cells), COLS)]
        path = out / f"sheet-{first // per + 1:02d}.png"
        cv2.imwrite(str(path), np.vstack(rows), [cv2.IMWRITE_PNG_COMPRESSION, 9])
        paths.append(path)
    return paths


@dataclass(frozen=True)
class BadLabel:
    """A published label condemned by eye: its picture, its line in the labels file, why."""

    file: str
    line: int
    note: str


def parse_verdicts(text: str, count: int) -> tuple[dict[int, tuple[str, str]], list[BadLabel]]:
    """A verdicts file → (candidate number → (verdict, note), condemned labels); '#' starts a comment."""
    out: dict[int, tuple[str, str]] = {}
    bad: list[BadLabel] = []
    for k, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("bad_label"):
            parts = line.split(None, 3)
            if len(parts) < 3 or not parts[2].isdigit():
                raise ValueError(f"line {k}: expected 'bad_label FILE LINE [note]', got {line!r}")
            bad.append(BadLabel(parts[1], int(parts[2]), parts[3] if len(parts) > 3 else ""))
            continue
        parts = line.split(None, 2)
        if len(parts) < 2 or parts[1] not in AUDIT_VERDICTS or parts[1] == "bad_label":
            raise ValueError(f"line {k}: expected 'N verdict [note]' with a box verdict, got {line!r}")
        a, _, b = parts[0].partition("-")
        try:
            numbers = range(int(a), int(b or a) + 1)
        except ValueError:
            raise ValueError(f"line {k}: {parts[0]!r} is not a number or a range N-M") from None
        for n in numbers:
            if not 1 <= n <= count:
                raise ValueError(f"line {k}: no candidate {n} (there are {count})")
            if n in out:
                raise ValueError(f"line {k}: candidate {n} judged twice")
            out[n] = (parts[1], parts[2] if len(parts) > 2 else "")
    return out, bad


def label_box(bad: BadLabel, real: Path) -> tuple[str, Box]:
    """The data set and pixel box of a condemned label, as ``read_labels`` reads it."""
    found = [p for s in ("test", "val", "train") for p in test_photos(real, s) if p.path.name == bad.file]
    if not found:
        raise ValueError(f"{bad.file} is not in the real split")
    photo = found[0]
    image = load_picture(photo)
    labels = read_labels(photo, image.shape[1], image.shape[0])
    lines = photo.labels_path.read_text().splitlines()
    if len(labels) != len(lines):  # read_labels skipped a line: indices would not be lines
        raise ValueError(
            f"{bad.file}: {len(lines)} label lines but {len(labels)} labels; give the box by hand"
        )
    if not 0 <= bad.line < len(labels):
        raise ValueError(f"{bad.file} has no label line {bad.line}")
    return photo.dataset, labels[bad.line].box


def record(
    cands: list[dict], verdicts: dict[int, tuple[str, str]], bad: list[BadLabel], real: Path, audit_csv: Path
) -> int:
    """Append the judged candidates and the condemned labels to the audit file; returns the rows added."""
    rows = []
    for n in sorted(verdicts):
        c = cands[n - 1]
        verdict, note = verdicts[n]
        box = published_box(c["dataset"], c["box"])
        rows.append([c["file"], c["dataset"], *(f"{v:.1f}" for v in box), verdict, note])
    for b in bad:
        dataset, box = label_box(b, real)
        rows.append(
            [
                b.file,
                dataset,
                *(f"{v:.1f}" for v in published_box(dataset, box)),
                "bad_label",
                f"label line {b.line}: {b.note}",
            ]
        )
    new = not audit_csv.is_file()
    with audit_csv.open("a", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if new:
            w.writerow(AUDIT_COLUMNS)
        w.writerows(rows)
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("detectors", nargs="*", type=Path, help="detector ONNX files (default: the shipped one)")
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "label-audit", help="sheets and candidates")
    ap.add_argument("--audit", type=Path, default=AUDIT_CSV)
    ap.add_argument("--real", type=Path, default=REAL)
    ap.add_argument("--split", nargs="+", default=["test", "val"], choices=["test", "val", "train"])
    ap.add_argument("--record", type=Path, help="a verdicts file for the --out folder's candidates.json")
    args = ap.parse_args(argv)
    try:
        audit = read_audit(args.audit)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    found = args.out / "candidates.json"
    if args.record:
        if not found.is_file() or not args.record.is_file():
            print(f"error: need {found} and {args.record}", file=sys.stderr)
            return 2
        cands = json.loads(found.read_text())["candidates"]
        try:
            verdicts, bad = parse_verdicts(args.record.read_text(), len(cands))
            for b in bad:
                label_box(b, args.real)  # every condemned label is found before anything is written
        except ValueError as exc:
            print(f"error: {args.record}: {exc}", file=sys.stderr)
            return 2
        if any(
            iou(c["box"], a.box) >= SAME_TILE for c in cands for a in audit.get((c["dataset"], c["file"]), [])
        ):
            print(f"error: {found} holds boxes {args.audit} already has: gather again", file=sys.stderr)
            return 2
        n = record(cands, verdicts, bad, args.real, args.audit)
        print(f"{args.audit}: {n} rows added, {len(cands) - len(verdicts)} candidates left unjudged")
        return 0
    if not args.real.is_dir():
        print(f"error: no real photos at {args.real}", file=sys.stderr)
        return 2
    try:
        cands, images = gather(args.detectors or [MODELS_DIR / "detector.onnx"], args.split, args.real, audit)
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("sheet-*.png"):
        old.unlink()
    paths = sheets(cands, images, args.out)
    found.write_text(
        json.dumps(
            {
                "detectors": [str(d) for d in args.detectors or [MODELS_DIR / "detector.onnx"]],
                "conf": DETECTOR_CONF,
                "candidates": [{"n": i, **vars(c)} for i, c in enumerate(cands, 1)],
            },
            indent=1,
        )
        + "\n"
    )
    print(f"{len(cands)} candidates on {len(images)} pictures: {found}, {len(paths)} sheets in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

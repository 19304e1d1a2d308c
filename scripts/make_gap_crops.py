#!/usr/bin/env python3
"""Cut "not a tile" crops of the table between standing tiles from generated scenes.

    python scripts/make_gap_crops.py --out data/gaps-synth/cls data/synth-v2/det data/autotable-train/det

Why: on the camera frames (a set no model trained on) the detector boxes the mat between two
standing tiles, in shadow, as a face-down tile, and the reader agrees (12 such boxes in the hand
with reader 22h): the crop is mostly table with a sliver of each tile's side, much like a teal
back. The real training pictures show few standing rows with table between the tiles; the
generated scenes show many, with tables of every colour. Each scene gives at most three boxes
(:func:`real_photos.gap_boxes` with a wider pitch: tiles standing up to 1.6 widths apart) between
two face-up tiles (never a back: half of two backs is a back's colour, and a wall's gaps are not
what the frames show), cut as the runtime cuts a box (:func:`vision.crops.crop_box`) into
``<out>/none/``, a classify folder set for ``train_reader.py --synth``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
from real_photos import gap_boxes  # noqa: E402

from mahjong_camera_scorer.vision.crops import crop_box  # noqa: E402
from mahjong_camera_scorer.vision.images import PhotoError, load_photo  # noqa: E402

#: standing tiles in generated scenes stand up to this many widths apart, centre to centre
STANDING_PITCH = 1.6
FACE_UP = 0  # the detector set's class of a tile showing its face


def face_boxes(label_file: Path, w: int, h: int) -> list[tuple[float, float, float, float]]:
    """The face-up tiles of one YOLO label file, in pixels."""
    out = []
    for line in label_file.read_text().splitlines():
        parts = line.split()
        if len(parts) != 5 or int(parts[0]) != FACE_UP:
            continue
        cx, cy, bw, bh = (float(v) for v in parts[1:])
        out.append(((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h))
    return out


def cut(det: Path, out: Path) -> int:
    """Write the gap crops of one detection set's training scenes; returns how many."""
    n = 0
    images = sorted((det / "images" / "train").glob("*.*"))
    target = out / "none"
    target.mkdir(parents=True, exist_ok=True)
    for image_path in images:
        label = det / "labels" / "train" / f"{image_path.stem}.txt"
        if not label.is_file():
            continue
        try:
            image, _ = load_photo(image_path, reduce=False)
        except PhotoError:
            continue
        h, w = image.shape[:2]
        for k, box in enumerate(gap_boxes(face_boxes(label, w, h), pitch=STANDING_PITCH)):
            crop, _ = crop_box(image, box)
            cv2.imwrite(str(target / f"{det.parent.name}_{image_path.stem}_g{k}.jpg"), crop)
            n += 1
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("det", nargs="+", type=Path, help="ultralytics detection sets (<det>/images/train)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    for det in args.det:
        if not (det / "images" / "train").is_dir():
            print(f"error: no training images at {det / 'images' / 'train'}", file=sys.stderr)
            return 2
    for det in args.det:
        print(f"{det}: {cut(det, args.out)} gap crops", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Test-time looks for the man tiles' numerals (issue 22), measured on sets the reader never saw.

The reader alone on the true boxes (so the detector's boxes do not blur the comparison): the 67
camera frames' labelled tiles (restored width) and the 80 camerash-pr4 crops (a margin of 4 % cut
off each side, as a detector box would sit inside a tight crop). Each variant reads every tile
with the reader's two looks (as it is and turned 180°) for each of its crops and averages:

- ``base``: the runtime's crop (the box with an 8 % margin);
- ``pad0``: no margin, the numeral larger in the reader's 96 px;
- ``pads``: margins 0, 8 and 16 %;
- ``shifts``: the box and four shifts of 5 % of its size.

Mirror flips are no valid look (a mirrored character is not a character).

    python scripts/eval_numerals.py --out models/metrics/numerals-reader-b.json [--reader R.onnx]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "datasets"), str(ROOT / "scripts")]
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import eval_real  # noqa: E402
import eval_unseen  # noqa: E402

from mahjong_camera_scorer.mjsynth.realphotos import UNKNOWN_FACE, load_picture, read_labels  # noqa: E402
from mahjong_camera_scorer.vision.crops import crop_box  # noqa: E402
from mahjong_camera_scorer.vision.models import load_model  # noqa: E402
from mahjong_camera_scorer.vision.read import classify  # noqa: E402

Item = tuple[np.ndarray, tuple[float, float, float, float], str, str]  # image, box, code, source
SHIFTS = ((0.0, 0.0), (-0.05, 0.0), (0.05, 0.0), (0.0, -0.05), (0.0, 0.05))
VARIANTS = ("base", "pad0", "pads", "shifts")


def items() -> list[Item]:
    out: list[Item] = []
    for p in eval_unseen.frame_photos(set()):
        image = load_picture(p)
        h, w = image.shape[:2]
        out += [
            (image, lab.box, lab.code, "frames") for lab in read_labels(p, w, h) if lab.code != UNKNOWN_FACE
        ]
    for path, code in eval_unseen.pr4_crops():
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        out.append((image, (w * 0.04, h * 0.04, w * 0.96, h * 0.96), code, "pr4_crops"))
    return out


def crops_of(variant: str, image: np.ndarray, box: tuple[float, float, float, float], size: int) -> list:
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    if variant == "base":
        return [crop_box(image, box, size)[0]]
    if variant == "pad0":
        return [crop_box(image, box, size, pad=0.0)[0]]
    if variant == "pads":
        return [crop_box(image, box, size, pad=p)[0] for p in (0.0, 0.08, 0.16)]
    return [
        crop_box(image, (x0 + dx * bw, y0 + dy * bh, x1 + dx * bw, y1 + dy * bh), size)[0]
        for dx, dy in SHIFTS
    ]


def readings(rdr, tiles: list[Item], variant: str) -> list[str]:  # type: ignore[no-untyped-def]
    size = rdr.imgsz[0]
    per = [crops_of(variant, im, box, size) for im, box, _, _ in tiles]
    flat = [c for cs in per for c in cs]
    probs = np.concatenate([classify(rdr, flat[i : i + 256], True)[0] for i in range(0, len(flat), 256)])
    probs = probs.reshape(len(tiles), len(per[0]), -1).mean(1)
    return [rdr.classes[int(np.argmax(p))] for p in probs]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reader", type=Path, default=ROOT / "models" / "checkpoints" / "reader-b.onnx")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if not args.reader.is_file() or not (eval_unseen.SHARED / "real").is_dir():
        print(f"error: no reader at {args.reader} or no real photos at {eval_unseen.SHARED}", file=sys.stderr)
        return 2
    rdr = load_model(args.reader)
    tiles = items()
    out: dict = {"reader": eval_real.shown(args.reader)}
    for variant in VARIANTS:
        read = readings(rdr, tiles, variant)
        out[variant] = {}
        for src in ("frames", "pr4_crops"):
            idx = [i for i, t in enumerate(tiles) if t[3] == src]
            man = [i for i in idx if tiles[i][2].endswith("m")]
            wrong = Counter(f"{tiles[i][2]}->{read[i]}" for i in man if read[i] != tiles[i][2])
            out[variant][src] = {
                "all": f"{sum(read[i] == tiles[i][2] for i in idx)}/{len(idx)}",
                "man": f"{sum(read[i] == tiles[i][2] for i in man)}/{len(man)}",
                "man_misreads": wrong.most_common(8),
            }
        print(variant, json.dumps(out[variant]), flush=True)
    eval_real.save_json(out, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The real training photos re-framed as users frame theirs: detector training pictures (issue 33).

The detector trained on the real photos as they were taken (a hand or a heap of tiles, upright, at
one distance) finds 37 % of the tiles of the same photos seen from afar, 89 % of them turned a
quarter, 89 % from the seat (``scripts/eval_scenes.py``, the baseline in ``models/README.md``).
This writes the Chinese/HK **training** split's pictures (``models/real-split.csv``; never a
validation or test picture, never a camera frame) re-framed by the same variant maker the
measurement uses (:mod:`mjsynth.photo_variants`: far views, seat views, quarter and half turns,
tight crops of a row), with another seed than the measurement's, as an ultralytics detection set:
``OUT/det/images/train/*.jpg`` and ``OUT/det/labels/train/*.txt`` (class ``tile``). A tile cut at
the frame's border is labelled when at least half of it is inside. Pictures whose published boxes
fit loosely (Roboflow's turned and sheared copies: most of a picture's boxes overlap a neighbour
by IoU > 0.25, 127 of the 649, :func:`loose_labels`) are left out: re-framed, a loose box teaches
the detector a box off its tile.

    python scripts/make_reframed.py --out data/reframed --kinds far,seat,turn90,turn180,crop

Nothing from ``../shared`` is copied into the repository: the pictures go to ``data/`` (ignored).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import eval_real  # noqa: E402

from mahjong_camera_scorer.mjsynth.photo_variants import KINDS, variants, with_rows  # noqa: E402
from mahjong_camera_scorer.mjsynth.realphotos import CHINESE, load_picture, read_labels  # noqa: E402
from mahjong_camera_scorer.vision.zoom import pairwise_iou  # noqa: E402

#: A tile cut at the border is labelled when at least this share of it is in the frame.
LABEL_VISIBLE = 0.5
#: The variants' seed: the measurement uses 0; training pictures are other draws.
SEED = 1000
#: A picture's labels fit loosely when more than this share of its boxes overlap a neighbour's
#: by IoU over :data:`LOOSE_IOU` (tiles lie side by side; their boxes barely overlap).
LOOSE_SHARE, LOOSE_IOU = 0.4, 0.25


def loose_labels(boxes: list[tuple[float, float, float, float]]) -> bool:
    """Do these boxes fit their tiles loosely (most overlap a neighbour's)?"""
    if len(boxes) < 2:
        return False
    b = np.array(boxes, np.float64)
    iou = pairwise_iou(b, b)
    np.fill_diagonal(iou, 0.0)
    return bool((iou.max(axis=1) > LOOSE_IOU).mean() > LOOSE_SHARE)


def yolo_line(box: tuple[float, float, float, float], w: int, h: int) -> str:
    """One ultralytics label line of class 0 (``tile``) for an ``xyxy`` box in a w x h picture."""
    x0, y0, x1, y1 = box
    return f"0 {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--kinds", default="far,seat,turn90,turn180,crop")
    ap.add_argument("--crops-per-photo", type=int, default=2, help="at most this many row crops a photo")
    ap.add_argument("--limit", type=int, help="at most this many training photos (a quick run)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument(
        "--label-visible",
        type=float,
        default=LABEL_VISIBLE,
        help="label a tile cut at the border when at least this share of it is inside (default %(default)s)",
    )
    args = ap.parse_args(argv)
    if not 0.0 < args.label_visible <= 1.0:
        ap.error("--label-visible takes a share in (0, 1]")
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        ap.error(f"unknown kinds {unknown} (known: {', '.join(KINDS)})")
    real = ROOT.parent / "shared" / "data" / "real"
    if not real.is_dir():
        print(f"error: {real} is missing (../shared/data/real)", file=sys.stderr)
        return 2
    photos = [p for p in eval_real.test_photos(real, "train") if p.dataset == CHINESE]
    if args.limit:
        photos = photos[: args.limit]
    img_dir, lab_dir = args.out / "det" / "images" / "train", args.out / "det" / "labels" / "train"
    img_dir.mkdir(parents=True, exist_ok=True)
    lab_dir.mkdir(parents=True, exist_ok=True)
    written = dict.fromkeys(kinds, 0)
    loose = 0
    for p in photos:
        image = load_picture(p)
        h, w = image.shape[:2]
        labels = read_labels(p, w, h)
        if loose_labels([lab.box for lab in labels]):
            loose += 1
            continue
        tiles = with_rows([(lab.code, lab.box) for lab in labels])
        rng = random.Random(f"{args.seed}:{p.path.name}")
        made = list(variants(image, tiles, kinds, p.path.name, args.seed))
        crops = [v for v in made if v.kind == "crop"]
        keep = [v for v in made if v.kind != "crop"] + rng.sample(
            crops, min(len(crops), args.crops_per_photo)
        )
        for v in keep:
            vh, vw = v.image.shape[:2]
            lines = [yolo_line(t.box, vw, vh) for t in v.tiles if t.visible >= args.label_visible]
            if not lines:
                continue
            name = f"{Path(p.path.name).stem[:60]}-{v.name}".replace("/", "_")
            cv2.imwrite(str(img_dir / f"{name}.jpg"), v.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            (lab_dir / f"{name}.txt").write_text("\n".join(lines) + "\n")
            written[v.kind] += 1
    print(
        f"{sum(written.values())} pictures from {len(photos) - loose} training photos -> {img_dir}: "
        f"{written} ({loose} photos with loose labels left out)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

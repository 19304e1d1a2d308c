#!/usr/bin/env python3
"""Write a PNG grid of random synthetic photos, for a person to judge whether they look like real photos.

    python scripts/contact_sheet.py --out datasets/contact_sheet.png --count 48 --seed 7

With --boxes the ground-truth boxes are drawn (yellow = tile, magenta = face-down) to check the labels.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "datasets"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "datasets" / "contact_sheet.png")
    ap.add_argument("--count", type=int, default=48)
    ap.add_argument("--cols", type=int, default=6)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--img-size", type=int, default=640, help="long side of each photo as rendered")
    ap.add_argument("--thumb", type=int, default=300, help="long side of each thumbnail in the sheet")
    ap.add_argument("--boxes", action="store_true", help="draw the ground-truth boxes")
    ap.add_argument("--shared", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.count < 1 or args.cols < 1 or args.thumb < 32:
        print("error: --count and --cols must be >= 1, --thumb >= 32", file=sys.stderr)
        return 2

    import cv2
    import numpy as np
    from mjsynth.artwork import DEFAULT_CACHE, DEFAULT_SHARED, Artwork
    from mjsynth.generate import image_seed
    from mjsynth.scene import SceneOptions, render_scene
    from tqdm import tqdm

    art = Artwork(shared_dir=args.shared or DEFAULT_SHARED, cache_dir=args.cache or DEFAULT_CACHE)
    opts = SceneOptions(img_size=args.img_size)
    t = args.thumb
    cell_w, cell_h = t, t * 3 // 4
    thumbs = []
    for i in tqdm(range(args.count), desc="contact sheet"):
        img, man = render_scene(image_seed(args.seed, i), art, opts)
        if args.boxes:
            for tile in man["tiles"]:
                if tile["labelled"]:
                    x0, y0, x1, y1 = (int(v) for v in tile["box"])
                    col = (255, 0, 255) if tile["face_down"] else (0, 255, 255)
                    cv2.rectangle(img, (x0, y0), (x1, y1), col, 1)
        h, w = img.shape[:2]
        s = min(cell_w / w, cell_h / h)
        small = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        cell = np.full((cell_h, cell_w, 3), 255, np.uint8)
        y0, x0 = (cell_h - small.shape[0]) // 2, (cell_w - small.shape[1]) // 2
        cell[y0 : y0 + small.shape[0], x0 : x0 + small.shape[1]] = small
        thumbs.append(cell)
    while len(thumbs) % args.cols:
        thumbs.append(np.full_like(thumbs[0], 255))
    rows = [np.hstack(thumbs[i : i + args.cols]) for i in range(0, len(thumbs), args.cols)]
    sheet = np.vstack(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), sheet, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(f"{args.out} ({sheet.shape[1]}x{sheet.shape[0]}, {args.out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Write a PNG grid of synthetic photos, for a person to judge whether they look like real photos.

    python scripts/contact_sheet.py --out datasets/contact_sheet.png --variants --seed 7

Without --variants: ``--count`` random photos of the default mix. With --variants: one row per scene
variant (``VARIANTS``: clutter, eye level, loose tiles, close-ups, far rows, a game table, a reveal table,
the new designs, the riichi designs), ``--cols`` photos each, named in each cell. With --boxes the
ground-truth boxes are drawn (yellow = tile, magenta = face-down, red = the hard negatives cut as
``none`` crops) to check the labels.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "datasets"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

#: One row of the --variants sheet each: a name and the SceneOptions that force that variant.
VARIANTS: tuple[tuple[str, dict], ...] = (
    ("clutter", dict(clutter_fraction=1.0)),
    ("eye level", dict(force_kind="hand", eyelevel_fraction=1.0)),
    ("loose, on edges", dict(force_kind="loose", p_edge_tiles=0.4)),
    ("close-up", dict(force_kind="hand", closeup_fraction=1.0)),
    ("far row", dict(force_kind="hand", far_fraction=1.0, closeup_fraction=0.0, eyelevel_fraction=0.0)),
    ("game table", dict(force_kind="table", p_game_table=1.0)),
    ("reveal table, dof", dict(force_kind="table", p_game_table=0.0, p_dof=1.0)),
    (
        "designs",
        dict(
            styles=("proc-mono", "proc-taiwan", "proc-jade"),
            p_blank_white=1.0,
            p_white_boost=1.0,
            p_ink_swap=0.5,
            closeup_fraction=0.3,
            force_kind="hand",
        ),
    ),
    (
        "riichi designs",
        dict(
            styles=("proc-riichi-ink", "proc-riichi-colour", "proc-riichi-navy"),
            p_ink_swap=0.0,
            closeup_fraction=0.3,
            force_kind="hand",
        ),
    ),
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "datasets" / "contact_sheet.png")
    ap.add_argument("--count", type=int, default=48)
    ap.add_argument("--cols", type=int, default=6)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--img-size", type=int, default=640, help="long side of each photo as rendered")
    ap.add_argument("--thumb", type=int, default=300, help="long side of each thumbnail in the sheet")
    ap.add_argument("--boxes", action="store_true", help="draw the ground-truth boxes")
    ap.add_argument("--variants", action="store_true", help="one row per scene variant, named")
    ap.add_argument("--shared", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.count < 1 or args.cols < 1 or args.thumb < 32:
        print("error: --count and --cols must be >= 1, --thumb >= 32", file=sys.stderr)
        return 2

    import cv2
    import numpy as np
    from tqdm import tqdm

    from mahjong_camera_scorer.mjsynth.artwork import DEFAULT_CACHE, DEFAULT_SHARED, Artwork
    from mahjong_camera_scorer.mjsynth.generate import image_seed
    from mahjong_camera_scorer.mjsynth.scene import SceneOptions, render_scene

    art = Artwork(shared_dir=args.shared or DEFAULT_SHARED, cache_dir=args.cache or DEFAULT_CACHE)
    plan = (
        [
            (name, SceneOptions(img_size=args.img_size, **kw))
            for name, kw in VARIANTS
            for _ in range(args.cols)
        ]
        if args.variants
        else [("", SceneOptions(img_size=args.img_size))] * args.count
    )
    t = args.thumb
    cell_w, cell_h = t, t * 3 // 4
    thumbs = []
    for i, (name, opts) in enumerate(tqdm(plan, desc="contact sheet")):
        img, man = render_scene(image_seed(args.seed, i), art, opts)
        if args.boxes:
            for tile in man["tiles"]:
                if tile["labelled"]:
                    x0, y0, x1, y1 = (int(v) for v in tile["box"])
                    col = (255, 0, 255) if tile["face_down"] else (0, 255, 255)
                    cv2.rectangle(img, (x0, y0), (x1, y1), col, 1)
            for neg in man.get("negatives", []):
                x0, y0, x1, y1 = (int(v) for v in neg["box"])
                cv2.rectangle(img, (x0, y0), (x1, y1), (0, 0, 255), 1)
        h, w = img.shape[:2]
        s = min(cell_w / w, cell_h / h)
        small = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        cell = np.full((cell_h, cell_w, 3), 255, np.uint8)
        y0, x0 = (cell_h - small.shape[0]) // 2, (cell_w - small.shape[1]) // 2
        cell[y0 : y0 + small.shape[0], x0 : x0 + small.shape[1]] = small
        if name:
            for colour, width in (((0, 0, 0), 3), ((255, 255, 255), 1)):
                cv2.putText(cell, name, (4, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, width, cv2.LINE_AA)
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

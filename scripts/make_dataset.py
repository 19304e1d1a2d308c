#!/usr/bin/env python3
"""Generate the synthetic mahjong datasets: YOLO detection, reader crops, and per-image manifests.

    python scripts/make_dataset.py --out data/synth --count 3000 --seed 0 --workers 2

Writes ``OUT/det`` (ultralytics YOLO: images, labels, data.yaml; classes tile/back), ``OUT/cls``
(ultralytics classify folders of 96 px crops, 46 classes, plus crops.csv) and ``OUT/manifests`` (one JSON
per image with the ground-truth hand and every tile). See datasets/README.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "datasets"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names


def _fraction(s: str) -> float:
    v = float(s)
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"{s} is not a fraction in [0, 1]")
    return v


def _positive(s: str) -> int:
    v = int(s)
    if v < 1:
        raise argparse.ArgumentTypeError(f"{s} must be >= 1")
    return v


def build_parser() -> argparse.ArgumentParser:
    from mahjong_camera_scorer.mjsynth.scene import SceneOptions

    d = SceneOptions()  # the scene mix's defaults live in one place
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--out", type=Path, default=ROOT / "data" / "synth", help="output folder (default data/synth)"
    )
    ap.add_argument("--count", type=_positive, default=1000, help="number of photos (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="base seed; same seed, same dataset")
    ap.add_argument("--workers", type=_positive, default=2, help="worker processes (default 2)")
    ap.add_argument(
        "--img-size", type=_positive, default=640, help="long side of each photo in px (default 640)"
    )
    ap.add_argument(
        "--det", action=argparse.BooleanOptionalAction, default=True, help="write the detection set"
    )
    ap.add_argument("--cls", action=argparse.BooleanOptionalAction, default=True, help="write the crop set")
    ap.add_argument(
        "--manifests", action=argparse.BooleanOptionalAction, default=True, help="write manifests"
    )
    ap.add_argument("--val-fraction", type=_fraction, default=0.1)
    fractions = [
        ("table", "whole-table photos (four hands; a game in progress or a reveal)"),
        ("automatic", "Japanese automatic tables from the player's seat (walls, ponds, declared kongs)"),
        ("multirow", "melds in a second row"),
        ("loose", "no hand: loose tiles at any angle, some on an edge"),
        ("standing", "concealed tiles standing"),
        ("eyelevel", "of single hands: camera at table height, the row standing"),
        ("closeup", "close-ups cut by the frame"),
        ("far", "far rows: tiles 11-17 px tall at 640 px"),
        ("distractor", "loose tiles, dice and sticks beside a hand"),
        ("clutter", "keyboards, screens, paper, cups, cables ... beside the tiles"),
    ]
    for name, what in fractions:
        default = getattr(d, f"{name}_fraction")
        ap.add_argument(
            f"--{name}-fraction", type=_fraction, default=default, help=f"{what} (default {default})"
        )
    for name, what in [
        ("game_table", "of whole tables: a game in progress"),
        ("dof", "shallow depth of field"),
        ("blank_white", "white dragons blank, without a frame"),
        ("white_boost", "hands that must hold white dragons"),
        ("ink_swap", "the set's green and blue inks in other colours"),
        ("photo_room", "a real photograph beyond the table's edge (when installed)"),
    ]:
        default = getattr(d, f"p_{name}")
        flag = "--p-" + name.replace("_", "-")
        ap.add_argument(flag, type=_fraction, default=default, help=f"{what} (default {default})")
    ap.add_argument("--crop-jitter", type=_fraction, default=0.04, help="detector-like box jitter for crops")
    ap.add_argument("--styles", default=None, help="comma-separated style names to use (default: all)")
    ap.add_argument("--shared", type=Path, default=None, help="the shared folder (default ../shared)")
    ap.add_argument("--cache", type=Path, default=None, help="artwork cache (default data/cache/artwork)")
    ap.add_argument(
        "--only",
        choices=("train", "val"),
        default=None,
        help="render only this split's images (the same files a full run writes for it)",
    )
    ap.add_argument("--no-progress", action="store_true", help="no progress bars")
    ap.add_argument("--coverage", action="store_true", help="print the style coverage table and exit")
    ap.add_argument(
        "--credits", action="store_true", help="print the table of photographs used (licences) and exit"
    )
    ap.add_argument(
        "--example", type=Path, default=None, help="write one example photo (JPEG) + .json and exit"
    )
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.credits:
        from mahjong_camera_scorer.mjsynth.photos import credits_table

        print(credits_table())
        return 0
    from mahjong_camera_scorer.mjsynth.artwork import DEFAULT_CACHE, DEFAULT_SHARED, ArtworkMissing
    from mahjong_camera_scorer.mjsynth.generate import GenerateConfig, generate
    from mahjong_camera_scorer.mjsynth.scene import SceneOptions

    shared = args.shared if args.shared is not None else DEFAULT_SHARED
    fluffy = shared / "artwork" / "fluffystuff"
    if not fluffy.is_dir():
        if args.shared is not None:
            print(f"error: no artwork at {fluffy} (expected the FluffyStuff SVGs there)", file=sys.stderr)
            return 2
        print(f"warning: {fluffy} not found; generating without the FluffyStuff styles", file=sys.stderr)
    if args.coverage or args.example:
        from mahjong_camera_scorer.mjsynth.artwork import Artwork, coverage_table

        art = Artwork(shared_dir=shared if fluffy.is_dir() else None, cache_dir=args.cache or DEFAULT_CACHE)
        if args.coverage:
            print(coverage_table(art))
            return 0
        return _write_example(art, args.example, args.seed)
    if not args.det and not args.cls and not args.manifests:
        print("error: nothing to write (--no-det --no-cls --no-manifests)", file=sys.stderr)
        return 2
    scene = SceneOptions(
        img_size=args.img_size,
        table_fraction=args.table_fraction,
        automatic_fraction=args.automatic_fraction,
        multirow_fraction=args.multirow_fraction,
        loose_fraction=args.loose_fraction,
        standing_fraction=args.standing_fraction,
        eyelevel_fraction=args.eyelevel_fraction,
        closeup_fraction=args.closeup_fraction,
        far_fraction=args.far_fraction,
        distractor_fraction=args.distractor_fraction,
        clutter_fraction=args.clutter_fraction,
        p_game_table=args.p_game_table,
        p_dof=args.p_dof,
        p_blank_white=args.p_blank_white,
        p_white_boost=args.p_white_boost,
        p_ink_swap=args.p_ink_swap,
        p_photo_room=args.p_photo_room,
        styles=tuple(s.strip() for s in args.styles.split(",")) if args.styles else None,
    )
    if args.table_fraction + args.multirow_fraction + args.loose_fraction + args.automatic_fraction > 1:
        print(
            "error: --table-fraction + --multirow-fraction + --loose-fraction + --automatic-fraction "
            "must be <= 1",
            file=sys.stderr,
        )
        return 2
    if args.img_size < 128:
        print("error: --img-size must be at least 128", file=sys.stderr)
        return 2
    cfg = GenerateConfig(
        out=args.out,
        count=args.count,
        seed=args.seed,
        workers=args.workers,
        det=args.det,
        cls=args.cls,
        manifests=args.manifests,
        val_fraction=args.val_fraction,
        crop_jitter=args.crop_jitter,
        shared_dir=shared,
        cache_dir=args.cache or DEFAULT_CACHE,
        scene=scene,
        progress=not args.no_progress,
        only=args.only,
    )
    try:
        summary = generate(cfg)
    except (ArtworkMissing, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    return 0


def _write_example(art, path: Path, seed: int) -> int:
    """The CLI's example photo: JPEG under 200 KB, and its manifest beside it (same name, .json)."""
    import cv2

    from mahjong_camera_scorer.mjsynth.generate import make_example

    image, man = make_example(art, seed=seed)
    for q in (88, 80, 70, 60):
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok and len(buf) < 190_000:
            break
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.tobytes())
    man["image"] = path.name
    path.with_suffix(".json").write_text(json.dumps(man, indent=1))
    print(f"{path} ({len(buf) / 1e3:.0f} KB), hand {man['hand']['hand']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

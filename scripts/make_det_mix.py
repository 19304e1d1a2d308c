#!/usr/bin/env python3
"""Build the detector's training mix: real training pictures, synthetic scenes and grid photos.

    python scripts/make_det_mix.py --out data/det-mix --synth data/synth/det --synth-count 1000 --grids 400

Why a mix: the real pictures (``scripts/real_photos.py``: Chinese/HK phone photos, never the test
split) are what users' photos look like, but they have no face-down tiles, no yellow or coloured
backs, no clutter beyond what those tables had; the synthetic scenes (``scripts/make_dataset.py``)
bring backs, claimed tiles, far rows and distractors; the grid photos (tiles packed edge to edge,
seen from above) keep boxes tight on dense rows, which the stage-4 detector lost when it was
trained without them (camerash grid photos: boxes across two tiles). Validation is the real val
split only: what decides is real photos.

The folder holds symlinks (nothing copied from ``../shared``) plus the generated grid photos, and a
``data.yaml`` for ultralytics with one train list of image files (``train.txt``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))


def spread(items: list[Path], n: int) -> list[Path]:
    """``n`` items evenly spread over ``items`` (the generator's photos vary with their index)."""
    if n <= 0 or not items:
        return []
    if n >= len(items):
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def pairs(images_dir: Path) -> list[Path]:
    """Pictures in ``images_dir`` that have a label file beside them (``../labels/<split>``)."""
    labels_dir = images_dir.parent.parent / "labels" / images_dir.name
    return [p for p in sorted(images_dir.glob("*.jpg")) if (labels_dir / f"{p.stem}.txt").is_file()]


def link(src_images: list[Path], dest: Path, prefix: str) -> list[Path]:
    """Symlink pictures and their labels into ``dest/images/train`` and ``dest/labels/train``."""
    img_dir, lab_dir = dest / "images" / "train", dest / "labels" / "train"
    img_dir.mkdir(parents=True, exist_ok=True)
    lab_dir.mkdir(parents=True, exist_ok=True)
    out = []
    for img in src_images:
        lab = img.parent.parent.parent / "labels" / img.parent.name / f"{img.stem}.txt"
        d_img, d_lab = img_dir / f"{prefix}{img.name}", lab_dir / f"{prefix}{img.stem}.txt"
        for src, dst in ((img, d_img), (lab, d_lab)):
            if not dst.is_symlink():
                dst.symlink_to(src.resolve())
        out.append(d_img)
    return out


def source_count(spec: str, default: int) -> tuple[Path, int]:
    """``FOLDER`` or ``FOLDER:COUNT``: a generated set and how many of its photos to take."""
    folder, sep, count = spec.rpartition(":")
    if sep and count.isdigit():
        return Path(folder), int(count)
    return Path(spec), default


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "det-mix")
    ap.add_argument("--real", type=Path, default=ROOT / "data" / "real" / "det", help="real_photos.py's set")
    ap.add_argument(
        "--synth",
        nargs="*",
        default=[str(ROOT / "data" / "synth" / "det")],
        help="generated sets (FOLDER, or FOLDER:COUNT for a count of its own)",
    )
    ap.add_argument("--synth-count", type=int, default=1000, help="synthetic photos, spread over each set")
    ap.add_argument("--grids", type=int, default=400, help="top-down grid photos to generate")
    ap.add_argument("--faces", type=Path, default=ROOT / "data" / "cache" / "artwork")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    real_train, real_val = args.real / "images" / "train", args.real / "images" / "val"
    if not real_train.is_dir():
        print(f"error: no real detector set at {args.real} (run scripts/real_photos.py)", file=sys.stderr)
        return 2
    train = link(pairs(real_train), args.out, "real_")
    counts = {"real": len(train)}
    for k, spec in enumerate(args.synth):
        synth, count = source_count(spec, args.synth_count)
        chosen = spread(pairs(synth / "images" / "train"), count)
        if not chosen:
            print(f"error: no synthetic photos in {synth} (run scripts/make_dataset.py)", file=sys.stderr)
            return 2
        train += link(chosen, args.out, f"syn{k}_")
        counts[f"synthetic {synth}"] = len(chosen)
    if args.grids:
        from train_detector import make_grid_set

        grid_dir = args.out / "grids"
        have = len(list((grid_dir / "images" / "train").glob("grid*.jpg")))
        if have < args.grids:
            make_grid_set(args.faces, grid_dir, args.grids, seed=args.seed)
        train += sorted((grid_dir / "images" / "train").glob("grid*.jpg"))[: args.grids]
        counts["grid"] = args.grids
    val = pairs(real_val)
    (args.out / "train.txt").write_text(
        "".join(f"{p.resolve() if not p.is_symlink() else p}\n" for p in train)
    )
    (args.out / "val.txt").write_text("".join(f"{p}\n" for p in val))
    (args.out / "data.yaml").write_text(
        f"path: {args.out.resolve()}\ntrain: train.txt\nval: val.txt\nnames:\n  0: tile\n  1: back\n"
    )
    print(f"detector mix {args.out}: {counts}, val {len(val)} real pictures", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Render synthetic photos in 3-D with Blender's Cycles (issue 33, item 4), resuming where it stopped.

    .venv-render/bin/python scripts/render_scenes.py --out data/render3d --count 400 --seed 0

Each image ``i`` is the plan of seed ``image_seed(seed, i)`` (:func:`mjsynth.scene.plan_scene`, the
2-D generator's layouts and cameras), rendered by :mod:`mjsynth.blender`: mostly the player's view of
an automatic table (a standing row near the camera, declared sets at its right with kongs' backs,
walls, ponds, the table's frame), and hands, multi-row hands and tables of four. Written as
``make_dataset.py`` writes (``OUT/det``, ``OUT/cls``, ``OUT/manifests``), so ``make_det_mix.py`` and
``train_reader.py`` take it as they take the generator's folders.

Cycles on the CPU takes about 9 s a photo on 2 free cores: run it in the background (``nohup ... &``)
across sessions. A photo whose manifest exists is not rendered again, and ``cls/crops.csv`` is
rebuilt from every photo's rows (``cls/rows/<stem>.csv``) after each one, so a run stopped at any
point leaves a usable dataset. Needs ``bpy`` (``make_models.sh`` stage ``render`` makes
``.venv-render``): without it this says so and stops.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "datasets"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

#: The scene mix: the player's view of an automatic table most, then single hands (standing or
#: laid out, close or far), hands with their sets in a second row, tables of four, loose tiles.
MIX = {"automatic": 0.5, "table": 0.1, "multirow": 0.15, "loose": 0.05}


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "render3d")
    ap.add_argument("--count", type=int, default=400, help="photos in all (those made already are kept)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--samples", type=int, default=24, help="Cycles samples a pixel (denoised)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--img-size", type=int, default=640, help="long side of each photo in px")
    ap.add_argument("--val-fraction", type=float, default=0.1)
    ap.add_argument(
        "--automatic-fraction", type=float, default=MIX["automatic"], help="share of automatic tables"
    )
    return ap


def crops_csv(out: Path) -> None:
    """``cls/crops.csv`` from every photo's rows, in photo order."""
    from mahjong_camera_scorer.mjsynth import writers

    rows = sorted((out / "cls" / "rows").glob("*.csv"))
    (out / "cls").mkdir(parents=True, exist_ok=True)
    tmp = out / "cls" / "crops.csv.tmp"
    with open(tmp, "w") as f:
        f.write(writers.CSV_HEADER)
        for r in rows:
            f.write(r.read_text())
    tmp.replace(out / "cls" / "crops.csv")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.count < 1 or args.samples < 1 or args.threads < 1 or args.img_size < 64:
        print(
            "error: --count, --samples and --threads must be at least 1, --img-size at least 64",
            file=sys.stderr,
        )
        return 2
    if not 0.0 <= args.automatic_fraction <= 0.7:
        print("error: --automatic-fraction takes 0 to 0.7 (the rest of the mix takes 0.3)", file=sys.stderr)
        return 2
    try:
        import bpy  # noqa: F401 - only to say clearly when Blender's module is missing
    except ImportError:
        print(
            "error: no bpy here (Blender as a Python module, bpy==4.2.0 for Python 3.11): run this with "
            ".venv-render/bin/python (STAGE=render scripts/make_models.sh makes it)",
            file=sys.stderr,
        )
        return 2
    from mahjong_camera_scorer.mjsynth import writers
    from mahjong_camera_scorer.mjsynth.artwork import Artwork
    from mahjong_camera_scorer.mjsynth.blender import render_scene_3d
    from mahjong_camera_scorer.mjsynth.generate import image_seed
    from mahjong_camera_scorer.mjsynth.scene import SceneOptions

    out: Path = args.out
    opts = SceneOptions(
        img_size=args.img_size,
        automatic_fraction=args.automatic_fraction,
        table_fraction=MIX["table"],
        multirow_fraction=MIX["multirow"],
        loose_fraction=MIX["loose"],
    )
    art = Artwork()
    art.warm()
    writers.write_data_yaml(out)
    (out / "cls" / "rows").mkdir(parents=True, exist_ok=True)
    todo = [i for i in range(args.count) if not (out / "manifests" / f"{i:06d}.json").is_file()]
    print(f"{args.count - len(todo)} of {args.count} photos made already; rendering {len(todo)}", flush=True)
    for n, i in enumerate(todo):
        t = time.time()
        seed, stem = image_seed(args.seed, i), f"{i:06d}"
        split = writers.split_of(i, args.val_fraction, args.seed)
        image, manifest = render_scene_3d(seed, art, opts, samples=args.samples, threads=args.threads)
        writers.write_det(out, split, stem, image, manifest)
        rows = writers.write_cls(out, split, stem, image, manifest, seed=seed)
        (out / "cls" / "rows" / f"{stem}.csv").write_text("".join(rows))
        writers.write_manifest(out, stem, manifest, split)  # last: the photo counts as made
        crops_csv(out)
        labelled = sum(t["labelled"] for t in manifest["tiles"])
        print(
            f"{n + 1}/{len(todo)} {stem} {manifest['kind']:9s} {labelled:3d} tiles {len(rows):3d} crops "
            f"{time.time() - t:5.1f} s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Write the pasted-real-tiles set (issue 22, :mod:`mjsynth.pasted`): reader crops and detector photos.

The crops pasted are real: the camerash **train** fold (``models/camerash-split.csv``) and the tiles
labelled on the Chinese/HK **train** pictures of ``models/real-split.csv``, read from
``../shared/data`` at run time, never copied. The camera frames, camerash-pr4 and every test split
are left out: they measure sets never trained on (``scripts/eval_unseen.py``).

    python scripts/make_pasted.py --out data/pasted --count 1500 --seed 22

With ``--proc-fraction`` (default 0.15) a share of the face-up tiles, and every code the crop bank
lacks, are drawn faces of one ``--proc-styles`` style per scene (the riichi designs by default:
brush numerals over a red 萬, red-accented 9p/9s/7s, red fives, a black 發); 0 turns them off.

With ``--desk-fraction`` (default 0) that share of the scenes are desk scenes (:mod:`mjsynth.desk`):
keyboards, laptops, phones, remotes, dice and sticks with the real crops lying loose on and beside
them; keys and devices get no box, a share of them are ``none`` crops. ``--desk-fraction 1 --count
60`` writes the set ``scripts/eval_desk.py`` measures on.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

from mahjong_camera_scorer.mjsynth.pasted import (  # noqa: E402
    RIICHI_STYLES,
    CropBank,
    ProcMix,
    bank_from_folders,
    cut_labels,
)
from mahjong_camera_scorer.mjsynth.pasted_set import generate  # noqa: E402
from mahjong_camera_scorer.mjsynth.realphotos import CHINESE, RealPhoto, load_picture, read_labels  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"


def real_bank(per_code: int, photos: int, seed: int) -> CropBank:
    rows = csv.DictReader((ROOT / "models" / "camerash-split.csv").open(encoding="utf-8"))
    camerash = [
        (SHARED / "camerash" / "tiles-resized" / r["crop"], r["code"]) for r in rows if r["fold"] == "train"
    ]
    bank = bank_from_folders(camerash, limit_per_code=per_code, seed=seed)
    split = [
        r
        for r in csv.DictReader((ROOT / "models" / "real-split.csv").open(encoding="utf-8"))
        if r["dataset"] == CHINESE and r["split"] == "train"
    ]
    random.Random(seed).shuffle(split)
    for r in split[:photos]:
        p = RealPhoto(
            r["dataset"],
            r["published"],
            SHARED / "real" / r["dataset"] / r["published"] / "images" / r["file"],
        )
        image = load_picture(p)
        h, w = image.shape[:2]
        for code, crops in cut_labels(image, [(lab.code, lab.box) for lab in read_labels(p, w, h)]).items():
            have = bank.setdefault(code, [])
            have += crops[: max(0, 2 * per_code - len(have))]
    return bank


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "pasted")
    ap.add_argument("--count", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument(
        "--per-code", type=int, default=40, help="camerash crops kept per code (photos add as many)"
    )
    ap.add_argument("--photos", type=int, default=300, help="Chinese/HK train pictures to cut tiles from")
    ap.add_argument(
        "--proc-fraction",
        type=float,
        default=0.15,
        help="share of face-up tiles drawn procedurally (0: none)",
    )
    ap.add_argument(
        "--desk-fraction", type=float, default=0.0, help="share of desk scenes (keyboards, phones; 0: none)"
    )
    ap.add_argument("--proc-styles", default=",".join(RIICHI_STYLES), help="comma-separated drawn styles")
    args = ap.parse_args(argv)
    if not 0.0 <= args.proc_fraction <= 1.0:
        print("error: --proc-fraction must be within 0..1", file=sys.stderr)
        return 2
    if not 0.0 <= args.desk_fraction <= 1.0:
        print("error: --desk-fraction must be within 0..1", file=sys.stderr)
        return 2
    proc = None
    if args.proc_fraction > 0:
        from mahjong_camera_scorer.mjsynth.artwork import Artwork

        faces = Artwork(shared_dir=None, sources=["procedural"])
        styles = tuple(s.strip() for s in args.proc_styles.split(",") if s.strip())
        unknown = [s for s in styles if s not in faces.styles]
        if not styles or unknown:
            print(f"error: unknown drawn style(s): {', '.join(unknown) or '(none)'}", file=sys.stderr)
            return 2
        proc = ProcMix(faces, styles, args.proc_fraction)
    if not (SHARED / "camerash").is_dir() or not (SHARED / "real").is_dir():
        print(f"error: no real data at {SHARED}", file=sys.stderr)
        return 2
    t0 = time.time()
    bank = real_bank(args.per_code, args.photos, args.seed)
    print(
        f"{sum(map(len, bank.values()))} real crops of {len(bank)} codes ({time.time() - t0:.0f} s)",
        flush=True,
    )

    def progress(i: int) -> None:
        if (i + 1) % 100 == 0:
            print(f"  {i + 1}/{args.count} scenes ({time.time() - t0:.0f} s)", flush=True)

    counts = generate(args.out, args.count, args.seed, bank, progress, proc, args.desk_fraction)
    names = "names:\n  0: tile\n  1: back\n"
    det = args.out.resolve() / "det"
    (det / "data.yaml").write_text(f"path: {det}\ntrain: images/train\nval: images/train\n{names}")
    info = {
        "count": args.count,
        "seed": args.seed,
        "proc_fraction": args.proc_fraction if proc else 0.0,
        "proc_styles": list(proc.styles) if proc else [],
        "desk_fraction": args.desk_fraction,
        "crops": dict(sorted(counts.items())),
        "seconds": round(time.time() - t0),
    }
    (args.out / "info.json").write_text(json.dumps(info, indent=1))
    print(json.dumps(info))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Compose hand photos from real camerash tile crops of the held-out sets (see mjsynth.realhands).

    python scripts/make_real_hands.py --out data/real-hands --count 300 --seed 5
    python scripts/eval_e2e.py --data data/real-hands --out models/metrics/e2e-real-tiles.json

Reads ``../shared/data/camerash`` at generation time (never copied into the repo) and the split
``models/camerash-split.csv`` (only its test fold: tiles neither model was trained on).
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

from mahjong_camera_scorer.mjsynth.realhands import generate  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "real-hands")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--camerash", type=Path, default=ROOT.parent / "shared" / "data" / "camerash")
    ap.add_argument("--split", type=Path, default=ROOT / "models" / "camerash-split.csv")
    args = ap.parse_args(argv)
    if not (args.camerash / "tiles-resized").is_dir():
        print(f"error: camerash crops not found in {args.camerash}/tiles-resized", file=sys.stderr)
        return 2
    if not args.split.is_file():
        print(f"error: no split file {args.split} (run scripts/eval_camerash_split.py)", file=sys.stderr)
        return 2
    if args.count < 1:
        print("error: --count must be at least 1", file=sys.stderr)
        return 2
    try:
        summary = generate(args.out, args.count, args.seed, args.split, args.camerash)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())

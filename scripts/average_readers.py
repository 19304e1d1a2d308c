#!/usr/bin/env python3
"""Average the weights of reader checkpoints fine-tuned from one start, and export the average.

    .venv-train/bin/python scripts/average_readers.py runs/reader-22f/last.pt runs/reader-22h/last.pt \\
        --out runs/reader-soup/last.pt --onnx runs/reader-soup.onnx

Why: readers fine-tuned from one start (reader B) on nearly the same data read the sets they never
saw differently tile by tile (the camera frames show one set in many frames, so one tile misread
in one run is several misreads): tile F1 on the frames moved by ±0.005 between runs that differ
by a few hundred crops. Their weight mean ("model soup", as ``average_detectors.py`` does for the
detector) keeps what they share and averages out what each picked up by chance, with no training.
Checkpoints of another architecture or pooling grid are refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import _offline_torch  # noqa: E402, F401 - must come before torch
import torch  # noqa: E402
from _soup import input_error, mean_state  # noqa: E402
from train_reader import TileReader, export  # noqa: E402


def average(paths: list[Path]) -> dict:  # type: ignore[type-arg]
    """The mean of the checkpoints' model weights (integer buffers from the first)."""
    states = [torch.load(p, map_location="cpu", weights_only=False)["model"] for p in paths]
    return mean_state(states, paths)


def pool_of(state: dict) -> tuple[int, int]:  # type: ignore[type-arg]
    """The pooling grid a state was trained with, read from its first head's input width."""
    for rows, cols in ((1, 1), (3, 2)):
        if TileReader(pool=(rows, cols)).state_dict()["tile.weight"].shape == state["tile.weight"].shape:
            return rows, cols
    raise SystemExit("error: the checkpoints' heads fit no known pooling grid (1x1, 3x2)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("weights", type=Path, nargs="+", help="two or more train_reader.py checkpoints (last.pt)")
    ap.add_argument("--out", type=Path, required=True, help="the averaged checkpoint (.pt)")
    ap.add_argument("--onnx", type=Path, help="also export it here")
    args = ap.parse_args(argv)
    error = input_error(args.weights)
    if error:
        print(error, file=sys.stderr)
        return 2
    mean = average(args.weights)
    model = TileReader(pool=pool_of(mean))  # type: ignore[arg-type]
    model.load_state_dict(mean)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    info = {"averaged": [str(p) for p in args.weights], "how": "plain mean of the weights (model soup)"}
    # a start for --init (no optimizer state: a fine-tune from it begins a fresh schedule)
    pool = list(model.pool)
    torch.save({"model": model.state_dict(), "pool": pool, "epoch": 0, "history": [], **info}, args.out)
    print(f"wrote {args.out} (mean of {len(args.weights)})", flush=True)
    if args.onnx:
        export(model, args.onnx, info)
        print(json.dumps(info))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Average the weights of detector checkpoints fine-tuned from one start, and export the average.

    .venv-train/bin/python scripts/average_detectors.py runs/detector/stageD/weights/best.pt \\
        runs/detector/stageE/weights/best.pt --out runs/soupDE/detector.pt --onnx runs/detector-soupDE.onnx

Why: two fine-tunes of one detector pulled two ways (issue 22: round D, better on the sets it never
saw; round E, its continuation with the real training pictures twice as often, fewer false boxes
on the Chinese/HK pictures) lie close enough in weight space that their plain average ("model
soup", Wortsman et al. 2022) is itself a good detector, with no training: here it read the
validation split better than either. Only checkpoints of one architecture and one start make
sense to average; the script refuses others. BatchNorm running statistics are averaged like the
weights; integer buffers are taken from the first checkpoint.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import _offline_torch  # noqa: E402, F401 - must come before ultralytics
import torch  # noqa: E402
from _soup import input_error, mean_state  # noqa: E402
from train_detector import export  # noqa: E402


def average(paths: list[Path]) -> dict:  # type: ignore[type-arg]
    """The first checkpoint with its model's floating-point tensors replaced by the mean of all."""
    ckpts = [torch.load(p, map_location="cpu", weights_only=False) for p in paths]
    models = [c.get("ema") or c["model"] for c in ckpts]
    states = [m.float().state_dict() for m in models]
    mean = mean_state(states, paths)
    model = models[0]
    model.load_state_dict(mean)
    out = dict(ckpts[0])
    out["model"], out["ema"], out["optimizer"] = model.half(), None, None
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("weights", type=Path, nargs="+", help="two or more ultralytics .pt checkpoints")
    ap.add_argument("--out", type=Path, required=True, help="the averaged checkpoint (.pt)")
    ap.add_argument("--onnx", type=Path, help="also export it here (480 px, dynamic axes)")
    ap.add_argument("--imgsz", type=int, default=480)
    args = ap.parse_args(argv)
    error = input_error(args.weights)
    if error:
        print(error, file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(average(args.weights), args.out)
    print(f"wrote {args.out} (mean of {len(args.weights)})", flush=True)
    if args.onnx:
        info = {"averaged": [str(p) for p in args.weights], "how": "plain mean of the weights (model soup)"}
        export(args.out, args.onnx, args.imgsz, info)
        print(json.dumps(info))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Keep the last checkpoint of each training run where the next session finds it: ``models/checkpoints/``.

    .venv-train/bin/python scripts/keep_checkpoints.py --reader runs/reader-B --detector runs/detector/stageB

Training runs here take hours on 2 CPU cores and a session (or its machine) may end in the middle;
``runs/`` is not in git, so a new machine would start again from scratch. This copies:

- the reader's ``last.pt`` as it is (model + optimizer + epoch, ~4 MB): ``train_reader.py
  --resume`` goes on exactly where it stopped once it is put back as ``<run>/last.pt``;
- the detector's ``last.pt`` without its optimizer state, in half precision (~5.5 MB, as
  ultralytics' own ``strip_optimizer``): a new run fine-tunes from it for the epochs that are left
  (the learning-rate schedule restarts; the exact resume needs the 30 MB file, kept in ``runs/``);

and records in ``models/checkpoints/checkpoints.json`` which run, how many epochs of how many,
and the command that trains it, so that ``scripts/make_models.sh`` (stage ``realtrain``) and a
person both know how to go on. Commit the folder at milestones (small files only).
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
DEST = ROOT / "models" / "checkpoints"


def reader_epochs(run: Path) -> tuple[int, int | None]:
    """(epochs done, epochs planned) of a reader run, from its checkpoint."""
    import torch

    ck = torch.load(run / "last.pt", map_location="cpu", weights_only=False)
    return int(ck["epoch"]), None


def detector_epochs(run: Path) -> tuple[int, int | None]:
    """(epochs done, epochs planned) of an ultralytics run, from results.csv and args.yaml."""
    done = 0
    results = run / "results.csv"
    if results.is_file():
        rows = list(csv.DictReader(results.open()))
        done = len(rows)
    planned = None
    args = run / "args.yaml"
    if args.is_file():
        import yaml

        planned = int(yaml.safe_load(args.read_text()).get("epochs", 0)) or None
    return done, planned


def keep_reader(run: Path, note: str) -> dict:
    src = run / "last.pt"
    dst = DEST / "reader.pt"
    shutil.copyfile(src, dst)
    done, _ = reader_epochs(run)
    return {"file": dst.name, "run": str(run.relative_to(ROOT)), "epochs_done": done, "note": note}


def keep_detector(run: Path, note: str) -> dict:
    from ultralytics.utils.torch_utils import strip_optimizer

    src = run / "weights" / "last.pt"
    dst = DEST / "detector.pt"
    tmp = DEST / "detector.tmp.pt"
    shutil.copyfile(src, tmp)
    strip_optimizer(str(tmp))  # in place: no optimizer, half precision
    tmp.replace(dst)
    done, planned = detector_epochs(run)
    return {
        "file": dst.name,
        "run": str(run.relative_to(ROOT)),
        "epochs_done": done,
        "epochs_planned": planned,
        "note": note,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reader", type=Path, help="a reader run folder (with last.pt)")
    ap.add_argument("--detector", type=Path, help="an ultralytics run folder (weights/last.pt)")
    ap.add_argument("--note", default="", help="what the run is (data, command), written beside it")
    ap.add_argument("--every", type=float, default=0, help="repeat every this many minutes (0: once)")
    args = ap.parse_args(argv)
    import _offline_torch  # noqa: F401 - offline settings before ultralytics

    DEST.mkdir(parents=True, exist_ok=True)
    index_file = DEST / "checkpoints.json"
    while True:
        index = json.loads(index_file.read_text()) if index_file.is_file() else {}
        runs = (("reader", args.reader, keep_reader), ("detector", args.detector, keep_detector))
        for kind, run, keep in runs:
            if not run:
                continue
            run = run.resolve()
            last = run / "last.pt" if kind == "reader" else run / "weights" / "last.pt"
            if not last.is_file():
                print(f"{kind}: no checkpoint yet in {run}", flush=True)
                continue
            entry = keep(run, args.note or index.get(kind, {}).get("note", ""))
            entry["kept"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            index[kind] = entry
            print(f"{kind}: kept {entry}", flush=True)
        index_file.write_text(json.dumps(index, indent=1) + "\n")
        if not args.every:
            return 0
        time.sleep(args.every * 60)


if __name__ == "__main__":
    sys.exit(main())

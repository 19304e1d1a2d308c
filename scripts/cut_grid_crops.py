#!/usr/bin/env python3
"""Cut labelled tile crops from the grid photos of whole sets (camerash test fold, camerash-pr4).

    python scripts/cut_grid_crops.py --out data/grid-crops

Why: a set's grid photo shows every tile of the set with the codes a player would type
(``tests/vision/data/camerash_grid_codes.txt``, ``../shared/data/camerash-pr4/raw-images/codes.txt``),
so it is labelled training data of that set as it looks in a photo, boxed by the detector and
cut as the runtime cuts a box. These are the sets issue 22 measures on; a reader trained on
them can only be measured **leave one set out**: ``train_reader.py --grid-crops … --leave-out
SET`` trains without one set's crops (grid and camerash), and ``eval_unseen.py --loso DIR``
reads each set with the reader that never saw it.

Each photo is read by the shipped models (``--detector``/``--reader``), its tiles are put in rows
and aligned with the codes exactly as ``eval_unseen.py`` measures a grid (:func:`grid_rows`,
:func:`align`), and every box paired with a code is cut under that code, whatever the reader
read. Codes ``x`` (jokers, bonus series) and boxes paired with no code are not cut; a code with
no box is counted as missed. Writes ``<out>/<set>/<code>/<photo>_<k>.jpg`` and ``<out>/crops.csv``
(file, code, set, photo, box, read: the shipped reader's code, to see what the set teaches).
Nothing from ``../shared`` is copied into the repository: the crops go under ``data/`` (ignored).
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
from eval_unseen import align, camerash_grids, grid_rows, grid_set, pr4_grids  # noqa: E402

from mahjong_camera_scorer.vision.crops import crop_box  # noqa: E402
from mahjong_camera_scorer.vision.images import load_photo  # noqa: E402
from mahjong_camera_scorer.vision.models import MODELS_DIR, load_model  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402
from mahjong_camera_scorer.vision.teach.codes import SKIP  # noqa: E402

FIELDS = ("file", "code", "set", "photo", "box", "read")


def cut_photo(reader: PhotoReader, path: Path, codes: list[list[str]], out: Path) -> tuple[list[dict], int]:
    """The crops of one grid photo (rows for ``crops.csv``) and how many codes got no box."""
    image, _ = load_photo(path)
    seen = reader.read(image)
    rows, codes, _ = grid_rows(list(seen.tiles), codes)
    name, found, missed = grid_set(path), [], 0
    k = 0
    for row, cs in zip(rows, codes, strict=True):
        for i, j in align(cs, row):
            code = cs[i] if i is not None else None
            if code is None or code == SKIP:
                continue
            if j is None:
                missed += 1
                continue
            tile = row[j]
            rel = Path(name) / code / f"{path.stem}_{k}.jpg"
            k += 1
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out / rel), crop_box(image, tile.box)[0], [cv2.IMWRITE_JPEG_QUALITY, 95])
            box = "[" + ", ".join(f"{v:.1f}" for v in tile.box) + "]"
            found.append(
                {
                    "file": rel.as_posix(),
                    "code": code,
                    "set": name,
                    "photo": path.name,
                    "box": box,
                    "read": tile.code,
                }
            )
    return found, missed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "grid-crops")
    ap.add_argument("--detector", type=Path, default=MODELS_DIR / "detector.onnx")
    ap.add_argument("--reader", type=Path, default=MODELS_DIR / "reader.onnx")
    args = ap.parse_args(argv)
    try:
        photos = camerash_grids() + pr4_grids()
    except OSError as exc:
        print(f"error: the grid photos cannot be read ({exc}): is ../shared/data there?", file=sys.stderr)
        return 2
    missing = [p for p, _ in photos if not p.is_file()]
    if missing:
        print(f"error: no grid photo at {missing[0]} (and {len(missing) - 1} more)", file=sys.stderr)
        return 2
    reader = PhotoReader(det=load_model(args.detector), rdr=load_model(args.reader))
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    table: list[dict] = []
    for path, codes in photos:
        rows, missed = cut_photo(reader, path, codes, args.out)
        table += rows
        wrong = sum(r["read"] != r["code"] for r in rows)
        print(
            f"{grid_set(path)} {path.name}: {len(rows)} crops ({wrong} read otherwise), "
            f"{missed} codes with no box"
        )
    with (args.out / "crops.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(table)
    print(f"{len(table)} crops of {len({r['set'] for r in table})} sets in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The reader's training crops, listed: which files, which class, which way up (no torch).

Split out of ``train_reader.py`` so that ``device_pack.py`` can choose the same crops for the
accelerator's pack in the runtime venv, which has no torch. Each function returns items the
trainer's dataset reads: ``(path, class index[, upside down])``.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

from mahjong_camera_scorer.vision.classes import NOT_A_TILE, READER_CLASSES, TILE_CLASSES  # noqa: E402
from mahjong_camera_scorer.vision.crops import LANDSCAPE_RATIO  # noqa: E402

CAMERASH = ROOT.parent / "shared" / "data" / "camerash"
SPLIT = ROOT / "models" / "camerash-split.csv"
#: crop files the trainer reads (the accelerator's pack keeps its crops as WebP)
IMG_EXT = (".jpg", ".jpeg", ".png", ".webp")


def camerash_items(
    fold: str, split: Path = SPLIT, camerash: Path = CAMERASH, leave_out: str = ""
) -> list[tuple[Path, int]]:
    """(image path, class index) for one fold of the documented camerash split (``all``: both
    folds), without the crops of the set ``leave_out`` names (``camerash-<n>``)."""
    if not split.is_file() or not camerash.is_dir():
        return []
    rows = list(csv.DictReader(split.open(encoding="utf-8")))
    return [
        (camerash / "tiles-resized" / r["crop"], TILE_CLASSES.index(r["code"]))
        for r in rows
        if fold in (r["fold"], "all") and f"camerash-{r['set']}" != leave_out
    ]


def grid_items(root: Path, leave_out: str = "") -> list[tuple[Path, int]]:
    """Crops of the sets' grid photos (``scripts/cut_grid_crops.py``): (path, class), without
    the set ``leave_out`` names (``camerash-<n>`` or ``pr4``), so that it can be measured as a set
    never trained on."""
    table = root / "crops.csv"
    if not table.is_file():
        return []
    return [
        (root / r["file"], READER_CLASSES.index(r["code"]))
        for r in csv.DictReader(table.open(encoding="utf-8"))
        if r["set"] != leave_out and r["code"] in READER_CLASSES
    ]


REAL_CROPS = ROOT / "data" / "real" / "cls"
#: Orientation unknown (a real scene crop the shipped reader was not sure of): no orientation loss.
UNKNOWN = -1.0


def real_scene_items(
    root: Path = REAL_CROPS, split: str = "train", datasets: tuple[str, ...] = ("chinese-mahjong-detection",)
) -> list[tuple[Path, int, float]]:
    """Crops of the labelled real photos (``scripts/real_photos.py``): (path, class, upside down).

    Only the Chinese/HK photos: the Japanese camera frames are one set, kept out of the reader's
    training so that teaching a set (``mahjong-score teach``) can be measured on a set it never saw.
    The upside-down label is the shipped reader's sure answer, else :data:`UNKNOWN`."""
    table = root / "crops.csv"
    if not table.is_file():
        return []
    out = []
    for r in csv.DictReader(table.open(encoding="utf-8")):
        if r["split"] != split or r["dataset"] not in datasets or r["code"] not in READER_CLASSES:
            continue
        flip = float(r["upside_down"]) if r["upside_down"] != "" else UNKNOWN
        out.append((root / r["file"], READER_CLASSES.index(r["code"]), flip))
    return out


def none_items(root: Path = REAL_CROPS, split: str = "train") -> list[Path]:
    """Hard negatives for the ``none`` class (``scripts/real_photos.py --negatives``)."""
    d = root / split / NOT_A_TILE
    return sorted(f for f in d.iterdir() if f.suffix.lower() in IMG_EXT) if d.is_dir() else []


def _upside_from_manifests(root: Path, manifests: Path) -> dict[str, bool]:
    """Whether each crop ``<stem>_<k>.jpg`` shows its tile upside down, from the manifests: the
    tile's rotation, plus 90° when the crop code turned a landscape box to portrait."""
    out: dict[str, bool] = {}
    cache: dict[str, dict] = {}
    for f in root.glob("*/*.jpg"):
        stem, _, k = f.stem.rpartition("_")
        if stem not in cache:
            mp = manifests / f"{stem}.json"
            cache[stem] = json.loads(mp.read_text()) if mp.is_file() else {}
        tiles = cache[stem].get("tiles", [])
        if not k.isdigit() or int(k) >= len(tiles) or tiles[int(k)].get("box") is None:
            continue
        t = tiles[int(k)]
        x0, y0, x1, y1 = t["box"]
        ang = float(t.get("rotation_deg", 0.0)) + (90.0 if (x1 - x0) > (y1 - y0) * LANDSCAPE_RATIO else 0.0)
        out[str(f.resolve())] = abs((ang + 180.0) % 360.0 - 180.0) > 90.0
    return out


def folder_items(root: Path) -> list[tuple[Path, int, float]]:
    """A classify folder set ``root/<code>/*.jpg``: (path, class, upside down in the crop).

    The generator's ``crops.csv`` (one level up) says which crops show their tile upside down
    (``upright_in_crop``); without it every crop counts as upright. The generator's ``none``
    crops (clutter, tile sides, tiles cut by the frame) have no way up: :data:`UNKNOWN`, so they
    stay out of the orientation loss.
    """
    upside: dict[str, float] = {}
    table = root.parent / "crops.csv"
    if table.is_file():
        for r in csv.DictReader(table.open(encoding="utf-8")):
            way = r.get("upright_in_crop", "1")  # "" : no way up known (a back, a tile lying sideways)
            upside[str((root.parent / r["file"]).resolve())] = UNKNOWN if way == "" else float(way == "0")
    elif (root.parent.parent / "manifests").is_dir():  # the generator writes crops.csv last
        found = _upside_from_manifests(root, root.parent.parent / "manifests")
        upside = {k: float(v) for k, v in found.items()}
    items: list[tuple[Path, int, float]] = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        if d.name not in READER_CLASSES:
            continue
        items += [
            (
                f,
                READER_CLASSES.index(d.name),
                UNKNOWN if d.name == NOT_A_TILE else float(upside.get(str(f.resolve()), False)),
            )
            for f in sorted(d.iterdir())
            if f.suffix.lower() in IMG_EXT
        ]
    return items

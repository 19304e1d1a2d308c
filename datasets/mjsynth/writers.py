"""Dataset writers: ultralytics YOLO detection folders, classification crop folders, per-image manifests.

Layout under ``out/`` (``split`` is ``train`` or ``val``)::

    det/images/<split>/<stem>.jpg      det/labels/<split>/<stem>.txt      det/data.yaml
    cls/<split>/<class>/<stem>_<k>.jpg  cls/crops.csv
    manifests/<stem>.json

Detection labels are two-class (``vision.classes.DETECTOR_CLASSES``: 0 = tile showing its face, 1 = back);
the tile's code and orientation live in the manifest. Classification crops are cut with
``vision.crops.crop_box`` (the reader's run-time function) from the final photo and the ground-truth box,
jittered like a detector's box. ``none`` crops (``vision.classes.NOT_A_TILE``) are cut the same way from
a few of the scene's hard negatives (``manifest["negatives"]``: key caps, icons, glyph strokes, cup rims,
tiles cut by the frame, tile sides, pieces of a large face), about :data:`NONE_SHARE` of the tile crops.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth.negatives import PROP_PARTS, choose
from mahjong_camera_scorer.vision.classes import BACK, DETECTOR_CLASSES, NOT_A_TILE, TILE_CLASSES
from mahjong_camera_scorer.vision.crops import CROP_SIZE, crop_box

if TYPE_CHECKING:
    from mahjong_camera_scorer.mjsynth.manifest import Manifest

CSV_HEADER = "file,class,orientation,rotation_deg,rotated_to_portrait,upright_in_crop,stem,tile_index\n"
#: ``none`` crops per tile crop (drawn per photo, rounded at random): a modest share, so the reader
#: learns to reject clutter without learning that a doubtful tile is ``none``.
NONE_SHARE = 0.08


def split_of(index: int, val_fraction: float, seed: int) -> str:
    """Deterministic train/val assignment of image ``index``."""
    return "val" if random.Random(seed * 7919 + index).random() < val_fraction else "train"


def yolo_lines(manifest: Manifest) -> list[str]:
    w, h = manifest["image_size"]
    lines = []
    for t in manifest["tiles"]:
        if not t["labelled"]:
            continue
        box = t["box"]
        assert box is not None  # a labelled tile is seen
        x0, y0, x1, y1 = box
        cls = DETECTOR_CLASSES.index("back" if t["face_down"] else "tile")
        lines.append(
            f"{cls} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"
        )
    return lines


def write_det(
    out: Path, split: str, stem: str, image: np.ndarray, manifest: Manifest, quality: int = 95
) -> None:
    img_dir, lab_dir = out / "det" / "images" / split, out / "det" / "labels" / split
    img_dir.mkdir(parents=True, exist_ok=True)
    lab_dir.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(img_dir / f"{stem}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    (lab_dir / f"{stem}.txt").write_text("\n".join(yolo_lines(manifest)) + "\n")


def write_data_yaml(out: Path) -> Path:
    det = out / "det"
    det.mkdir(parents=True, exist_ok=True)
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(DETECTOR_CLASSES))
    text = (
        "# mjsynth detection dataset (ultralytics YOLO). Two classes: a tile showing its face, and a\n"
        "# face-down tile. Per-tile codes and orientations are in ../manifests/<stem>.json.\n"
        f"path: {det.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n"
    )
    p = det / "data.yaml"
    p.write_text(text)
    return p


def _jitter_box(box: list[float], rng: random.Random, amount: float) -> list[float]:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    return [x0 + rng.uniform(-amount, amount) * w, y0 + rng.uniform(-amount, amount) * h,
            x1 + rng.uniform(-amount, amount) * w, y1 + rng.uniform(-amount, amount) * h]  # fmt: skip


def write_cls(
    out: Path,
    split: str,
    stem: str,
    image: np.ndarray,
    manifest: Manifest,
    seed: int,
    jitter: float = 0.04,
    min_tile_px: float = 12.0,
    quality: int = 95,
) -> list[str]:
    """Cut a crop for each labelled tile; return the CSV rows describing them."""
    rng = random.Random(seed)
    rows = []
    for k, t in enumerate(manifest["tiles"]):
        if not t["labelled"] or t["tile_px"] < min_tile_px:
            continue
        cls = BACK if t["face_down"] else t["code"]
        assert cls in TILE_CLASSES, cls
        assert t["box"] is not None  # a labelled tile is seen
        crop, rotated = crop_box(image, _jitter_box(t["box"], rng, jitter), size=CROP_SIZE)
        ang = t["rotation_deg"] + (90.0 if rotated else 0.0)
        ang = (ang + 180.0) % 360.0 - 180.0
        upright = abs(ang) <= 90.0
        d = out / "cls" / split / cls
        d.mkdir(parents=True, exist_ok=True)
        name = f"{stem}_{k:02d}.jpg"
        cv2.imwrite(str(d / name), crop, [cv2.IMWRITE_JPEG_QUALITY, quality])
        rows.append(
            f"{split}/{cls}/{name},{cls},{t['orientation']},{t['rotation_deg']},{int(rotated)},{int(upright)},"
            f"{stem},{k}\n"
        )
    rows += write_none(out, split, stem, image, manifest, rng, len(rows), jitter, quality)
    return rows


def write_none(
    out: Path,
    split: str,
    stem: str,
    image: np.ndarray,
    manifest: Manifest,
    rng: random.Random,
    n_tile_crops: int,
    jitter: float = 0.04,
    quality: int = 95,
    share: float = NONE_SHARE,
) -> list[str]:
    """``none`` crops from the manifest's hard negatives, ``share`` of ``n_tile_crops`` (at least one
    now and then for photos with few tiles); files ``<stem>_n<j>.jpg`` (``j`` indexes the negatives)."""
    negs = manifest.get("negatives") or []
    want = share * max(n_tile_crops, 3)
    if any(n["what"] in PROP_PARTS for n in negs):  # clutter is rarer than tile sides: one more from it
        want += 1
    k = int(want) + (rng.random() < want - int(want))
    rows = []
    for j in choose(negs, min(k, len(negs)), rng):
        crop, rotated = crop_box(image, _jitter_box(negs[j]["box"], rng, jitter), size=CROP_SIZE)
        d = out / "cls" / split / NOT_A_TILE
        d.mkdir(parents=True, exist_ok=True)
        name = f"{stem}_n{j:02d}.jpg"
        cv2.imwrite(str(d / name), crop, [cv2.IMWRITE_JPEG_QUALITY, quality])
        rows.append(f"{split}/{NOT_A_TILE}/{name},{NOT_A_TILE},,,{int(rotated)},,{stem},n{j}\n")
    return rows


def write_manifest(out: Path, stem: str, manifest: Manifest, split: str) -> None:
    d = out / "manifests"
    d.mkdir(parents=True, exist_ok=True)
    m = dict(manifest, split=split, image=f"det/images/{split}/{stem}.jpg")
    (d / f"{stem}.json").write_text(json.dumps(m, separators=(",", ":")))

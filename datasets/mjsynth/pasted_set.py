"""Write the pasted-tiles training set: scenes of :mod:`mjsynth.pasted` and desk scenes of
:mod:`mjsynth.desk`, as reader crops and detector photos.

Why a module of its own: the set mixes both kinds of scene, and desk scenes are built from the
pasted scenes' pieces (crop bank, tile images, light), so the writer sits above both and neither
of them imports the other's user.
"""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Callable
from pathlib import Path

import cv2

from mahjong_camera_scorer.mjsynth import desk
from mahjong_camera_scorer.mjsynth.pasted import CropBank, ProcMix, Scene, compose, reader_crops
from mahjong_camera_scorer.vision.classes import BACK


def generate(
    out: Path,
    count: int,
    seed: int,
    bank: CropBank,
    progress: Callable[[int], None] | None = None,
    proc: ProcMix | None = None,
    desk_fraction: float = 0.0,
) -> dict[str, int]:
    """Write ``count`` scenes: reader crops (``<out>/cls/train/<code>/*.jpg`` and ``<out>/cls/crops.csv``)
    and detector photos (``<out>/det/images|labels/train``, YOLO: 0 = tile, 1 = back). Returns the
    number of crops per code. About ``desk_fraction`` of the scenes are desk scenes
    (:mod:`mjsynth.desk`: keyboards, phones, remotes, dice, sticks with loose tiles; named ``d...``),
    each with its keys and devices in ``<out>/det/desk/<name>.json`` for ``scripts/eval_desk.py``;
    with 0 (the default) the scenes are those drawn before desk scenes existed."""
    counts: dict[str, int] = {}
    cls, det_img, det_lab = out / "cls", out / "det" / "images" / "train", out / "det" / "labels" / "train"
    for d in (cls / "train", det_img, det_lab):
        d.mkdir(parents=True, exist_ok=True)
    rows = []
    for i in range(count):
        rng = random.Random(seed * 1_000_003 + i)
        on_desk = desk_fraction > 0 and random.Random(f"desk-{seed}-{i}").random() < desk_fraction
        scene: Scene
        if on_desk:
            table = desk.compose(rng, bank, proc=proc)
            name = f"d{seed}_{i:05d}"
            (out / "det" / "desk").mkdir(exist_ok=True)
            (out / "det" / "desk" / f"{name}.json").write_text(json.dumps(desk.scene_record(table)))
            scene, crops = table, desk.reader_crops(table)
        else:
            scene = compose(rng, bank, proc=proc)
            name = f"p{seed}_{i:05d}"
            crops = reader_crops(scene)
        cv2.imwrite(str(det_img / f"{name}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        H, W = scene.image.shape[:2]
        lines = []
        for t in scene.tiles:
            x0, y0, x1, y1 = t.box
            cls_id = 1 if t.code == BACK else 0
            cx, cy, bw, bh = (x0 + x1) / 2 / W, (y0 + y1) / 2 / H, (x1 - x0) / W, (y1 - y0) / H
            lines.append(f"{cls_id} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
        (det_lab / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        for k, (crop, code, upright, kind) in enumerate(crops):
            (cls / "train" / code).mkdir(exist_ok=True)
            rel = f"train/{code}/{name}_{k}.jpg"
            cv2.imwrite(str(cls / rel), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
            way = "" if upright is None else str(int(upright))
            rows.append({"file": rel, "code": code, "upright_in_crop": way, "source": kind})
            counts[code] = counts.get(code, 0) + 1
        if progress:
            progress(i)
    with (cls / "crops.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, ["file", "code", "upright_in_crop", "source"])
        w.writeheader()
        w.writerows(rows)
    return counts

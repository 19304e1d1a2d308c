"""The re-framed real photos the accelerator run trains the detector on (numpy + OpenCV only).

Issue 33 measures the photo road on scene variants of labelled real photos: tight row crops, far
views, seat views, turns (:mod:`mjsynth.photo_variants`, where the labels move with the pixels
through one matrix). The accelerator run (``scripts/device_run.py``) draws the same variants
from each real *training* photo of its pack, on the machine's cores, so the 64 MiB a run can
carry hold each photo once while the detector still sees it framed as people frame theirs. The
measured variants come from photos no model trained on; these never do.

This module holds what training adds to the variants: how many of each a photo gives
(:data:`RECIPE`) and YOLO label lines. Which tiles get a label and which photos give none are
``scripts/make_reframed.py``'s rules (the same re-framings written on the CPU): a tile at least
half in the frame is labelled, and a photo whose published boxes fit loosely (Roboflow's turned
and sheared copies) is not re-framed, since a loose box moved with the pixels teaches a box off
its tile. Labels are ``(class, x0, y0, x1, y1)`` in pixels, class 0 a tile, 1 a back.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

_ROOT = Path(__file__).resolve().parents[1]
for _p in (_ROOT, _ROOT / "datasets", _ROOT / "scripts"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
from make_reframed import LABEL_VISIBLE, loose_labels  # noqa: E402

from mahjong_camera_scorer.mjsynth.photo_variants import variants as scene_variants  # noqa: E402
from mahjong_camera_scorer.mjsynth.photo_variants import with_rows  # noqa: E402

Label = tuple[int, float, float, float, float]

#: What a run draws from each real training photo unless the pack's manifest says otherwise:
#: crops of up to this many of its rows, and the chance of one far view (its tiles 10-16 or
#: 16-24 px, one of the two), one seat view, one turn (90 or 180 degrees).
RECIPE: dict[str, float] = {"rows": 2, "far": 0.5, "seat": 0.7, "turn": 0.3}


def read_yolo(text: str, width: int, height: int) -> list[Label]:
    """YOLO label lines (``class cx cy w h``, normalised) in pixels."""
    out: list[Label] = []
    for line in text.splitlines():
        v = line.split()
        if len(v) != 5:
            continue
        c, cx, cy, w, h = int(v[0]), *map(float, v[1:])
        out.append(
            (c, (cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
        )
    return out


def yolo_text(labels: Sequence[Label], width: int, height: int) -> str:
    """Labels as YOLO lines, normalised to the image's size."""
    return "".join(
        f"{c} {(x0 + x1) / 2 / width:.6f} {(y0 + y1) / 2 / height:.6f} "
        f"{(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}\n"
        for c, x0, y0, x1, y1 in labels
    )


def variants(
    image: np.ndarray,
    labels: Sequence[Label],
    rng: random.Random,
    recipe: dict[str, float] = RECIPE,
    key: str = "",
) -> list[tuple[str, np.ndarray, list[Label]]]:
    """The re-framings of one photo that ``recipe`` asks for: ``(kind, image, labels)``, the kind
    as :mod:`mjsynth.photo_variants` names it (crop, far, seat, turn90, turn180). Which ones is
    drawn from ``rng``; each variant itself from ``key`` (the photo's name) and that draw. None
    for a photo whose boxes fit loosely (:func:`make_reframed.loose_labels`)."""
    if loose_labels([(x0, y0, x1, y1) for _, x0, y0, x1, y1 in labels]):
        return []
    tiles = with_rows([(str(c), (x0, y0, x1, y1)) for c, x0, y0, x1, y1 in labels])
    kinds = ["crop"] if recipe.get("rows", 0) >= 1 else []
    kinds += [k for k in ("far", "seat") if rng.random() < recipe.get(k, 0.0)]
    if rng.random() < recipe.get("turn", 0.0):
        kinds.append(rng.choice(("turn90", "turn180")))
    made = list(scene_variants(image, tiles, kinds, key, seed=rng.randrange(1 << 30)))
    crops = [v for v in made if v.kind == "crop"]
    fars = [v for v in made if v.kind == "far"]
    chosen = rng.sample(crops, min(len(crops), int(recipe.get("rows", 0))))
    chosen += [rng.choice(fars)] if fars else []
    chosen += [v for v in made if v.kind not in ("crop", "far")]
    out = []
    for v in chosen:
        kept = [(int(p.code), *p.box) for p in v.tiles if p.visible >= LABEL_VISIBLE]
        if kept:
            out.append((v.kind, v.image, kept))
    return out

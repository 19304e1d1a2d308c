#!/usr/bin/env python3
"""Measure the photo reader on generated desk scenes: keys and devices boxed as tiles, loose tiles found.

Issue 22, item 6: a desk photo with two keyboards had 43 keys boxed as tiles and the loose tiles on
the keys missed. The scenes measured here are **synthetic** (:mod:`mjsynth.desk`: real tile crops
lying loose on and beside drawn keyboards, laptops, phones, remotes, dice and sticks), so the
numbers compare one detector or reader with another on this hard negative and never decide alone:
a model trained on desk scenes has seen their drawing style. Write the set first, with a seed no
training set uses::

    python scripts/make_pasted.py --out data/desk-eval --count 60 --seed 2201 --desk-fraction 1
    python scripts/eval_desk.py --data data/desk-eval --out models/metrics/desk.json \
        [--detector runs/x/detector.onnx] [--reader models/reader.onnx] [--label before]

Each photo goes through :meth:`vision.pipeline.PhotoReader.read_and_score` as a user's photo does
(detector with its second pass, reader with both looks, ``none`` boxes dropped). Reported tiles are
matched to the loose tiles (IoU >= 0.5, :func:`eval_real.match`). Reported:

- **false boxes per photo** (a reported tile on no loose tile) and where they lie: on a **key**,
  on another device **part** (icon, button, die, stick), elsewhere on a **device**, **near a tile**
  (a loose tile boxed badly, or two at once) or on the **desk**; the share of them flagged;
- boxes **dropped as none**: on clutter (right) and on a loose tile (a tile lost);
- **recall** of the loose tiles (a box on it; and with the right code), beside the devices and on
  them (keyboards apart), of the ones lying square (within 10 degrees of a quarter turn) or askew,
  and of the face-down ones.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import eval_real  # noqa: E402

from mahjong_camera_scorer.vision.detect import iou  # noqa: E402

DATA = ROOT / "data" / "desk-eval"
#: a false box lying this much (of its own area) on a key's or a part's box is put down to that part
ON_PART = 0.3
#: ... or holding this much of a part's box (a box round a key and its gaps)
WHOLE_PART = 0.6
#: a false box overlapping a loose tile this much (IoU, under a match's 0.5) is that tile boxed badly
NEAR_TILE = 0.1
KEYBOARDS = ("full", "tkl", "laptop")
#: a loose tile within this many degrees of a quarter turn lies square to the photo (before the camera)
SQUARE = 10


class Reader(Protocol):
    def read_and_score(self, source: Any) -> Any: ...


@dataclass
class Truth:
    """A loose tile of a scene (what :func:`eval_real.match` matches readings to)."""

    box: tuple[float, float, float, float]
    code: str
    on: str
    turn: int = 0


def load_scenes(data: Path) -> list[tuple[Path, dict]]:
    """(photo, record) of every desk scene under ``data`` (a set written by ``make_pasted.py``, or
    its ``det`` folder): ``det/desk/<name>.json`` beside ``det/images/train/<name>.jpg``."""
    det = data / "det" if (data / "det").is_dir() else data
    out = []
    for rec in sorted((det / "desk").glob("*.json")):
        image = det / "images" / "train" / f"{rec.stem}.jpg"
        if image.is_file():
            out.append((image, json.loads(rec.read_text(encoding="utf-8"))))
    return out


def _covered(box: tuple[float, ...], by: tuple[float, ...]) -> float:
    """The share of ``box``'s area inside ``by``."""
    ix = max(0.0, min(box[2], by[2]) - max(box[0], by[0]))
    iy = max(0.0, min(box[3], by[3]) - max(box[1], by[1]))
    return ix * iy / max(1e-6, (box[2] - box[0]) * (box[3] - box[1]))


def where(box: tuple[float, ...], record: dict) -> str:
    """Where a false box lies: ``near_tile``, ``key``, ``part`` (icon, button, die, stick),
    ``device`` or ``desk`` (first that fits)."""
    if any(iou(box, tuple(t["box"])) >= NEAR_TILE for t in record["tiles"]):
        return "near_tile"
    hits = [
        (_covered(box, tuple(p["box"])), p["kind"])
        for p in record["parts"]
        if _covered(box, tuple(p["box"])) >= ON_PART or _covered(tuple(p["box"]), box) >= WHOLE_PART
    ]
    if hits:
        return "key" if max(hits)[1] == "key" else "part"
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for outline in record["devices"].values():
        if cv2.pointPolygonTest(np.asarray(outline, np.float32), (float(cx), float(cy)), False) >= 0:
            return "device"
    return "desk"


def _box(v: list[float]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(c) for c in v)
    return x0, y0, x1, y1


def _group(on: str) -> str:
    name = on.split("#")[0]
    return "beside" if name == "desk" else ("on_keyboard" if name in KEYBOARDS else "on_other_device")


def _lie(turn: int) -> str:
    """``square`` for a tile within :data:`SQUARE` degrees of a quarter turn, else ``askew``."""
    off = turn % 90
    return "square" if min(off, 90 - off) <= SQUARE else "askew"


def evaluate(reader: Reader, scenes: Iterable[tuple[Path, dict]]) -> dict:
    """The counts and rates over ``scenes`` (see the module's docstring), and per photo."""
    k: Counter[str] = Counter()
    false_where: Counter[str] = Counter()
    dropped_where: Counter[str] = Counter()
    groups: dict[str, Counter[str]] = {}
    per_photo = {}
    for path, record in scenes:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"error: cannot read {path}")
        truth = [Truth(_box(t["box"]), t["code"], t["on"], t.get("turn", 0)) for t in record["tiles"]]
        result = reader.read_and_score(image)
        pred = list(result.tiles)
        warned = set(result.warned)
        pairs = eval_real.match(pred, truth)
        matched = {j: i for i, j in pairs}
        false = [pred[i] for i in range(len(pred)) if i not in {i for i, _ in pairs}]
        places = [where(r.box, record) for r in false]
        dropped_on_tile = [any(iou(r.box, t.box) >= 0.5 for t in truth) for r in result.rejected]
        k["photos"] += 1
        k["tiles"] += len(truth)
        k["keys_in_photos"] += sum(p["kind"] == "key" for p in record["parts"])
        k["reported"] += len(pred)
        k["false_boxes"] += len(false)
        k["false_flagged"] += sum(int(r.flagged or r.index in warned) for r in false)
        k["dropped_as_none"] += len(result.rejected)
        k["dropped_on_tiles"] += sum(dropped_on_tile)
        false_where.update(places)
        dropped_where.update(
            "tile" if on else where(r.box, record)
            for r, on in zip(result.rejected, dropped_on_tile, strict=True)
        )
        for j, t in enumerate(truth):
            i = matched.get(j)
            for g in ("all", _group(t.on), _lie(t.turn), *(["back"] if t.code == "back" else [])):
                c = groups.setdefault(g, Counter())
                c["tiles"] += 1
                c["found"] += int(i is not None)
                c["read"] += int(i is not None and pred[i].code == t.code)
        per_photo[path.stem] = {
            "tiles": len(truth),
            "found": len(pairs),
            "false_boxes": len(false),
            "false_on_keys": places.count("key"),
            "dropped_as_none": len(result.rejected),
        }
    photos = max(1, k["photos"])
    recall = {
        g: {
            **dict(c),
            "recall": round(c["found"] / max(1, c["tiles"]), 4),
            "read_recall": round(c["read"] / max(1, c["tiles"]), 4),
        }
        for g, c in sorted(groups.items())
    }
    return {
        **dict(sorted(k.items())),
        "false_boxes_per_photo": round(k["false_boxes"] / photos, 3),
        "false_on_keys_per_photo": round(false_where["key"] / photos, 3),
        "false_on_devices_per_photo": round(
            (false_where["key"] + false_where["part"] + false_where["device"]) / photos, 3
        ),
        "false_flagged_share": round(k["false_flagged"] / max(1, k["false_boxes"]), 4),
        "false_where": dict(sorted(false_where.items())),
        "dropped_as_none_per_photo": round(k["dropped_as_none"] / photos, 3),
        "dropped_where": dict(sorted(dropped_where.items())),
        "recall": recall,
        "per_photo": per_photo,
    }


def main(argv: list[str] | None = None) -> int:
    from mahjong_camera_scorer.vision.models import MODELS_DIR

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--detector", type=Path, default=MODELS_DIR / "detector.onnx")
    ap.add_argument("--reader", type=Path, default=MODELS_DIR / "reader.onnx")
    ap.add_argument("--data", type=Path, default=DATA, help="a set written by make_pasted.py --desk-fraction")
    ap.add_argument("--limit", type=int, default=0, help="read only the first N scenes (0: all)")
    ap.add_argument("--label", default="")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if args.limit < 0:
        print("error: --limit must be 0 or more", file=sys.stderr)
        return 2
    for path in (args.detector, args.reader):
        if not path.is_file():
            print(f"error: no model at {path}", file=sys.stderr)
            return 2
    scenes = load_scenes(args.data)
    if not scenes:
        print(
            f"error: no desk scenes under {args.data} (write them with "
            "scripts/make_pasted.py --desk-fraction 1 --count 60 --seed 2201 --out DIR)",
            file=sys.stderr,
        )
        return 2
    if args.limit:
        scenes = scenes[: args.limit]
    from mahjong_camera_scorer.vision.models import load_model
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    reader = PhotoReader(det=load_model(args.detector), rdr=load_model(args.reader))
    t0 = time.perf_counter()
    out = {
        "label": args.label,
        "synthetic": "generated desk scenes (datasets/mjsynth/desk.py): compares models, never decides",
        "detector": eval_real.shown(args.detector),
        "reader": eval_real.shown(args.reader),
        "data": eval_real.shown(args.data),
        **evaluate(reader, scenes),
        "seconds": 0.0,
    }
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps({k: v for k, v in out.items() if k != "per_photo"}, indent=1))
    eval_real.save_json(out, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

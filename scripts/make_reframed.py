#!/usr/bin/env python3
"""The real training photos re-framed as users frame theirs: detector training pictures (issue 33).

The detector trained on the real photos as they were taken (a hand or a heap of tiles, upright, at
one distance) finds 37 % of the tiles of the same photos seen from afar, 89 % of them turned a
quarter, 89 % from the seat (``scripts/eval_scenes.py``, the baseline in ``models/README.md``).
This writes the Chinese/HK **training** split's pictures (``models/real-split.csv``; never a
validation or test picture, never a camera frame) re-framed by the same variant maker the
measurement uses (:mod:`mjsynth.photo_variants`: far views, seat views, quarter and half turns,
tight crops of a row), with another seed than the measurement's, as an ultralytics detection set:
``OUT/det/images/train/*.jpg`` and ``OUT/det/labels/train/*.txt`` (class ``tile``). A tile cut at
the frame's border is labelled when at least half of it is inside. Pictures whose published boxes
fit loosely (Roboflow's turned and sheared copies: most of a picture's boxes overlap a neighbour
by IoU > 0.25, 127 of the 649, :func:`loose_labels`) are left out: re-framed, a loose box teaches
the detector a box off its tile.

    python scripts/make_reframed.py --out data/reframed --kinds far,seat,turn90,turn180,crop

With ``--reader-crops`` it writes the tile reader's crops instead (``OUT/cls/<code>/*.jpg`` and
``OUT/cls/crops.csv``, the columns of ``scripts/real_photos.py``'s, read by ``train_reader.py
--reframed-crops``): every labelled tile at least :data:`CROP_VISIBLE` inside its re-framing,
cut from its box as the runtime cuts a detector's box (:func:`vision.crops.crop_box`), turned to
portrait where the re-framing laid it on its side (a quarter turn) and not where it only looks
wide (a tile seen from the seat, foreshortened): the way the tile's top points is carried from the
photo through the re-framing's matrix. Which way up it lies is the one ``real_photos.py`` found
for the photo's crop (the shipped reader's sure answer), carried the same way; the training
pictures Roboflow published mirrored are flipped back as ``real_photos.py`` flips them (its
``mirrored`` column). Run ``scripts/real_photos.py`` first. The tile reader trained on the photos
as they were taken reads the far views' and seat views' tiles least surely (issue 33: most right
reads not called sure have only an unsure face to doubt).

Nothing from ``../shared`` is copied into the repository: the pictures go to ``data/`` (ignored).
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import eval_real  # noqa: E402
import real_photos  # noqa: E402

from mahjong_camera_scorer.mjsynth.photo_variants import KINDS, Variant, variants, with_rows  # noqa: E402
from mahjong_camera_scorer.mjsynth.realphotos import (  # noqa: E402
    CHINESE,
    UNKNOWN_FACE,
    RealPhoto,
    load_picture,
    read_labels,
)
from mahjong_camera_scorer.vision.classes import NOT_A_TILE, READER_CLASSES  # noqa: E402
from mahjong_camera_scorer.vision.crops import crop_box  # noqa: E402
from mahjong_camera_scorer.vision.models import MODELS_DIR, load_model  # noqa: E402
from mahjong_camera_scorer.vision.read import classify  # noqa: E402
from mahjong_camera_scorer.vision.zoom import pairwise_iou  # noqa: E402

#: A tile cut at the border is labelled when at least this share of it is in the frame.
LABEL_VISIBLE = 0.5
#: The variants' seed: the measurement uses 0; training pictures are other draws.
SEED = 1000
#: A tile is cut for the reader when at least this share of it is in the frame (as
#: :data:`mjsynth.photo_variants.KEEP`: a tile the measurement needs found).
CROP_VISIBLE = 0.75
#: At most this many tiles of one re-framing are cut (drawn at random): the re-framings of one
#: photo show its tiles again and again.
CROPS_PER_PICTURE = 8
#: A tile's box in the photo is upright when narrower than this share of its height, lying when
#: wider than :data:`LYING_ASPECT` times; in between its way is not known and it is not cut.
UPRIGHT_ASPECT, LYING_ASPECT = 0.9, 1.15
#: ... and a box narrower than this share of its length is no tile's face (a tile seen edge on, a
#: label drawn as a sliver): not cut.
SLIVER = 0.45
#: At most this many crops of what is no tile a re-framing (``--negatives``) ...
NEGATIVES_PER_PICTURE = 3
#: ... leaving out a box on no label the shipped reader reads as a tile this surely
LIKELY_TILE = 0.97
#: ``upside_down`` when the reader's answer is not known (``real_photos.py`` writes it empty)
UNKNOWN_WAY = ""
#: A picture's labels fit loosely when more than this share of its boxes overlap a neighbour's
#: by IoU over :data:`LOOSE_IOU` (tiles lie side by side; their boxes barely overlap).
LOOSE_SHARE, LOOSE_IOU = 0.4, 0.25


def loose_labels(boxes: list[tuple[float, float, float, float]]) -> bool:
    """Do these boxes fit their tiles loosely (most overlap a neighbour's)?"""
    if len(boxes) < 2:
        return False
    b = np.array(boxes, np.float64)
    iou = pairwise_iou(b, b)
    np.fill_diagonal(iou, 0.0)
    return bool((iou.max(axis=1) > LOOSE_IOU).mean() > LOOSE_SHARE)


def carried(
    matrix: np.ndarray, at: tuple[float, float], direction: tuple[float, float]
) -> tuple[float, float]:
    """Where ``direction`` at the photo's point ``at`` points after the re-framing's ``matrix``
    (a 3x3 homography): the image of a short step along it, normalised."""
    step = 0.05 * max(1.0, abs(at[0]) + abs(at[1]))
    pts = np.array([[at[0], at[1], 1.0], [at[0] + direction[0] * step, at[1] + direction[1] * step, 1.0]])
    mapped = pts @ matrix.T
    xy = mapped[:, :2] / mapped[:, 2:]
    d = xy[1] - xy[0]
    n = float(np.hypot(d[0], d[1])) or 1.0
    return float(d[0] / n), float(d[1] / n)


def cut_way(
    box: tuple[float, float, float, float], upside: str, matrix: np.ndarray
) -> tuple[bool, str] | None:
    """How to cut a tile of the photo (``box``, ``upside``: ``real_photos.py``'s answer, "1", "0"
    or unknown) from a re-framing: (turn the crop to portrait, upside down: "1", "0" or unknown).
    None when the tile's way in the photo is not known (a nearly square box) or its box is a
    sliver (:data:`SLIVER`)."""
    x0, y0, x1, y1 = box
    aspect = (x1 - x0) / max(1e-6, y1 - y0)
    if UPRIGHT_ASPECT <= aspect <= LYING_ASPECT or not SLIVER <= aspect <= 1 / SLIVER:
        return None
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    if aspect < UPRIGHT_ASPECT:  # standing: its top points up, or down when upside down
        top = (0.0, 1.0) if upside == "1" else (0.0, -1.0)
        known = upside in ("0", "1")
    else:  # lying: its top points left or right, which the crop's answer does not say here
        top, known = (1.0, 0.0), False
    dx, dy = carried(matrix, centre, top)
    turn = abs(dx) > abs(dy)
    if turn:  # the crop is turned clockwise: a top pointing (dx, dy) then points (-dy, dx)
        dx, dy = -dy, dx
    return turn, (str(int(dy > 0)) if known else UNKNOWN_WAY)


def read_real_crops(table: Path) -> tuple[dict[str, bool], dict[tuple[str, int], str]]:
    """``real_photos.py``'s crops table: which photos it flipped back (mirrored), and each crop's
    upside-down answer by (photo, number among the photo's coded labels)."""
    mirrored: dict[str, bool] = {}
    upside: dict[tuple[str, int], str] = {}
    with table.open(encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            mirrored[r["photo"]] = r["mirrored"] == "1"
            k = int(Path(r["file"]).stem.rpartition("_")[2])
            upside[(r["photo"], k)] = r["upside_down"]
    return mirrored, upside


class Negatives:
    """What is no whole tile in a re-framing, for the reader's "not a tile" class: the shipped
    detector's boxes on no tile, parts of tiles and empty patches, as ``scripts/real_photos.py``
    finds them in the photos (:func:`real_photos.negative_boxes`: a picture with a confident box
    on no label gives no boxes or patches, its labels being likely incomplete), at most
    :data:`NEGATIVES_PER_PICTURE` a re-framing; a box on no label the shipped reader reads as a
    tile at :data:`LIKELY_TILE` or more is left out (an unlabelled tile). Tuning the reader on
    re-framed tiles alone made it read dark clutter the detector calls a back as a back (the
    camera frames' shelves): these keep "not a tile" in the re-framings' proportion."""

    def __init__(self, models: Path) -> None:
        self.det = load_model(models / "detector.onnx")
        self.reader = load_model(models / "reader.onnx")

    def cut(self, v: Variant, rng: random.Random) -> list[np.ndarray]:
        """The crops of what is no whole tile in one re-framing."""
        found = real_photos.negative_boxes(v.image, v.tiles, self.det, rng)
        found = rng.sample(found, min(len(found), NEGATIVES_PER_PICTURE))
        crops = [crop_box(v.image, box)[0] for _, box in found]
        if not crops:
            return []
        probs, _ = classify(self.reader, crops, tta=True)
        return [
            c
            for (kind, _), c, pr in zip(found, crops, probs, strict=True)
            if kind != "false_box" or float(pr.max()) < LIKELY_TILE
        ]


def write_crop(
    out: Path, photo: RealPhoto, mirrored: bool, crop: np.ndarray, code: str, name: str, **row: str
) -> dict[str, str]:
    """Write one reader crop of a photo's re-framing under ``out/train/<code>/`` and return its
    row of the crops table (``row``: its other columns)."""
    folder = out / "train" / code
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / f"{Path(photo.path.name).stem[:60]}-{name}.jpg"
    cv2.imwrite(str(f), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
    head = {"file": str(f.relative_to(out)), "code": code, "split": "train", "dataset": photo.dataset}
    return {**head, "photo": photo.path.name, "mirrored": str(int(mirrored)), **row}


def write_reader_crops(
    photos: list[RealPhoto],
    kinds: list[str],
    seed: int,
    out: Path,
    mirrored: dict[str, bool],
    upside: dict[tuple[str, int], str],
    negatives: Negatives | None = None,
) -> int:
    """The reader's crops of every photo's re-framings (see the module's doc) and their table;
    with ``negatives``, crops of what is no whole tile in them as well (:class:`Negatives`)."""
    rows: list[dict[str, str]] = []
    counts = dict.fromkeys([*kinds, NOT_A_TILE], 0)
    for p in photos:
        image = load_picture(p)
        h, w = image.shape[:2]
        labels = [lab for lab in read_labels(p, w, h) if lab.code != UNKNOWN_FACE]
        if not labels or loose_labels([lab.box for lab in labels]):
            continue
        boxes = [lab.box for lab in labels]
        if mirrored.get(p.path.name):
            image = np.ascontiguousarray(image[:, ::-1])
            boxes = [(w - b[2], b[1], w - b[0], b[3]) for b in boxes]
        # each tile's number rides on its code through the re-framing
        tiles = with_rows(
            [(f"{k}|{lab.code}", b) for k, (lab, b) in enumerate(zip(labels, boxes, strict=True))]
        )
        rng = random.Random(f"{seed}:crops:{p.path.name}")
        for v in variants(image, tiles, kinds, p.path.name, seed):
            name = v.name.replace("/", "_")
            flipped = bool(mirrored.get(p.path.name))
            for k, crop in enumerate(negatives.cut(v, rng) if negatives is not None else []):
                row = {"kind": v.kind, "box": "", "turned": "0", "upside_down": UNKNOWN_WAY}
                rows.append(write_crop(out, p, flipped, crop, NOT_A_TILE, f"{name}_n{k}", **row))
                counts[NOT_A_TILE] += 1
            placed = [t for t in v.tiles if t.visible >= CROP_VISIBLE]
            for t in rng.sample(placed, min(len(placed), CROPS_PER_PICTURE)):
                number, _, code = t.code.partition("|")
                k = int(number)
                if code not in READER_CLASSES:
                    continue
                way = cut_way(boxes[k], upside.get((p.path.name, k), UNKNOWN_WAY), v.matrix)
                if way is None:
                    continue
                crop, _ = crop_box(v.image, t.box, turn=way[0])
                box = json.dumps([round(c, 1) for c in t.box])
                row = {"kind": v.kind, "box": box, "turned": str(int(way[0])), "upside_down": way[1]}
                rows.append(write_crop(out, p, flipped, crop, code, f"{name}_{k}", **row))
                counts[v.kind] += 1
    if not rows:
        print("error: no crops written", file=sys.stderr)
        return 2
    with (out / "crops.csv").open("w", newline="", encoding="utf-8") as fh:
        wr = csv.DictWriter(fh, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)
    print(f"{len(rows)} reader crops of {len(photos)} training photos' re-framings -> {out}: {counts}")
    return 0


def yolo_line(box: tuple[float, float, float, float], w: int, h: int) -> str:
    """One ultralytics label line of class 0 (``tile``) for an ``xyxy`` box in a w x h picture."""
    x0, y0, x1, y1 = box
    return f"0 {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--kinds", default="far,seat,turn90,turn180,crop")
    ap.add_argument("--crops-per-photo", type=int, default=2, help="at most this many row crops a photo")
    ap.add_argument("--limit", type=int, help="at most this many training photos (a quick run)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument(
        "--label-visible",
        type=float,
        default=LABEL_VISIBLE,
        help="label a tile cut at the border when at least this share of it is inside (default %(default)s)",
    )
    ap.add_argument(
        "--reader-crops",
        action="store_true",
        help="write the tile reader's crops (OUT/cls) instead of detector pictures",
    )
    ap.add_argument(
        "--real-crops",
        type=Path,
        default=ROOT / "data" / "real" / "cls",
        help="scripts/real_photos.py's crops (their crops.csv says which photos are mirrored)",
    )
    ap.add_argument(
        "--negatives",
        action="store_true",
        help="with --reader-crops: also crops of what is no whole tile (the reader's 'none' class)",
    )
    ap.add_argument("--models", type=Path, default=MODELS_DIR, help="the models that find the negatives")
    args = ap.parse_args(argv)
    if not 0.0 < args.label_visible <= 1.0:
        ap.error("--label-visible takes a share in (0, 1]")
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        ap.error(f"unknown kinds {unknown} (known: {', '.join(KINDS)})")
    real = ROOT.parent / "shared" / "data" / "real"
    if not real.is_dir():
        print(f"error: {real} is missing (../shared/data/real)", file=sys.stderr)
        return 2
    photos = [p for p in eval_real.test_photos(real, "train") if p.dataset == CHINESE]
    if args.limit:
        photos = photos[: args.limit]
    if args.reader_crops:
        table = args.real_crops / "crops.csv"
        if not table.is_file():
            print(f"error: {table} is missing: run scripts/real_photos.py first", file=sys.stderr)
            return 2
        negatives = Negatives(args.models) if args.negatives else None
        return write_reader_crops(
            photos, kinds, args.seed, args.out / "cls", *read_real_crops(table), negatives
        )
    img_dir, lab_dir = args.out / "det" / "images" / "train", args.out / "det" / "labels" / "train"
    img_dir.mkdir(parents=True, exist_ok=True)
    lab_dir.mkdir(parents=True, exist_ok=True)
    written = dict.fromkeys(kinds, 0)
    loose = 0
    for p in photos:
        image = load_picture(p)
        h, w = image.shape[:2]
        labels = read_labels(p, w, h)
        if loose_labels([lab.box for lab in labels]):
            loose += 1
            continue
        tiles = with_rows([(lab.code, lab.box) for lab in labels])
        rng = random.Random(f"{args.seed}:{p.path.name}")
        made = list(variants(image, tiles, kinds, p.path.name, args.seed))
        crops = [v for v in made if v.kind == "crop"]
        keep = [v for v in made if v.kind != "crop"] + rng.sample(
            crops, min(len(crops), args.crops_per_photo)
        )
        for v in keep:
            vh, vw = v.image.shape[:2]
            lines = [yolo_line(t.box, vw, vh) for t in v.tiles if t.visible >= args.label_visible]
            if not lines:
                continue
            name = f"{Path(p.path.name).stem[:60]}-{v.name}".replace("/", "_")
            cv2.imwrite(str(img_dir / f"{name}.jpg"), v.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            (lab_dir / f"{name}.txt").write_text("\n".join(lines) + "\n")
            written[v.kind] += 1
    print(
        f"{sum(written.values())} pictures from {len(photos) - loose} training photos -> {img_dir}: "
        f"{written} ({loose} photos with loose labels left out)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Measure the photo reader on tile sets and scenes its models never trained on (issue 22).

The real test split that decides elsewhere (Chinese/HK phone photos) shares sets and scenes with
training, so it cannot say how a new user's set is read. These sources can:

- **camera frames** (``../shared/data/real/riichi-camera-frames``): all 67 frames of one Japanese
  set (blank white dragons, yellow backs), read at the width the webcam gave them
  (:func:`mjsynth.realphotos.load_picture`), labelled boxes. Measured with models that never saw
  them: the models shipped since issue 22 (2026-11-26) never did; those shipped before trained on
  30 of them (``models/camera-frames-trained.txt``), so with those only the other 37 count
  (``--skip-frames``).
- **camerash grids** (``../shared/data/camerash/raw-images``): the five test-fold product photos of
  sets 4, 7, 9, 11, 13 (no model trained on a pixel of them), with the codes a player would type
  (``tests/vision/data/camerash_grid_codes.txt``; ``x`` = joker or a bonus series: not counted).
- **camerash-pr4** (``../shared/data/camerash-pr4``): a Japanese-style set no model has seen, four
  grid photos of 36 tiles with codes (``raw-images/codes.txt``: blank whites, red fives, black-ink
  green dragon) and 80 crops of it and of a Chinese set, read as given.
- the Chinese/HK test split as a second number (:mod:`eval_real`).

Every source is one set (the camerash grids: one set a photo), so its numbers are a
leave-one-set-out view: the set left out of every model's training. Grids have no boxes: each
photo is read as ``mahjong-score photo`` finds and reads tiles (detector with its second pass,
reader with both looks, ``none`` boxes dropped; a grid is not a hand, so no layout or mending), the
tiles are put in rows as the ``teach`` command does and each row is aligned with its codes (edit
distance: a code with no tile is a missed tile, a tile with no code a false box, a pair with
another code a misread). Frames go through :meth:`vision.pipeline.PhotoReader.read_and_score`
exactly as :mod:`eval_real` does (IoU >= 0.5 matching).

Per source and per **kind** (white dragons, blank or not as the set has them; backs; man tiles;
honours; red fives; sideways, i.e. labelled boxes wider than tall): how many were found (a box),
read (box and code), the kind's tile precision (readings of the kind that are right) and F1, and
how many were dropped as ``none``. Per source: tile F1, exact photos and rows, false boxes per
photo, the share of errors (false boxes, misreads) flagged (reading under 0.6 sure or named in a
warning), the most frequent misreads.

    python scripts/eval_unseen.py --reader models/checkpoints/reader-b.onnx \
        --detector runs/unseen/detector-stage3.onnx --out models/metrics/unseen-stage3.json
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import eval_real  # noqa: E402

from mahjong_camera_scorer.mjsynth.realphotos import (  # noqa: E402
    CHINESE,
    RIICHI,
    UNKNOWN_FACE,
    apply_audit,
    load_picture,
    read_labels,
)
from mahjong_camera_scorer.vision.classes import BACK, RED_FIVES  # noqa: E402
from mahjong_camera_scorer.vision.crops import prepare_tile_image  # noqa: E402
from mahjong_camera_scorer.vision.models import MODELS_DIR, OnnxModel, load_model  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402
from mahjong_camera_scorer.vision.read import TileRead, classify  # noqa: E402
from mahjong_camera_scorer.vision.teach.codes import SKIP, parse_rows  # noqa: E402
from mahjong_camera_scorer.vision.teach.pairing import photo_rows  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
CAMERASH = SHARED / "camerash" / "raw-images"
PR4 = SHARED / "camerash-pr4"
GRID_CODES = ROOT / "tests" / "vision" / "data" / "camerash_grid_codes.txt"
#: the 30 camera frames the detector (stage 4) and reader shipped until 2026-11-25 were trained on
#: (squashed), as the real split of commit e66e3e6 listed them (``split == train``)
FRAMES_TRAINED = ROOT / "models" / "camera-frames-trained.txt"
#: pr4 crops: camerash's numbering (``../camerash-pr4/README.md``) to our codes
PR4_LABELS = {
    **{i: f"{i}p" for i in range(1, 10)},
    **{9 + i: f"{i}s" for i in range(1, 10)},
    **{18 + i: f"{i}m" for i in range(1, 10)},
    28: "1z", 29: "2z", 30: "3z", 31: "4z", 32: "7z", 33: "6z", 34: "5z",
    35: "5f", 36: "6f", 37: "7f", 38: "8f", 39: "1f", 40: "2f", 41: "3f", 42: "4f",
}  # fmt: skip

#: the kinds the issue asks about, by code (``sideways`` is by the label's shape, see :func:`kinds_of`)
KINDS: dict[str, Callable[[str], bool]] = {
    "white_dragon": lambda c: c == "5z",
    "back": lambda c: c == BACK,
    "man": lambda c: c.endswith("m"),
    "honours": lambda c: c.endswith("z"),
    "red_five": lambda c: c in RED_FIVES,
}
#: a labelled box this much wider than tall shows a tile lying sideways (standing tiles: 0.65-0.87)
SIDEWAYS_ASPECT = 1.15


def kinds_of(code: str, box: tuple[float, ...] | None = None) -> list[str]:
    out = [k for k, test in KINDS.items() if test(code)]
    if box is not None and (box[2] - box[0]) > SIDEWAYS_ASPECT * (box[3] - box[1]):
        out.append("sideways")
    return out


class Tally:
    """Counts of one source (and of each kind in it) and the metrics made of them."""

    def __init__(self) -> None:
        self.k: Counter[str] = Counter()
        self.kind: dict[str, Counter[str]] = defaultdict(Counter)
        self.misreads: Counter[str] = Counter()

    def truth(self, code: str, box: tuple[float, ...] | None, found: bool, read: str | None) -> None:
        """One true tile: ``found`` a box on it, ``read`` its reading (None: no box, ``none``: dropped)."""
        for kind in kinds_of(code, box):
            c = self.kind[kind]
            c["labels"] += 1
            c["found"] += int(found)
            c["read"] += int(read == code)
            c["dropped_as_none"] += int(read == "none")

    def reading(self, code: str, right: bool) -> None:
        """One reported tile with a face code: counts for the precision of its kinds."""
        for kind in kinds_of(code):
            self.kind[kind]["reported"] += 1
            self.kind[kind]["reported_right"] += int(right)

    def summary(self) -> dict:
        k = self.k
        tp = k["tile_tp"]
        p, r = tp / max(1, k["reported_coded"]), tp / max(1, k["coded_labels"])
        errors = k["false_boxes"] + k["misread"]
        out: dict = {
            **dict(sorted(k.items())),
            "tile_precision": round(p, 4),
            "tile_recall": round(r, 4),
            "tile_f1": round(eval_real.f1(p, r), 4),
            "false_boxes_per_photo": round(k["false_boxes"] / max(1, k["photos"]), 3),
            "exact_photos": f"{k['exact_photos']}/{k['photos']}",
            "errors_flagged": round((k["false_flagged"] + k["misread_flagged"]) / max(1, errors), 4),
            "right_tiles_flagged": round(k["right_flagged"] / max(1, tp), 4),
            "top_misreads": self.misreads.most_common(12),
            "kinds": {},
        }
        if k["rows"]:
            out["exact_rows"] = f"{k['exact_rows']}/{k['rows']}"
        for name, c in sorted(self.kind.items()):
            kp = c["reported_right"] / c["reported"] if c["reported"] else None
            kr = c["read"] / c["labels"] if c["labels"] else None
            out["kinds"][name] = {
                **dict(sorted(c.items())),
                "found_share": None if kr is None else round(c["found"] / c["labels"], 4),
                "read_share": None if kr is None else round(kr, 4),
                "precision": None if kp is None else round(kp, 4),
                "f1": None if kp is None or kr is None else round(eval_real.f1(kp, kr), 4),
            }
        return out


# -- camera frames (labelled boxes) ---------------------------------------------------------------


def frame_photos(skip: set[str]) -> list:  # type: ignore[type-arg]
    photos = [
        p
        for split in ("test", "teach")
        for p in eval_real.test_photos(SHARED / "real", split)
        if p.dataset == RIICHI and p.path.name not in skip
    ]
    return sorted(photos, key=lambda p: p.path.name)


def eval_frames(reader: PhotoReader, skip: set[str]) -> dict:
    """The frames read against their labels, the label audit's condemned labels
    (``bad_label``, each with its tile audited as a tile of no known face) applied: a published
    label plainly wrong (``models/real-audit.csv``) is not counted as a misread."""
    t = Tally()
    audit = eval_real.read_audit(eval_real.AUDIT_CSV)
    for p in frame_photos(skip):
        image = load_picture(p)
        h, w = image.shape[:2]
        published = read_labels(p, w, h)
        labels = apply_audit(published, audit.get((p.dataset, p.path.name), []))
        t.k["labels_condemned"] += sum(lab not in labels for lab in published)
        result = reader.read_and_score(image)
        pred = list(result.tiles)
        warned = result.warned
        pairs = eval_real.match(pred, labels)
        by_label = {j: i for i, j in pairs}
        rejected_on = {
            j: r
            for j, lab in enumerate(labels)
            for r in result.rejected
            if eval_real.iou(r.box, lab.box) >= 0.5
        }
        t.k["photos"] += 1
        t.k["labels"] += len(labels)
        t.k["reported"] += len(pred)
        right = 0
        coded = 0
        for j, lab in enumerate(labels):
            if lab.code == UNKNOWN_FACE:
                continue
            coded += 1
            i = by_label.get(j)
            read = pred[i].code if i is not None else ("none" if j in rejected_on else None)
            t.truth(lab.code, lab.box, i is not None, read)
        for i, j in pairs:
            code = labels[j].code
            if code == UNKNOWN_FACE:
                continue
            flagged = int(pred[i].flagged or pred[i].index in warned)
            if pred[i].code == code:
                right += 1
                t.k["right_flagged"] += flagged
            else:
                t.k["misread"] += 1
                t.k["misread_flagged"] += flagged
                t.misreads[f"{code}->{pred[i].code}"] += 1
        matched = {i for i, _ in pairs}
        false = [pred[i] for i in range(len(pred)) if i not in matched]
        for i, tr in enumerate(pred):
            j = next((j for a, j in pairs if a == i), None)
            if j is None or labels[j].code != UNKNOWN_FACE:
                t.reading(tr.code, j is not None and labels[j].code == tr.code)
        t.k["coded_labels"] += coded
        t.k["reported_coded"] += len(pred) - sum(labels[j].code == UNKNOWN_FACE for _, j in pairs)
        t.k["tile_tp"] += right
        t.k["false_boxes"] += len(false)
        t.k["false_flagged"] += sum(int(x.flagged or x.index in warned) for x in false)
        t.k["missed"] += len(labels) - len(pairs)
        t.k["dropped_as_none"] += len(result.rejected)
        t.k["exact_photos"] += int(not false and len(pairs) == len(labels) and right == coded)
    return t.summary()


# -- grid photos with codes (no boxes) ------------------------------------------------------------


#: A misread costs more than a missed or an extra tile and less than both: where the codes alone
#: cannot tell (1m 3m 9m read for 1m 2m 3m), a missed tile and a false box are taken, not two misreads.
MISREAD_COST = 1.5


def align(truth: list[str], read: list[TileRead]) -> list[tuple[int | None, int | None]]:
    """Edit-distance alignment of a row's true codes with its readings, left to right: pairs
    (code index, reading index), None on the side that has nothing. A :data:`SKIP` code (a tile
    that is no tile kind: a joker) matches any reading or nothing at no cost."""
    n, m = len(truth), len(read)
    cost = np.zeros((n + 1, m + 1))
    cost[:, 0] = [sum(c != SKIP for c in truth[:i]) for i in range(n + 1)]
    cost[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        skip = truth[i - 1] == SKIP
        for j in range(1, m + 1):
            sub = 0.0 if skip or truth[i - 1] == read[j - 1].code else MISREAD_COST
            cost[i, j] = min(
                cost[i - 1, j - 1] + sub, cost[i - 1, j] + (0 if skip else 1), cost[i, j - 1] + 1
            )
    out: list[tuple[int | None, int | None]] = []
    i, j = n, m
    while i or j:
        skip = i > 0 and truth[i - 1] == SKIP
        if i and j:
            sub = 0.0 if skip or truth[i - 1] == read[j - 1].code else MISREAD_COST
            if cost[i, j] == cost[i - 1, j - 1] + sub:
                out.append((i - 1, j - 1))
                i, j = i - 1, j - 1
                continue
        if i and cost[i, j] == cost[i - 1, j] + (0 if skip else 1):
            out.append((i - 1, None))
            i -= 1
        else:
            out.append((None, j - 1))
            j -= 1
    return out[::-1]


def errors(codes: list[list[str]], rows: list[list[TileRead]]) -> int:
    """Misses, false boxes and misreads of rows read against their codes (:func:`align`)."""
    n = 0
    for cs, row in zip(codes, rows, strict=True):
        for i, j in align(cs, row):
            code = cs[i] if i is not None else None
            n += code != SKIP and (j is None or code != row[j].code)
    return n


def grid_set(path: Path) -> str:
    """The tile set a grid photo shows: ``camerash-<n>`` (photos ``n-k`` show set n) or ``pr4``."""
    if path.parent.parent.name == PR4.name:
        return "pr4"
    return f"camerash-{path.stem.split('-')[0]}"


def grid_rows(
    tiles: list[TileRead], codes: list[list[str]]
) -> tuple[list[list[TileRead]], list[list[str]], list[str]]:
    """A grid photo's readings in rows as the ``teach`` command lays them out, beside the rows of
    codes they are aligned with, and what had to be done to get there (``rows_merged``: the rows
    were not found as laid out, so the whole photo is aligned at once; ``photo_turned``)."""
    rows = photo_rows(tiles)
    done = []
    if len(rows) != len(codes):  # rows not found as laid out: align the whole photo at once
        rows = [[tile for row in rows for tile in row]]
        codes = [[c for row in codes for c in row]]
        done.append("rows_merged")
    # the rows are in the frame of the way most tiles point; a grid of faces that look the same
    # both ways (circles) may come out turned 180 degrees: take the turn that fits the codes
    turned = [row[::-1] for row in rows[::-1]]
    if errors(codes, turned) < errors(codes, rows):
        rows = turned
        done.append("photo_turned")
    return rows, codes, done


def eval_grids(
    reader: PhotoReader | Callable[[Path], PhotoReader], photos: Iterable[tuple[Path, list[list[str]]]]
) -> dict:
    """Per set (one grid photo) and over all: the grid's tiles read against its codes.
    ``reader`` may be a function of the photo: a leave-one-set-out measurement reads each set
    with the model trained without it."""
    total = Tally()
    per_photo: dict[str, dict] = {}
    for path, codes in photos:
        t = Tally()
        seen = (reader if isinstance(reader, PhotoReader) else reader(path)).read(path)
        rows, codes, done = grid_rows(list(seen.tiles), codes)
        for what in done:
            t.k[what] += 1
        for tally in (t, total):
            tally.k["photos"] += 1
        photo_exact = True
        for row, cs in zip(rows, codes, strict=True):
            row_exact = True
            for i, j in align(cs, row):
                code = cs[i] if i is not None else None
                tile = row[j] if j is not None else None
                if code == SKIP:
                    continue
                if code is not None:
                    for tally in (t, total):
                        tally.k["coded_labels"] += 1
                        tally.truth(code, None, tile is not None, tile.code if tile else None)
                if tile is not None:
                    flagged = int(tile.flagged)
                    for tally in (t, total):
                        tally.k["reported"] += 1
                        tally.k["reported_coded"] += 1
                        tally.reading(tile.code, tile.code == code)
                        if code is None:
                            tally.k["false_boxes"] += 1
                            tally.k["false_flagged"] += flagged
                        elif tile.code == code:
                            tally.k["tile_tp"] += 1
                            tally.k["right_flagged"] += flagged
                        else:
                            tally.k["misread"] += 1
                            tally.k["misread_flagged"] += flagged
                            tally.misreads[f"{code}->{tile.code}"] += 1
                elif code is not None:
                    for tally in (t, total):
                        tally.k["missed"] += 1
                row_exact &= code == (tile.code if tile else None)
            for tally in (t, total):
                tally.k["rows"] += 1
                tally.k["exact_rows"] += int(row_exact)
            photo_exact &= row_exact
        for tally in (t, total):
            tally.k["exact_photos"] += int(photo_exact)
            tally.k["dropped_as_none"] += len(seen.rejected)
        per_photo[path.name] = t.summary()
    return {"all": total.summary(), "per_set": per_photo}


def camerash_grids() -> list[tuple[Path, list[list[str]]]]:
    lines = [ln for ln in GRID_CODES.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return [(CAMERASH / a.strip(), parse_rows(b)) for a, b in (ln.split(":", 1) for ln in lines)]


def pr4_grids() -> list[tuple[Path, list[list[str]]]]:
    out: list[tuple[Path, list[str]]] = []
    for ln in (PR4 / "raw-images" / "codes.txt").read_text().splitlines():
        if not ln.strip() or ln.startswith("#"):
            continue
        if ln.strip().endswith(".jpg"):
            out.append((PR4 / "raw-images" / ln.strip(), []))
        else:
            out[-1][1].append(ln.strip())
    return [(p, parse_rows("\n".join(rows))) for p, rows in out]


# -- crops as given -------------------------------------------------------------------------------


def eval_crops(rdr: OnnxModel, items: list[tuple[Path, str]]) -> dict:
    """Each crop read as it comes (both looks), top-1 against its code, per kind."""
    t = Tally()
    size = rdr.imgsz[0]
    crops = [prepare_tile_image(cv2.imread(str(p)), size) for p, _ in items]
    probs, _ = classify(rdr, crops, True)
    for (_, code), p in zip(items, probs, strict=True):
        read = rdr.classes[int(np.argmax(p))]
        t.k["coded_labels"] += 1
        t.k["reported"] += 1
        t.k["reported_coded"] += 1
        t.truth(code, None, True, read)
        t.reading(read, read == code)
        if read == code:
            t.k["tile_tp"] += 1
        else:
            t.k["misread"] += 1
            t.misreads[f"{code}->{read}"] += 1
    out = t.summary()
    out["top1"] = round(t.k["tile_tp"] / max(1, len(items)), 4)
    return out


def pr4_crops() -> list[tuple[Path, str]]:
    rows = csv.DictReader((PR4 / "data.csv").open(encoding="utf-8"))
    return [(PR4 / "tiles-resized" / r["image-name"], PR4_LABELS[int(r["label"])]) for r in rows]


def camerash_test_crops() -> list[tuple[Path, str]]:
    rows = csv.DictReader((ROOT / "models" / "camerash-split.csv").open(encoding="utf-8"))
    return [
        (SHARED / "camerash" / "tiles-resized" / r["crop"], r["code"]) for r in rows if r["fold"] == "test"
    ]


def leave_one_set_out(
    folder: Path, det: OnnxModel, out: dict, save: Path | None, small: OnnxModel | None = None
) -> int:
    """Every grid set read by the reader trained without it: the numbers of readers that trained
    on the other sets' grid photos, as a new user's set would be read."""
    photos = camerash_grids() + pr4_grids()
    paths = {name: folder / f"reader-{name}.onnx" for name in sorted({grid_set(p) for p, _ in photos})}
    missing = [str(p) for p in paths.values() if not p.is_file()]
    if missing:
        print(
            f"error: no reader at {', '.join(missing)} (one per set, trained without it: "
            "STAGE=loso scripts/make_models.sh)",
            file=sys.stderr,
        )
        return 2
    readers = {
        name: PhotoReader(det=det, rdr=load_model(path), small_det=small) for name, path in paths.items()
    }
    out["reader"] = {name: eval_real.shown(path) for name, path in paths.items()}
    out["camerash_grids"] = eval_grids(lambda p: readers[grid_set(p)], camerash_grids())
    out["pr4_grids"] = eval_grids(lambda p: readers[grid_set(p)], pr4_grids())
    print(json.dumps(out, indent=1))
    eval_real.save_json(out, save)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--detector", type=Path, default=MODELS_DIR / "detector.onnx")
    ap.add_argument("--reader", type=Path, default=MODELS_DIR / "reader.onnx")
    eval_real.add_small_detector_option(ap)
    ap.add_argument(
        "--skip-frames",
        action="store_true",
        help=f"leave out the 30 camera frames the models of 2026-11-25 trained on ({FRAMES_TRAINED.name})",
    )
    ap.add_argument(
        "--sources",
        default="frames,camerash,pr4,chinese",
        help="comma-separated: frames, camerash, pr4, chinese (default: all)",
    )
    ap.add_argument(
        "--loso",
        type=Path,
        help="leave one set out: read each grid set with <dir>/reader-<set>.onnx, the reader trained "
        "without it (make_models.sh stage loso); grids only",
    )
    ap.add_argument("--label", default="")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if not (SHARED / "real").is_dir():
        print(f"error: no real photos at {SHARED / 'real'}", file=sys.stderr)
        return 2
    for path in (args.detector, args.reader):
        if not path.is_file():
            print(f"error: no model at {path}", file=sys.stderr)
            return 2
    det = load_model(args.detector)
    small = eval_real.small_detector(args, MODELS_DIR, det)
    if args.loso:  # one reader per set, none of --reader
        out = {"label": args.label, "detector": eval_real.shown(args.detector)}
        return leave_one_set_out(args.loso, det, out, args.out, small)
    rdr = load_model(args.reader)
    reader = PhotoReader(det=det, rdr=rdr, small_det=small)
    sources = set(args.sources.split(","))
    listed = [ln for ln in FRAMES_TRAINED.read_text().splitlines() if ln and not ln.startswith("#")]
    skip = set(listed) if args.skip_frames else set()
    out: dict = {
        "label": args.label,
        "detector": eval_real.shown(args.detector),
        "small_detector": eval_real.shown(small.path),
        "reader": eval_real.shown(args.reader),
        "frames_left_out": sorted(skip),
    }
    t0 = time.perf_counter()
    if "frames" in sources:
        out["camera_frames"] = eval_frames(reader, skip)
        print(f"camera frames done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    if "camerash" in sources:
        out["camerash_grids"] = eval_grids(reader, camerash_grids())
        out["camerash_test_crops"] = eval_crops(rdr, camerash_test_crops())
        print(f"camerash done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    if "pr4" in sources:
        out["pr4_grids"] = eval_grids(reader, pr4_grids())
        out["pr4_crops"] = eval_crops(rdr, pr4_crops())
        print(f"pr4 done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    if "chinese" in sources:
        photos = [p for p in eval_real.test_photos(SHARED / "real") if p.dataset == CHINESE]
        audit = eval_real.read_audit(eval_real.AUDIT_CSV)
        res = eval_real.evaluate(reader, photos, audit)[CHINESE]
        keep = ("tile_f1", "false_boxes_per_picture", "exact_pictures", "errors_flagged", "top_misreads")
        out["chinese_test"] = {k: res[k] for k in keep} | {"audited": {k: res["audited"][k] for k in keep}}
        print(f"chinese done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    print(json.dumps(out, indent=1))
    eval_real.save_json(out, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Measure the photo reader on the scenes a user frames: tight crops, far rows, seat views, turns.

Issue 33, item 1. The sources are the project's labelled real photos that no shipped model trained
on, read from ``../shared`` at run time:

- ``chinese``: the Chinese/HK test split of ``models/real-split.csv`` (:mod:`eval_real`), with the
  label audit applied (its ``audited`` labels: tiles the published labels left out are box-only
  tiles, so a box on one is no false box);
- ``frames``: the 67 camera frames of one Japanese set (:mod:`eval_unseen`; the shipped models
  never trained on a frame: ``models/camera-frames-trained.txt``);
- ``camerash`` / ``pr4``: the grid photos of the camerash test fold and of camerash-pr4 with the
  codes a player types (:mod:`eval_unseen`). Each grid photo is cut tight around its tiles, so
  tile ``c`` of row ``r`` is the ``(r, c)`` cell of a grid of the photo's rows by the row's codes
  (every cell has a standing tile's shape, 0.71-0.76 wide for 1 tall): that cell is its box. A
  code ``x`` (a joker, a bonus series) is a box-only tile.

Every photo is made into variants (:mod:`mjsynth.photo_variants`: ``original``, ``crop`` of each
row, ``far`` at 10-16 and 16-24 px, ``seat``, ``turn90``, ``turn180``), the labels moved with the
pixels, and each variant is read as the CLI reads a photo (:meth:`vision.pipeline.PhotoReader.
read_and_score`; no photo here is large enough for the CLI's reduced decode, so the pixels are
the same). Reported tiles are matched to labels by :func:`eval_real.match` (IoU >= 0.5, best
detector score first). A tile cut at the frame's border is scored by how much of it is left
(:data:`mjsynth.photo_variants.KEEP` / ``GONE``: at least 3/4 must be found, under 1/4 is no
tile, in between either answer is accepted).

Per source x variant, and per tile size (the long side of its box in the variant, so a tile
turned sideways keeps its size; :data:`BUCKETS`):

- ``recall``: labelled tiles with a reported box at IoU >= 0.5, whatever its code (boxes the
  reader dropped as ``none`` are misses; ``dropped_as_none`` counts them);
- ``tile_f1``: box and code right (box-only labels count for recall alone);
- ``false_boxes_per_photo``: reported tiles on no label;
- ``exact_rows``: every tile of a labelled row found and read right, no false box in the row's
  band (the row's boxes, grown by half a tile along it and a quarter across it, in the photo's
  pixels); ``exact_photos``: every tile right, no false box;
- ``right_called_sure`` / ``wrong_called_sure``: exact and not exact photos the reading calls
  sure: ``result.verdict.sure`` where the result has a verdict, else the proxy until it does
  (sure = no tile flagged and no check naming tiles: ``result.flagged``, ``result.tile_checks``).

    python scripts/eval_scenes.py --out models/metrics/scenes-shipped.json [--models DIR]
        [--variants crop,far] [--sources chinese,frames] [--limit N | --quick]

The JSON keeps every count; the Markdown tables for the model card go to stdout.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import eval_real  # noqa: E402
import eval_unseen  # noqa: E402

from mahjong_camera_scorer.mjsynth.photo_variants import (  # noqa: E402
    GONE,
    KEEP,
    KINDS,
    MIN_ROW,
    Placed,
    SceneTile,
    Variant,
    tile_size,
    variants,
    with_rows,
)
from mahjong_camera_scorer.mjsynth.realphotos import (  # noqa: E402
    CHINESE,
    UNKNOWN_FACE,
    AuditBox,
    apply_audit,
    load_picture,
    read_audit,
    read_labels,
)
from mahjong_camera_scorer.vision.images import load_photo  # noqa: E402
from mahjong_camera_scorer.vision.models import MODELS_DIR, load_model  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402
from mahjong_camera_scorer.vision.read import TileRead  # noqa: E402
from mahjong_camera_scorer.vision.teach.codes import SKIP  # noqa: E402

SOURCES = ("chinese", "frames", "camerash", "pr4")
#: Sources to choose a threshold on, never to report as unseen: the Chinese/HK validation split
#: (``--sources chinese-val``), whose photos no model trained on either.
TUNING = ("chinese-val",)
#: tile sizes (long side of the box in the variant, px): [low, high) and the bucket's name
BUCKETS: tuple[tuple[float, float, str], ...] = (
    (0.0, 10.0, "<10"),
    (10.0, 16.0, "10-16"),
    (16.0, 24.0, "16-24"),
    (24.0, 40.0, "24-40"),
    (40.0, 80.0, "40-80"),
    (80.0, math.inf, "80+"),
)
#: A false box lies in a row when its centre is inside the row's boxes grown by this share of a
#: tile's width along the row and of its height across it (in the photo's pixels).
ROW_BAND = (0.5, 0.25)
#: the counts every summary gives, 0 where nothing was counted
COUNTS = (
    "photos", "exact_photos", "labels", "coded_labels", "box_tp", "box_only_boxed", "tile_tp", "misread",
    "dropped_as_none", "false_boxes", "rows", "exact_rows", "cut_tiles", "cut_tiles_boxed",
)  # fmt: skip
#: photos per source of a ``--quick`` run
QUICK_LIMIT = 2


def bucket(size: float) -> str:
    """The name of the size bucket a tile of ``size`` px falls in (:data:`BUCKETS`)."""
    for low, high, name in BUCKETS:
        if low <= size < high:
            return name
    raise ValueError(f"not a tile size: {size}")


@dataclass(frozen=True)
class SourcePhoto:
    """One labelled photo of a source: its name, how to get its pixels and tiles, and for a grid
    photo the tile set it shows (``camerash-4`` ... ``pr4``: :func:`eval_unseen.grid_set`)."""

    source: str
    name: str
    load: Callable[[], tuple[np.ndarray, list[SceneTile]]]
    tile_set: str | None = None


# -- the sources --------------------------------------------------------------------------------


def _labelled(path_photo: Any, audit: dict[tuple[str, str], list[AuditBox]]) -> Callable[[], Any]:
    def load() -> tuple[np.ndarray, list[SceneTile]]:
        image = load_picture(path_photo)
        h, w = image.shape[:2]
        labels = read_labels(path_photo, w, h)
        labels = apply_audit(labels, audit.get((path_photo.dataset, path_photo.path.name), []))
        return image, with_rows([(lab.code, lab.box) for lab in labels])

    return load


def grid_tiles(codes: Sequence[Sequence[str]], width: int, height: int) -> list[SceneTile]:
    """A grid photo's tiles: row ``r`` of ``n`` rows is the ``r``-th band of the photo's height,
    its ``m`` codes split the width evenly; a :data:`SKIP` code is a box-only tile."""
    out = []
    n = len(codes)
    for r, row in enumerate(codes):
        m = len(row)
        for c, code in enumerate(row):
            box = (c * width / m, r * height / n, (c + 1) * width / m, (r + 1) * height / n)
            out.append(SceneTile(UNKNOWN_FACE if code == SKIP else code, box, r if m >= MIN_ROW else None))
    return out


def _grid(path: Path, codes: list[list[str]]) -> Callable[[], Any]:
    def load() -> tuple[np.ndarray, list[SceneTile]]:
        image, scale = load_photo(path)
        if scale != 1.0:  # the grids are small enough to decode whole; a tile set cell by cell
            raise SystemExit(f"error: {path} decodes reduced; its grid would not fit")
        h, w = image.shape[:2]
        return image, grid_tiles(codes, w, h)

    return load


def source_photos(source: str, audit: dict[tuple[str, str], list[AuditBox]]) -> list[SourcePhoto]:
    if source in ("chinese", "chinese-val"):
        split = "val" if source == "chinese-val" else "test"
        real = eval_real.test_photos(eval_unseen.SHARED / "real", split)
        photos = [p for p in real if p.dataset == CHINESE]
        return [SourcePhoto(source, p.path.name, _labelled(p, audit)) for p in photos]
    if source == "frames":
        return [
            SourcePhoto(source, p.path.name, _labelled(p, audit)) for p in eval_unseen.frame_photos(set())
        ]
    grids = eval_unseen.camerash_grids() if source == "camerash" else eval_unseen.pr4_grids()
    return [SourcePhoto(source, p.name, _grid(p, codes), eval_unseen.grid_set(p)) for p, codes in grids]


def spread(items: Sequence[Any], limit: int | None) -> list[Any]:
    """At most ``limit`` of ``items``, evenly spread over them (all without a limit)."""
    if limit is None or limit >= len(items):
        return list(items)
    return [items[i * len(items) // limit] for i in range(limit)]


# -- counting -----------------------------------------------------------------------------------


def row_bands(tiles: Sequence[SceneTile]) -> dict[int, tuple[float, float, float, float]]:
    """Each row's band in the photo's pixels: its boxes' bounds grown by :data:`ROW_BAND`."""
    out = {}
    for r in {t.row for t in tiles if t.row is not None}:
        boxes = [t.box for t in tiles if t.row == r]
        tw = median(b[2] - b[0] for b in boxes)
        th = median(b[3] - b[1] for b in boxes)
        gx, gy = ROW_BAND[0] * tw, ROW_BAND[1] * th
        out[r] = (
            min(b[0] for b in boxes) - gx,
            min(b[1] for b in boxes) - gy,
            max(b[2] for b in boxes) + gx,
            max(b[3] for b in boxes) + gy,
        )
    return out


def is_sure(result: Any) -> tuple[bool, str]:
    """Does the reading call its tiles sure, and by what: the result's verdict where it has one
    (:attr:`vision.verdict.Verdict.tiles_sure`: no tile doubted; these photos are no hands, so
    the verdict's part on the hand as a whole, never sure for a hand of the wrong size, is not
    what they can measure), else the proxy (no tile flagged, no check naming tiles)."""
    verdict = getattr(result, "verdict", None)
    if verdict is not None:
        return bool(verdict.tiles_sure), "verdict"
    return not result.flagged and not result.tile_checks, "proxy"


class SceneTally:
    """The counts of one source x variant, in total and per tile size (:data:`BUCKETS`)."""

    def __init__(self) -> None:
        self.k: Counter[str] = Counter()
        self.by_size: dict[str, Counter[str]] = defaultdict(Counter)
        self.misreads: Counter[str] = Counter()

    def _add(self, key: str, size: float | None, n: int = 1) -> None:
        self.k[key] += n
        if size is not None:
            self.by_size[bucket(size)][key] += n

    def add(
        self,
        variant: Variant,
        bands: dict[int, tuple[float, float, float, float]],
        pred: Sequence[TileRead],
        rejected: Sequence[TileRead] = (),
        sure: bool | None = None,
        seconds: float = 0.0,
    ) -> bool:
        """One variant's reading against its labels; returns whether the photo was read exactly.
        ``bands``: the rows' bands in the photo's pixels (:func:`row_bands`)."""
        labels: list[Placed] = variant.tiles
        pairs = eval_real.match(list(pred), labels)
        by_label = {j: i for i, j in pairs}
        counted = {i for i, j in pairs if labels[j].required}  # boxes on cut tiles: either way
        right: dict[int, bool] = {}  # label -> found (and read right, where it has a code)
        for j, lab in enumerate(labels):
            if not lab.required:
                self._add("cut_tiles", lab.size)
                self._add("cut_tiles_boxed", lab.size, int(j in by_label))
                continue
            self._add("labels", lab.size)
            coded = lab.code != UNKNOWN_FACE
            self._add("coded_labels", lab.size, int(coded))
            i = by_label.get(j)
            if i is None:
                right[j] = False
                near = any(eval_real.iou(r.box, lab.box) >= 0.5 for r in rejected)
                self._add("dropped_as_none", lab.size, int(near))
                continue
            self._add("box_tp", lab.size)
            if not coded:
                self._add("box_only_boxed", lab.size)
                right[j] = True
            elif pred[i].code == lab.code:
                self._add("tile_tp", lab.size)
                right[j] = True
            else:
                self._add("misread", lab.size)
                self.misreads[f"{lab.code}->{pred[i].code}"] += 1
                right[j] = False
        matched = {i for i, _ in pairs}
        false_rows: set[int] = set()
        for i, t in enumerate(pred):
            if i in matched:
                continue
            self._add("false_boxes", tile_size(t.box))
            at = variant.back((t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2)
            if at is not None:
                false_rows |= {r for r, b in bands.items() if b[0] <= at[0] <= b[2] and b[1] <= at[1] <= b[3]}
        self.k["reported"] += len(counted) + len(pred) - len(matched)
        for r in sorted({lab.row for lab in labels if lab.row is not None}):
            members = [j for j, lab in enumerate(labels) if lab.row == r and lab.required]
            if len(members) < MIN_ROW:
                continue
            size = median(labels[j].size for j in members)
            self._add("rows", size)
            self._add("exact_rows", size, int(r not in false_rows and all(right[j] for j in members)))
        required = [j for j, lab in enumerate(labels) if lab.required]
        exact = all(right[j] for j in required) and len(matched) == len(pred)
        size = median(labels[j].size for j in required) if required else None
        self._add("photos", size)
        self._add("exact_photos", size, int(exact))
        if sure is not None:
            self.k["right_sure" if exact else "wrong_sure"] += int(sure)
        self.k["seconds_x1000"] += round(seconds * 1000)
        return exact

    def summary(self) -> dict[str, Any]:
        out = summary(self.k)
        k = self.k
        wrong = k["photos"] - k["exact_photos"]
        out["false_boxes_per_photo"] = round(k["false_boxes"] / max(1, k["photos"]), 3)
        out["right_called_sure"] = f"{k['right_sure']}/{k['exact_photos']}"
        out["wrong_called_sure"] = f"{k['wrong_sure']}/{wrong}"
        out["seconds_per_photo"] = round(k["seconds_x1000"] / 1000 / max(1, k["photos"]), 3)
        out["top_misreads"] = self.misreads.most_common(10)
        out["by_size"] = {name: summary(self.by_size[name]) for _, _, name in BUCKETS if name in self.by_size}
        return out

    def merge(self, other: SceneTally) -> None:
        self.k.update(other.k)
        self.misreads.update(other.misreads)
        for name, c in other.by_size.items():
            self.by_size[name].update(c)


def summary(k: Counter[str]) -> dict[str, Any]:
    """The metrics of a set of counts (:class:`SceneTally`)."""
    box_tp, reported_tiles = k["box_tp"], k["box_tp"] + k["false_boxes"]
    recall = box_tp / max(1, k["labels"])
    coded_reported = reported_tiles - k["box_only_boxed"]
    tp, tr = k["tile_tp"] / max(1, coded_reported), k["tile_tp"] / max(1, k["coded_labels"])
    return {
        **{key: k[key] for key in sorted({*COUNTS, *k} - {"seconds_x1000"})},
        "recall": round(recall, 4),
        "box_precision": round(box_tp / max(1, reported_tiles), 4),
        "tile_precision": round(tp, 4),
        "tile_recall": round(tr, 4),
        "tile_f1": round(eval_real.f1(tp, tr), 4),
        "exact_rows": f"{k['exact_rows']}/{k['rows']}",
        "exact_photos": f"{k['exact_photos']}/{k['photos']}",
    }


# -- the run ------------------------------------------------------------------------------------


@dataclass
class Made:
    """What the variant maker made, per kind: images, crop aspects, cut crops, tile sizes."""

    images: int = 0
    aspects: list[float] | None = None
    sizes: list[float] | None = None
    cut: int = 0

    def add(self, v: Variant) -> None:
        self.images += 1
        h, w = v.image.shape[:2]
        self.aspects = [*(self.aspects or []), max(w, h) / min(w, h)]
        self.sizes = [*(self.sizes or []), median(p.size for p in v.tiles if p.required)]
        self.cut += int("-cut-" in v.name)

    def to_json(self) -> dict[str, Any]:
        a, s = sorted(self.aspects or [0.0]), sorted(self.sizes or [0.0])
        return {
            "images": self.images,
            "aspect_median_max": [round(median(a), 2), round(a[-1], 2)],
            "median_tile_px_min_median_max": [round(s[0], 1), round(median(s), 1), round(s[-1], 1)],
            "crops_cutting_a_tile": self.cut,
        }


def per_set(readers: dict[str, PhotoReader], default: PhotoReader) -> Callable[[SourcePhoto], PhotoReader]:
    """The reader of each photo: its tile set's (a grid set left out), else ``default``."""
    return lambda p: readers.get(p.tile_set or "", default)


def run(
    reader: PhotoReader | Callable[[SourcePhoto], PhotoReader],
    photos: Sequence[SourcePhoto],
    kinds: Sequence[str],
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> tuple[dict[str, dict[str, SceneTally]], dict[str, Made], set[str]]:
    """Every photo's variants read and counted: tallies per source and variant, what was made,
    and where "sure" came from (``verdict`` or ``proxy``). ``reader`` may be a function of the
    photo (a grid set read by the reader trained without it: ``--loso``)."""
    tallies: dict[str, dict[str, SceneTally]] = defaultdict(lambda: defaultdict(SceneTally))
    made: dict[str, Made] = defaultdict(Made)
    sure_from: set[str] = set()
    for n, photo in enumerate(photos, 1):
        image, tiles = photo.load()
        bands = row_bands(tiles)
        reading = reader if isinstance(reader, PhotoReader) else reader(photo)
        for v in variants(image, tiles, kinds, f"{photo.source}/{photo.name}", seed):
            t0 = time.perf_counter()
            result = reading.read_and_score(v.image)
            seconds = time.perf_counter() - t0
            sure, how = is_sure(result)
            sure_from.add(how)
            tallies[photo.source][v.kind].add(v, bands, result.tiles, result.rejected, sure, seconds)
            made[v.kind].add(v)
        if progress is not None and (n % 25 == 0 or n == len(photos)):
            progress(f"{n}/{len(photos)} photos ({photo.source})")
    return tallies, made, sure_from


def results_json(tallies: dict[str, dict[str, SceneTally]], kinds: Sequence[str]) -> dict[str, Any]:
    """Per source and variant, and over all sources per variant (``all``)."""
    out: dict[str, Any] = {}
    pooled: dict[str, SceneTally] = defaultdict(SceneTally)
    for source, per in tallies.items():
        out[source] = {kind: per[kind].summary() for kind in kinds if kind in per}
        for kind, t in per.items():
            pooled[kind].merge(t)
    out["all"] = {kind: pooled[kind].summary() for kind in kinds if kind in pooled}
    return out


def _cell(m: dict[str, Any] | None) -> str:
    """A size bucket's cell: recall / tile F1 (tiles); false boxes of that size where it holds no
    labelled tile (they count against the bucket's precision when sources are pooled)."""
    if not m:
        return ""
    if not m.get("labels"):
        return f"({m['false_boxes']} false)" if m.get("false_boxes") else ""
    return f"{m['recall']:.3f} / {m['tile_f1']:.3f} ({m['labels']})"


def _table(title: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """A Markdown table (after its title line, when given)."""
    out = [title, ""] if title else []
    out += ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    return out + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]


def _exact_rows(m: dict[str, Any] | None) -> str:
    return m["exact_rows"] if m and m.get("rows") else ""


def markdown(results: dict[str, Any], kinds: Sequence[str]) -> str:
    """The tables for the model card: per source x variant, then per tile size."""
    cases = [(source, kind, per[kind]) for source, per in results.items() for kind in kinds if kind in per]
    head = ["source", "variant", "photos", "tiles", "recall", "tile F1", "false boxes / photo"]
    head += ["exact rows", "exact photos", "right called sure", "wrong called sure"]
    main = [
        [
            *(source, kind, m["photos"], m["labels"], f"{m['recall']:.3f}", f"{m['tile_f1']:.3f}"),
            *(f"{m['false_boxes_per_photo']:.2f}", m["exact_rows"], m["exact_photos"]),
            *(m["right_called_sure"], m["wrong_called_sure"]),
        ]
        for source, kind, m in cases
    ]
    names = [name for _, _, name in BUCKETS]
    sizes = [[source, kind, *(_cell(m["by_size"].get(n)) for n in names)] for source, kind, m in cases]
    rows = [[kind, *(_exact_rows(m["by_size"].get(n)) for n in names)] for s, kind, m in cases if s == "all"]
    size_title = "Per tile size (long side of its box in the variant, px): recall / tile F1 (tiles)"
    rows_title = "Exact rows per tile size (the row's median tile), all sources"
    return "\n".join(
        [
            *_table("", head, main),
            "",
            *_table(size_title, ["source", "variant", *names], sizes),
            "",
            *_table(rows_title, ["variant", *names], rows),
        ]
    )


def _choice(text: str, known: Sequence[str], what: str) -> list[str]:
    chosen = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in known]
    if unknown or not chosen:
        raise ValueError(f"unknown {what} {', '.join(unknown) or '(none given)'} (known: {', '.join(known)})")
    return chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, default=MODELS_DIR, help="folder of detector.onnx and reader.onnx")
    ap.add_argument("--detector", type=Path, help="another detector ONNX (default: the models folder's)")
    ap.add_argument("--reader", type=Path, help="another reader ONNX (default: the models folder's)")
    eval_real.add_small_detector_option(ap)
    ap.add_argument("--sources", default=",".join(SOURCES), help="comma-separated: %(default)s")
    ap.add_argument("--variants", default=",".join(KINDS), help="comma-separated: %(default)s")
    ap.add_argument(
        "--loso",
        type=Path,
        help="leave one set out: read each grid set with <dir>/reader-<set>.onnx, the reader trained "
        "without it (make_models.sh stage loso; as eval_unseen.py --loso). Without it the grids are "
        "read by --reader, which the shipped one trained on",
    )
    ap.add_argument("--limit", type=int, help="at most this many photos per source (spread evenly)")
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_LIMIT} photos per source (a smoke run)")
    ap.add_argument("--seed", type=int, default=0, help="the variants' seed (default: %(default)s)")
    ap.add_argument("--label", default="", help="a name for this run in the JSON")
    ap.add_argument("--out", type=Path, help="the JSON of every count (e.g. models/metrics/scenes-NAME.json)")
    args = ap.parse_args(argv)
    try:
        sources = _choice(args.sources, SOURCES + TUNING, "source")
        kinds = _choice(args.variants, KINDS, "variant")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < 1:
        print("error: --limit must be at least 1", file=sys.stderr)
        return 2
    limit = QUICK_LIMIT if args.quick and args.limit is None else args.limit
    if not (eval_unseen.SHARED / "real").is_dir():
        print(f"error: no real photos at {eval_unseen.SHARED / 'real'}", file=sys.stderr)
        return 2
    paths = (args.detector or args.models / "detector.onnx", args.reader or args.models / "reader.onnx")
    for path in paths:
        if not path.is_file():
            print(f"error: no model at {path}", file=sys.stderr)
            return 2
    try:
        audit = read_audit(eval_real.AUDIT_CSV)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    photos = [p for s in sources for p in spread(source_photos(s, audit), limit)]
    sets = sorted({p.tile_set for p in photos if p.tile_set is not None})
    files = {name: args.loso / f"reader-{name}.onnx" for name in sets} if args.loso else {}
    missing = [str(f) for f in files.values() if not f.is_file()]
    if missing:
        print(f"error: no reader at {', '.join(missing)} (make_models.sh stage loso)", file=sys.stderr)
        return 2
    det = load_model(paths[0])
    small = eval_real.small_detector(args, args.models, det)
    reader = PhotoReader(det=det, rdr=load_model(paths[1]), small_det=small)
    grid_readers: dict[str, str] = {}
    read_by: PhotoReader | Callable[[SourcePhoto], PhotoReader] = reader
    if files:
        loso = {name: PhotoReader(det=det, rdr=load_model(f), small_det=small) for name, f in files.items()}
        grid_readers = {name: eval_real.shown(f) for name, f in files.items()}
        read_by = per_set(loso, reader)
    t0 = time.perf_counter()
    tallies, made, sure_from = run(
        read_by,
        photos,
        kinds,
        args.seed,
        lambda s: print(f"{s}, {time.perf_counter() - t0:.0f} s", file=sys.stderr),
    )
    results = results_json(tallies, kinds)
    out = {
        "label": args.label,
        "detector": eval_real.shown(paths[0]),
        "small_detector": eval_real.shown(small.path),
        "reader": eval_real.shown(paths[1]),
        # the shipped reader was fine-tuned on the grid photos' crops (model card): its grid
        # numbers are not a new set's unless each set is read by the reader trained without it
        "grid_readers": grid_readers or "the reader above (trained on the grids' crops: not unseen)",
        "seed": args.seed,
        "photos_per_source": {s: sum(p.source == s for p in photos) for s in sources},
        "limit": limit,
        "variants": kinds,
        "scoring": {
            "match": "IoU >= 0.5, best detector score first (eval_real.match)",
            "cut_tile": f"at least {KEEP} of the tile in the frame: to find; under {GONE}: no tile; "
            "between: either answer",
            "tile_size": "long side of the box in the variant (px)",
            "sure": sorted(sure_from),
            "chinese_labels": "audited (models/real-audit.csv)",
        },
        "made": {kind: made[kind].to_json() for kind in kinds if kind in made},
        "seconds": round(time.perf_counter() - t0, 1),
        **results,
    }
    print(markdown(results, kinds))
    eval_real.save_json(out, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

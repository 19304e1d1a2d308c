#!/usr/bin/env python3
"""Measure teaching a set (issue 14): teach from some photos of a set, read its other photos.

Real photos of sets the models never trained on:

- **camerash grids**: the five test-fold product photos (sets 4, 7, 9, 11, 13; 144-156 tiles each,
  four copies of every kind), with the codes a player would type for them
  (``tests/vision/data/camerash_grid_codes.txt``), paired by the ``teach`` command's own code. A
  grid is one photo, so "teach from k photos" becomes **teach from k copies of each kind** (what a
  photo of the standard layout holds, k = 1, 2) and read the other copies. Also: a set taught
  only half of the codes, read on the codes it was not taught (a set taught from two hands knows
  only some codes: the others must read as well as without the set).
- **camera frames** (``../shared/data/real/riichi-camera-frames``, one Japanese set; the 59
  frames of split ``teach`` and the 8 of ``test``, kept out of the reader's training for this):
  teach from k = 1, 2, 4 frames drawn at random (``--draws`` times), read the other frames. The
  frames hold loose and standing tiles, not rows, so the codes a player would type are taken from
  the labels of the tiles the detector finds (IoU >= 0.5 with a label whose face shows). The way a
  set is read (:mod:`vision.teach.adapt`) was chosen on the grids and on the first half of the
  ``teach`` frames (every other frame in the split's order): frames are taught from the second
  half only and read on the second half and the 8 ``test`` frames, never on the first half.
  Read with the width the webcam gave them (:func:`mjsynth.realphotos.load_picture`).

Per tile: the reader's code against the truth on the tiles found, with and without the set; a
picture is exact when every such tile is read right. And the time to teach two photos (pair,
cut, features, save, check) and what reading with a set adds per photo.

    python scripts/eval_teach.py --out models/metrics/teach.json [--reader runs/reader-B.onnx]
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))

from mahjong_camera_scorer.mjsynth.realphotos import (  # noqa: E402
    UNKNOWN_FACE,
    RealPhoto,
    apply_audit,
    load_picture,
    read_audit,
    read_labels,
)
from mahjong_camera_scorer.vision.detect import Detection, iou  # noqa: E402
from mahjong_camera_scorer.vision.models import MODELS_DIR, load_model  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402
from mahjong_camera_scorer.vision.read import TileRead, read_tiles, tile_crop  # noqa: E402
from mahjong_camera_scorer.vision.teach.adapt import READ_PER_CODE, TaughtReader, taught_reader  # noqa: E402
from mahjong_camera_scorer.vision.teach.codes import parse_rows  # noqa: E402
from mahjong_camera_scorer.vision.teach.pairing import PairingError, pair, photo_rows  # noqa: E402
from mahjong_camera_scorer.vision.teach.profile import MAX_EXAMPLES, Example, TileSet  # noqa: E402
from mahjong_camera_scorer.vision.teach.store import SetStore  # noqa: E402
from mahjong_camera_scorer.vision.teach.teaching import check_set, pair_photo  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import teach_protocol as protocol  # noqa: E402

CAMERASH = ROOT.parent / "shared" / "data" / "camerash" / "raw-images"
REAL = ROOT.parent / "shared" / "data" / "real"
GRID_CODES = ROOT / "tests" / "vision" / "data" / "camerash_grid_codes.txt"
SPLIT_CSV = ROOT / "models" / "real-split.csv"
AUDIT_CSV = ROOT / "models" / "real-audit.csv"
Item = tuple[TileRead, str]  # a tile found and its true code


def grid_codes() -> list[tuple[str, str]]:
    lines = [ln for ln in GRID_CODES.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return [(a.strip(), b.strip()) for a, b in (ln.split(":", 1) for ln in lines)]


def read_codes(
    reader: PhotoReader, image: np.ndarray, tiles: list[TileRead], ts: TileSet | None
) -> list[str]:
    """The codes of these tiles read again from their boxes, with the set ``ts`` (or none)."""
    adjuster = taught_reader(ts, reader.rdr) if ts is not None and len(ts) else None
    dets = [Detection(t.box, "back" if t.code == "back" else "tile", t.detector_score) for t in tiles]
    read = read_tiles(reader.rdr, image, dets, tta=reader.tta, adjuster=adjuster)
    by_index = {r.index: r.code for r in read}
    return [by_index.get(i, "none") for i in range(len(tiles))]


def examples(image: np.ndarray, items: list[Item], size: int, source: str) -> list[Example]:
    return [Example(code, tile_crop(image, t, size), source=source) for t, code in items]


def copy_rank(codes: list[str]) -> list[int]:
    """Each tile's copy number among the tiles of its code, in reading order (0, 1, 2, 3)."""
    seen: dict[str, int] = {}
    out = []
    for c in codes:
        out.append(seen.get(c, 0))
        seen[c] = out[-1] + 1
    return out


def accuracy(truth: list[str], read: list[str]) -> float:
    return sum(a == b for a, b in zip(truth, read, strict=True)) / max(1, len(truth))


def eval_grids(reader: PhotoReader, draws: int) -> dict:
    size = reader.rdr.imgsz[0]
    out: dict = {"photos": {}}
    cases = []
    for photo, codes in grid_codes():
        taught = pair_photo(reader, CAMERASH / photo, parse_rows(codes), name=photo).taught
        image = cv2.imread(str(CAMERASH / photo))
        items = [(p.tile, p.code) for p in taught]
        cases.append((photo, image, items))
    totals: dict[str, list[int]] = {}
    for k in (1, 2):
        for photo, image, items in cases:
            rank = copy_rank([c for _, c in items])
            teach = [it for it, r in zip(items, rank, strict=True) if r < k]
            test = [it for it, r in zip(items, rank, strict=True) if r >= k]
            ts = TileSet("grid", examples(image, teach, size, photo))
            truth = [c for _, c in test]
            base = read_codes(reader, image, [t for t, _ in test], None)
            with_set = read_codes(reader, image, [t for t, _ in test], ts)
            row = out["photos"].setdefault(photo, {})
            row[f"k{k}"] = {
                "taught": len(teach),
                "read": len(test),
                "without_set": round(accuracy(truth, base), 4),
                "with_set": round(accuracy(truth, with_set), 4),
                "misread_with_set": [f"{a}->{b}" for a, b in zip(truth, with_set, strict=True) if a != b],
            }
            t = totals.setdefault(f"k{k}", [0, 0, 0])
            t[0] += len(test)
            t[1] += sum(a == b for a, b in zip(truth, base, strict=True))
            t[2] += sum(a == b for a, b in zip(truth, with_set, strict=True))
    out["all"] = {
        k: {"tiles": n, "without_set": round(a / n, 4), "with_set": round(b / n, 4)}
        for k, (n, a, b) in totals.items()
    }
    # half the codes taught (two copies each), read on the codes not taught
    rng = np.random.default_rng(0)
    n = right_base = right_set = 0
    for _ in range(draws):
        for photo, image, items in cases:
            codes = sorted({c for _, c in items})
            half = set(rng.choice(codes, len(codes) // 2, replace=False).tolist())
            rank = copy_rank([c for _, c in items])
            teach = [it for it, r in zip(items, rank, strict=True) if r < 2 and it[1] in half]
            test = [it for it in items if it[1] not in half]
            ts = TileSet("half", examples(image, teach, size, photo))
            truth = [c for _, c in test]
            n += len(test)
            right_base += sum(
                a == b
                for a, b in zip(truth, read_codes(reader, image, [t for t, _ in test], None), strict=True)
            )
            right_set += sum(
                a == b
                for a, b in zip(truth, read_codes(reader, image, [t for t, _ in test], ts), strict=True)
            )
    out["untaught_codes"] = {
        "tiles": n,
        "without_set": round(right_base / max(1, n), 4),
        "with_set": round(right_set / max(1, n), 4),
    }
    return out


def camera_frames(reader: PhotoReader) -> tuple[list[tuple[str, np.ndarray, list[Item]]], list[str]]:
    """Every frame of splits teach and test: its pixels and (tile found, true code) pairs; and
    the names of the ``teach`` frames, in the split's order."""
    rows = [r for r in csv.DictReader(SPLIT_CSV.open()) if r["dataset"] == "riichi-camera-frames"]
    frames, teach_names = [], []
    for r in rows:
        if r["split"] not in ("teach", "test"):
            continue
        photo = RealPhoto(
            r["dataset"], r["published"], REAL / r["dataset"] / r["published"] / "images" / r["file"]
        )
        image = load_picture(photo)
        labels = [
            lab for lab in read_labels(photo, image.shape[1], image.shape[0]) if lab.code != UNKNOWN_FACE
        ]
        tiles = list(reader.read(image, tileset=None).tiles)
        items = []
        used: set[int] = set()
        for t in sorted(tiles, key=lambda t: -t.detector_score):
            best, bj = 0.5, -1
            for j, lab in enumerate(labels):
                if j not in used and (v := iou(t.box, lab.box)) >= best:
                    best, bj = v, j
            if bj >= 0:
                used.add(bj)
                items.append((t, labels[bj].code))
        frames.append((r["file"], image, items))
        if r["split"] == "teach":
            teach_names.append(r["file"])
    return frames, teach_names


def eval_frames(reader: PhotoReader, draws: int, ks: tuple[int, ...] = (1, 2, 4)) -> dict:
    size = reader.rdr.imgsz[0]
    frames, teach_names = camera_frames(reader)
    tuning = set(teach_names[::2])  # the half the method was chosen on: neither taught nor read
    teach_names = teach_names[1::2]
    frames = [f for f in frames if f[0] not in tuning]
    by_name = {name: (image, items) for name, image, items in frames}
    base = {name: read_codes(reader, image, [t for t, _ in items], None) for name, image, items in frames}
    out: dict = {
        "frames": len(frames),
        "tiles": sum(len(items) for _, _, items in frames),
        "teach_frames": len(teach_names),
        "left_out_for_tuning": len(tuning),
    }
    rng = np.random.default_rng(0)
    for k in ks:
        runs = []
        for _ in range(draws):
            chosen = list(rng.choice(teach_names, k, replace=False))
            ts = TileSet("frames", [e for n in chosen for e in examples(*by_name[n], size, n)])
            n = right_b = right_s = exact_b = exact_s = pics = n_taught = right_taught = 0
            taught_codes = set(ts.codes())
            misread: dict[str, int] = {}
            for name, image, items in frames:
                if name in chosen or not items:
                    continue
                truth = [c for _, c in items]
                got = read_codes(reader, image, [t for t, _ in items], ts)
                rb = sum(a == b for a, b in zip(truth, base[name], strict=True))
                rs = sum(a == b for a, b in zip(truth, got, strict=True))
                n, right_b, right_s, pics = n + len(truth), right_b + rb, right_s + rs, pics + 1
                exact_b += rb == len(truth)
                exact_s += rs == len(truth)
                for a, b in zip(truth, got, strict=True):
                    if a in taught_codes:
                        n_taught += 1
                        right_taught += a == b
                for a, b in zip(truth, got, strict=True):
                    if a != b:
                        misread[f"{a}->{b}"] = misread.get(f"{a}->{b}", 0) + 1
            runs.append(
                {
                    "taught_from": chosen,
                    "taught_tiles": len(ts),
                    "taught_codes": len(ts.codes()),
                    "tiles": n,
                    "without_set": right_b / n,
                    "with_set": right_s / n,
                    "taught_code_tiles": n_taught,
                    "with_set_on_taught_codes": right_taught / max(1, n_taught),
                    "exact_without": f"{exact_b}/{pics}",
                    "exact_with": f"{exact_s}/{pics}",
                    "misread_with_set": sorted(misread.items(), key=lambda kv: -kv[1])[:8],
                }
            )
        out[f"k{k}"] = {
            "draws": draws,
            "without_set_mean": round(statistics.mean(r["without_set"] for r in runs), 4),
            "with_set_mean": round(statistics.mean(r["with_set"] for r in runs), 4),
            "with_set_min": round(min(r["with_set"] for r in runs), 4),
            "with_set_max": round(max(r["with_set"] for r in runs), 4),
            "with_set_on_taught_codes": round(
                sum(r["with_set_on_taught_codes"] * r["taught_code_tiles"] for r in runs)
                / max(1, sum(r["taught_code_tiles"] for r in runs)),
                4,
            ),
            "runs": [
                {
                    **r,
                    "without_set": round(r["without_set"], 4),
                    "with_set": round(r["with_set"], 4),
                    "with_set_on_taught_codes": round(r["with_set_on_taught_codes"], 4),
                }
                for r in runs
            ],
        }
    return out


# -- the protocol of issue 21: teach from k photos of a set, read its other photos end to end ------
def _split_photo(reader: PhotoReader, r: dict[str, str], audit: dict) -> protocol.Photo:
    """One row of the real split as a prepared protocol photo: read at its restored width, its
    labels with the audit applied (boxes judged tile or back count for boxes only)."""
    folder = REAL / r["dataset"] / r["published"] / "images"
    photo = RealPhoto(r["dataset"], r["published"], folder / r["file"])
    image = load_picture(photo)
    labels = apply_audit(
        read_labels(photo, image.shape[1], image.shape[0]), audit.get((r["dataset"], r["file"]), [])
    )
    p = protocol.Photo(r["file"], image, labels)
    protocol.prepare(reader, p)
    return p


def frame_photos(reader: PhotoReader) -> tuple[list, list[str], list[str]]:
    """The camera frames of splits teach and test as protocol photos (labels with the audit
    applied: boxes judged tile or back count for boxes only), and the names of the two halves of
    the teach split: the first to choose the method on, the second to measure on."""
    rows = [r for r in csv.DictReader(SPLIT_CSV.open()) if r["dataset"] == "riichi-camera-frames"]
    audit = read_audit(AUDIT_CSV)
    photos, names = [], []
    for r in rows:
        if r["split"] not in ("teach", "test"):
            continue
        photos.append(_split_photo(reader, r, audit))
        if r["split"] == "teach":
            names.append(r["file"])
    return photos, names[::2], names[1::2]


def chinese_group(reader: PhotoReader, prefix: str) -> list:
    """The Chinese phone photos of the ``test`` split whose source names start with ``prefix``:
    ``IMG_`` are one set (ivory tiles in a black tray, checked by eye on a contact sheet). The
    shipped models never trained on the test split, but did on other photos of this set."""
    rows = [
        r
        for r in csv.DictReader(SPLIT_CSV.open())
        if r["dataset"] == "chinese-mahjong-detection"
        and r["split"] == "test"
        and r["source"].startswith(prefix)
    ]
    audit = read_audit(AUDIT_CSV)
    photos = []
    for r in rows:
        photos.append(_split_photo(reader, r, audit))
    return photos


def set15(reader: PhotoReader, draws: int) -> dict:
    """The four grid photos of the Japanese-style set of camerash PR 4 (blank whites, red fives;
    no model trained on them), each four copies of 9 kinds in rows, with their typed codes
    (``raw-images/codes.txt``): whether each pairs as before issue 21 (the detector's sure boxes
    only) and now (rows fitted to the codes), what was recovered; then, as for the grids, teach
    from k copies of each kind (k rows of each photo) and read the other copies."""
    folder = CAMERASH.parent.parent / "camerash-pr4" / "raw-images"
    codes: dict[str, list[str]] = {}
    name = ""
    for line in (folder / "codes.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        if line.strip().endswith(".jpg"):
            name = line.strip()
            codes[name] = []
        else:
            codes[name].append(line.strip())
    pairing, cases = {}, []
    for name, rows in codes.items():
        image = cv2.imread(str(folder / name))
        typed = parse_rows(" / ".join(rows))
        seen = reader.read(image, tileset=None)
        try:
            pair(photo_rows(list(seen.tiles)), typed)
            old = "paired"
        except PairingError as exc:
            old = "; ".join(exc.lines)
        try:
            taught = pair_photo(reader, image, typed, name=name)
        except PairingError as exc:
            pairing[name] = {"before": old, "now": "; ".join(exc.lines)}
            continue
        pairing[name] = {"before": old, "now": "paired", "recovered": taught.recovery_lines()}
        cases.append((name, image, [(p.tile, p.code) for p in taught.taught]))
    out: dict = {"pairing": pairing}
    size = reader.rdr.imgsz[0]
    for k in (1, 2):
        n = base = with_set = 0
        for name, image, items in cases:
            rank = copy_rank([c for _, c in items])
            teach = [it for it, r in zip(items, rank, strict=True) if r < k]
            test = [it for it, r in zip(items, rank, strict=True) if r >= k]
            ts = TileSet("s15", examples(image, teach, size, name))
            truth = [c for _, c in test]
            n += len(test)
            base += sum(
                a == b
                for a, b in zip(truth, read_codes(reader, image, [t for t, _ in test], None), strict=True)
            )
            with_set += sum(
                a == b
                for a, b in zip(truth, read_codes(reader, image, [t for t, _ in test], ts), strict=True)
            )
        out[f"k{k}"] = {
            "tiles": n,
            "without_set": round(base / max(1, n), 4),
            "with_set": round(with_set / max(1, n), 4),
        }
    return out


class _Erased(PhotoReader):
    """A reader whose detector output is given (some boxes taken out on purpose)."""

    kept: tuple[Detection, ...] = ()

    def find_boxes(self, image: np.ndarray, mend_boxes: bool = True) -> tuple[list[Detection], None]:
        return [d for d in self.kept if mend_boxes or d.score >= self.conf], None


def erased_grids(reader: PhotoReader, draws: int) -> dict:
    """Tiles missed on purpose: on each camerash test grid, the boxes of one tile in each of 3
    random rows taken out of the detector's output (any box on the same place); pairing with the
    typed codes must find them again. Counted: photos paired, tiles recovered on the erased
    tile's place (IoU >= 0.5), and those whose pairing gives the right code (every tile paired with
    its own code: the row's order kept). Then the photo is read with a set taught from 2 copies of
    each kind: erased tiles of the other copies found by the set (on their place, with their
    code), and tiles it found anywhere else (false)."""
    rng = np.random.default_rng(1)
    k = Counter()
    for photo, codes in grid_codes():
        image = cv2.imread(str(CAMERASH / photo))
        typed = parse_rows(codes)
        boxes, _ = reader.find_boxes(image, True)
        truth = pair_photo(reader, image, typed, name=photo)
        rows = sorted({p.row for p in truth.pairs})
        for _ in range(draws):
            gone = []
            for row in rng.choice(rows, min(3, len(rows)), replace=False):
                ps = [p for p in truth.pairs if p.row == row]
                gone.append(ps[int(rng.integers(len(ps)))])
            kept = [d for d in boxes if all(iou(d.box, g.tile.box) < 0.5 for g in gone)]

            erased = _Erased(det=reader.det, rdr=reader.rdr, conf=reader.conf, tta=reader.tta)
            erased.kept = tuple(kept)
            k["photos"] += 1
            k["erased"] += len(gone)
            try:
                paired = pair_photo(erased, image, typed, name=photo)
            except PairingError:
                continue
            k["paired"] += 1
            for g in gone:
                hit = [p for p in paired.pairs if iou(p.tile.box, g.tile.box) >= 0.5]
                k["recovered_on_place"] += bool(hit)
                k["recovered_right_code"] += bool(hit) and hit[0].code == g.code
            k["recovered_total"] += len(paired.recovered)
            for r in paired.recovered:
                k[f"by_{r.how}"] += 1
            # the same photo read with a set taught from the first 2 copies of each kind (the
            # erased tiles among the others): does the set find them, and nothing else?
            items = [(p.tile, p.code) for p in truth.taught]
            rank = copy_rank([c for _, c in items])
            teach = [it for it, r in zip(items, rank, strict=True) if r < 2]
            tr = taught_reader(TileSet("two", examples(image, teach, reader.rdr.imgsz[0], photo)), reader.rdr)
            place = {p.tile.index: r for p, r in zip(truth.taught, rank, strict=True)}
            later = [g for g in gone if place.get(g.tile.index, 0) >= 2]
            seen = list(erased.read(image, tileset=tr).tiles)
            found = [t for t in seen if t.found_by]
            k["set_erased_untaught_copies"] += len(later)
            for g in later:
                hit = [t for t in found if iou(t.box, g.tile.box) >= 0.5]
                k["set_found_on_place"] += bool(hit)
                k["set_found_right_code"] += bool(hit) and hit[0].code == g.code
            k["set_found_total"] += len(found)
            k["set_found_elsewhere"] += sum(all(iou(t.box, g.tile.box) < 0.5 for g in gone) for t in found)
    return dict(k)


def run_protocol(reader: PhotoReader, draws: int, variants: int) -> dict:
    out: dict = {}
    photos, tuning, measured = frame_photos(reader)
    tune = [p for p in photos if p.name in tuning]
    rest = [p for p in photos if p.name not in tuning]
    out["camera_frames"] = {
        "detector": "models/detector.onnx (the shipped one: never trained on the camera frames)",
        "reader": str(reader.rdr.path),
        "labels": sum(len(p.labels) for p in rest),
        "measured": protocol.measure(reader, rest, measured, (1, 2, 4), draws),
    }
    if variants:
        out["camera_frames"]["choosing"] = choose(reader, tune, tuning, variants)
    out["camerash_pr4_set15"] = set15(reader, draws)
    out["grids_erased"] = erased_grids(reader, max(1, draws // 2))
    return out


def choose(reader: PhotoReader, photos: list, names: list[str], draws: int) -> dict:
    """The ways to make teaching find and carry to other photos, measured on the half of the
    frames the method is chosen on (teach 2 and 4 frames): the thresholds at which a faint box, a
    gap between tiles and a row's end are taken as a tile (above 1: never), no negatives, and
    augmented looks of each taught tile."""
    ways = {
        "as_shipped": {},
        "faint_0.80": {"find_at": 0.8},
        "faint_0.85": {"find_at": 0.85},
        "gaps_0.85_ends_0.85": {"gap_at": 0.85, "end_at": 0.85},
        "gaps_0.90_ends_0.90": {"gap_at": 0.9, "end_at": 0.9},
        "no_ends": {"end_at": 2.0},
        "no_gaps": {"gap_at": 2.0, "end_at": 2.0},
    }
    out = {}
    for name, at in ways.items():
        build = lambda e, r, at=at: protocol.plain(e, r, **at)  # noqa: E731
        out[name] = _short(protocol.measure(reader, photos, names, (2, 4), draws, build))
    out["no_negatives"] = _short(protocol.measure(reader, photos, names, (2, 4), draws, negatives=False))
    augmented = protocol.measure(reader, photos, names, (2, 4), draws, protocol.augmented)
    out["augmented_looks"] = _short(augmented)
    calibrated = protocol.measure(reader, photos, names, (2, 4), draws, protocol.calibrated)
    out["threshold_calibrated_leave_one_out"] = _short(calibrated)
    return out


def _short(result: dict) -> dict:
    return {k: {kk: v for kk, v in r.items() if kk != "runs"} for k, r in result.items() if k.startswith("k")}


def timings(reader: PhotoReader, repeats: int = 15) -> dict:
    """Teaching two grid photos end to end (as ``teach`` does: pair, cut, save, features, check),
    and what reading a photo with a set adds (the bundled example, 15 tiles)."""
    photos = grid_codes()[:2]
    with tempfile.TemporaryDirectory() as tmp:
        store = SetStore(tmp)
        t0 = time.perf_counter()
        ts = TileSet("two")
        for photo, codes in photos:
            paired = pair_photo(reader, CAMERASH / photo, parse_rows(codes), name=photo)
            ts.add(paired.examples(reader.rdr.imgsz[0]))
        store.save(ts)
        check_set(ts, reader, store)
        reader.tileset = taught_reader(ts, reader.rdr, store.folder("two") / "features.npz")
        teach_s = time.perf_counter() - t0
    example = ROOT / "examples" / "hand.jpg"
    image = cv2.imread(str(example))
    with_set, without = [], []
    for _ in range(repeats):  # alternate, so that a busy machine slows both alike
        for tileset, bucket in ((None, without), (reader.tileset, with_set)):
            t = time.perf_counter()
            reader.read_and_score(image, rules="riichi", tileset=tileset)
            bucket.append(time.perf_counter() - t)
    reader.tileset = None
    full = full_set_timing(reader, image, repeats)
    # the adjustment alone, for a photo of 40 tiles (80 looks), with this set and a full one (its
    # crops compared: at most READ_PER_CODE of each code)
    rng = np.random.default_rng(0)
    looks = rng.standard_normal((80, reader_features(reader))).astype(np.float32)
    logits = rng.standard_normal((80, len(reader.rdr.classes))).astype(np.float32)
    adjust_ms = {}
    codes_all = list(reader.rdr.classes[:-1])
    for n in (len(ts), MAX_EXAMPLES):
        kept = min(n, READ_PER_CODE * len(codes_all))
        codes = [codes_all[i % len(codes_all)] for i in range(kept)]
        feats = rng.standard_normal((2 * kept, looks.shape[1])).astype(np.float32)
        tr = TaughtReader.build("bench", feats, codes + codes, reader.rdr.classes)
        t = time.perf_counter()
        for _ in range(repeats):
            tr.adjust(logits, looks)
        adjust_ms[f"adjust_40_tiles_{n}_taught_ms"] = round(1000 * (time.perf_counter() - t) / repeats, 2)
    return {
        **adjust_ms,
        **full,
        "teach_two_photos_s": round(teach_s, 2),
        "taught_tiles": len(ts),
        "read_without_set_ms": round(1000 * statistics.median(without), 1),
        "read_with_set_ms": round(1000 * statistics.median(with_set), 1),
        "set_adds_ms": round(1000 * (statistics.median(with_set) - statistics.median(without)), 1),
    }


def full_set_timing(reader: PhotoReader, image: np.ndarray, repeats: int) -> dict:
    """What a full set (:data:`MAX_EXAMPLES` crops, of which :data:`READ_PER_CODE` a code are
    compared) adds to reading a photo end to end, finding included (faint boxes matched, gap slots
    read): the bundled example read alternately without and with it, medians."""
    rng = np.random.default_rng(1)
    dim = reader_features(reader)
    codes_all = [c for c in reader.rdr.classes if c != "none"]
    kept = min(MAX_EXAMPLES, READ_PER_CODE * len(codes_all))
    codes = [codes_all[i % len(codes_all)] for i in range(kept)]
    feats = rng.standard_normal((kept, dim)).astype(np.float32)
    tr = TaughtReader.build(
        "full", feats / np.linalg.norm(feats, axis=1, keepdims=True), codes, reader.rdr.classes
    )
    without, with_set = [], []
    for _ in range(repeats):
        for tileset, bucket in ((None, without), (tr, with_set)):
            t = time.perf_counter()
            reader.read_and_score(image, rules="riichi", tileset=tileset)
            bucket.append(time.perf_counter() - t)
    a, b = statistics.median(without), statistics.median(with_set)
    return {
        "full_set_compared_crops": kept,
        "read_without_set_ms_2": round(1000 * a, 1),
        "read_with_full_set_ms": round(1000 * b, 1),
        "full_set_adds_ms": round(1000 * (b - a), 1),
    }


def reader_features(reader: PhotoReader) -> int:
    """The length of the reader's feature vector."""
    return int(reader.rdr.session.get_outputs()[2].shape[1])


def _short_all(x: object) -> object:
    if isinstance(x, dict):
        return {k: _short_all(v) for k, v in x.items() if k != "runs"}
    return x


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, default=MODELS_DIR)
    ap.add_argument("--reader", type=Path, help="another reader ONNX (default: the models folder's)")
    ap.add_argument("--draws", type=int, default=10, help="random choices of teaching frames per k")
    ap.add_argument("--out", type=Path)
    ap.add_argument(
        "--protocol",
        action="store_true",
        help="issue 21's protocol: teach from k photos, read the rest end to end",
    )
    ap.add_argument(
        "--variants",
        type=int,
        default=0,
        metavar="DRAWS",
        help="with --protocol: also the ways tried, on the tuning half",
    )
    ap.add_argument("--timings", action="store_true", help="with --protocol: the timings too")
    ap.add_argument(
        "--chinese", action="store_true", help="the protocol on the Chinese test photos of one set"
    )
    args = ap.parse_args(argv)
    if not CAMERASH.is_dir() or not (REAL / "riichi-camera-frames").is_dir():
        print(f"error: needs ../shared/data (camerash and real photos) beside the repository ({ROOT.parent})")
        return 2
    rdr = load_model(args.reader) if args.reader else None
    reader = PhotoReader(args.models, rdr=rdr)
    if args.chinese:
        photos = chinese_group(reader, "IMG_")
        result = {
            "reader": str(args.reader or args.models / "reader.onnx"),
            "group": "Chinese test photos IMG_* (one set; the models trained on others of it)",
            "measured": protocol.measure(reader, photos, [p.name for p in photos], (1, 2, 4), args.draws),
        }
        if args.out:
            args.out.write_text(json.dumps(result, indent=1) + "\n")
        print(json.dumps(_short_all(result), indent=1))
        return 0
    if args.timings and not args.protocol:
        print(json.dumps(timings(reader), indent=1))
        return 0
    if args.protocol:
        result = {
            "reader": str(args.reader or args.models / "reader.onnx"),
            **run_protocol(reader, args.draws, args.variants),
        }
        if args.timings:
            result["timings"] = timings(reader)
        text = json.dumps(result, indent=1)
        if args.out:
            args.out.write_text(text + "\n")
        print(json.dumps(_short_all(result), indent=1))
        return 0
    result = {
        "reader": str(args.reader or args.models / "reader.onnx"),
        "grids": eval_grids(reader, draws=args.draws),
        "camera_frames": eval_frames(reader, draws=args.draws),
        "timings": timings(reader),
    }
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    summary = {
        "grids": result["grids"]["all"],
        "grids_untaught_codes": result["grids"]["untaught_codes"],
        **{
            f"frames_{k}": {kk: v for kk, v in result["camera_frames"][k].items() if kk != "runs"}
            for k in ("k1", "k2", "k4")
        },
        "timings": result["timings"],
    }
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

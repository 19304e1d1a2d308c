"""The teaching protocol of issue 21, used by ``scripts/eval_teach.py --protocol``: teach a set from
k photos of it, read its other photos end to end (detector, the set finding and reading tiles,
layout), and count what a player sees.

Per source and k (photos taught), over draws: tile precision / recall / F1 (box and code right,
:func:`eval_real.tally`), exact photos, tiles recovered by pairing while teaching, tiles found by
the set while reading (and how many of them are right), false boxes, and the tiles of codes the
set was not taught read right without and with the set.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _checkout  # noqa: F401 - the checkout's packages by their installed names
from eval_real import match, summary, tally

from mahjong_camera_scorer.mjsynth.realphotos import UNKNOWN_FACE, Label
from mahjong_camera_scorer.vision.detect import Detection, iou
from mahjong_camera_scorer.vision.pipeline import PhotoReader
from mahjong_camera_scorer.vision.read import TileRead, tile_crop
from mahjong_camera_scorer.vision.teach.adapt import TaughtReader, crop_looks, reader_of
from mahjong_camera_scorer.vision.teach.profile import Example


@dataclass
class Photo:
    """One photo of a set: pixels, labelled tiles (code and box), the detector's boxes (cached:
    down to the faint ones) and the teaching examples it gives (cut once)."""

    name: str
    image: np.ndarray = field(repr=False)
    labels: list[Label]
    boxes: list[Detection] = field(default_factory=list, repr=False)
    examples: list[Example] = field(default_factory=list, repr=False)
    negatives: list[Example] = field(default_factory=list, repr=False)
    recovered: int = 0  # labelled tiles the detector's sure boxes missed, taken from faint ones


def prepare(reader: PhotoReader, photo: Photo) -> None:
    """Find the photo's boxes once, and cut what a player teaching it gives: each labelled tile
    with a face at the detector's box on it (a sure box, or, as pairing does for a row short of
    tiles, a faint box on it), and each sure box on no label as "not a tile" (the player marks
    it, code ``-``)."""
    size = reader.rdr.imgsz[0]
    photo.boxes, _ = reader.find_boxes(photo.image, True)
    read = reader.read_boxes(photo.image, photo.boxes, None)
    sure = [r for r in read if r.detector_score >= reader.conf]
    faint = [r for r in read if r.detector_score < reader.conf]
    used: set[int] = set()
    for r, j in _pairs(sure, photo.labels):
        used.add(j)
        if photo.labels[j].code != UNKNOWN_FACE:
            photo.examples.append(Example(photo.labels[j].code, tile_crop(photo.image, r, size), photo.name))
    missed = [j for j, lab in enumerate(photo.labels) if j not in used and lab.code != UNKNOWN_FACE]
    for r, j in _pairs(faint, [photo.labels[j] for j in missed]):
        lab = photo.labels[missed[j]]
        photo.examples.append(Example(lab.code, tile_crop(photo.image, r, size), photo.name))
        photo.recovered += 1
    matched = {i for i, _ in match(sure, photo.labels)}
    for i, r in enumerate(sure):
        if i not in matched and r.is_tile:
            photo.negatives.append(Example("none", tile_crop(photo.image, r, size), photo.name))


def _pairs(reads: list[TileRead], labels: list[Label]) -> list[tuple[TileRead, int]]:
    return [(reads[i], j) for i, j in match(reads, labels)]


Variant = Callable[[list[Example], PhotoReader], TaughtReader | None]


def plain(examples: list[Example], reader: PhotoReader, **at: float) -> TaughtReader | None:
    """The set as the runtime builds it from its examples (``at``: other finding thresholds,
    ``find_at``, ``gap_at``, ``end_at``; above 1: never)."""
    if not examples:
        return None
    looks = crop_looks(reader.rdr, [e.crop for e in examples])
    tr = reader_of("eval", [e.code for e in examples], looks, reader.rdr.classes)
    for key, value in at.items():
        setattr(tr, key, value)
    return tr


def read_photo(reader: PhotoReader, photo: Photo, tr: TaughtReader | None) -> list[TileRead]:
    result = reader.read_and_score(photo.image, detections=photo.boxes, tileset=tr)
    return list(result.tiles)


def measure(
    reader: PhotoReader,
    photos: list[Photo],
    teach_from: list[str],
    ks: tuple[int, ...],
    draws: int,
    build: Callable[[list[Example], PhotoReader], TaughtReader | None] = plain,
    negatives: bool = True,
    seed: int = 0,
) -> dict:
    """Teach from k of ``teach_from`` (drawn ``draws`` times), read every other photo."""
    by_name = {p.name: p for p in photos}
    base_reads = {p.name: read_photo(reader, p, None) for p in photos}
    rng = np.random.default_rng(seed)
    out: dict = {"photos": len(photos), "teach_from": len(teach_from)}
    for k in ks:
        runs = []
        for _ in range(draws):
            chosen = [str(x) for x in rng.choice(teach_from, k, replace=False)]
            examples = [e for n in chosen for e in by_name[n].examples]
            if negatives:
                examples += [e for n in chosen for e in by_name[n].negatives]
            tr = build(examples, reader)
            taught = {e.code for e in examples}
            before, after = Counter(), Counter()
            mis_b, mis_a = Counter(), Counter()
            found = found_right = untaught = untaught_b = untaught_a = 0
            for p in photos:
                if p.name in chosen:
                    continue
                got = read_photo(reader, p, tr)
                tally(before, mis_b, base_reads[p.name], set(), p.labels, False)
                tally(after, mis_a, got, set(), p.labels, False)
                right = {j for i, j in match(got, p.labels) if got[i].code == p.labels[j].code}
                right_b = {
                    j
                    for i, j in match(base_reads[p.name], p.labels)
                    if base_reads[p.name][i].code == p.labels[j].code
                }
                for t in got:
                    if t.found_by:
                        found += 1
                        found_right += any(
                            iou(t.box, lab.box) >= 0.5 and lab.code in (t.code, UNKNOWN_FACE)
                            for lab in p.labels
                        )
                for j, lab in enumerate(p.labels):
                    if lab.code != UNKNOWN_FACE and lab.code not in taught:
                        untaught += 1
                        untaught_b += j in right_b
                        untaught_a += j in right
            sb, sa = summary(before, mis_b), summary(after, mis_a)
            runs.append(
                {
                    "taught_from": chosen,
                    "taught_tiles": sum(e.code != "none" for e in examples),
                    "negatives": sum(e.code == "none" for e in examples),
                    "recovered_by_pairing": sum(by_name[n].recovered for n in chosen),
                    "tile_f1_before": sb["tile_f1"],
                    "tile_f1_after": sa["tile_f1"],
                    "exact_before": sb["exact_pictures"],
                    "exact_after": sa["exact_pictures"],
                    "false_boxes_before": sb["false_boxes"],
                    "false_boxes_after": sa["false_boxes"],
                    "missed_before": sb["missed"],
                    "missed_after": sa["missed"],
                    "found_by_set": found,
                    "found_by_set_right": found_right,
                    "untaught_tiles": untaught,
                    "untaught_right_before": untaught_b,
                    "untaught_right_after": untaught_a,
                    "misreads_after": sa["top_misreads"][:6],
                }
            )
        out[f"k{k}"] = _mean(runs)
    return out


def _mean(runs: list[dict]) -> dict:
    def avg(key: str) -> float:
        return round(statistics.mean(r[key] for r in runs), 4)

    def exact(key: str) -> str:
        a = sum(int(r[key].split("/")[0]) for r in runs)
        b = sum(int(r[key].split("/")[1]) for r in runs)
        return f"{a}/{b}"

    ut = sum(r["untaught_tiles"] for r in runs)
    return {
        "draws": len(runs),
        "tile_f1_before": avg("tile_f1_before"),
        "tile_f1_after": avg("tile_f1_after"),
        "tile_f1_after_min": min(r["tile_f1_after"] for r in runs),
        "tile_f1_after_max": max(r["tile_f1_after"] for r in runs),
        "exact_before": exact("exact_before"),
        "exact_after": exact("exact_after"),
        "false_boxes_before": avg("false_boxes_before"),
        "false_boxes_after": avg("false_boxes_after"),
        "missed_before": avg("missed_before"),
        "missed_after": avg("missed_after"),
        "recovered_by_pairing": avg("recovered_by_pairing"),
        "found_by_set": avg("found_by_set"),
        "found_by_set_right": avg("found_by_set_right"),
        "untaught_tiles": ut,
        "untaught_right_before": round(sum(r["untaught_right_before"] for r in runs) / max(1, ut), 4),
        "untaught_right_after": round(sum(r["untaught_right_after"] for r in runs) / max(1, ut), 4),
        "runs": runs,
    }


def looks_of(crop: np.ndarray) -> list[np.ndarray]:
    """A taught crop as it may look in another photo: smaller in the frame (farther away), blurred,
    darker and brighter, turned a little either way."""
    import cv2

    h, w = crop.shape[:2]
    out = []
    small = cv2.resize(crop, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    out.append(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))
    out.append(cv2.GaussianBlur(crop, (5, 5), 1.2))
    for gain in (0.7, 1.25):
        out.append(np.clip(crop.astype(np.float32) * gain, 0, 255).astype(np.uint8))
    for angle in (-8, 8):
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.05)
        out.append(cv2.warpAffine(crop, m, (w, h), borderMode=cv2.BORDER_REPLICATE))
    return out


def augmented(examples: list[Example], reader: PhotoReader) -> TaughtReader | None:
    """The set with six more looks of each taught tile (:func:`looks_of`); negatives as they are."""
    more = [Example(e.code, x, e.source) for e in examples if e.code != "none" for x in looks_of(e.crop)]
    return plain(examples + more, reader)


def calibrated(examples: list[Example], reader: PhotoReader) -> TaughtReader | None:
    """The set with its similarity threshold calibrated leave one out (:func:`adapt.calibrated`)."""
    from mahjong_camera_scorer.vision.teach.adapt import calibrated as threshold

    tr = plain(examples, reader)
    if tr is not None:
        looks = crop_looks(reader.rdr, [e.crop for e in examples])
        tr.similar_at = threshold(looks.features, [e.code for e in examples])
    return tr

"""Closer detector looks at the parts of a photo where the tiles are small.

The detector sees the whole photo letterboxed to its input (480 px): a row at the far side of a
table, or a hand photographed from a distance, comes out 12-16 px tall there, where the detector
finds only some of its tiles, faintly (the synthetic training scenes keep tiles at least ~20 px
tall). Those it finds say where to look again. They are grouped into rows (boxes of one size
side by side, :func:`row_groups`: a row of tiles on a table and a shelf of books behind it are two
groups, not one region holding both), and each row's region (grown along the row and across it,
since the tiles it missed lie beside the ones it found) is cut from the decoded photo and
letterboxed to the detector's input on its own, so that its tiles come out :func:`gain` times
larger; where a row is still small at that scale, it is looked at once more, closer still. The
boxes of every look are merged (in photo pixels).

Each closer look costs one more detector run, so they run only where they can help: when at
least :data:`MIN_SEEDS` boxes are small at the detector's input (long side under
:data:`SMALL_TILE` px) and a row's region is small enough in the photo to be looked at
:data:`MIN_GAIN` times closer, at most :data:`MAX_LOOKS` of them, the rows with the most found
first. A photo whose tiles are large (the hand fills the frame) is detected once.

Two other looks share the record: where the first look found almost nothing, or only tiles too
small and spread for a closer region, the whole photo again in overlapping windows
(:func:`sliced_pass`); where most of its boxes hold tiles lying on their side, the photo turned a
quarter (:func:`turned_pass`: a detector trained on upright rows misses sideways tiles).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from mahjong_camera_scorer.vision.detect import CONTAINED, Detection, drop_contained, nms
from mahjong_camera_scorer.vision.linked import groups_of

#: A box whose long side is under this many pixels at the detector's input is a small tile (the
#: detector's recall falls below ~90 % there on the real test split's pictures, and to nothing
#: under ~24 px).
SMALL_TILE = 36.0
#: At least this many small boxes (faint ones count) before a closer look: one or two tiny boxes
#: are usually something else (on the camera frames' training pictures, single tiny boxes sent
#: the second pass looking at nothing in 11 of 59 pictures).
MIN_SEEDS = 3
#: A closer look must see its region at least this many times larger than the look before did.
MIN_GAIN = 1.5
#: A row's region grows by this many tile lengths along the row (tiles missed beside those
#: found) ...
MARGIN_ALONG = 3.0
#: ... and this many across it. Chosen with :data:`MAX_LOOKS` on the far views of the real val
#: split (`scripts/eval_scenes.py --sources chinese-val --variants far`, detector recall at the
#: detector's own threshold): 3 and 0.7 tile lengths 0.848, 3 and 1.0 0.840, 2 and 0.7 0.834, 4 and
#: 1.0 0.820; one region holding every small box, grown 4 and 1.5 (the look before), 0.828.
MARGIN_ACROSS = 0.7
#: Two boxes stand in one row (:func:`row_groups`) when their long sides differ by at most this
#: factor, ...
ROW_SIZE = 1.6
#: ... their centres are at most this share of a tile length apart across the row, ...
ROW_ACROSS = 0.6
#: ... and at most this many tile lengths of table lie between them along it.
ROW_GAP = 2.5
#: At most this many closer regions are looked at in one photo (rows with the most found first):
#: the far views of the val split looked at 1.6 regions a picture on average.
MAX_LOOKS = 4
#: A second-pass box within this many pixels of a cut edge of the region is a tile cut by the
#: crop (the first pass saw it whole).
EDGE_PX = 2.0
#: A first-pass box overlapping a second-pass box by this much is the same tile seen coarser.
SAME_TILE_IOU = 0.3
#: The photo is looked at again in :data:`SLICES` x :data:`SLICES` overlapping windows when the
#: first look found fewer than :data:`FEW_BOXES` boxes the detector is sure of (tiles too small
#: to be seen at its input: a hand photographed from afar), ...
SLICES, FEW_BOXES = 2, 3
#: ... or when the boxes it found are this small at its input (median long side, px) and too many
#: or too spread for one closer region (:func:`row_regions` found none). Measured on the far views
#: of the Chinese test photos and the camera frames (`scripts/eval_scenes.py`).
TINY_TILE = 24.0
#: Neighbouring windows overlap by this share of a window (a tile cut by one is whole in the next).
SLICE_OVERLAP = 0.15
#: A window is looked at only where the first look saw something in it, however faint: an anchor
#: of the detector scored at least this (the far views of the val split: 65 of 212 windows looked
#: at, recall and F1 the same as looking at all four, 0.643 / 0.745; anchors of at least 0.2, the
#: faint boxes, miss some: recall 0.597).
HINT = 0.05
#: The detector's own threshold: what counts as a box it is sure of here.
SURE_BOX = 0.35
#: A box this much wider than tall holds a tile lying on its side (a standing tile's box is about
#: 0.75 as wide as tall; a riichi hand's one or two called tiles lie so among many standing) ...
LYING = 1.1
#: ... and where at least this share of the boxes the detector is sure of lie so, the photo is
#: turned (a hand photographed from the side of the table, or a photo a quarter turned): it is
#: looked at again turned upright, where the detector, trained on upright rows, finds more.
#: Chosen on the real val split's scene variants (``scripts/eval_scenes.py --sources
#: chinese-val``): at 1.15 and 0.6 no original photo is looked at again and a quarter turn reads
#: tile F1 0.947 against 0.923 (22 of 37 photos exact against 16); at 1.0 the originals lose
#: (0.957 -> 0.948), at 1.1 the seat views do (0.880 -> 0.872). With the first look of
#: 2026-11-27's accelerator run (fourth session), which boxes a sideways tile tighter (1.13-1.23
#: wide per tall on the bundled example turned a quarter, 5 of its 12 sure boxes over 1.15: it was
#: not looked at turned and lost its kong's two backs), chosen again: at 1.1 val reads as at 1.15
#: but one seat view more exact (20 -> 21 of 37), at 1.05 one half turn fewer.
TURNED_SHARE = 0.6

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class SecondPass:
    """Where the detector looked again (photo pixels), how much closer, and what it found: the
    regions around rows of small tiles (``looks``, each with its gain; ``region`` bounds them and
    ``gain`` is the least of their gains), the whole photo cut in ``slices`` overlapping windows
    when the first look found too little to say where the tiles are (:func:`sliced_pass`; the
    rows' regions then follow the windows), or the whole photo ``turned`` a quarter when its
    tiles lay on their side (:func:`turned_pass`)."""

    region: Box
    gain: float
    found: int  # boxes of the merged list that came from the closer looks
    slices: int = 1
    turned: bool = False  # the second look saw the photo turned a quarter (:func:`turned_pass`)
    #: every row's region looked at closer (:func:`closer_rows`) and how much closer than the first
    #: look, in the order looked at
    looks: tuple[tuple[Box, float], ...] = ()

    def mapped(self, to: Callable[[Box], Box]) -> SecondPass:
        """The record with its regions mapped by ``to`` (decoded pixels to the photo's own)."""
        return replace(self, region=to(self.region), looks=tuple((to(r), g) for r, g in self.looks))

    def to_json(self) -> dict[str, Any]:
        region = [round(v, 1) for v in self.region]
        out: dict[str, Any] = {"region": region, "gain": round(self.gain, 2), "found": self.found}
        if self.slices > 1:
            out["slices"] = self.slices
        if self.turned:
            out["turned"] = True
        if self.looks:
            out["looks"] = [{"region": [round(v, 1) for v in r], "gain": round(g, 2)} for r, g in self.looks]
        return out


def input_scale(image_shape: tuple[int, ...], size: tuple[int, int]) -> float:
    """Detector input pixels per photo pixel for a whole photo letterboxed to ``size`` (h, w)."""
    return min(size[0] / image_shape[0], size[1] / image_shape[1])


def _long(d: Detection) -> float:
    return max(d.width, d.height)


def row_groups(detections: list[Detection]) -> list[list[Detection]]:
    """The boxes grouped into rows: two boxes of one size (:data:`ROW_SIZE`) side by side
    (:data:`ROW_ACROSS`, :data:`ROW_GAP`) are in one group, and so are their groups (a row is a
    chain of neighbours, :func:`vision.linked.groups_of`)."""
    if not detections:
        return []
    b = np.array([d.box for d in detections], np.float64).reshape(-1, 4)
    length = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    unit = np.maximum(length[:, None], length[None, :])
    alike = unit <= ROW_SIZE * np.maximum(np.minimum(length[:, None], length[None, :]), 1e-6)
    cy = (b[:, 1] + b[:, 3]) / 2
    beside = np.abs(cy[:, None] - cy[None, :]) <= ROW_ACROSS * unit
    gap = np.maximum(b[:, None, 0], b[None, :, 0]) - np.minimum(b[:, None, 2], b[None, :, 2])
    linked = alike & beside & (gap <= ROW_GAP * unit)
    pairs = [(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(linked, 1)), strict=True)]
    return [[detections[i] for i in g] for g in groups_of(len(detections), pairs)]


def _overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def row_regions(
    detections: list[Detection],
    image_shape: tuple[int, ...],
    size: tuple[int, int],
    seen: float = 1.0,
    min_seeds: int = MIN_SEEDS,
) -> list[tuple[Box, float]]:
    """The regions (photo pixels) of the rows of small tiles to look at closer, each with how much
    larger its tiles come out there than in the first look, the rows with the most found (summed
    scores) first. A row (:func:`row_groups`) is small where its median box's long side is under
    :data:`SMALL_TILE` px as ``seen`` (how much closer than the first look the boxes were seen);
    none are looked at when the small rows hold fewer than ``min_seeds`` boxes. A row's region is
    its boxes grown :data:`MARGIN_ALONG` and :data:`MARGIN_ACROSS` of its tile length; regions
    that overlap are one; a region that cannot be seen :data:`MIN_GAIN` times closer than
    ``seen`` is not looked at."""
    s = input_scale(image_shape, size)
    if not any(_long(d) * s * seen < SMALL_TILE for d in detections):
        return []  # a small row has a small median box: none to group (most photos)
    small = []
    for row in row_groups(detections):
        unit = float(np.median([_long(d) for d in row]))
        if unit * s * seen < SMALL_TILE:
            small.append((row, unit))
    if sum(len(row) for row, _ in small) < min_seeds:
        return []
    h, w = image_shape[:2]
    grown: list[tuple[Box, float]] = []
    for row, unit in small:
        box = (
            max(0.0, min(d.box[0] for d in row) - MARGIN_ALONG * unit),
            max(0.0, min(d.box[1] for d in row) - MARGIN_ACROSS * unit),
            min(float(w), max(d.box[2] for d in row) + MARGIN_ALONG * unit),
            min(float(h), max(d.box[3] for d in row) + MARGIN_ACROSS * unit),
        )
        grown.append((box, sum(d.score for d in row)))
    merged = True
    while merged:  # overlapping regions are one, until none overlap
        merged = False
        for i in range(len(grown)):
            for j in range(i + 1, len(grown)):
                (a, sa), (b, sb) = grown[i], grown[j]
                if _overlap(a, b):
                    grown[i] = ((min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])), sa + sb)
                    del grown[j]
                    merged = True
                    break
            if merged:
                break
    out = []
    for (x0, y0, x1, y1), _ in sorted(grown, key=lambda g: -g[1]):
        gain = min(size[0] / max(y1 - y0, 1.0), size[1] / max(x1 - x0, 1.0)) / s
        if gain >= MIN_GAIN * seen:
            out.append(
                ((float(np.floor(x0)), float(np.floor(y0)), float(np.ceil(x1)), float(np.ceil(y1))), gain)
            )
    return out


def _on_cut_edge(d: Detection, region: Box, image_shape: tuple[int, ...]) -> bool:
    """Does the box touch an edge of the region that is not an edge of the photo?"""
    h, w = image_shape[:2]
    x0, y0, x1, y1 = region
    b = d.box
    return (
        (x0 > 0 and b[0] - x0 < EDGE_PX)
        or (y0 > 0 and b[1] - y0 < EDGE_PX)
        or (x1 < w and x1 - b[2] < EDGE_PX)
        or (y1 < h and y1 - b[3] < EDGE_PX)
    )


def pairwise_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every ``xyxy`` box in ``a`` (n, 4) with every one in ``b`` (m, 4): (n, m)."""
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)


def merge(first: list[Detection], second: list[Detection], iou_threshold: float = 0.5) -> list[Detection]:
    """Both passes' boxes as one list: a first-pass box that overlaps a second-pass box by
    :data:`SAME_TILE_IOU` is the same tile seen coarser and gives way; then the usual NMS and
    contained-box rule across both (best score first), left to right."""
    if first and second:
        overlap = pairwise_iou(np.array([d.box for d in first]), np.array([d.box for d in second]))
        first = [d for d, o in zip(first, overlap.max(axis=1), strict=True) if o < SAME_TILE_IOU]
    both = list(first) + list(second)
    if not both:
        return []
    boxes = np.array([d.box for d in both], np.float32)
    scores = np.array([d.score for d in both], np.float32)
    order = drop_contained(boxes, nms(boxes, scores, iou_threshold), CONTAINED)
    return sorted((both[i] for i in order), key=lambda d: (d.box[0], d.box[1]))


def merged_with(first: list[Detection], second: list[Detection]) -> tuple[list[Detection], int]:
    """:func:`merge` of both looks, and how many of the merged boxes the second look found (the
    record's ``found``)."""
    merged = merge(first, second)
    new = set(second)
    return merged, sum(d in new for d in merged)


def windows(shape: tuple[int, ...], n: int = SLICES, overlap: float = SLICE_OVERLAP) -> list[Box]:
    """``n`` x ``n`` windows covering an image of ``shape``, neighbours overlapping by ``overlap``
    of a window."""
    h, w = shape[:2]
    wh, ww = h / (n - (n - 1) * overlap), w / (n - (n - 1) * overlap)
    out = []
    for iy in range(n):
        for ix in range(n):
            x0, y0 = ix * ww * (1 - overlap), iy * wh * (1 - overlap)
            out.append(
                (float(int(x0)), float(int(y0)), float(min(w, int(x0 + ww))), float(min(h, int(y0 + wh))))
            )
    return out


def needs_slices(first: list[Detection], image_shape: tuple[int, ...], size: tuple[int, int]) -> bool:
    """Should the whole photo be looked at again in windows? When the first look found fewer
    than :data:`FEW_BOXES` boxes it is sure of, or only tiny ones (under :data:`TINY_TILE` px at
    the detector's input) that no row's region can hold (:func:`row_regions` finds none)."""
    s = input_scale(image_shape, size)
    sure = [d for d in first if d.score >= SURE_BOX]
    if len(sure) < FEW_BOXES:
        return True
    tiny = float(np.median([max(d.width, d.height) for d in sure])) * s < TINY_TILE
    return tiny and not row_regions(first, image_shape, size)


def _look(detect: Callable[[np.ndarray], list[Detection]], image: np.ndarray, region: Box) -> list[Detection]:
    """The detector's boxes in one region of the photo (photo pixels), those cut by a cut edge of
    the region left out (a window beside it sees them whole)."""
    x0, y0, x1, y1 = (int(v) for v in region)
    crop = np.ascontiguousarray(image[y0:y1, x0:x1])
    out = []
    for d in detect(crop):
        moved = Detection((d.box[0] + x0, d.box[1] + y0, d.box[2] + x0, d.box[3] + y0), d.label, d.score)
        if not _on_cut_edge(moved, region, image.shape):
            out.append(moved)
    return out


def sliced_pass(
    detect: Callable[[np.ndarray], list[Detection]],
    image: np.ndarray,
    first: list[Detection],
    size: tuple[int, int],
    hints: np.ndarray | None = None,
) -> tuple[list[Detection], SecondPass | None]:
    """``first`` merged with the boxes of :data:`SLICES` x :data:`SLICES` overlapping windows of
    the whole photo, each letterboxed to the detector's input (``size``): every tile comes out
    about :data:`SLICES` times larger. On the far views (tiles 10-24 px in the photo) this found
    twice the tiles of one look (detector recall 0.37 -> 0.75) for up to 4 more detector runs:
    with ``hints`` (points where the first look saw anything, :data:`HINT`) a window holding none
    is not looked at. The record's region bounds the windows looked at, ``slices`` counts them
    (None: none was)."""
    looked = [r for r in windows(image.shape) if hints is None or _holds(r, hints)]
    if not looked:
        return first, None
    second = [d for region in looked for d in _look(detect, image, region)]
    merged, found = merged_with(first, second)
    x0, y0, x1, y1 = looked[0]
    gain = min(size[0] / (y1 - y0), size[1] / (x1 - x0)) / input_scale(image.shape, size)
    region = (
        min(r[0] for r in looked),
        min(r[1] for r in looked),
        max(r[2] for r in looked),
        max(r[3] for r in looked),
    )
    return merged, SecondPass(region, gain, found, len(looked))


def _holds(region: Box, points: np.ndarray) -> bool:
    """Does ``region`` hold any of ``points`` (``(n, 2)``, x and y)?"""
    x0, y0, x1, y1 = region
    x, y = points[:, 0], points[:, 1]
    return bool(np.any((x >= x0) & (x < x1) & (y >= y0) & (y < y1)))


def closer_rows(
    detect: Callable[[np.ndarray], list[Detection]],
    image: np.ndarray,
    boxes: list[Detection],
    size: tuple[int, int],
    seen: float = 1.0,
    depth: int = 2,
    min_seeds: int = MIN_SEEDS,
) -> tuple[list[Detection], tuple[tuple[Box, float], ...]]:
    """``boxes`` merged with closer looks at the regions of their rows of small tiles
    (:func:`row_regions`; ``seen``: how much closer than the first look ``boxes`` were seen), and
    where a row is still small in its closer look, a look closer still at its own rows (``depth``
    2: a far row 10-16 px tall in the photo comes out under 10 px in the first look and still
    under 20 in a region holding the whole table), at most :data:`MAX_LOOKS` looks in all.
    ``min_seeds``: how many small boxes start the first level's rows (:func:`row_regions`; the
    whole photo's first look needs :data:`MIN_SEEDS`, boxes already seen closer one).
    ``detect`` runs the detector on an image (a crop is letterboxed to ``size`` like any image).
    Returns the boxes and the regions looked at with their gains, in the order looked at."""
    looks: list[tuple[Box, float]] = []

    def closer(found: list[Detection], at: float, left: int, min_seeds: int) -> list[Detection]:
        for region, gain in row_regions(found, image.shape, size, at, min_seeds):
            if len(looks) >= MAX_LOOKS:
                break
            looks.append((region, gain))
            seen_there = _look(detect, image, region)
            if left > 1:
                seen_there = closer(seen_there, gain, left - 1, 1)
            found = merge(found, seen_there)
        return found

    return closer(boxes, seen, depth, min_seeds), tuple(looks)


def second_pass(
    detect: Callable[[np.ndarray], list[Detection]],
    image: np.ndarray,
    first: list[Detection],
    size: tuple[int, int],
    depth: int = 2,
) -> tuple[list[Detection], SecondPass | None]:
    """``first`` (the whole photo's boxes) merged with closer looks at its rows of small tiles
    (:func:`closer_rows`), where they can help. Returns the boxes and where it looked (None: it
    did not)."""
    merged, looks = closer_rows(detect, image, first, size, 1.0, depth)
    if not looks:
        return first, None
    return merged, _record(first, merged, looks)


def _added(before: list[Detection], merged: list[Detection]) -> int:
    """How many of the merged boxes a closer look added (the record's ``found``)."""
    kept = set(before)
    return sum(d not in kept for d in merged)


def _record(
    before: list[Detection], merged: list[Detection], looks: tuple[tuple[Box, float], ...]
) -> SecondPass:
    """The record of the closer looks ``looks`` that turned ``before`` into ``merged``: where they
    looked (bounds and each region), the least gain, and how many merged boxes are theirs."""
    regions = [r for r, _ in looks]
    bounds = (
        min(r[0] for r in regions),
        min(r[1] for r in regions),
        max(r[2] for r in regions),
        max(r[3] for r in regions),
    )
    return SecondPass(bounds, min(g for _, g in looks), _added(before, merged), looks=looks)


def rows_after_slices(
    detect: Callable[[np.ndarray], list[Detection]],
    image: np.ndarray,
    boxes: list[Detection],
    size: tuple[int, int],
    last: SecondPass,
    depth: int = 2,
) -> tuple[list[Detection], SecondPass]:
    """After the windows (``last``), closer looks at the rows still small at the scale the
    windows saw them (:func:`closer_rows` with ``seen`` = their gain): the record adds the rows'
    regions and the boxes they found."""
    merged, looks = closer_rows(detect, image, boxes, size, last.gain, depth, min_seeds=1)
    if not looks:
        return boxes, last
    return merged, replace(last, found=last.found + _added(boxes, merged), looks=looks)


def looks_turned(first: list[Detection]) -> bool:
    """Do most of the boxes the detector is sure of (at least :data:`FEW_BOXES`) hold tiles lying
    on their side (:data:`LYING`, :data:`TURNED_SHARE`)? Then the rows run up the photo."""
    sure = [d for d in first if d.score >= SURE_BOX]
    if len(sure) < FEW_BOXES:
        return False
    return sum(d.width > LYING * d.height for d in sure) >= TURNED_SHARE * len(sure)


def turned_back(d: Detection, width: int) -> Detection:
    """A box found in the photo turned a quarter anticlockwise (``np.rot90``), in the pixels of
    the photo ``width`` pixels wide: a turned pixel (x', y') is the photo's (width - y', x')."""
    x0, y0, x1, y1 = d.box
    return Detection((width - y1, x0, width - y0, x1), d.label, d.score)


def turned_pass(
    look: Callable[[np.ndarray], list[Detection]], image: np.ndarray, first: list[Detection]
) -> tuple[list[Detection], SecondPass]:
    """``first`` merged with the boxes ``look`` finds in the photo turned a quarter
    anticlockwise (whichever quarter: the detector finds tiles upside down as well as upright;
    it is sideways tiles it misses), mapped back to the photo's pixels; where both found a tile
    the upright look's box stays. ``look`` is the whole upright search (its closer pass or
    slices included)."""
    h, w = image.shape[:2]
    second = [turned_back(d, w) for d in look(np.ascontiguousarray(np.rot90(image)))]
    merged, found = merged_with(first, second)
    return merged, SecondPass((0.0, 0.0, float(w), float(h)), 1.0, found, turned=True)

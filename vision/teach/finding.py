"""Tiles the detector was unsure of or missed: found again by the codes a player typed (teaching)
or by a taught set's own tiles (reading).

Two kinds of places are looked at:

- **faint boxes**: the detector's candidates under its threshold (down to
  :data:`vision.mend.UNSURE_LOW`; :meth:`vision.pipeline.PhotoReader.detect_candidates`);
- **row gaps**: slots at a row's own tile pitch, of the row's tile size, where a row has room for a
  tile (between two tiles set a pitch too far apart, or at either end). A blank white dragon is a
  plain ivory rectangle the detector may not box at all; its slot holds it all the same.

Teaching (:func:`fit_rows`): the codes say how many tiles each row holds, so a row short of tiles
takes in faint boxes within its band, then splits a box two tiles wide, then takes in gap slots
(between tiles first); a row with too many drops its weakest boxes. Reading with a set
(:func:`find`): a faint box or gap slot whose crop looks like one of the set's taught tiles (the
reader's features, :meth:`vision.teach.adapt.TaughtReader.match`) more than like its "not a tile"
crops becomes a tile marked ``found_by="set"``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from statistics import median
from typing import Protocol

import numpy as np

from mahjong_camera_scorer.vision.classes import NOT_A_TILE
from mahjong_camera_scorer.vision.detect import Detection, is_free
from mahjong_camera_scorer.vision.layout import framed_box, hand_turn, in_hand_frame, rows_of
from mahjong_camera_scorer.vision.read import BoxReader, TaughtSet, TileRead


class FindingSet(TaughtSet, Protocol):
    """A taught set that finds tiles (:class:`vision.teach.adapt.TaughtReader`): how like one
    of its taught tiles a faint box, a slot between two tiles and a slot at a row's end must look
    to be taken as a tile (a threshold above 1 takes none)."""

    @property
    def find_at(self) -> float: ...

    @property
    def gap_at(self) -> float: ...

    @property
    def end_at(self) -> float: ...


#: Marks a tile a taught set found (:attr:`vision.read.TileRead.found_by`).
FOUND_BY_SET = "set"
#: Adjacent tiles of a row this many pitches apart have room for a tile between them (or more).
GAP_PITCHES = 1.6
#: A box at least this many times the row's tile width holds two tiles side by side.
TWO_WIDE = 1.7
#: Two boxes overlapping this much (IoU) are the same place.
SAME_PLACE = 0.3
#: At most this many gap slots are read per photo when a set finds tiles (each costs a look).
MAX_SLOTS = 8
#: A row with more boxes than codes drops at most this many, each one the detector or the reader
#: was unsure of (score or confidence under :data:`DOUBTFUL`); otherwise the codes are wrong.
MAX_DROPPED = 2
DOUBTFUL = 0.6
#: Rows this short give no pitch to look for gaps at.
MIN_ROW_FOR_GAPS = 3

#: How a tile was recovered for a row (text shown to the player).
HOW = {
    "faint": "a box the detector was unsure of",
    "split": "half of a box holding two tiles",
    "gap": "a gap at the row's tile pitch",
}


@dataclass(frozen=True)
class Recovered:
    """A tile taken into a row it was missing from, and how it was found (:data:`HOW`)."""

    tile: TileRead
    row: int  # 1-based
    how: str


#: Why a box was dropped from a row (text shown to the player; the phone page words the kind).
DROPPED_WHY = {
    "weakest": "the weakest box of a row with more boxes than codes",
    "split": "a box holding two tiles, split",
}


@dataclass(frozen=True)
class Dropped:
    """A box left out of a row that had more boxes than codes, and why (:data:`DROPPED_WHY`)."""

    tile: TileRead
    row: int  # 1-based
    how: str

    @property
    def why(self) -> str:
        return DROPPED_WHY[self.how]


# -- geometry in the hand's frame -------------------------------------------------------------------
def _image_box(box: tuple[float, ...], turn: int) -> tuple[float, float, float, float]:
    return framed_box(box, (360 - turn) % 360)


@dataclass
class _Row:
    """One row's geometry in the hand's frame: its tiles' framed boxes, tile size and pitch."""

    boxes: list[tuple[float, float, float, float]]
    width: float
    height: float
    pitch: float

    @classmethod
    def of(cls, boxes: list[tuple[float, float, float, float]]) -> _Row:
        boxes = sorted(boxes, key=lambda b: b[0] + b[2])
        widths = [b[2] - b[0] for b in boxes]
        w = median(widths) if widths else 1.0
        h = median([b[3] - b[1] for b in boxes]) if boxes else 1.0
        cx = [(b[0] + b[2]) / 2 for b in boxes]
        steps = [b - a for a, b in itertools.pairwise(cx) if b - a < 1.5 * w]
        return cls(boxes, w, h, median(steps) if steps else 1.05 * w)

    def in_band(self, box: tuple[float, ...]) -> bool:
        """Is the box's centre within the row's band (a little beyond its ends)?"""
        if not self.boxes:
            return False
        cy = (box[1] + box[3]) / 2
        top = median([b[1] for b in self.boxes]) - 0.25 * self.height
        bottom = median([b[3] for b in self.boxes]) + 0.25 * self.height
        cx = (box[0] + box[2]) / 2
        left = self.boxes[0][0] - 1.5 * self.pitch
        right = self.boxes[-1][2] + 1.5 * self.pitch
        return top <= cy <= bottom and left <= cx <= right

    def slots(
        self, ends: bool = True, reach: int = 1
    ) -> list[tuple[tuple[float, float, float, float], bool, int]]:
        """Framed boxes of the row's tile size where a tile could stand: (box, between two tiles,
        how many places beyond the row's end: 0 between tiles, else 1..``reach`` at either end)."""
        out: list[tuple[tuple[float, float, float, float], bool, int]] = []
        b = self.boxes
        if len(b) < 2:
            return out
        centre = [((x[0] + x[2]) / 2, (x[1] + x[3]) / 2) for x in b]
        for (ax, ay), (bx, by) in itertools.pairwise(centre):
            d = bx - ax
            if d >= GAP_PITCHES * self.pitch:
                k = max(1, round(d / self.pitch) - 1)
                for j in range(1, k + 1):
                    f = j / (k + 1)
                    out.append((self._box(ax + f * d, ay + f * (by - ay)), True, 0))
        if ends:
            (ax, ay), (bx, by) = centre[0], centre[-1]
            slope = (by - ay) / max(bx - ax, 1e-6)
            for j in range(1, reach + 1):
                step = j * self.pitch
                out.append((self._box(ax - step, ay - slope * step), False, -j))
                out.append((self._box(bx + step, by + slope * step), False, j))
        return out

    def _box(self, cx: float, cy: float) -> tuple[float, float, float, float]:
        return cx - self.width / 2, cy - self.height / 2, cx + self.width / 2, cy + self.height / 2


def _inside(box: tuple[float, ...], shape: tuple[int, ...]) -> tuple[float, float, float, float] | None:
    """The box clipped to the image, or None when most of it lies outside."""
    h, w = shape[:2]
    c = (max(0.0, box[0]), max(0.0, box[1]), min(float(w), box[2]), min(float(h), box[3]))
    area = (box[2] - box[0]) * (box[3] - box[1])
    if c[2] <= c[0] or c[3] <= c[1] or (c[2] - c[0]) * (c[3] - c[1]) < 0.8 * area:
        return None
    return c


def _renumber(readings: list[TileRead], start: int) -> list[TileRead]:
    return [replace(r, index=start + k) for k, r in enumerate(readings)]


# -- reading with a set ------------------------------------------------------------------------------
def find(
    taught: FindingSet, reader: BoxReader, image: np.ndarray, readings: list[TileRead], keep: float
) -> list[TileRead]:
    """``readings`` (every box down to the faint ones, read with the set ``taught``) with the faint
    boxes and row-gap slots that look like the set's taught tiles taken in: their detector score
    raised to ``keep`` and ``found_by`` :data:`FOUND_BY_SET`. Other faint boxes are left as they
    are (the caller's mending may still take them in or leave them out)."""
    at = taught.find_at
    sure = [r for r in readings if r.detector_score >= keep and r.is_tile]
    taken = [r.box for r in sure]
    out = list(readings)
    faint = sorted(
        (k for k, r in enumerate(readings) if r.detector_score < keep and r.is_tile and r.taught_match >= at),
        key=lambda k: -readings[k].taught_match,
    )
    tone = _face_tone(image, sure)
    for k in faint:
        r = readings[k]
        if is_free(r.box, taken, SAME_PLACE) and _face_like(image, r.box, tone):
            out[k] = replace(r, detector_score=keep, found_by=FOUND_BY_SET)
            taken.append(r.box)
    tiles = [r for r in out if r.detector_score >= keep and r.is_tile]
    if len(tiles) < MIN_ROW_FOR_GAPS:
        return out
    turn = hand_turn(tiles)
    framed = in_hand_frame(tiles, turn)
    gap_at, end_at = taught.gap_at, taught.end_at
    if min(gap_at, end_at) > 1.0:
        return out
    occupied = [framed_box(r.box, turn) for r in readings if r.is_tile or r.detector_score >= keep]
    slots: list[tuple[float, float, float, float]] = []
    needs: list[float] = []
    for row in rows_of(framed):
        if len(row) < MIN_ROW_FOR_GAPS:
            continue
        geo = _Row.of([f.box for f in row])
        for box, between, _ in geo.slots(ends=end_at <= 1.0):
            if not is_free(box, occupied + slots, SAME_PLACE) or (between and gap_at > 1.0):
                continue
            inside = _inside(_image_box(box, turn), image.shape)
            if inside is not None:
                slots.append(box)
                needs.append(gap_at if between else end_at)
    slots, needs = slots[:MAX_SLOTS], needs[:MAX_SLOTS]
    if not slots:
        return out
    dets = [Detection(_inside(_image_box(b, turn), image.shape) or b, "tile", 0.0) for b in slots]
    read = reader.read_boxes(image, dets, taught)
    start = 1 + max((r.index for r in readings), default=-1)
    for r in read:  # each reading numbered by its slot
        ok = 0 <= r.index < len(needs) and r.is_tile and r.taught_match >= needs[r.index]
        if ok and _face_like(image, r.box, tone):
            out.append(replace(r, index=start + r.index, detector_score=keep, found_by=FOUND_BY_SET))
    return out


# -- teaching: rows fitted to the codes typed ------------------------------------------------------
def fit_rows(
    rows: list[list[TileRead]],
    faint: list[TileRead],
    counts: list[int | None],
    image: np.ndarray,
    read_boxes: Callable[[np.ndarray, list[Detection]], list[TileRead]],
) -> tuple[list[list[TileRead]], list[Recovered], list[Dropped]]:
    """Rows (as :func:`vision.teach.pairing.photo_rows` gives them) fitted to the tile counts the
    codes give (None: leave that row as found): a row short of tiles takes in ``faint`` boxes
    within its band (surest first), then the halves of a box two tiles wide, then gap slots at its
    pitch (between tiles, then at its ends; slots the reader reads as a tile first); a row with
    more boxes than codes drops its weakest. ``read_boxes(image, detections)`` reads new boxes
    (:meth:`vision.pipeline.PhotoReader.read_boxes` without a set). Rows still short stay short:
    the pairing then names them."""
    every = [t for r in rows for t in r]
    turn = hand_turn(every) if every else 0
    next_index = 1 + max((t.index for t in every + faint), default=-1)
    used: set[int] = set()
    recovered: list[Recovered] = []
    dropped: list[Dropped] = []
    out: list[list[TileRead]] = []
    all_boxes = [framed_box(t.box, turn) for t in every]
    for k, row in enumerate(rows):
        want = counts[k] if k < len(counts) else None
        row = list(row)
        if want is None or len(row) == want:
            out.append(row)
            continue
        if len(row) > want:
            # only a few boxes the detector or the reader doubts: more means the codes are wrong
            doubtful = [t for t in row if t.detector_score < DOUBTFUL or t.confidence < DOUBTFUL]
            if len(row) - want > min(MAX_DROPPED, len(doubtful)):
                out.append(row)
                continue
            weakest = sorted(doubtful, key=lambda t: (t.detector_score, t.confidence))[: len(row) - want]
            for t in weakest:
                dropped.append(Dropped(t, k + 1, "weakest"))
            gone = {t.index for t in weakest}
            out.append([t for t in row if t.index not in gone])
            continue

        def geo(row: list[TileRead] = row) -> _Row:
            return _Row.of([framed_box(t.box, turn) for t in row])

        # 1. faint boxes in the row's band
        g = geo(row)
        near = sorted(
            (f for f in faint if f.index not in used and f.is_tile and g.in_band(framed_box(f.box, turn))),
            key=lambda f: -f.detector_score,
        )
        for f in near:
            if len(row) >= want:
                break
            fb = framed_box(f.box, turn)
            if is_free(fb, all_boxes, SAME_PLACE):
                row.append(f)
                used.add(f.index)
                all_boxes.append(fb)
                recovered.append(Recovered(f, k + 1, "faint"))
        # 2. a box two tiles wide, split
        g = geo(row)
        for t in sorted(row, key=lambda t: -(t.box[2] - t.box[0])):
            if len(row) >= want:
                break
            fb = framed_box(t.box, turn)
            if len(row) >= 2 and fb[2] - fb[0] >= TWO_WIDE * g.width:
                mid = (fb[0] + fb[2]) / 2
                halves = [(fb[0], fb[1], mid, fb[3]), (mid, fb[1], fb[2], fb[3])]
                dets = [Detection(_image_box(h, turn), "tile", t.detector_score) for h in halves]
                read = _renumber(sorted(read_boxes(image, dets), key=lambda r: r.index), next_index)
                next_index += len(read)
                row = [x for x in row if x.index != t.index] + read
                dropped.append(Dropped(t, k + 1, "split"))
                recovered.extend(Recovered(r, k + 1, "split") for r in read)
        # 3. gaps at the row's pitch: between tiles, then outwards from either end
        if len(row) < want:
            g = geo(row)
            Box = tuple[float, float, float, float]
            slots: list[tuple[Box, Box, bool, int]] = []
            for box, between, beyond in g.slots(reach=want - len(row)):
                inside = _inside(_image_box(box, turn), image.shape)
                if inside is not None and is_free(box, all_boxes + [s[0] for s in slots], SAME_PLACE):
                    slots.append((box, inside, between, beyond))
            if slots:
                dets = [Detection(s[1], "tile", 0.0) for s in slots]
                by_slot = {r.index: r for r in read_boxes(image, dets) if 0 <= r.index < len(slots)}
                face = _face_tone(image, row)
                ranked = []
                for i, slot in enumerate(slots):
                    r = by_slot.get(i)
                    if r is None:
                        continue
                    r = replace(r, index=next_index + i)
                    # a slot read as no tile still holds one between two tiles of the row, or
                    # where it is a plain face of the row's tiles' tone (a blank white dragon)
                    ok = r.code != NOT_A_TILE or slot[2] or _plain(image, slot[1], face)
                    ranked.append((r.code == NOT_A_TILE, not slot[2], abs(slot[3]), -r.confidence, i, r, ok))
                next_index += len(slots)
                taken_ends: set[int] = set()
                for *_rank, i, r, ok in sorted(ranked, key=lambda x: x[:5]):
                    if len(row) >= want:
                        break
                    beyond = slots[i][3]
                    inner = beyond - (1 if beyond > 0 else -1)
                    if not ok or (abs(beyond) > 1 and inner not in taken_ends):
                        continue  # an end's slots are taken outwards, none skipped
                    taken_ends.add(beyond)
                    row.append(r)
                    all_boxes.append(slots[i][0])
                    recovered.append(Recovered(r, k + 1, "gap"))
        out.append(sorted(row, key=lambda t: sum(framed_box(t.box, turn)[::2])))
    return out, recovered, dropped


def _face_tone(image: np.ndarray, row: list[TileRead]) -> float:
    """The grey level of the row's tiles' faces: the bright part of each box (the glyph is the
    dark part), median over the row."""
    tones = []
    for t in row:
        x0, y0, x1, y1 = (round(v) for v in t.box)
        patch = image[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)]
        if patch.size:
            tones.append(float(np.percentile(patch.mean(axis=2), 75)))
    return median(tones) if tones else 0.0


#: A plain face: the middle of the slot this even (grey level standard deviation) and this near
#: the row's face tone.
PLAIN_SPREAD, PLAIN_TONE = 18.0, 35.0


def _middle(image: np.ndarray, box: tuple[float, ...]) -> np.ndarray:
    """The middle half of the box each way: the face without its rim and the table around it."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    return image[int(y0 + 0.25 * h) : int(y1 - 0.25 * h), int(x0 + 0.25 * w) : int(x1 - 0.25 * w)]


#: The percentile of a box's middle that shows its face's ivory: a crowded face (8p) is mostly ink,
#: yet at least a tenth of its middle is bare face.
FACE_BRIGHT = 90


def _face_like(image: np.ndarray, box: tuple[float, ...], tone: float) -> bool:
    """Is the middle of the box as bright as the photo's tile faces (its brightest tenth within
    :data:`PLAIN_TONE` of ``tone``)? A face shows its ivory between the glyph's strokes; the table
    between two tiles does not, however like a taught tile the crop looks to the reader: on the
    camera frames a set taught a blank white dragon "found" it on bare teal mat beside standing
    tiles: taught from two frames, 2.9 tiles found in reading the other 35, 0.3 of them right;
    with this check 0.9 and 0.3 (teach protocol, 10 draws). Without ``tone`` (no sure tile to
    take it from) every box passes."""
    if tone <= 0:
        return True
    inner = _middle(image, box)
    if not inner.size:
        return False
    return abs(float(np.percentile(inner.mean(axis=2), FACE_BRIGHT)) - tone) < PLAIN_TONE


def _plain(image: np.ndarray, box: tuple[float, ...], tone: float) -> bool:
    """Does the slot hold a plain face of the row's tiles' tone (a blank white dragon)?"""
    inner = _middle(image, box)
    if not inner.size or tone <= 0:
        return False
    grey = inner.mean(axis=2)
    return float(grey.std()) < PLAIN_SPREAD and abs(float(grey.mean()) - tone) < PLAIN_TONE

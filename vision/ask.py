"""Ask the reader about a gap in a row where the row's pitch predicts a tile the detector missed.

A blank white dragon is a plain ivory face: the detector often draws no box on it, and the row
it stands in then shows a gap about one tile wide between two tiles. The layout knows the row's
pitch and tile size, so it can say where the missing tile would stand. This module finds such
gaps in the laid-out hand's rows (:func:`gap_slots`: between two tiles of one row, never beyond
a row's ends, where the free room holds one or :data:`MAX_MISSING` tiles at the row's pitch),
cuts a box of the row's tile size there and reads all of them in one batched reader call
(:func:`ask`). A slot the reader reads as a tile (not ``none``, not a back, at least
:data:`ASK_CONFIDENCE` sure) becomes a tile marked ``found_by=`` :data:`ASKED`; it then goes
through the layout, the mending and the score like a tile the detector found, and
:func:`vision.checks.asked` names it for the player to check.

Thresholds were chosen on the real ``val`` split and the camera frames' ``teach`` pictures
(``scripts/tune_gaps.py``), never on the test split.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from statistics import median

from mahjong_camera_scorer.vision.classes import BACK
from mahjong_camera_scorer.vision.detect import Detection, covered, is_free
from mahjong_camera_scorer.vision.layout import Framed, Layout, TileGroup, framed_box, in_hand_frame
from mahjong_camera_scorer.vision.read import TileRead

#: Marks a tile read in a gap the layout asked about (:attr:`vision.read.TileRead.found_by`).
ASKED = "gap"
#: The free room between two neighbours, in the row's pitches (a whole tile and its spacing per
#: pitch), is taken as ``k`` missing tiles when it is within this of a whole number ``k`` >= 1.
GAP_TOLERANCE = (0.3, 0.4)
#: At most this many tiles are asked for in one gap (a wider gap is sets laid apart).
MAX_MISSING = 2
#: The reader must be at least this sure of a slot's tile for it to be taken in. Chosen on the
#: real val split and the camera frames' teach pictures (``scripts/tune_gaps.py``): no real gap
#: there holds a tile the shipped detector missed, and of the 28 gaps the layout would ask about
#: (any room within half a pitch), none is read as a tile face at 0.6 or more (the surest: 1s at
#: 0.57 on val; 17 others are read as backs, the camera frames' teal mat, and never taken). Tiles
#: taken away on purpose from inside the hand's rows (``--drop``) are asked for on 303 of 355 on
#: val and 267 of 354 on the frames, and taken at 0.6 or more 293 times (291 right) and 215 times
#: (214 right); at 0.8, 265 (264) and 144 (143): the frames' standing tiles are read less surely
#: on a slot than on their own box (blank whites there: 1 of 3 at 0.6, none at 0.8).
ASK_CONFIDENCE = 0.6
#: At most this many slots are read per photo (one batch).
MAX_SLOTS = 8
#: A slot overlapping a box already read by this much (IoU), or holding its centre in one, is
#: taken: the reader already said what is there (a faint box the mending may take in, a box
#: read as not a tile).
SAME_PLACE = 0.3
#: Rows with fewer tiles than this give no pitch to trust.
MIN_ROW = 3

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Slot:
    """Where a missing tile would stand: its box in the photo, the two readings (by index) it
    stands between, the free room between them in pitches, and how many tiles that room holds."""

    box: Box
    between: tuple[int, int]
    room: float
    missing: int


def _missing(room: float, tolerance: tuple[float, float], most: int) -> int:
    """How many tiles a free room of ``room`` pitches holds (0: none, or not a whole number)."""
    k = max(1, round(room))
    lo, hi = tolerance
    return k if k <= most and k - lo <= room <= k + hi else 0


def gap_slots(
    layout: Layout[TileRead],
    taken: Sequence[Sequence[float]],
    image_shape: tuple[int, ...],
    tolerance: tuple[float, float] = GAP_TOLERANCE,
    max_missing: int = MAX_MISSING,
) -> list[Slot]:
    """The slots between neighbouring tiles of the hand's rows where the row's pitch predicts
    one or more missing tiles, of the row's tile size (in the hand's frame: the row's upright
    tiles' median width and height, bottoms in line with the neighbours'). ``taken``: boxes
    already read (photo pixels); a slot on one is left out, as is one reaching out of the photo.
    ``tolerance`` and ``max_missing``: :data:`GAP_TOLERANCE` and :data:`MAX_MISSING` unless a
    measurement looks beyond them (``scripts/tune_gaps.py``)."""
    h_img, w_img = image_shape[:2]
    back = (360 - layout.turn) % 360
    occupied = [framed_box(b, layout.turn) for b in taken]
    rows: dict[int, list[TileGroup[TileRead]]] = {}
    for g in layout.groups:
        rows.setdefault(g.row, []).append(g)
    out: list[Slot] = []
    for groups in rows.values():
        every = [t for g in groups for t in g.tiles]
        if len(every) < MIN_ROW:
            continue
        framed = sorted(in_hand_frame(every, layout.turn), key=lambda f: f.box[0] + f.box[2])
        standing = [f for f in framed if f.orientation != "sideways"] or framed
        width = median([f.box[2] - f.box[0] for f in standing])
        height = median([f.box[3] - f.box[1] for f in standing])
        group_of = {id(t): k for k, g in enumerate(groups) for t in g.tiles}
        # the usual pitch: centre to centre between touching neighbours of one group
        steps = [
            (b.box[0] + b.box[2] - a.box[0] - a.box[2]) / 2
            for a, b in pairwise(framed)
            if group_of[id(a.src)] == group_of[id(b.src)]
            and a.orientation != "sideways"
            and b.orientation != "sideways"
        ]
        if not steps:
            continue
        pitch = median(steps)
        spacing = pitch - width
        for a, b in pairwise(framed):
            if group_of[id(a.src)] == group_of[id(b.src)]:
                continue
            free = b.box[0] - a.box[2]
            room = (free - spacing) / max(pitch, 1e-6)
            k = _missing(room, tolerance, max_missing)
            if not k:
                continue
            part = free / k
            for j in range(k):
                cx = a.box[2] + part * (j + 0.5)
                f = (cx - a.box[2]) / max(free, 1e-6)
                bottom = a.box[3] + f * (b.box[3] - a.box[3])
                box = (cx - width / 2, bottom - height, cx + width / 2, bottom)
                if not is_free(box, occupied, SAME_PLACE):
                    continue
                image_box = framed_box(box, back)
                if image_box[0] < 0 or image_box[1] < 0 or image_box[2] > w_img or image_box[3] > h_img:
                    continue
                occupied.append(box)
                out.append(Slot(image_box, (a.src.index, b.src.index), room, k))
    return out


def ask(
    read_boxes: Callable[[list[Detection]], list[TileRead]],
    layout: Layout[TileRead],
    readings: Sequence[TileRead],
    image_shape: tuple[int, ...],
    keep: float,
) -> list[TileRead]:
    """The tiles the reader reads in the hand's gaps (:func:`gap_slots`), to add to ``readings``:
    each numbered after every reading, its detector score ``keep`` (the score a box needs to
    count without the mending's help: the layout asked for it) and ``found_by`` :data:`ASKED`.
    ``read_boxes(detections)`` reads boxes in one batch, each reading numbered by its box's place
    (:meth:`vision.pipeline.PhotoReader.read_boxes`); it is not called when there is no slot.

    A faint box (scored under ``keep``, read as a tile) on a slot has been read already: where
    that reading is taken in (:func:`taken_in`) it is returned with its own index, to replace
    the faint one (a blank white dragon in a tight crop of a row is boxed faintly, 0.34, and read
    5z at 0.64; without a hand to complete, the mending never took it)."""
    faint = [r for r in readings if r.is_tile and r.detector_score < keep]
    faint_ids = {id(r) for r in faint}
    slots = gap_slots(layout, [r.box for r in readings if id(r) not in faint_ids], image_shape)[:MAX_SLOTS]
    if not slots:
        return []
    out: list[TileRead] = []
    unread: list[Slot] = []
    for s in slots:
        on = [f for f in faint if not is_free(s.box, [f.box], SAME_PLACE)]
        if not on:
            unread.append(s)
            continue
        best = max(on, key=lambda f: f.confidence)
        if taken_in(best) and all(o.index != best.index for o in out):
            out.append(replace(best, detector_score=keep, found_by=ASKED))
    if not unread:
        return out
    start = 1 + max((r.index for r in readings), default=-1)
    for r in read_boxes([Detection(s.box, "tile", 0.0) for s in unread]):
        if 0 <= r.index < len(unread) and taken_in(r):
            out.append(replace(r, index=start + r.index, detector_score=keep, found_by=ASKED))
    return out


def taken_in(r: TileRead) -> bool:
    """Does the reading of a slot say a tile stands there (a face, sure enough)?"""
    return bool(r.is_tile and r.code != BACK and r.confidence >= ASK_CONFIDENCE)


# -- a row read to its ends ---------------------------------------------------------------------
#: At a row's end the reader must be at least this sure of a face (beyond the row no neighbour
#: vouches for the slot; the table, a shadow or the mat must read as no tile). Set equal to the
#: verdict's sure read and checked, not swept, on the real val split's scene variants
#: (``scripts/eval_scenes.py --sources chinese-val``), never on a test split.
END_CONFIDENCE = 0.8
#: At most this many tiles are looked for beyond each end of a row (a hand's row is 14 tiles or
#: fewer; the detector finds most of them).
MAX_BEYOND = 3
#: A slot beyond a row's end is taken only where no box already read overlaps it by more than
#: this share of the slot's area (the winning tile set apart lies beyond the block's end: a slot
#: half on it would read that tile a second time).
END_OVERLAP = 0.1


@dataclass(frozen=True)
class RowLine:
    """A row of the hand in its frame, as a line a slot can be put on: its tiles (framed, left to
    right), its pitch (centre to centre), a standing tile's width and height, and the slope of
    its bottoms (pixels down per pixel along)."""

    tiles: tuple[Framed[TileRead], ...]
    pitch: float
    width: float
    height: float
    slope: float

    def slot(self, k: int) -> Box:
        """The box (hand's frame) of the ``k``-th slot beyond the row's right end (``k`` > 0) or
        its left end (``k`` < 0), at the row's pitch, its bottom on the row's line."""
        end = self.tiles[-1] if k > 0 else self.tiles[0]
        cx = (end.box[0] + end.box[2]) / 2 + k * self.pitch
        bottom = end.box[3] + self.slope * k * self.pitch
        return (cx - self.width / 2, bottom - self.height, cx + self.width / 2, bottom)


def row_lines(layout: Layout[TileRead]) -> list[RowLine]:
    """The hand's rows of at least :data:`MIN_ROW` standing tiles as lines (:class:`RowLine`):
    the pitch is the median between touching neighbours of one group, the tile size the median
    standing tile's, the slope a least-squares line through the bottoms."""
    rows: dict[int, list[TileGroup[TileRead]]] = {}
    for g in layout.groups:
        rows.setdefault(g.row, []).append(g)
    out = []
    for groups in rows.values():
        every = [t for g in groups for t in g.tiles]
        framed = sorted(in_hand_frame(every, layout.turn), key=lambda f: f.box[0] + f.box[2])
        standing = [f for f in framed if f.orientation != "sideways"]
        if len(standing) < MIN_ROW:
            continue
        group_of = {id(t): k for k, g in enumerate(groups) for t in g.tiles}
        steps = [
            (b.box[0] + b.box[2] - a.box[0] - a.box[2]) / 2
            for a, b in pairwise(framed)
            if group_of[id(a.src)] == group_of[id(b.src)]
            and a.orientation != "sideways"
            and b.orientation != "sideways"
        ]
        if not steps:
            continue
        xs = [(f.box[0] + f.box[2]) / 2 for f in standing]
        ys = [f.box[3] for f in standing]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        spread = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread if spread else 0.0
        out.append(
            RowLine(
                tuple(framed),
                median(steps),
                median([f.box[2] - f.box[0] for f in standing]),
                median([f.box[3] - f.box[1] for f in standing]),
                slope,
            )
        )
    return out


def read_ends(
    read_boxes: Callable[[list[Detection]], list[TileRead]],
    layout: Layout[TileRead],
    readings: Sequence[TileRead],
    image_shape: tuple[int, ...],
    keep: float,
) -> list[TileRead]:
    """The tiles the reader reads beyond the ends of the hand's rows (:func:`row_lines`), to add
    to ``readings``: one slot at the row's pitch beyond each end, read in one batch; where a
    face stands (:func:`taken_at_end`) the next slot out is read too, up to :data:`MAX_BEYOND`.
    A slot is read only where the photo has room for it and no box already read covers more
    than :data:`END_OVERLAP` of it. Each tile is numbered after every reading, its detector
    score ``keep``, ``found_by`` :data:`ASKED`."""
    h_img, w_img = image_shape[:2]
    back = (360 - layout.turn) % 360
    taken = [framed_box(r.box, layout.turn) for r in readings]
    lines = row_lines(layout)
    ends = [(line, side) for line in lines for side in (1, -1)]
    start = 1 + max((r.index for r in readings), default=-1)
    out: list[TileRead] = []
    for k in range(1, MAX_BEYOND + 1):
        slots: list[tuple[Box, int]] = []
        for n, (line, side) in enumerate(ends):
            box = line.slot(side * k)
            image_box = framed_box(box, back)
            inside = (
                image_box[0] >= 0 and image_box[1] >= 0 and image_box[2] <= w_img and image_box[3] <= h_img
            )
            if inside and max((covered(box, t) for t in taken), default=0.0) <= END_OVERLAP:
                slots.append((image_box, n))
        if not slots:
            break
        read = {r.index: r for r in read_boxes([Detection(b, "tile", 0.0) for b, _ in slots])}
        going = []
        for j, (image_box, n) in enumerate(slots):
            r = read.get(j)
            if r is None or not taken_at_end(r):
                continue
            out.append(replace(r, index=start + len(out), detector_score=keep, found_by=ASKED))
            taken.append(framed_box(image_box, layout.turn))
            going.append(ends[n])
        ends = going
        if not ends:
            break
    return out


def taken_at_end(r: TileRead) -> bool:
    """Does the reading of a slot beyond a row's end say a face stands there, surely enough?"""
    return bool(r.is_tile and r.code != BACK and not r.code.endswith("f") and r.confidence >= END_CONFIDENCE)


# -- a blank face in a row ----------------------------------------------------------------------
#: The white dragon's code (the one face that can be blank).
BLANK_WHITE = "5z"
#: A box read as no tile is a blank white dragon when the reader's likeliest tile for it is the
#: white dragon at least this likely (on val 0.15 / 0.1 / 0.05: the same but the turned photos,
#: where 0.1 and 0.05 find a block of four blanks read 5z at 0.13 and more: quarter and half
#: turns' recall 0.936 / 0.948 -> 0.940 / 0.952, no false box), ...
BLANK_RUNNER_UP = 0.1
#: ... the detector boxed it at least this surely, ...
BLANK_BOX = 0.5
#: ... and it stands in a row of the hand: its height and its bottom within this share of the
#: row's tile height of the row's, its centre within :data:`BLANK_REACH` pitches of a tile of the
#: row (or of a blank taken in beside one) and at least :data:`BLANK_APART` from every one.
BLANK_FIT = 0.25
BLANK_REACH = 1.4
BLANK_APART = 0.6


def blank_whites(layout: Layout[TileRead], rejected: Sequence[TileRead]) -> list[TileRead]:
    """The boxes read as no tile that are blank white dragons standing in a row of the hand,
    read as ``5z`` (their white-dragon probability as confidence, ``found_by`` :data:`ASKED`:
    the player is told to check them).

    A blank white dragon is a plain ivory face: the reader, trained to call a plain patch of
    table "no tile", often gives it "no tile" first and the white dragon second (on the val
    split's tight crops of rows, 5 blank whites the detector boxed at 0.59-0.72 were read "no
    tile" at 0.51-0.78, 5z next at 0.21-0.35). In a row, boxed surely, of the row's size and at
    its pitch, the only tile that shows nothing is the white dragon."""
    lines = row_lines(layout)
    if not lines:
        return []
    candidates = [
        r
        for r in rejected
        if r.detector_score >= BLANK_BOX
        and r.alternatives
        and r.alternatives[0][0] == BLANK_WHITE
        and r.alternatives[0][1] >= BLANK_RUNNER_UP
    ]
    out: list[TileRead] = []
    placed: list[list[Box]] = [[f.box for f in line.tiles] for line in lines]
    changed = True
    while changed and candidates:
        changed = False
        for r in list(candidates):
            box = framed_box(r.box, layout.turn)
            for line, boxes in zip(lines, placed, strict=True):
                if _stands_in(box, line, boxes):
                    out.append(replace(r, code=BLANK_WHITE, confidence=r.alternatives[0][1], found_by=ASKED))
                    boxes.append(box)
                    candidates.remove(r)
                    changed = True
                    break
    return out


def _stands_in(box: Box, line: RowLine, boxes: Sequence[Box]) -> bool:
    """Does ``box`` (hand's frame) stand in the row ``line`` beside one of ``boxes``?"""
    h = box[3] - box[1]
    if abs(h - line.height) > BLANK_FIT * line.height:
        return False
    cx = (box[0] + box[2]) / 2
    near = min(boxes, key=lambda b: abs((b[0] + b[2]) / 2 - cx))
    gap = abs((near[0] + near[2]) / 2 - cx) / max(line.pitch, 1e-6)
    if not BLANK_APART <= gap <= BLANK_REACH:
        return False
    bottom = near[3] + line.slope * (cx - (near[0] + near[2]) / 2)
    return abs(box[3] - bottom) <= BLANK_FIT * line.height

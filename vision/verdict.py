"""Does the read know it is right? :class:`Verdict`: sure, or the tiles to check, by place.

A player who is told to check every hand learns to check nothing; one who is told "sure" on a
wrong hand stops trusting the tool. So each read ends with one verdict, shown first: **sure**, or
the tiles to check, each by its place in the hand (row and position, left to right) and why. A
doubt names a tile, never the photo as a whole; what makes the hand itself doubtful (a hand of
the wrong size, a set that is none) is said beside the tiles it concerns and is never sure.

A tile is doubtful when the reader was unsure of its face (:data:`READ_SURE`), or of the face's
runner-up margin (:data:`MARGIN_SURE`), when the detector was unsure of its box
(:data:`BOX_SURE`) and the read does not vouch for it (:func:`faint`: a face read surely in a
row of the hand at the row's size does), or when a check of :mod:`vision.checks` names it (a gap
beside it, a fifth copy, a box read as no tile beside the hand, a tile read where the detector
found none, a change the mending made). The thresholds are calibrated on held-out real photos
(``scripts/calibrate_verdict.py``): the aim is that a right read is called sure and a wrong one
never is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any

from mahjong_camera_scorer.vision.checks import Check
from mahjong_camera_scorer.vision.layout import PROBLEM_KINDS, Layout
from mahjong_camera_scorer.vision.read import TileRead

#: A face read less surely than this is a doubt, ...
READ_SURE = 0.6
#: ... or whose runner-up is this close to it (its probability minus the runner-up's), ...
MARGIN_SURE = 0.6
#: ... or whose box the detector scored under this. The three were chosen together on the
#: variants of the Chinese/HK validation photos (``scripts/calibrate_verdict.py``: the most right
#: reads called sure with at most 2 % of the wrong ones sure; at 3 % a box threshold of 0.55 was
#: chosen that let 4.5 % of the test sources' wrong reads be sure, the one look at test). Chosen
#: again with the first look of 2026-11-27's accelerator run (fourth session): 0.6 / 0.6 / 0.7,
#: 152 of 234 right val reads sure and 2 of 115 wrong ones (1.7 %); on the test sources 56 % and
#: 1.8 %. The face's own threshold matters little beside the margin (a face 0.6 ahead of its
#: runner-up is read at 0.6 or more).
BOX_SURE = 0.7
#: A faint box is no doubt where the read itself vouches for it: a box the detector scored at
#: least :data:`FAINT_FLOOR`, whose face is read ahead of its runner-up by at least
#: :data:`FAINT_MARGIN`, standing in a row of the hand at its row's size (its long side within
#: :data:`ROW_SIZE` of the row's median). The detector scores the tiles of a tight crop, a far row
#: or a row seen from the seat lower than those of the photos it trained on, so the box threshold
#: alone doubted right reads most of all: on the validation variants 134 of the doubts of right
#: photos were a faint box and nothing else. Chosen tile by tile (``scripts/calibrate_verdict.py
#: --base``, the val split with four seeds of re-framings): the floor and margin that vouch for
#: the most faint boxes whose reads are wrong no more often than those of the tiles the box
#: threshold trusts (130 boxes, none wrong, against 53 wrong of 11,435 sure tiles; at 0.65 / 0.9,
#: 1 of 213 wrong, a hair over). On the test sources it calls 4 more right photos sure and 3
#: more wrong ones with the reader before it (7 and 2 with the reader since 2026-11-29), each
#: wrong for a reason no tile of it shows (a tile never boxed, a face misread surely elsewhere):
#: a photo-level choice, which would vouch for far more, is ruled by those.
FAINT_FLOOR = 0.65
FAINT_MARGIN = 0.95
ROW_SIZE = (0.8, 1.25)
#: The checks that make the read doubtful: every kind :mod:`vision.checks` raises but the note on
#: a candidate winning tile (which tile won, not what was read) and a box read as no tile beside
#: the hand (shown, but on the validation variants it was raised as often on right reads as on
#: wrong ones: 29 and 27).
DOUBT_KINDS = frozenset({"gap", "hand_size", "fifth_copy", "faint", "asked", "mended"} | set(PROBLEM_KINDS))
#: The layout's problems that still leave a hand that can be sure: the winning tile not set
#: apart is a question of which tile won (the candidates), not of what was read.
HAND_FINE = frozenset({"no_winning_tile"})


@dataclass(frozen=True)
class Doubt:
    """One tile to check: its reading (by index), its place (:class:`Place`), why it is doubted
    (:data:`REASONS` and check kinds, in order) and the reader's numbers a front end words it
    with: how sure it was of the face, and its runner-up."""

    index: int
    code: str
    place: Place
    reasons: tuple[str, ...]
    confidence: float
    maybe: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tile": self.index, "code": self.code, **self.place.to_json()}
        out.update(reasons=list(self.reasons), confidence=round(self.confidence, 4))
        if self.maybe:
            out["maybe"] = self.maybe
        return out


@dataclass(frozen=True)
class Verdict:
    """Sure, or the tiles to check (each a :class:`Doubt`) and what is wrong with the hand."""

    #: tiles shown, none doubted, and nothing wrong with the hand
    sure: bool
    doubts: tuple[Doubt, ...] = ()
    #: what makes the hand doubtful as a whole: the checks' kinds (its size, a set that is none)
    hand: tuple[str, ...] = ()
    #: how many tiles the read shows (a read of none is never sure)
    shown: int = 0

    @property
    def tiles_sure(self) -> bool:
        """Tiles shown and none doubted (the hand's shape aside): what a photo that is no hand
        can be."""
        return self.shown > 0 and not self.doubts

    def to_json(self) -> dict[str, Any]:
        return {
            "sure": self.sure,
            "tiles_sure": self.tiles_sure,
            "doubts": [d.to_json() for d in self.doubts],
            "hand": list(self.hand),
        }


@dataclass(frozen=True, order=True)
class Place:
    """Where a tile lies as a player finds it: ``row`` and ``position`` (1-based, left to right)
    in the hand's rows; ``row`` 0 for the flowers set apart, -1 for a tile beside the hand."""

    row: int
    position: int

    def key(self) -> tuple[int, int]:
        """The order a player reads places in: the hand's rows, then flowers, then the rest."""
        return (self.row if self.row > 0 else 1000 - self.row, self.position)

    def to_json(self) -> dict[str, Any]:
        where = "hand" if self.row > 0 else "flowers" if self.row == 0 else "beside"
        return {"where": where, "row": max(self.row, 0), "position": self.position}


#: A tile's own reasons to doubt it (the others are the kinds of the checks naming it).
REASONS = ("unsure", "close", "faint")


def places(layout: Layout[TileRead], tiles: Sequence[TileRead]) -> dict[int, Place]:
    """Each tile's :class:`Place`: row R, tile K of the hand's rows (groups in order, left to
    right); the flowers; or tile K of those beside the hand."""
    out: dict[int, Place] = {}
    counts: dict[int, int] = {}
    order = sorted({g.row for g in layout.groups})
    for g in layout.groups:
        for t in g.tiles:
            counts[g.row] = counts.get(g.row, 0) + 1
            out[t.index] = Place(order.index(g.row) + 1, counts[g.row])
    rest = [t for t in tiles if t.index not in out]
    flowers = [t for t in rest if t.code.endswith("f")]
    beside = [t for t in rest if not t.code.endswith("f")]
    for k, t in enumerate(sorted(flowers, key=lambda t: (t.box[1], t.box[0]))):
        out[t.index] = Place(0, k + 1)
    for k, t in enumerate(sorted(beside, key=lambda t: (t.box[1], t.box[0]))):
        out[t.index] = Place(-1, k + 1)
    return out


def in_row_at_size(layout: Layout[TileRead]) -> set[int]:
    """The tiles (by index) that stand in a row of the hand at its row's size: the long side of
    the box within :data:`ROW_SIZE` of the median over the row's tiles (a row of one tile has no
    size to stand at)."""
    rows: dict[int, list[TileRead]] = {}
    for g in layout.groups:
        rows.setdefault(g.row, []).extend(g.tiles)
    out: set[int] = set()
    for tiles in rows.values():
        if len(tiles) < 2:
            continue
        middle = median(_long_side(t) for t in tiles)
        out |= {t.index for t in tiles if ROW_SIZE[0] * middle <= _long_side(t) <= ROW_SIZE[1] * middle}
    return out


def _long_side(t: TileRead) -> float:
    return max(t.box[2] - t.box[0], t.box[3] - t.box[1])


def margin(t: TileRead) -> float:
    """How far the face is read ahead of its runner-up (its probability when there is none)."""
    second = next((p for c, p in t.alternatives if c != t.code), 0.0)
    return t.confidence - second


def faint(t: TileRead, in_row: bool) -> bool:
    """Is the box too faint to be sure of, the read's own numbers and its place considered
    (:data:`BOX_SURE`, :data:`FAINT_FLOOR`, :data:`FAINT_MARGIN`)?"""
    if t.detector_score >= BOX_SURE:
        return False
    return not (in_row and t.detector_score >= FAINT_FLOOR and margin(t) >= FAINT_MARGIN)


def _own_doubts(t: TileRead, in_row: bool) -> tuple[list[str], str | None]:
    """Why the reading of one tile is doubtful by its own numbers (:data:`REASONS`), and its
    runner-up face. ``in_row``: the tile stands in a row of the hand at its row's size."""
    second = next(((c, p) for c, p in t.alternatives if c != t.code), None)
    reasons = []
    if t.confidence < READ_SURE:
        reasons.append("unsure")
    elif second is not None and margin(t) < MARGIN_SURE:
        reasons.append("close")
    if faint(t, in_row):
        reasons.append("faint")
    return reasons, second[0] if second else None


def judge(tiles: Sequence[TileRead], layout: Layout[TileRead], checks: Sequence[Check]) -> Verdict:
    """The verdict on a read: the tiles shown (the hand's, its flowers and those beside it: a read
    is right only when each is) doubted by their own numbers or named by a check, and what is
    wrong with the hand; sure when there is neither."""
    where = places(layout, tiles)
    steady = in_row_at_size(layout)
    why: dict[int, list[str]] = {}
    maybe: dict[int, str | None] = {}
    for t in tiles:
        reasons, maybe[t.index] = _own_doubts(t, t.index in steady)
        if reasons:
            why[t.index] = reasons
    hand: list[str] = []
    for c in checks:
        if c.kind not in DOUBT_KINDS or c.kind in HAND_FINE:
            continue
        for i in c.tiles:
            if i in where and c.kind not in why.setdefault(i, []):
                why[i].append(c.kind)
        if (c.kind == "hand_size" or c.kind in PROBLEM_KINDS) and c.kind not in hand:
            hand.append(c.kind)
    read = {t.index: t for t in tiles}
    doubts = tuple(
        Doubt(i, read[i].code, where[i], tuple(w), read[i].confidence, maybe[i])
        for i, w in sorted(why.items(), key=lambda kv: where[kv[0]].key())
        if w
    )
    return Verdict(bool(tiles) and not doubts and not hand, doubts, tuple(hand), len(tiles))

"""Does the read know it is right? :class:`Verdict`: sure, or the tiles to check, by place.

A player who is told to check every hand learns to check nothing; one who is told "sure" on a
wrong hand stops trusting the tool. So each read ends with one verdict, shown first: **sure**, or
the tiles to check, each by its place in the hand (row and position, left to right) and why. A
doubt names a tile, never the photo as a whole; what makes the hand itself doubtful (a hand of
the wrong size, a set that is none) is said beside the tiles it concerns and is never sure.

A tile is doubtful when the reader was unsure of its face (:data:`READ_SURE`), or of the face's
runner-up margin (:data:`MARGIN_SURE`), when the detector was unsure of its box
(:data:`BOX_SURE`), or when a check of :mod:`vision.checks` names it (a gap beside it, a fifth
copy, a box read as no tile beside the hand, a tile read where the detector found none, a change
the mending made). The thresholds are calibrated on held-out real photos
(``scripts/calibrate_verdict.py``): the aim is that a right read is called sure and a wrong one
never is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vision.checks import Check
from vision.layout import PROBLEM_KINDS, Layout
from vision.read import TileRead

#: A face read less surely than this is a doubt, ...
READ_SURE = 0.8
#: ... or whose runner-up is this close to it (its probability minus the runner-up's), ...
MARGIN_SURE = 0.6
#: ... or whose box the detector scored under this. The three were chosen together on the
#: variants of the Chinese/HK validation photos (``scripts/calibrate_verdict.py``: the most right
#: reads called sure with at most 3 % of the wrong ones sure), never on a test photo.
BOX_SURE = 0.55
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
    """One tile to check: its reading (by index), its place in the hand and why it is doubted."""

    index: int
    code: str
    place: str
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.index, "code": self.code, "place": self.place, "why": self.why}


@dataclass(frozen=True)
class Verdict:
    """Sure, or the tiles to check (each a :class:`Doubt`) and what is wrong with the hand."""

    #: no tile doubted and nothing wrong with the hand
    sure: bool
    doubts: tuple[Doubt, ...] = ()
    #: what makes the hand doubtful as a whole (its size, a set that is none), one sentence each
    hand: tuple[str, ...] = ()
    #: how many tiles the read shows (a read of none is never sure)
    shown: int = 0

    @property
    def tiles_sure(self) -> bool:
        """Tiles shown and none doubted (the hand's shape aside): what a photo that is no hand
        can be."""
        return self.shown > 0 and not self.doubts

    def line(self) -> str:
        """One line for the top of a read: ``sure`` or what to check."""
        if self.sure:
            return "sure: every tile read surely and the hand is whole"
        parts = [f"{d.place} ({d.code}: {d.why})" for d in self.doubts]
        return "check: " + "; ".join([*parts, *self.hand])

    def to_json(self) -> dict[str, Any]:
        return {"sure": self.sure, "doubts": [d.to_json() for d in self.doubts], "hand": list(self.hand)}


def places(layout: Layout[TileRead], tiles: Sequence[TileRead]) -> dict[int, str]:
    """Each tile's place as a player finds it: ``row R, tile K`` of the hand's rows (groups in
    order, left to right), ``flowers`` or ``beside the hand`` (left out, tile K of them)."""
    out: dict[int, str] = {}
    rows: dict[int, int] = {}
    order = sorted({g.row for g in layout.groups})
    for g in layout.groups:
        for t in g.tiles:
            rows[g.row] = rows.get(g.row, 0) + 1
            out[t.index] = f"row {order.index(g.row) + 1}, tile {rows[g.row]}"
    rest = [t for t in tiles if t.index not in out]
    for k, t in enumerate(sorted(rest, key=lambda t: (t.box[1], t.box[0]))):
        out[t.index] = "flowers" if t.code.endswith("f") else f"beside the hand, tile {k + 1}"
    return out


def _tile_doubt(t: TileRead) -> str | None:
    """Why the reading of one tile is doubtful by its own numbers, or None."""
    second = next(((c, p) for c, p in t.alternatives if c != t.code), None)
    if t.confidence < READ_SURE:
        return f"{t.confidence:.2f} sure" + (f", maybe {second[0]}" if second else "")
    if second is not None and t.confidence - second[1] < MARGIN_SURE:
        return f"{t.confidence:.2f} sure, close to {second[0]}"
    if t.detector_score < BOX_SURE:
        return "faintly boxed: maybe no tile"
    return None


def judge(tiles: Sequence[TileRead], layout: Layout[TileRead], checks: Sequence[Check]) -> Verdict:
    """The verdict on a read: the tiles shown (the hand's, its flowers and those beside it: a read
    is right only when each is) doubted by their own numbers or named by a check, and what is
    wrong with the hand; sure when there is neither."""
    mine = list(tiles)
    where = places(layout, tiles)
    why: dict[int, list[str]] = {}
    for t in mine:
        doubt = _tile_doubt(t)
        if doubt:
            why.setdefault(t.index, []).append(doubt)
    hand: list[str] = []
    for c in checks:
        if c.kind not in DOUBT_KINDS or c.kind in HAND_FINE:
            continue
        named = [i for i in c.tiles if i in where]
        for i in named:
            why.setdefault(i, []).append(c.kind.replace("_", " "))
        if c.kind == "hand_size" or c.kind in PROBLEM_KINDS:
            hand.append(c.message)
    codes = {t.index: t.code for t in tiles}
    doubts = tuple(
        Doubt(i, codes[i], where[i], ", ".join(dict.fromkeys(w)))
        for i, w in sorted(why.items(), key=lambda kv: _order(where[kv[0]]))
    )
    return Verdict(bool(mine) and not doubts and not hand, doubts, tuple(hand), len(mine))


def _order(place: str) -> tuple[int, int, int]:
    """Places in the order a player reads them: the hand's rows, then flowers, then the rest."""
    nums = [int(x) for x in place.replace(",", " ").split() if x.isdigit()]
    group = 0 if place.startswith("row") else 1 if place == "flowers" else 2
    first, second = [*nums, 0, 0][:2]
    return group, first, second

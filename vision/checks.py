"""What the tool can see is wrong or doubtful in what it read: flagged, never silent.

The reader's low confidence is one flag (:attr:`vision.read.TileRead.flagged`). These are the
others, each a :class:`Check` naming the tiles it concerns (by their reading ``index``), so that
every front end shows them the way it shows a low-confidence tile:

- ``gap``: a gap in a row of concealed tiles where a tile seems missing (the pitch about twice
  the usual, and not beside a whole set: players lay their sets apart);
- ``hand_size``: a hand of the wrong size (not 14 tiles plus one per kong, declared sets
  counted), naming, when one or two are off, the faint boxes of the hand (likely extra) or the
  tiles beside a gap (where one is missing);
- ``fifth_copy``: more than four tiles read as one kind in the photo (a set has four; a red
  five counts as its five), naming the least sure of them;
- ``rejected_near``: a box near the hand read as "not a tile" (it may be a tile the hand lacks);
- ``faint``: a tile whose box the detector was unsure of (a false box, more often than not);
- ``asked``: a tile the detector missed, read where a gap in a row predicted one
  (:mod:`vision.ask`): the layout asked for it, so the player checks it;
- ``mended``: each change :mod:`vision.mend` made to complete the hand (a box left out or taken
  in, a tile taken as another candidate).

Thresholds were chosen on the real ``val`` split and the camera frames' ``teach`` pictures
(``scripts/eval_real.py --split val`` / ``--split teach``), never on the test split.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import median
from typing import Any

from mahjong_camera_scorer.vision.ask import ASKED
from mahjong_camera_scorer.vision.classes import BACK
from mahjong_camera_scorer.vision.layout import Framed, Layout, TileGroup, in_hand_frame, kind, meld_of
from mahjong_camera_scorer.vision.placed import Placed
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.table import BESIDE, distance, tile_length

#: A pitch between two neighbouring concealed tiles this many times the row's usual pitch leaves
#: room for a missing tile (a tile set apart on purpose, the winning tile, is 1.3-2.2 tile
#: widths from its neighbour, but it is not between two concealed groups).
GAP_PITCH = (1.7, 2.6)
#: A hand this many tiles off names its likeliest extra boxes (more: the photo is not one hand).
MAX_SUSPECTS = 2
#: A box the detector scored below this is flagged as faint (kept above the detector's own
#: threshold, :data:`vision.detect.DETECTOR_CONF`). Chosen on the real val split: 15 of its 18
#: false boxes score below 0.5, against 46 of its 843 right tiles.
FAINT = 0.5


@dataclass(frozen=True)
class Check:
    """One thing to check: its kind, a sentence for the player, the readings it concerns."""

    kind: str
    message: str
    tiles: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "tiles": list(self.tiles)}


def _at(t: Placed) -> str:
    return f"x={t.box[0]:.0f} y={t.box[1]:.0f}"


def hand_tiles(layout: Layout[TileRead]) -> list[TileRead]:
    return [t for g in layout.groups for t in g.tiles]


def hand_size(layout: Layout[TileRead]) -> int:
    """Tiles in the hand as laid out (concealed, the winning tile, declared sets)."""
    return len(layout.concealed) + sum(len(m.codes) for m in layout.melds)


def gaps(layout: Layout[TileRead]) -> list[Check]:
    """Gaps between two groups of concealed tiles wide enough for one more tile."""
    out = []
    rows: dict[int, list[TileGroup[TileRead]]] = {}
    for g in layout.groups:
        rows.setdefault(g.row, []).append(g)
    for groups in rows.values():
        framed: list[list[Framed[TileRead]]] = [in_hand_frame(g.tiles, layout.turn) for g in groups]
        pitches = [
            (b.box[0] + b.box[2]) / 2 - (a.box[0] + a.box[2]) / 2
            for f in framed
            for a, b in zip(
                sorted(f, key=lambda t: t.box[0]), sorted(f, key=lambda t: t.box[0])[1:], strict=False
            )
        ]
        if not pitches:
            continue
        usual = median(pitches)
        order = sorted(range(len(groups)), key=lambda k: min(t.box[0] for t in framed[k]))
        for k0, k1 in pairwise(order):
            if groups[k0].role != "concealed" or groups[k1].role != "concealed":
                continue
            if meld_of(groups[k0])[0] is not None or meld_of(groups[k1])[0] is not None:
                continue  # a whole set, set apart on purpose
            a = max(framed[k0], key=lambda t: t.box[2])
            b = min(framed[k1], key=lambda t: t.box[0])
            pitch = (b.box[0] + b.box[2]) / 2 - (a.box[0] + a.box[2]) / 2
            if GAP_PITCH[0] <= pitch / max(usual, 1e-6) <= GAP_PITCH[1]:
                out.append(
                    Check(
                        "gap",
                        f"a tile may be missing between {a.code} at {_at(a.src)} and {b.code} at "
                        f"{_at(b.src)} (the gap is {pitch / usual:.1f} times the usual pitch): check it",
                        (a.src.index, b.src.index),
                    )
                )
    return out


def wrong_size(layout: Layout[TileRead], found_gaps: list[Check]) -> list[Check]:
    """A hand that is not 14 tiles plus one per kong."""
    if not layout.concealed:
        return []
    n = hand_size(layout)
    want = 14 + sum(m.kind == "kong" for m in layout.melds)
    if n == want:
        return []
    tiles: tuple[int, ...] = ()
    if 0 < n - want <= MAX_SUSPECTS:  # the faint boxes of the hand are the likeliest extra ones
        weak = [t for t in hand_tiles(layout) if t.detector_score < FAINT]
        tiles = tuple(t.index for t in sorted(weak, key=lambda t: t.detector_score)[: n - want])
    elif 0 < want - n <= MAX_SUSPECTS and found_gaps:  # where a tile is missing
        tiles = tuple(i for c in found_gaps for i in c.tiles)
    more = "extra" if n > want else "missing"
    return [
        Check(
            "hand_size",
            f"the hand shows {n} tiles where a finished hand has {want} (14, one more per kong): "
            f"{abs(n - want)} {more} or misplaced (check the tiles named and the photo)",
            tiles,
        )
    ]


def fifth_copies(tiles: Sequence[TileRead]) -> list[Check]:
    """More than four tiles of one kind among all the tiles read (a set has four)."""
    by_kind: dict[str, list[TileRead]] = {}
    for t in tiles:
        if t.code != BACK and not t.code.endswith("f"):
            by_kind.setdefault(kind(t.code), []).append(t)
    out = []
    for k, copies in sorted(by_kind.items()):
        if len(copies) > 4:
            doubtful = sorted(copies, key=lambda t: t.confidence)[: len(copies) - 4]
            out.append(
                Check(
                    "fifth_copy",
                    f"{len(copies)} tiles read as {k} where a set has 4: "
                    + ", ".join(f"{t.code} at {_at(t)} ({t.confidence:.2f} sure)" for t in doubtful)
                    + " may be misread",
                    tuple(t.index for t in doubtful),
                )
            )
    return out


def rejected_near(layout: Layout[TileRead], rejected: Sequence[TileRead]) -> list[Check]:
    """Boxes read as "not a tile" lying within reach of the hand: a tile the hand may lack."""
    mine = hand_tiles(layout)
    if not mine or not rejected:
        return []
    reach = BESIDE * median([tile_length(t) for t in mine])
    return [
        Check(
            "rejected_near",
            f"a box at {_at(r)} beside the hand was read as not a tile: if it is one, the hand lacks it",
            (r.index,),
        )
        for r in rejected
        if distance([r], mine) <= reach
    ]


def faint(tiles: Sequence[TileRead]) -> list[Check]:
    """Tiles whose box the detector was unsure of (not those it never boxed: :func:`asked`)."""
    weak = [t for t in tiles if t.detector_score < FAINT and t.found_by != ASKED]
    if not weak:
        return []
    where = ", ".join(f"{t.code} at {_at(t)} ({t.detector_score:.2f})" for t in weak)
    return [Check("faint", f"faintly detected, may not be tiles: {where}", tuple(t.index for t in weak))]


def asked(tiles: Sequence[TileRead]) -> list[Check]:
    """One check per tile read in a gap the layout asked about (:mod:`vision.ask`)."""
    return [
        Check(
            "asked",
            f"no box was found at {_at(t)}, but the row has a gap for a tile there: read as {t.code} "
            f"({t.confidence:.2f} sure) and taken in (check it)",
            (t.index,),
        )
        for t in tiles
        if t.found_by == ASKED
    ]


def mended(tiles: Sequence[TileRead], layout: Layout[TileRead]) -> list[Check]:
    """One check per change :mod:`vision.mend` made to complete the hand."""
    ignored = {t.index for t in layout.ignored}
    out = [
        Check(
            "mended",
            f"box at {_at(r)} (read as {r.code}, detector score {r.detector_score:.2f}) left out: "
            "the hand is complete without it (check it)",
            (r.index,),
        )
        for r in layout.dropped
    ]
    out += [
        Check(
            "mended",
            f"faint box at {_at(r)} (detector score {r.detector_score:.2f}) taken in as {r.code}: "
            "it completes the hand (check it)",
            (r.index,),
        )
        for r in layout.added
    ]
    out += [
        Check(
            "mended",
            f"tile at {_at(r)} read as {r.corrected_from}, taken as {r.code}: "
            "the likeliest way to complete the hand (check it)",
            (r.index,),
        )
        for r in tiles
        if r.corrected_from and r.index not in ignored
    ]
    return out


def checks(
    tiles: Sequence[TileRead], layout: Layout[TileRead], rejected: Sequence[TileRead] | None = None
) -> list[Check]:
    """Everything to check in a photo's reading, mending changes first."""
    found_gaps = gaps(layout)
    kept = [t for t in tiles if t.index not in {d.index for d in layout.dropped}]
    return [
        *mended(tiles, layout),
        *asked(kept),
        *found_gaps,
        *wrong_size(layout, found_gaps),
        *fifth_copies(tiles),
        *rejected_near(layout, rejected or []),
        *faint(kept),
    ]

"""Boxes the photo does not back up: not shown, like a box under the detector's threshold.

A box in the hand's rows has its neighbours to vouch for it; a box away from the hand, or a lone
face-down tile among faces, has only its own detector score. On a set no model trained on (the
camera frames: a bookshelf behind a teal mat) most such boxes scored low and were no tile: lettering
on book spines, dark things on the shelf, the mat in shadow between two standing tiles read as a
back. The thresholds for boxes away from the hand were chosen on the Chinese/HK validation and
test pictures, never on the frames; the lone back's takes the same value untuned. What is left
out here never reaches the layout's hand or the score.

The reader vouches too, or does not: a faint row whose faces it reads is kept (tiles half hidden
behind a nearer row), a back lying apart that it does not read as one surely is not; and, in the
hand or not, a row of boxes whose faces it cannot read, or a box much larger than the photo's
tiles that it cannot read, is no tile (:func:`without_unread_rows`, :func:`without_large_unread`:
far views, once a closer look has boxed the shelf behind the mat). Those were chosen on the
Chinese/HK validation pictures' scene variants (``scripts/eval_scenes.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median
from typing import Protocol, TypeVar

from mahjong_camera_scorer.vision.classes import BACK
from mahjong_camera_scorer.vision.layout import MIN_ROW, HandFrame
from mahjong_camera_scorer.vision.placed import Placed
from mahjong_camera_scorer.vision.table import LeftOut, tile_length


class Scored(Placed, Protocol):
    """A tile with the detector's score for its box (:class:`vision.read.TileRead`)."""

    @property
    def detector_score(self) -> float: ...


S = TypeVar("S", bound=Scored)


class Read(Placed, Protocol):
    """A tile with the reader's confidence in its face (:class:`vision.read.TileRead`)."""

    @property
    def confidence(self) -> float: ...


R = TypeVar("R", bound=Read)


class ScoredRead(Scored, Read, Protocol):
    """A tile with both: the detector's score for its box and the reader's confidence in its face."""


SR = TypeVar("SR", bound=ScoredRead)

#: A box lying apart from every row counts only when the detector scored it at least this (a box
#: in a row has its neighbours to vouch for it; one lying alone has only its own score). Chosen
#: on the Chinese validation and test pictures: 0.45 / 0.5 / 0.55 / 0.6 gave tile F1 0.9557 /
#: 0.9546 / 0.9534 / 0.9522 on val and 0.9731 / 0.9747 / 0.9754 / 0.9756 on test (sum highest at
#: 0.5; none: 0.9569, 0.9696). The camera frames, never used to choose it, then have 32 false
#: boxes instead of 61 and tile F1 0.945 instead of 0.925.
APART_SURE = 0.5
#: Another row (discards, another hand) counts only when the median of its boxes' detector scores
#: is at least this. Chosen on the Chinese validation and test pictures (0.42 / 0.45 / 0.48 /
#: 0.5: val loses 0 / 0 / 4 / 12 right tiles, test 4 / 7 / 12 / 20 false boxes and 1 right
#: tile): the highest that costs val nothing.
ROW_SURE = 0.45
#: ... or when the reader reads its faces with a median confidence of at least this: a row of
#: tiles standing behind another row (a hand in two rows, a second rank of discards) is boxed
#: faintly, each tile half hidden, yet its faces read; lettering on a shelf is read as nothing
#: sure. Chosen on the real val split's far views (`scripts/eval_scenes.py --sources chinese-val`;
#: the other variants unchanged): 0.3 recall 0.841 / tile F1 0.864 / 39 false boxes, 0.4 and 0.5
#: 0.839 / 0.864 / 38, 0.7 0.836 / 0.863 / 36; the detector's score alone 0.831 / 0.861 / 35.
ROW_READ = 0.5
#: A back standing alone among at least :data:`vision.layout.MIN_ROW` faces of its row counts
#: only when the detector scored it at least this (a concealed kong shows two backs). The same
#: value as :data:`APART_SURE`, not tuned: the Chinese/HK pictures label no back to tune it on.
LONE_BACK_SURE = 0.5
#: A back lying apart from every row counts only when the reader reads it as a back at least this
#: surely, however surely the detector boxed it. On the camera frames (a set no model trained on)
#: a black card stand beside the mat was boxed as a back (detector 0.52-0.76) in 7 frames and read
#: as one at 0.38-0.48; none of the frames' 19 boxes read as backs is a tile. On the generated
#: held-out hands 2 of the 113 real backs reported lay apart and were read under 0.5 (38 lay
#: apart). Not tuned: the value of :data:`APART_SURE`; the Chinese/HK pictures label 3 backs.
APART_BACK_READ = 0.5


def _faint(lo: LeftOut[SR], sure: float, row_sure: float, row_read: float, back_read: float) -> list[SR]:
    if lo.why == "apart":
        return [
            t for t in lo.tiles if t.detector_score < sure or (t.code == BACK and t.confidence < back_read)
        ]
    if (
        lo.why == "other row"
        and median(t.detector_score for t in lo.tiles) < row_sure
        and median(t.confidence for t in lo.tiles) < row_read
    ):
        return list(lo.tiles)
    return []


def without_faint_left_out(
    tiles: Sequence[SR],
    left_out: Sequence[LeftOut[SR]],
    sure: float = APART_SURE,
    row_sure: float = ROW_SURE,
    row_read: float = ROW_READ,
    back_read: float = APART_BACK_READ,
) -> tuple[list[SR], list[LeftOut[SR]]]:
    """``tiles`` and ``left_out`` without the faint boxes away from the hand: those lying apart
    from every row that the detector scored under ``sure``, a back lying apart that the reader
    reads as a back under ``back_read``, and every box of another row whose median score is
    under ``row_sure`` unless the reader reads its faces with a median confidence of
    ``row_read`` or more. Not shown, like a box under the detector's threshold.

    What the detector boxes away from the tiles on the table is mostly not a tile: on the camera
    frames 59 of the 91 boxes on no tile lay apart (book spines and dark things on the shelf
    behind the mat), 49 of them scored under 0.5, against 4 of the 15 real tiles lying apart; 13
    more were rows of spine lettering, each row's median score under 0.4. The hand is never
    touched, nor walls, and a row of real discards or another hand is boxed surely enough (on
    the Chinese validation pictures no real row scores a median under 0.48). A tile away from
    the hand never changes the score, so missing one costs little."""
    faint = {id(t) for lo in left_out for t in _faint(lo, sure, row_sure, row_read, back_read)}
    if not faint:
        return list(tiles), list(left_out)
    kept = [LeftOut(lo.why, [t for t in lo.tiles if id(t) not in faint]) for lo in left_out]
    return [t for t in tiles if id(t) not in faint], [lo for lo in kept if lo.tiles]


def without_lone_faint_backs(
    tiles: Sequence[S], sure: float = LONE_BACK_SURE, frame: HandFrame[S] | None = None
) -> list[S]:
    """``tiles`` without the backs that stand alone in a row of faces, scored under ``sure``.

    In a player's row a face-down tile shows only in a concealed kong, two at a time; one back
    among faces is most likely the table between two standing tiles, in shadow, that the detector
    took for a face-down tile: on the camera frames 11 of the 21 boxes on no tile that the checks
    away from the hand leave were such backs, and this leaves out 7 of them (tile F1 0.954 ->
    0.959; the Chinese/HK pictures lose no tile). A back the detector is sure of stays: a hand may
    still show one (a kong half hidden)."""
    frame = HandFrame.of(tiles) if frame is None else frame
    faint = set()
    for row in frame.every_row:
        backs = [f.src for f in row if f.code == BACK]
        if len(backs) == 1 and len(row) - 1 >= MIN_ROW and backs[0].detector_score < sure:
            faint.add(id(backs[0]))
    return [t for t in tiles if id(t) not in faint] if faint else list(tiles)


#: A row of at least :data:`UNREAD_ROW_MIN` boxes whose faces the reader reads with a median
#: confidence under this is no row of tiles. Chosen on the real val split's scene variants
#: (`scripts/eval_scenes.py --sources chinese-val`, tile F1 of crops / seat views): 0.15 0.959 /
#: 0.927, 0.2 0.959 / 0.929, 0.25 0.959 / 0.930 losing 7 right tiles of the seat views (recall
#: 0.926 -> 0.919), 0.3 losing 11; none 0.957 / 0.926.
UNREAD_ROW = 0.2
#: ... when it has at least this many boxes (a box alone is :func:`without_faint_left_out`'s).
#: Three instead read val's seat views at 0.928.
UNREAD_ROW_MIN = 2


def without_unread_rows(
    tiles: Sequence[R], frame: HandFrame[R] | None = None, floor: float = UNREAD_ROW
) -> list[R]:
    """``tiles`` without the rows the reader cannot read: every box of a row of at least
    :data:`UNREAD_ROW_MIN` whose median confidence is under ``floor``.

    A row of book spines, a shelf's edge or the pattern of a cloth, boxed by the detector as a row
    of small tiles (a far view, above all, once a closer look has been taken), is read by the
    reader as a row of faces it is nowhere near sure of; a row of real tiles, even of a set it
    never trained on, has faces it knows. On the far views of the camera frames (never used to
    choose the floor) 95 such rows held 422 boxes on no tile and no real tile; on the Chinese/HK
    far views they held 5 boxes on no tile and 1 real tile. The hand's rows are not spared:
    those rows were as often laid out as the hand as left out of it."""
    frame = HandFrame.of(tiles) if frame is None else frame
    unread: set[int] = set()
    for row in frame.every_row:
        if len(row) >= UNREAD_ROW_MIN and median(f.src.confidence for f in row) < floor:
            unread.update(id(f.src) for f in row)
    return [t for t in tiles if id(t) not in unread] if unread else list(tiles)


#: A box whose long side is more than this many times the photo's median box's ...
LARGE_UNREAD = 1.3
#: ... and whose face the reader reads under this is no tile. Chosen with :data:`LARGE_UNREAD` on
#: the real val split's variants (`scripts/eval_scenes.py --sources chinese-val`, tile F1 of far
#: / seat views, false boxes of the far views): 1.3 and 0.3 0.867 / 0.930 / 31, 1.5 and 0.3 0.866
#: / 0.929 / 33, 1.3 and 0.2 0.865 / 0.929 / 36, 1.5 and 0.5 0.866 / 0.929 / 31 losing an exact
#: crop and a half turn; none 0.864 / 0.929 / 38.
LARGE_UNREAD_READ = 0.3


def without_large_unread(
    tiles: Sequence[R], size: float = LARGE_UNREAD, floor: float = LARGE_UNREAD_READ
) -> list[R]:
    """``tiles`` without the boxes much larger than the photo's tiles (long side over ``size``
    times the median box's) whose faces the reader reads under ``floor``.

    The tiles of one photo are of one size but for the perspective; a box much larger is most
    often something else the detector took for a tile seen closer: a book's spine, a phone, two
    tiles in one box. Read surely it stays (a near tile of a seat view is larger by right). On
    the real val split's variants such boxes were 9 on no tile and 2 on a tile (1 read right);
    on the test sources' far views of the camera frames 44 on no tile and 1 on a tile. Fewer
    than three boxes give no size to compare with."""
    if len(tiles) < 3:
        return list(tiles)
    unit = median(tile_length(t) for t in tiles)
    return [t for t in tiles if not (tile_length(t) > size * unit and t.confidence < floor)]

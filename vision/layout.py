"""Turn read tiles into a hand, the way a referee reads a finished hand on the table.

Conventions (the ones players follow and the synthetic photos show):

- Tiles lie in rows; a row is split into groups wherever the gap between neighbours is wider
  than :data:`GAP_FRACTION` of a tile's width.
- Flowers and seasons are bonus tiles wherever they lie (they are "placed apart").
- A group holding a sideways tile is an open set; the sideways tile is the claimed one.
- A group of four with two face-down tiles (``back``) is a concealed kong of the face-up kind.
- Every other group is concealed; the single tile set apart at the right end of the concealed
  tiles' row is the winning tile (it is part of the concealed hand, as in the structured form).

Anything that does not fit (no winning tile, a set that is not a chow/pung/kong, a lone back) is
reported in :attr:`Layout.problems` instead of being guessed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from statistics import median
from typing import Any, Generic

import numpy as np

from mahjong_camera_scorer.vision.classes import BACK
from mahjong_camera_scorer.vision.linked import Linked
from mahjong_camera_scorer.vision.placed import Box, P, Placed
from mahjong_camera_scorer.vision.table import TURN_SURE, LeftOut, beside, hand_bonus, hand_rows, tile_length

#: A gap wider than this fraction of the local tile length starts a new group.
GAP_FRACTION = 0.11
#: Upright wins unless another way has this many times its votes: most photos are taken upright
#: (the phone turns its picture), so a near tie between upright and 180 (tiles standing, seen
#: from the front, that the head reads either way) is upright.
UPRIGHT_PRIOR = 1.25
#: Rows with fewer tiles than this are left out of the hand when a longer row exists.
MIN_ROW = 3
#: Two tiles are neighbours in a row when their centres are at most this many tile widths apart,
ROW_REACH = 4.0
#: ... level within this fraction of their height,
ROW_LEVEL = 0.5
#: ... plus this fraction of the distance between them (a row running downhill).
ROW_SLOPE = 0.25


@dataclass
class TileGroup(Generic[P]):
    """Neighbouring tiles of one row with no wide gap between them, left to right: a set, the
    concealed block, the winning tile set apart."""

    tiles: list[P]
    row: int
    role: str = "concealed"  # concealed | winning | meld (set by lay_out)

    @property
    def x0(self) -> float:
        return float(min(t.box[0] for t in self.tiles))

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]

    @property
    def has_sideways(self) -> bool:
        return any(t.orientation == "sideways" for t in self.tiles)

    @property
    def n_backs(self) -> int:
        return sum(t.code == BACK for t in self.tiles)


@dataclass(frozen=True)
class DeclaredSet:
    """A declared set as laid out: a chow, pung or kong, its tiles' codes (a concealed kong's two
    backs stand for its face-up kind), open or concealed. The hand is built from these codes
    directly; :meth:`to_json` is the structured form's meld."""

    kind: str  # chow | pung | kong
    codes: tuple[str, ...]
    open: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "tiles": _mpsz(list(self.codes)), "open": self.open}


#: What can go wrong laying out a hand: no tiles at all, a declared set that is none, no concealed
#: tiles, no winning tile set apart at the right of the concealed ones.
PROBLEM_KINDS = ("no_tiles", "bad_set", "no_concealed", "no_winning_tile")


@dataclass
class Layout(Generic[P]):
    """The hand as laid out: structured-form fields plus the groups and what did not fit."""

    concealed: list[str] = field(default_factory=list)
    melds: list[DeclaredSet] = field(default_factory=list)
    winning_tile: str | None = None
    bonus_tiles: list[str] = field(default_factory=list)
    groups: list[TileGroup[P]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: each problem's kind, in the same order (:data:`PROBLEM_KINDS`): front ends that word their
    #: own messages (the phone page) choose them by kind
    problem_kinds: list[str] = field(default_factory=list)
    #: the hand's turn in the photo (see :func:`hand_turn`); rows were read in its frame
    turn: int = 0
    #: tiles left out of the hand, each group with why: lying apart from every row of at least
    #: :data:`MIN_ROW` tiles, or in rows that are not the player's (walls, discards, other hands)
    left_out: list[LeftOut[P]] = field(default_factory=list)
    #: detections :mod:`vision.mend` left out (weak boxes) or took in (faint boxes) to complete
    #: the hand; reported, never silent
    dropped: list[P] = field(default_factory=list)
    added: list[P] = field(default_factory=list)

    @property
    def ignored(self) -> list[P]:
        """Every tile left out of the hand, whatever the reason: :attr:`left_out` flattened, so
        that a step that changes ``left_out`` (the faint-box checks, a rescaled photo) cannot
        leave a second list behind."""
        return [t for lo in self.left_out for t in lo.tiles]

    def problem(self, kind: str, message: str) -> None:
        """Note what did not fit: its kind (one of :data:`PROBLEM_KINDS`) and a sentence."""
        assert kind in PROBLEM_KINDS, kind
        self.problems.append(message)
        self.problem_kinds.append(kind)

    def to_dict(self) -> dict[str, Any]:
        """The structured form of :mod:`scoring.structured` (context fields added by the caller)."""
        return {
            "hand": "".join(self.concealed) and _mpsz(self.concealed),
            "melds": [m.to_json() for m in self.melds],
            "winning_tile": self.winning_tile,
            "bonus_tiles": list(self.bonus_tiles),
        }


def kind(code: str) -> str:
    """``0m`` (red five) → ``5m``; other codes unchanged."""
    return "5" + code[1] if code[0] == "0" else code


def _sort_key(code: str) -> tuple[int, float]:
    k = kind(code)
    return ("mpszf".index(k[1]), int(k[0]) + (0.5 if code[0] == "0" else 0))


def _mpsz(codes: list[str]) -> str:
    out = []
    for suit in "mpszf":
        nums = [c[0] for c in sorted((c for c in codes if c[1] == suit), key=_sort_key)]
        if nums:
            out.append("".join(nums) + suit)
    return "".join(out)


def _tile_width(t: Placed) -> float:
    """The tile's short side: its width upright, its height when sideways."""
    w, h = t.box[2] - t.box[0], t.box[3] - t.box[1]
    return float(min(w, h))


def hand_turn(tiles: Sequence[Placed]) -> int:
    """Which way the hand's tiles point in the photo (0, 90, 180, 270 degrees clockwise): the
    weighted majority of the tiles' own ``turn`` (a hand shot with the phone turned, or from
    across the table). Each vote is weighted by how sure the reader is of it
    (``turn_confidence``, 1 when not given; below :data:`TURN_SURE` it does not count): a row of
    upright 5-circles and white dragons, which look the same turned, must not outvote the
    characters beside them. And by the tile's size (its long side against the nearest tiles',
    squared): on a photo of a whole table the player's own tiles are the nearest, so the
    largest, while the other hands and the discards, farther, point every other way. Flowers
    and backs do not vote (flowers lie apart; a back has no up). Upright gets
    :data:`UPRIGHT_PRIOR` and wins ties."""
    voters = [t for t in tiles if not t.code.endswith("f") and t.code != BACK]
    if not voters:
        return 0
    lengths = [tile_length(t) for t in voters]
    near = max(sorted(lengths)[int(0.9 * (len(lengths) - 1))], 1e-6)  # the nearest tiles' length
    votes: defaultdict[int, float] = defaultdict(float)
    lines = _in_line(voters)
    for t, length, (across, down) in zip(voters, lengths, lines, strict=True):
        sure = float(t.turn_confidence)
        turn = int(t.turn) % 360
        if (across and not down and turn in (90, 270)) or (down and not across and turn in (0, 180)):
            continue  # leaning across its own row: a flat tile seen from low at the photo's side
        if sure >= TURN_SURE:
            votes[turn] += sure * min(1.0, length / near) ** 2
    votes[0] *= UPRIGHT_PRIOR
    best = max(votes.values(), default=0.0)
    if best <= 1e-6:  # nothing voted, or nobody was sure
        return 0
    return min((v for v in votes if votes[v] >= best - 1e-9), key=lambda v: (v != 0, v))


def _row_lengths(tiles: Sequence[Placed], turn: int) -> list[int]:
    """How many tiles each tile's row holds, the tiles chained into rows in the frame ``turn``."""
    out = [1] * len(tiles)
    for row in rows_of(in_hand_frame(tiles, turn)):
        for f in row:
            out[f.pos] = len(row)
    return out


def _in_line(tiles: Sequence[Placed]) -> list[tuple[bool, bool]]:
    """Per tile: does it lie in a row of at least :data:`MIN_ROW` tiles running across the photo,
    and one running up and down it? A tile's turn is believed only along a line it lies in (see
    :func:`hand_turn`)."""
    across, down = _row_lengths(tiles, 0), _row_lengths(tiles, 90)
    return [(a >= MIN_ROW, d >= MIN_ROW) for a, d in zip(across, down, strict=True)]


def turn_point(x: float, y: float, turn: int) -> tuple[float, float]:
    """Rotate a photo point so that a tile turned by ``turn`` stands upright."""
    if turn == 90:
        return y, -x
    if turn == 180:
        return -x, -y
    if turn == 270:
        return -y, x
    return x, y


def framed_box(box: Sequence[float], turn: int) -> tuple[float, float, float, float]:
    """A photo box in the frame where a tile turned by ``turn`` stands upright (:func:`turn_point`
    on its corners); ``framed_box(b, (360 - turn) % 360)`` takes it back to the photo."""
    (ax, ay), (bx, by) = turn_point(box[0], box[1], turn), turn_point(box[2], box[3], turn)
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)


@dataclass(frozen=True)
class Framed(Generic[P]):
    """A tile seen in the hand's frame: its box turned upright, everything else its own."""

    src: P
    box: Box
    orientation: str
    #: the tile's place in the list it was framed from
    pos: int = -1

    @property
    def code(self) -> str:
        return self.src.code

    @property
    def turn(self) -> int:
        return self.src.turn

    @property
    def turn_confidence(self) -> float:
        return self.src.turn_confidence


def in_hand_frame(tiles: Sequence[P], turn: int) -> list[Framed[P]]:
    out = []
    for i, t in enumerate(tiles):
        (ax, ay), (bx, by) = turn_point(t.box[0], t.box[1], turn), turn_point(t.box[2], t.box[3], turn)
        out.append(Framed(t, (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)), t.orientation, i))
    return out


@dataclass(frozen=True, eq=False)
class HandFrame(Generic[P]):
    """Tiles in the hand's frame, made once for a set of tiles and passed along: the turn that
    stands the hand upright (:func:`hand_turn`), each tile's box turned with it, and the tiles
    chained into rows (:func:`rows_of`), flowers left out (they lie apart) or not. The layout,
    the orientation of each tile and the faint-box checks read the same rows from it instead
    of chaining them again."""

    tiles: tuple[P, ...]
    turn: int

    @classmethod
    def of(cls, tiles: Sequence[P], turn: int | None = None) -> HandFrame[P]:
        return cls(tuple(tiles), hand_turn(tiles) if turn is None else turn)

    @cached_property
    def framed(self) -> list[Framed[P]]:
        return in_hand_frame(self.tiles, self.turn)

    @cached_property
    def rows(self) -> list[list[Framed[P]]]:
        """The rows of every tile but the flowers and seasons, top to bottom, left to right."""
        return rows_of([f for f in self.framed if not f.code.endswith("f")])

    @cached_property
    def every_row(self) -> list[list[Framed[P]]]:
        """The rows of every tile, flowers and seasons too."""
        return rows_of(self.framed)

    def with_tiles(self, tiles: Sequence[P]) -> HandFrame[P]:
        """The same frame for the same tiles changed in what the frame does not look at (their
        orientation): the turn and the rows are kept, each place holding its new tile."""
        assert len(tiles) == len(self.tiles)
        out = HandFrame(tuple(tiles), self.turn)
        framed = out.framed
        for name in ("rows", "every_row"):
            if name in self.__dict__:  # made already: the same places, the new tiles
                out.__dict__[name] = [[framed[f.pos] for f in row] for row in self.__dict__[name]]
        return out


def orient(readings: Sequence[P], frame: HandFrame[P] | None = None) -> list[P]:
    """The readings with their orientation judged in the hand's frame (:func:`hand_turn`; the
    ``frame`` of ``readings`` when the caller has it).

    ``sideways`` when the reader read the tile turned a quarter from the hand (:mod:`vision.read`
    turns landscape crops) and its box is wider than the others of its group by
    :data:`READ_SIDEWAYS_FACTOR`, it being the only such tile of its group (a set: two to four
    tiles, a set cut by its claimed tile being mended by :func:`row_groups`), in a row where most
    tiles are not (a row or a set of landscape boxes is flat tiles seen at a low angle, not
    claimed tiles); or when the geometry of its group alone says so (:func:`sideways_in`).
    ``upside_down`` when the reader's upside-down head is sure (:data:`TURN_SURE`) the tile
    points the other way from the hand and its face shows which way is up (:func:`shows_its_up`:
    a face that looks the same turned, 5p, a red 5p, a blank white dragon, is taken to point the
    hand's way however sure the head is). Else ``upright``. Readings are dataclasses
    (replaced, not changed)."""
    frame = HandFrame.of(readings) if frame is None else frame
    turn = frame.turn
    # the frame's rows are the tiles' own rows turned: the same places, the same groups
    geometry = _sideways(len(readings), frame.rows)
    rel = [(r.turn - turn) % 360 for r in readings]
    turned = [x in (90, 270) for x in rel]
    read_sideways = [False] * len(readings)
    for row in frame.rows:
        if sum(turned[f.pos] for f in row) > len(row) / 2:
            continue
        d = row_direction(row)
        for group in row_groups(row):
            claimed = [k for k, f in enumerate(group) if turned[f.pos]]
            if len(claimed) != 1 or not 2 <= len(group) <= 4:  # one claimed tile to a set
                continue
            k = claimed[0]
            a = _aspects(group, d)
            if a[k] >= READ_SIDEWAYS_FACTOR * median(a[:k] + a[k + 1 :]):
                read_sideways[group[k].pos] = True
    out = []
    for i, r in enumerate(readings):
        sure = r.turn_confidence >= TURN_SURE
        side = geometry[i] or read_sideways[i]
        flipped = rel[i] == 180 and sure and shows_its_up(r.code)
        out.append(replace(r, orientation="sideways" if side else "upside_down" if flipped else "upright"))
    return out


def rows_of(tiles: Sequence[P]) -> list[list[P]]:
    """Chain tiles into rows (top to bottom), each sorted left to right.

    Each tile links to its right-hand neighbour in the same row: the nearest tile to its right
    (centre at most :data:`ROW_REACH` tile widths on) whose centre is level with it, allowing for
    a row that runs downhill (:data:`ROW_SLOPE` of the distance) and for half a tile's height of
    misalignment. Links are taken cheapest first, one to the left and one to the right of each
    tile, so two close rows (declared sets laid in front of the hand) do not merge the way they
    do when boxes are only compared by vertical overlap.
    """
    n = len(tiles)
    if not n:
        return []
    unit = median([_tile_width(t) for t in tiles])
    width = np.array([_tile_width(t) for t in tiles], np.float64)
    # the reach scales with the pair's own tiles where they are larger than the photo's usual
    # tile: on a photo of a whole table most tiles are far and small, and the hand's near tiles,
    # several times larger, lie more than the small tiles' reach apart across a set gap
    reach = ROW_REACH * np.maximum(unit, np.minimum(width[:, None], width[None, :]))
    box = np.array([t.box for t in tiles], np.float64).reshape(n, 4)
    cx, cy, hh = (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2, box[:, 3] - box[:, 1]
    dx = cx[None, :] - cx[:, None]  # [i, j]: from tile i to tile j
    dy = np.abs(cy[None, :] - cy[:, None])
    near = (dx > 0) & (dx < reach) & (dy < ROW_LEVEL * (hh[:, None] + hh[None, :]) / 2 + ROW_SLOPE * dx)
    ii, jj = np.nonzero(near)
    cost = dx[ii, jj] + 2 * dy[ii, jj]
    order = np.lexsort((jj, ii, cost))  # cheapest first, ties by i then j
    pairs = zip(ii[order].tolist(), jj[order].tolist(), strict=True)
    chains = Linked(n)
    has_right, has_left = [False] * n, [False] * n
    for i, j in pairs:
        if has_right[i] or has_left[j] or chains.linked(i, j):
            continue
        has_right[i] = has_left[j] = True
        chains.link(i, j)
    ordered = [sorted((tiles[i] for i in g), key=lambda t: t.box[0]) for g in chains.groups()]
    return sorted(ordered, key=lambda r: median([(t.box[1] + t.box[3]) / 2 for t in r]))


#: Rows steeper than this (degrees) are treated as this steep: beyond it the box inversion in
#: :func:`extents` is ill-conditioned.
MAX_ROW_ANGLE = 35.0
#: A tile whose along/across aspect exceeds its neighbours' by this factor lies sideways ...
SIDEWAYS_FACTOR = 1.7
#: ... or, in a group of three or four (a declared set), the most elongated tile by this factor.
SET_SIDEWAYS_FACTOR = 1.25
#: ... or, read turned by the reader, by this factor (its box is landscape beside standing tiles).
READ_SIDEWAYS_FACTOR = 1.1
#: Faces that look the same turned half a turn, so that no one (the reader's upside-down head
#: included) can tell which way they point: never marked upside down. Decided per code on the
#: figures of the usual designs: circles 1-5, 8 and 9 (a red five too: its red is at the centre),
#: bamboo 2, 4, 5, 6, 8 (the M over the W) and 9, and the white dragon (blank or a frame). Not the
#: 6 and 7 of circles nor the 1, 3 and 7 of bamboo (their figures stand one way), nor characters,
#: winds, the green and red dragons or flowers (writing has an up).
HALF_TURN_SYMMETRIC = frozenset(
    {"1p", "2p", "3p", "4p", "5p", "0p", "8p", "9p", "2s", "4s", "5s", "0s", "6s", "8s", "9s", "5z"}
)


def shows_its_up(code: str) -> bool:
    """Can one tell this face upside down from upright? (:data:`HALF_TURN_SYMMETRIC`)"""
    return code not in HALF_TURN_SYMMETRIC and code != BACK


#: Pieces of a row split by less than this many tile lengths may be one set cut by its claimed tile.
MEND_GAP = 0.3


def row_direction(row: Sequence[Placed]) -> tuple[float, float]:
    """(cos, sin) of the row's direction: a least-squares line through the box centres.

    A hand photographed with the phone turned a little runs downhill; gaps and tile extents are
    measured along this line, not along the image's x axis.
    """
    if len(row) < 2:
        return 1.0, 0.0
    cx = np.array([(t.box[0] + t.box[2]) / 2 for t in row])
    cy = np.array([(t.box[1] + t.box[3]) / 2 for t in row])
    if np.ptp(cx) < 1e-6:
        return 1.0, 0.0
    dx = cx - cx.mean()
    slope = float((dx * (cy - cy.mean())).sum() / (dx * dx).sum())  # least squares, as np.polyfit
    ang = max(-MAX_ROW_ANGLE, min(MAX_ROW_ANGLE, np.degrees(np.arctan(slope))))
    return float(np.cos(np.radians(ang))), float(np.sin(np.radians(ang)))


def extents(t: Placed, direction: tuple[float, float]) -> tuple[float, float]:
    """The tile's extent along the row and across it, from its axis-aligned box.

    The detector's box bounds a tile turned by the row's angle θ: w = a·cosθ + b·sinθ and
    h = a·sinθ + b·cosθ for a tile a long and b across; solving gives a and b (θ = 0: w and h).
    """
    w, h = t.box[2] - t.box[0], t.box[3] - t.box[1]
    c, s = direction[0], abs(direction[1])
    det = c * c - s * s
    if det < 0.3:
        return w, h
    return max((c * w - s * h) / det, 0.25 * w), max((c * h - s * w) / det, 0.25 * h)


def _along(t: Placed, d: tuple[float, float]) -> float:
    return float((t.box[0] + t.box[2]) / 2 * d[0] + (t.box[1] + t.box[3]) / 2 * d[1])


def split_row(row: Sequence[P]) -> tuple[list[list[P]], list[float]]:
    """Split a row into groups where the gap between neighbours is wide.

    Neighbours are measured centre to centre along the row: a pair is split when its pitch
    exceeds the usual pitch of the pairs around it (the median of up to seven) by
    :data:`GAP_FRACTION` of the local tile length (the median extent of the tiles around it, so
    perspective, which shrinks far tiles, does not move the threshold). Centres, not box edges:
    a tile at the edge of a gap shows its side face, which widens its box into the gap (tuned on
    the synthetic training photos' ground-truth boxes: edge gaps 62 %, centre pitches 84 % of
    hands laid out exactly). Also returns each split's excess pitch in local tile lengths.
    """
    if len(row) < 2:
        return [list(row)], []
    d = row_direction(row)
    ordered = sorted(row, key=lambda t: _along(t, d))
    ext = [extents(t, d)[0] for t in ordered]
    pos = [_along(t, d) for t in ordered]
    n = len(ordered)
    local = [median(ext[max(0, i - 3) : i + 4]) for i in range(n)]
    # centre to centre, against the usual pitch of the pairs around it: box edges move with the
    # side face a tile shows at the edge of a gap, centres barely
    pitch = [pos[i + 1] - pos[i] for i in range(n - 1)]
    usual = [median(pitch[max(0, i - 3) : i + 4]) for i in range(n - 1)]
    if n == 2:
        # one pair has no usual pitch to compare with (the pair wait and the winning tile after
        # four calls lie in a row of two): tiles that touch are one tile length apart
        usual = [min(usual[0], (local[0] + local[1]) / 2)]
    gaps = [p - u for p, u in zip(pitch, usual, strict=True)]
    groups, excess = [[ordered[0]]], []
    for i, g in enumerate(gaps):
        rel = g / max((local[i] + local[i + 1]) / 2, 1e-6)
        if rel > GAP_FRACTION:
            groups.append([ordered[i + 1]])
            excess.append(rel)
        else:
            groups[-1].append(ordered[i + 1])
    return groups, excess


def _aspects(tiles: Sequence[Placed], d: tuple[float, float]) -> list[float]:
    return [(lambda e: e[0] / max(e[1], 1e-6))(extents(t, d)) for t in tiles]


def _claimed_index(tiles: Sequence[Placed], d: tuple[float, float]) -> int | None:
    """In a set of three or four (no backs), the tile that stands out as sideways, if one does:
    its aspect exceeds the median of the others by :data:`SET_SIDEWAYS_FACTOR`."""
    if len(tiles) not in (3, 4) or any(t.code == BACK for t in tiles):
        return None
    a = _aspects(tiles, d)
    ratio = [a[i] / median(a[:i] + a[i + 1 :]) for i in range(len(tiles))]
    k = int(np.argmax(ratio))
    return k if ratio[k] > SET_SIDEWAYS_FACTOR else None


def row_groups(row: Sequence[P]) -> list[list[P]]:
    """:func:`split_row`, then mend declared sets cut in two by their own sideways tile.

    A sideways tile is longer than its neighbours, so the pitch on each side of it grows by a
    fifth of a tile, about as much as the smallest gaps between sets. Neighbouring pieces are
    joined again when together they make a chow, pung or kong with one tile standing out as
    sideways and the split was narrower than :data:`MEND_GAP` tile lengths: the referee's
    reading of a claimed tile lying across a set.
    """
    groups, excess = split_row(row)
    if len(groups) < 2:
        return groups
    d = row_direction(row)
    out, gaps = [groups[0]], []
    for g, x in zip(groups[1:], excess, strict=True):
        out.append(g)
        gaps.append(x)
    merged = True
    while merged:
        merged = False
        for span in (3, 2):
            for i in range(len(out) - span + 1):
                part = out[i : i + span]
                tiles = [t for p in part for t in p]
                if (
                    len(tiles) in (3, 4)
                    and max(gaps[i : i + span - 1]) < MEND_GAP
                    and meld_of(TileGroup(tiles, 0))[0] is not None
                    and _claimed_index(tiles, d) is not None
                ):
                    out[i : i + span] = [tiles]
                    gaps[i : i + span - 1] = []
                    merged = True
                    break
            if merged:
                break
    return out


def groups_of(row: Sequence[P], row_index: int) -> list[TileGroup[P]]:
    """The row's groups (see :func:`row_groups`), left to right."""
    return [TileGroup(g, row_index) for g in row_groups(row)]


def sideways_in(tiles: Sequence[Placed]) -> list[bool]:
    """Which tiles lie sideways, judged against their own group.

    A sideways tile is longer along its row and shorter across it than the tiles beside it, so
    its aspect (along/across) exceeds theirs (by (long side / short side)² ≈ 1.8 seen from
    above, less at an angle); judging against the photo's typical tile instead fails when the
    concealed tiles stand (tall boxes) and the declared sets lie flat (short boxes). A declared
    set is a group of three or four with one claimed tile: its most elongated tile is sideways
    when it exceeds the median of the others by :data:`SET_SIDEWAYS_FACTOR` (measured on the
    synthetic training photos: the right tile 99 % of the time, 4 % of claimed tiles missed).
    In other groups a tile must exceed its neighbours by :data:`SIDEWAYS_FACTOR`.
    """
    placed = in_hand_frame(tiles, 0)  # the tiles as they are, each knowing its place in ``tiles``
    return _sideways(len(tiles), rows_of([t for t in placed if not t.code.endswith("f")]))


def _sideways(n: int, rows: Sequence[Sequence[Framed[Any]]]) -> list[bool]:
    """:func:`sideways_in` from the rows of ``n`` tiles (each knowing its place)."""
    flags = [False] * n
    for row in rows:
        d = row_direction(row)
        for g in row_groups(row):
            if len(g) in (3, 4) and not any(t.code == BACK for t in g):
                k = _claimed_index(g, d)
                if k is not None:
                    flags[g[k].pos] = True
                continue
            a = _aspects(g, d)
            for i, t in enumerate(g):
                near = a[max(0, i - 2) : i] + a[i + 1 : i + 3]
                flags[t.pos] = bool(near) and a[i] > SIDEWAYS_FACTOR * median(near)
    return flags


def meld_of(group: TileGroup[Any]) -> tuple[DeclaredSet | None, str | None]:
    """A declared set from a marked group, or ``(None, problem)``."""
    return meld_of_codes(group.codes)


def meld_of_codes(codes: Sequence[str]) -> tuple[DeclaredSet | None, str | None]:
    """A declared set from the codes of a marked group (left to right), or ``(None, problem)``."""
    codes = list(codes)
    faces = [c for c in codes if c != BACK]
    n_backs = len(codes) - len(faces)
    if n_backs:
        if len(codes) == 4 and n_backs == 2 and len({kind(c) for c in faces}) == 1:
            k = kind(faces[0])
            tiles = faces + [k] * 2
            return DeclaredSet("kong", tuple(tiles), open=False), None
        return None, f"face-down tiles in a group {' '.join(codes)}: only a concealed kong shows two backs"
    kinds = sorted((kind(c) for c in codes), key=_sort_key)
    if len(codes) in (3, 4) and len(set(kinds)) == 1:
        return DeclaredSet("pung" if len(codes) == 3 else "kong", tuple(codes)), None
    if (
        len(codes) == 3
        and all(k[1] in "mps" for k in kinds)
        and len({k[1] for k in kinds}) == 1
        and [int(k[0]) for k in kinds] == list(range(int(kinds[0][0]), int(kinds[0][0]) + 3))
    ):
        return DeclaredSet("chow", tuple(codes)), None
    return None, f"the open set {' '.join(codes)} is not a chow, pung or kong"


def lay_out(tiles: Sequence[P], frame: HandFrame[P] | None = None) -> Layout[P]:
    """Rows → the hand's rows → groups → bonus tiles, declared sets, concealed tiles and the
    winning tile.

    Each group gets a :attr:`TileGroup.role`. Declared sets are the groups marked by a sideways tile
    or two backs, and — the table convention when the claimed tile is hard to see — the valid
    sets (chow, pung, kong) that lie beyond the winning tile in the concealed tiles' row or in
    another row. The concealed tiles' row is the one with the most unmarked tiles; its block is
    its largest group, and the winning tile is the first single tile set apart to its right.
    When the photo shows more than one hand's rows (a whole table), only the player's are laid
    out (:func:`vision.table.hand_rows`); the rest are left out and listed in
    :attr:`Layout.left_out`, as are tiles lying apart from every row. ``frame``: the hand's frame
    of exactly these tiles (:class:`HandFrame`), when the caller has it.
    """
    if frame is None:
        frame = HandFrame.of(tiles)
    assert len(frame.tiles) == len(tiles) and all(a is b for a, b in zip(frame.tiles, tiles, strict=True))
    out: Layout[Framed[P]] = Layout(turn=frame.turn)
    framed = frame.framed
    flowers = [f for f in framed if f.code.endswith("f")]
    if len(flowers) == len(framed):
        out.bonus_tiles = sorted((f.code for f in flowers), key=_sort_key)
        out.problem("no_tiles", "no tiles found")
        return _in_photo(out)
    rows = frame.rows
    hand, left = hand_rows([r for r in rows if len(r) >= MIN_ROW], out.turn)
    short = [r for r in rows if len(r) < MIN_ROW]
    kept: Layout[Framed[P]] | None = None
    if hand and short:
        # a tile or two lying apart from every row is not part of the laid-out hand (a discard,
        # a tile of the wall, or something on the table the detector took for a tile) ...
        kept = _assign(out, hand)
        if not kept.concealed:
            # ... unless the long rows are all declared sets: after four calls the concealed hand
            # is one tile and the winning tile beside it, a row of two
            near = beside(short, hand)
            short = [r for r in short if not any(r is n for n in near)]
            hand = sorted(hand + near, key=lambda r: median([(t.box[1] + t.box[3]) / 2 for t in r]))
            kept = None
        left += [LeftOut("apart", r) for r in short]
    elif not hand:
        hand = short
    mine = hand_bonus(flowers, hand, [t for lo in left for t in lo.tiles])
    out.bonus_tiles = sorted((f.code for f in mine), key=_sort_key)
    if len(mine) < len(flowers):
        left.append(LeftOut("bonus apart", [f for f in flowers if not any(f is m for m in mine)]))
    if kept is None:
        kept = _assign(out, hand)
    kept.bonus_tiles = list(out.bonus_tiles)
    kept.left_out = [lo for lo in left if lo.tiles]
    return _in_photo(kept)


def _in_photo(layout: Layout[Framed[P]]) -> Layout[P]:
    """The layout made in the hand's frame, back to the caller's tiles (groups and what was left
    out hold the tiles they were framed from)."""
    return Layout(
        concealed=layout.concealed,
        melds=layout.melds,
        winning_tile=layout.winning_tile,
        bonus_tiles=layout.bonus_tiles,
        groups=[TileGroup([t.src for t in g.tiles], g.row, g.role) for g in layout.groups],
        problems=layout.problems,
        problem_kinds=layout.problem_kinds,
        turn=layout.turn,
        left_out=[LeftOut(lo.why, [t.src for t in lo.tiles]) for lo in layout.left_out],
    )


def _marked(tiles: Sequence[Placed]) -> bool:
    return any(t.orientation == "sideways" or t.code == BACK for t in tiles)


def _is_set(tiles: Sequence[Placed]) -> bool:
    """A declared set as it lies: a chow, pung or kong (:func:`meld_of`), at most one tile of it
    sideways (the claimed one), backs only at a concealed kong's two ends or middle."""
    if not 3 <= len(tiles) <= 4 or sum(t.orientation == "sideways" for t in tiles) > 1:
        return False
    return meld_of_codes([t.code for t in tiles])[0] is not None


def split_sets(group: TileGroup[P]) -> list[TileGroup[P]]:
    """A marked group (a sideways tile or backs) that is no set, cut into the sets lying side by
    side in it, with at most one unmarked tile left over at either end: the gap between two
    declared sets, or between the winning tile and the first set, can be narrower than the gap
    that :func:`split_row` sees (a few millimetres, beside a sideways tile that widens the pitch
    around it), and a referee still reads the sets one after the other. The cut with the fewest
    tiles left over wins, then the fewest pieces; a group that cannot be cut so is returned as it
    is (a bad set is reported, not guessed)."""
    tiles = group.tiles
    if not _marked(tiles) or meld_of(group)[0] is not None or len(tiles) < 4:
        return [group]
    n = len(tiles)
    best: tuple[int, int, list[list[P]]] | None = None
    for lead in (0, 1):
        for tail in (0, 1):
            core = tiles[lead : n - tail]
            if (lead and _marked(tiles[:1])) or (tail and _marked(tiles[-1:])) or not core:
                continue
            parts = _cut(core)
            if parts is None:
                continue
            pieces = [tiles[:1]] * lead + parts + [tiles[-1:]] * tail
            key = (lead + tail, len(pieces), pieces)
            if best is None or key[:2] < best[:2]:
                best = key
    if best is None:
        return [group]
    return [TileGroup(list(p), group.row, group.role) for p in best[2]]


def _cut(tiles: Sequence[P]) -> list[list[P]] | None:
    """The tiles as consecutive sets (:func:`_is_set`), the fewest pieces; None when they are not."""
    n = len(tiles)
    best: list[list[list[P]] | None] = [None] * (n + 1)
    best[0] = []
    for i in range(1, n + 1):
        for size in (3, 4):
            prev = best[i - size] if i >= size else None
            if prev is not None and _is_set(tiles[i - size : i]):
                cand = [*prev, list(tiles[i - size : i])]
                if best[i] is None or len(cand) < len(best[i] or []):
                    best[i] = cand
    return best[n]


def _assign(base: Layout[P], rows: list[list[P]]) -> Layout[P]:
    """:func:`lay_out` from the rows on: groups, roles, the winning tile (a fresh copy of ``base``,
    which holds the bonus tiles and the hand's turn)."""
    out: Layout[P] = Layout(bonus_tiles=list(base.bonus_tiles), turn=base.turn)
    for i, row in enumerate(rows):
        out.groups.extend(g for group in groups_of(row, i) for g in split_sets(group))
    groups = out.groups  # referred to by their place in this list below
    plain = [k for k, g in enumerate(groups) if not (g.has_sideways or g.n_backs)]
    winner: TileGroup[P] | None = None
    if plain:
        per_row: Counter[int] = Counter()
        for k in plain:
            per_row[groups[k].row] += len(groups[k].tiles)
        main_row = per_row.most_common(1)[0][0]
        in_row = sorted((k for k in plain if groups[k].row == main_row), key=lambda k: groups[k].x0)
        others = [k for k in plain if groups[k].row != main_row]
        marked = sum(1 for g in groups if g.has_sideways or g.n_backs)
        valid = {k: meld_of(groups[k])[0] is not None for k in plain}

        def sets_beyond(i: int) -> list[int]:
            return [k for k in in_row[i + 1 :] + others if valid[k]]

        def balanced(i: int) -> bool:
            # a finished hand: 14 tiles, each declared set counting three (a kong's fourth is extra)
            melds = set(sets_beyond(i))
            concealed = sum(len(groups[k].tiles) for k in plain if k not in melds)
            return concealed + 3 * (len(melds) + marked) == 14

        singles = [i for i, k in enumerate(in_row) if len(groups[k].tiles) == 1 and i > 0]
        chosen = next((i for i in singles if balanced(i)), None)
        if chosen is None:  # no reading balances: the first single after the largest group
            block = max(range(len(in_row)), key=lambda i: len(groups[in_row[i]].tiles))
            chosen = next((i for i in singles if i > block), None)
        if chosen is not None:
            winner = groups[in_row[chosen]]
            winner.role = "winning"
            for k in sets_beyond(chosen):
                groups[k].role = "meld"
        else:
            for k in others:
                if valid[k]:
                    groups[k].role = "meld"
    for g in out.groups:
        if g.has_sideways or g.n_backs:
            g.role = "meld"
        if g.role == "meld":
            meld, problem = meld_of(g)
            if meld:
                out.melds.append(meld)
            else:
                out.problem("bad_set", problem or "unreadable set")
        else:
            out.concealed.extend(g.codes)
    if not out.concealed:
        out.problem("no_concealed", "no concealed tiles found")
        return out
    if winner is None:
        out.problem(
            "no_winning_tile",
            "no winning tile set apart at the right of the concealed tiles (give it with --winning-tile)",
        )
    else:
        out.winning_tile = winner.tiles[0].code
    return out

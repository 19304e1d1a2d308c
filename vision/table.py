"""Which rows of a photo are the player's hand, when the photo shows more than one hand.

A photo taken at the table shows the walls, the discards and the other players' hands around
the hand in front. The player's hand is the row nearest the camera: once the photo is turned to
the hand's frame (:func:`vision.layout.hand_turn`), the lowest row among those with the largest
tiles (nearer is larger; a row of face-down tiles is a wall, never the hand), with the rows
lying close beside it (declared sets in a second row). Every other row is left out of the hand
and listed (:class:`LeftOut`), never scored: the other players' hands across the table (smaller,
higher up), the discards, the walls. The other players' hands at the sides run up and down the
photo, so their tiles never chain into a row of the hand's frame: they are left out as tiles
lying apart.

Rows are lists of tiles in the hand's frame (:class:`vision.placed.Placed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import median
from typing import Generic

import numpy as np

from mahjong_camera_scorer.vision.classes import BACK, BONUS
from mahjong_camera_scorer.vision.placed import P, Placed

#: A tile's vote on which way the hand points counts only when the reader's upside-down head is
#: at least this sure of it (``turn_confidence``): faces that look the same turned (5p, 8p, a
#: blank white dragon) come out near 0 and must not decide.
TURN_SURE = 0.2
#: A row is another player's when more than this share of its tiles point the opposite way to
#: the hand (another player's hand or sets across the table, their discards).
AWAY_SHARE = 1 / 2
#: A row of at least this many tiles, this share of them face down, is a wall.
WALL_BACKS, WALL_SHARE = 3, 0.6
#: The hand's row is the lowest of the rows whose tiles are at least this large (a share of the
#: largest row's tile length): a nearer row has larger tiles, so a row of small tiles lying
#: lower (a far row seen from a low angle) is not taken for it.
NEAR_SIZE = 0.8
#: A row lies beside the hand when a tile of it lies within this many of the hand's tile lengths
#: of a tile of the hand, centre to centre (declared sets in a second row lie 8-25 mm from the
#: concealed tiles, 1.2-1.7 tile lengths centre to centre; a row running steeply downhill is
#: cut into pieces end to end; the discards and walls of a table lie 3 or more away) ...
BESIDE = 2.0
#: ... and its tiles are within this factor of the hand's in length (the same distance away).
SIZE_RATIO = 1.5
#: Rows beside the hand are taken in while it holds fewer than a finished hand's 14 tiles, counted
#: as :func:`hand_tiles` counts them (a kong is three, a flower nothing) ...
MIN_HAND_TILES = 14
#: ... and as long as it then has at most this many: 14, one more per kong (at most 18), and two
#: boxes of slack for the mending to leave out.
MAX_HAND_TILES = 20


@dataclass
class LeftOut(Generic[P]):
    """Tiles left out of the hand, and why: ``apart`` (lying apart from every row), ``wall`` (a
    row of face-down tiles), ``other row`` (a row away from the hand: discards, another
    player's hand), ``bonus apart`` (a flower or season nearer another row than the hand)."""

    why: str
    tiles: list[P] = field(default_factory=list)


def tile_length(t: Placed) -> float:
    """A tile's long side in the photo, whichever way it lies (its distance from the camera)."""
    return float(max(t.box[2] - t.box[0], t.box[3] - t.box[1]))


def is_wall(row: Sequence[Placed]) -> bool:
    backs = sum(t.code == BACK for t in row)
    return bool(backs >= WALL_BACKS and backs >= WALL_SHARE * len(row))


def _size(row: Sequence[Placed]) -> float:
    return median([tile_length(t) for t in row])


def _centres(tiles: Sequence[Placed]) -> np.ndarray:
    box = np.array([t.box for t in tiles], np.float64).reshape(-1, 4)
    return np.column_stack([(box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2])


def distance(a: Sequence[Placed], b: Sequence[Placed]) -> float:
    """The distance between the nearest two tiles of two lists, centre to centre."""
    if not a or not b:
        return float("inf")
    ca, cb = _centres(a), _centres(b)
    return float(np.sqrt(((ca[:, None, :] - cb[None, :, :]) ** 2).sum(-1)).min())


def _bottom(row: Sequence[Placed]) -> float:
    return float(median([t.box[3] for t in row]))


def points_away(row: Sequence[Placed], turn: int) -> bool:
    """Do most of the row's tiles (more than :data:`AWAY_SHARE`) point the opposite way to the
    hand (``turn``)? Another player's hand, sets or discards across the table. A quarter turn
    does not count: in a row running across the hand's frame a tile turned a quarter lies
    across its own line, which is the player's claimed tile lying sideways, or a flat tile of
    the player's sets seen from a low seat at the side of the photo, leaning 50-70 degrees
    towards the vanishing point (the players at the sides have their tiles in lines running up
    and down the photo, which never chain into such a row). Only tiles the reader is sure of
    the turn of count (:data:`TURN_SURE`)."""
    sure = [t for t in row if t.code != BACK and t.turn_confidence >= TURN_SURE]
    away = sum((t.turn - turn) % 360 == 180 for t in sure)
    return bool(away > AWAY_SHARE * len(sure))


def _same_kind(code: str) -> str:
    return "5" + code[1] if code[:1] == "0" else code


def hand_tiles(row: Sequence[Placed]) -> int:
    """How many of a finished hand's 14 tiles the row holds: flowers and seasons are not among
    them, and a kong (four of a kind side by side, or face down at both ends with two faces
    between, or four backs) counts three. So a hand whose kongs and flowers lie in rows of their
    own still takes in every row of it before it counts as whole."""
    codes = [_same_kind(t.code) for t in row if t.code not in BONUS]
    n, i = len(codes), 0
    while i + 4 <= len(codes):
        a, b, c, d = codes[i : i + 4]
        if (a == b == c == d) or (a == d == BACK and b == c != BACK):
            n -= 1
            i += 4
        else:
            i += 1
    return n


def hand_rows(rows: list[list[P]], turn: int = 0) -> tuple[list[list[P]], list[LeftOut[P]]]:
    """The hand's rows (in the order given) and the rows left out, each with why. ``turn``: which
    way the hand points (rows of tiles pointing elsewhere are other players')."""
    if len(rows) < 2:
        return list(rows), []
    walls = [i for i, r in enumerate(rows) if is_wall(r)]
    faces = [i for i in range(len(rows)) if i not in walls and not points_away(rows[i], turn)]
    faces = faces or [i for i in range(len(rows)) if i not in walls] or list(range(len(rows)))
    size = [_size(r) for r in rows]
    largest = max(size[i] for i in faces)
    near = [i for i in faces if size[i] >= NEAR_SIZE * largest]
    anchor = max(near, key=lambda i: _bottom(rows[i]))
    kept, count, boxes = [anchor], hand_tiles(rows[anchor]), len(rows[anchor])
    grown = True
    while grown:
        grown = False
        for i in faces:
            if count >= MIN_HAND_TILES:  # the hand is whole: a row beside it is the table's
                break
            if i in kept or boxes + len(rows[i]) > MAX_HAND_TILES:
                continue
            if not 1 / SIZE_RATIO <= size[i] / size[anchor] <= SIZE_RATIO:
                continue
            if min(distance(rows[i], rows[k]) for k in kept) <= BESIDE * size[anchor]:
                kept.append(i)
                count += hand_tiles(rows[i])
                boxes += len(rows[i])
                grown = True
    left = [
        LeftOut("wall" if i in walls else "other row", list(r)) for i, r in enumerate(rows) if i not in kept
    ]
    return [r for i, r in enumerate(rows) if i in kept], left


def beside(rows: list[list[P]], hand: list[list[P]]) -> list[list[P]]:
    """The rows (short ones: a pair wait after four calls) lying beside the hand's rows, within
    :data:`BESIDE` of the hand's tile length."""
    if not hand:
        return []
    mine = [t for r in hand for t in r]
    reach = BESIDE * median([tile_length(t) for t in mine])
    return [r for r in rows if distance(r, mine) <= reach]


def hand_bonus(flowers: list[P], hand: list[list[P]], others: list[P]) -> list[P]:
    """The flowers and seasons that are the hand's. They lie together (in a row beside the hand,
    or in front of it): each bunch of them (neighbours within :data:`BESIDE` tile lengths) is the
    hand's when the nearest other tile to it is the hand's, not one left out of it (another
    player's flowers lie by that player's tiles). With nothing left out, all of them."""
    if not others or not flowers:
        return list(flowers)
    reach = BESIDE * median([tile_length(f) for f in flowers])
    bunch = list(range(len(flowers)))
    for i in range(len(flowers)):
        for j in range(i):
            if distance([flowers[i]], [flowers[j]]) <= reach:
                old, new = bunch[i], bunch[j]
                bunch = [new if b == old else b for b in bunch]
    mine_tiles = [t for r in hand for t in r]
    out = []
    for b in set(bunch):
        group = [f for f, k in zip(flowers, bunch, strict=True) if k == b]
        if distance(group, mine_tiles) <= distance(group, others):
            out += group
    return [f for f in flowers if any(f is m for m in out)]

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

from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Protocol

import numpy as np

from vision.classes import BACK

#: A gap wider than this fraction of the median tile width starts a new group.
GAP_FRACTION = 0.22
#: Two tiles share a row when their vertical extents overlap by this fraction of the smaller one.
ROW_OVERLAP = 0.4
#: ... and when at most this many tile widths of table lie between them.
ROW_REACH = 4.0


class TileLike(Protocol):
    box: tuple[float, float, float, float]
    code: str
    orientation: str


@dataclass
class Group:
    """Neighbouring tiles of one row with no wide gap between them, left to right."""

    tiles: list[Any]
    row: int

    @property
    def x0(self) -> float:
        return min(t.box[0] for t in self.tiles)

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]

    @property
    def has_sideways(self) -> bool:
        return any(t.orientation == "sideways" for t in self.tiles)

    @property
    def n_backs(self) -> int:
        return sum(t.code == BACK for t in self.tiles)


@dataclass
class Layout:
    """The hand as laid out: structured-form fields plus the groups and what did not fit."""

    concealed: list[str] = field(default_factory=list)
    melds: list[dict[str, Any]] = field(default_factory=list)
    winning_tile: str | None = None
    bonus_tiles: list[str] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The structured form of :mod:`scoring.structured` (context fields added by the caller)."""
        return {
            "hand": "".join(self.concealed) and _mpsz(self.concealed),
            "melds": self.melds,
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


def _tile_width(t: Any) -> float:
    """The tile's short side: its width upright, its height when sideways."""
    w, h = t.box[2] - t.box[0], t.box[3] - t.box[1]
    return min(w, h)


def rows_of(tiles: list[Any]) -> list[list[Any]]:
    """Cluster tiles into rows (top to bottom), each sorted left to right.

    Two tiles share a row when their vertical extents overlap by :data:`ROW_OVERLAP` of the
    smaller one and no more than :data:`ROW_REACH` tile widths separate them; rows are the
    connected groups of that relation. Linking neighbours (rather than comparing with a row's
    mean height) follows a row that runs downhill across a photo taken at an angle.
    """
    n = len(tiles)
    if not n:
        return []
    unit = float(np.median([_tile_width(t) for t in tiles]))
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        a = tiles[i].box
        for j in range(i + 1, n):
            b = tiles[j].box
            overlap = min(a[3], b[3]) - max(a[1], b[1])
            gap = max(a[0], b[0]) - min(a[2], b[2])
            if overlap > ROW_OVERLAP * min(a[3] - a[1], b[3] - b[1]) and gap < ROW_REACH * unit:
                parent[find(i)] = find(j)
    rows: dict[int, list[Any]] = {}
    for i in range(n):
        rows.setdefault(find(i), []).append(tiles[i])
    ordered = [sorted(r, key=lambda t: t.box[0]) for r in rows.values()]
    return sorted(ordered, key=lambda r: float(np.median([(t.box[1] + t.box[3]) / 2 for t in r])))


def groups_of(row: list[Any], row_index: int, unit: float) -> list[Group]:
    """Split a sorted row where a gap is wider than the row's usual gap by ``GAP_FRACTION * unit``.

    The usual gap (the median) is about zero for tiles lying flat, and negative for standing
    tiles seen at an angle, whose boxes overlap; measuring from it finds the winning tile set
    apart either way.
    """
    gaps = [b.box[0] - a.box[2] for a, b in pairwise(row)]
    usual = min(float(np.median(gaps)), 0.1 * unit) if len(gaps) >= 3 else 0.0
    groups: list[Group] = []
    for i, t in enumerate(row):
        if groups and gaps[i - 1] - usual <= GAP_FRACTION * unit:
            groups[-1].tiles.append(t)
        else:
            groups.append(Group([t], row_index))
    return groups


def meld_of(group: Group) -> tuple[dict[str, Any] | None, str | None]:
    """A declared set from a marked group, or ``(None, problem)``."""
    codes = group.codes
    faces = [c for c in codes if c != BACK]
    if group.n_backs:
        if len(codes) == 4 and group.n_backs == 2 and len({kind(c) for c in faces}) == 1:
            k = kind(faces[0])
            tiles = faces + [k] * 2
            return {"type": "kong", "tiles": _mpsz(tiles), "open": False}, None
        return None, f"face-down tiles in a group {' '.join(codes)}: only a concealed kong shows two backs"
    kinds = sorted((kind(c) for c in codes), key=_sort_key)
    if len(codes) in (3, 4) and len(set(kinds)) == 1:
        return {"type": "pung" if len(codes) == 3 else "kong", "tiles": _mpsz(codes), "open": True}, None
    if (
        len(codes) == 3
        and all(k[1] in "mps" for k in kinds)
        and len({k[1] for k in kinds}) == 1
        and [int(k[0]) for k in kinds] == list(range(int(kinds[0][0]), int(kinds[0][0]) + 3))
    ):
        return {"type": "chow", "tiles": _mpsz(codes), "open": True}, None
    return None, f"the open set {' '.join(codes)} is not a chow, pung or kong"


def lay_out(tiles: list[Any]) -> Layout:
    """Rows → groups → bonus tiles, declared sets, concealed tiles and the winning tile."""
    out = Layout()
    bonus = [t for t in tiles if t.code.endswith("f")]
    out.bonus_tiles = sorted((t.code for t in bonus), key=_sort_key)
    rest = [t for t in tiles if not t.code.endswith("f")]
    if not rest:
        out.problems.append("no tiles found")
        return out
    unit = float(np.median([_tile_width(t) for t in rest]))
    for i, row in enumerate(rows_of(rest)):
        out.groups.extend(groups_of(row, i, unit))
    plain: list[Group] = []
    for g in out.groups:
        if g.has_sideways or g.n_backs:
            meld, problem = meld_of(g)
            if meld:
                out.melds.append(meld)
            else:
                out.problems.append(problem or "unreadable set")
        else:
            plain.append(g)
    if not plain:
        out.problems.append("no concealed tiles found")
        return out
    # the concealed tiles' row is the one holding the most unmarked tiles; its rightmost single
    # tile set apart is the winning tile
    rows = Counter()
    for g in plain:
        rows[g.row] += len(g.tiles)
    main_row = rows.most_common(1)[0][0]
    in_row = sorted((g for g in plain if g.row == main_row), key=lambda g: g.x0)
    winner: Group | None = None
    if len(in_row) >= 2 and len(in_row[-1].tiles) == 1:
        winner = in_row[-1]
    for g in plain:
        out.concealed.extend(g.codes)
    if winner is None:
        out.problems.append(
            "no winning tile set apart at the right of the concealed tiles (give it with --winning-tile)"
        )
    else:
        out.winning_tile = winner.tiles[0].code
    return out

"""Search a teaching photo for the rows the player typed: which tiles make each row of codes.

The player types the rows as they read the tiles; the rows the layout chains
(:func:`vision.layout.rows_of`) are one reading of the photo, and not always the player's:

- a row standing **behind** another, partly hidden by it, chains into the front row: its tiles
  are told apart by their height (*bands*), the back row above;
- a photo row holding **two typed rows** one after the other (the hand, then a set laid apart):
  its tiles in order, cut where the codes' rows end;
- two photo rows the player reads as **one** (a row the chaining broke at a wide gap): joined;
- a **block** of tiles (2x2, 4x2) whose tiles point sideways chains by its columns: the photo is
  also read a quarter turn either way (and half a turn), and the reading whose tiles the reader
  agrees with most is taken;
- a photo row the codes do not name (tiles around the set) is **left out**, and a typed row the
  photo does not show is **not found**: the rows that do pair are taught all the same.

:func:`search` aligns the photo's rows to the typed rows (dynamic programming, rows in order top
to bottom), each way of reading the photo in turn. A typed row aligned to a photo row of another
count is left for :func:`vision.teach.finding.fit_rows` (a faint box, a gap at the row's pitch);
the pairing (:mod:`vision.teach.pairing`) pairs what fits and reports the rest.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import median

from mahjong_camera_scorer.vision.layout import framed_box, hand_turn, in_hand_frame, rows_of
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.teach.codes import SKIP

#: Two bands of a photo row are two rows (one behind the other) when the centres of their tiles
#: lie at least this many tile heights apart.
BAND_GAP = 0.25
#: Two photo rows are joined into one typed row only when they are level: their centres at most
#: this many tile heights apart.
LEVEL = 0.5
#: A typed row aligned with a photo row of another count scores at most this little (less the
#: more their counts differ): better than leaving both unpaired (the fitting may yet complete it),
#: worse than any tile paired.
ALIGNED = 0.01

#: What leaving a photo row out, and a typed row unfound, cost: a reading that pairs one more
#: row's tiles only by skipping rows (to gain the reader's agreement on a tile or two) is not
#: better than the one that keeps the rows in step, whose short row the fitting may complete.
LEFT, MISSING = 0.5, 1.0
#: Another way of reading the photo is taken over the layout's own only when it scores this much
#: more, and this share more (a block read the other way pairs its rows where the other reading
#: pairs none; a tile or two of the reader's agreement are not enough).
BETTER_BY, BETTER_SHARE = 2.0, 0.1

Rows = list[list[TileRead]]


@dataclass
class Match:
    """The photo read as the typed rows: for each typed row the tiles found for it, in the row's
    order (None: not found in the photo; a list of another count: to be fitted or reported), the
    tiles of photo rows no typed row names, and the turn of the frame the rows were read in."""

    rows: list[list[TileRead] | None]
    left_out: list[TileRead] = field(default_factory=list)
    turn: int = 0
    score: float = 0.0


def agreement(tiles: Sequence[TileRead], codes: Sequence[str]) -> int:
    """How many tiles the reader read as the code given them (a tile not to teach counts none)."""
    return sum(1 for t, c in zip(tiles, codes, strict=False) if c != SKIP and t.code == c)


def _value(tiles: Sequence[TileRead], codes: Sequence[str]) -> float:
    """A typed row paired with these tiles: one a tile, one more where the reader agrees."""
    return len(tiles) + agreement(tiles, codes)


def readings(tiles: list[TileRead]) -> list[tuple[int, Rows]]:
    """The ways to read the photo as rows: chained in the hand's frame (:func:`hand_turn`), then
    in the frame turned a quarter either way and half a turn (each way once)."""
    first = hand_turn(tiles) if tiles else 0
    out: list[tuple[int, Rows]] = []
    seen: list[list[list[int]]] = []
    for turn in (first, (first + 90) % 360, (first + 270) % 360, (first + 180) % 360):
        rows = [[f.src for f in row] for row in rows_of(in_hand_frame(tiles, turn))]
        key = [[t.index for t in r] for r in rows]
        if key not in seen:
            seen.append(key)
            out.append((turn, rows))
    return out


class _Frame:
    """Tile geometry in one turn's frame: centres, heights, order along a row."""

    def __init__(self, turn: int) -> None:
        self.turn = turn

    def box(self, t: TileRead) -> tuple[float, float, float, float]:
        return framed_box(t.box, self.turn)

    def cx(self, t: TileRead) -> float:
        b = self.box(t)
        return (b[0] + b[2]) / 2

    def cy(self, t: TileRead) -> float:
        b = self.box(t)
        return (b[1] + b[3]) / 2

    def height(self, tiles: Sequence[TileRead]) -> float:
        return float(median([self.box(t)[3] - self.box(t)[1] for t in tiles])) if tiles else 1.0

    def in_order(self, tiles: Sequence[TileRead]) -> list[TileRead]:
        return sorted(tiles, key=self.cx)


def _cut(tiles: list[TileRead], sizes: list[int]) -> Rows:
    """``tiles`` in their order, cut into consecutive pieces of these sizes."""
    ends = list(itertools.accumulate(sizes))
    return [tiles[end - n : end] for n, end in zip(sizes, ends, strict=True)]


def _splits(row: list[TileRead], sizes: list[int], frame: _Frame) -> list[Rows]:
    """The ways to cut one photo row into consecutive typed rows of these sizes: its tiles in
    order, cut where each typed row ends; and, where the row's tiles stand at distinct heights
    (a row behind another), its bands top to bottom, each in order."""
    out = [_cut(row, sizes)]
    bands = _cut(sorted(row, key=frame.cy), sizes)
    gap = BAND_GAP * frame.height(row)
    apart = all(
        min(frame.cy(t) for t in lower) - max(frame.cy(t) for t in upper) >= gap
        for upper, lower in itertools.pairwise(bands)
    )
    if apart and len(bands) > 1:
        out.append([frame.in_order(b) for b in bands])
    return out


def _level(a: list[TileRead], b: list[TileRead], frame: _Frame) -> bool:
    h = frame.height(a + b)
    return abs(median([frame.cy(t) for t in a]) - median([frame.cy(t) for t in b])) <= LEVEL * h


@dataclass
class _Cell:
    score: float
    steps: list[tuple[str, int, int, Rows]]  # (what, photo row, typed row, tiles per typed row)


def align(rows: Rows, codes: list[list[str]], turn: int, cuts: bool = True) -> Match:
    """The best alignment of the photo's rows (top to bottom) with the typed rows, in order: a
    photo row is one typed row, several (cut, :func:`_splits`; not without ``cuts``), half of one
    (two level photo rows joined), aligned to one of another count (to fit), or left out; a
    typed row may be found nowhere."""
    frame = _Frame(turn)
    n, m = len(rows), len(codes)
    best: dict[tuple[int, int], _Cell] = {(0, 0): _Cell(0.0, [])}

    def offer(at: tuple[int, int], score: float, steps: list[tuple[str, int, int, Rows]]) -> None:
        old = best.get(at)
        if old is None or score > old.score + 1e-9:
            best[at] = _Cell(score, steps)

    for i in range(n + 1):
        for j in range(m + 1):
            cell = best.get((i, j))
            if cell is None:
                continue
            if i < n:
                offer((i + 1, j), cell.score - LEFT, [*cell.steps, ("left", i, j, [rows[i]])])
            if j < m:
                offer((i, j + 1), cell.score - MISSING, [*cell.steps, ("missing", i, j, [])])
            if i >= n or j >= m:
                continue
            row = rows[i]
            # one photo row, one or more typed rows of the same tiles in all
            total = 0
            for k in range(1, (m - j if cuts else 1) + 1):
                total += len(codes[j + k - 1])
                if total > len(row):
                    break
                if total < len(row):
                    continue
                sizes = [len(c) for c in codes[j : j + k]]
                for cut in _splits(row, sizes, frame):
                    gain = sum(_value(t, c) for t, c in zip(cut, codes[j : j + k], strict=True))
                    offer((i + 1, j + k), cell.score + gain, [*cell.steps, ("paired", i, j, cut)])
            # two level photo rows, one typed row
            if i + 1 < n and len(row) + len(rows[i + 1]) == len(codes[j]) and _level(row, rows[i + 1], frame):
                joined = frame.in_order(row + rows[i + 1])
                offer(
                    (i + 2, j + 1),
                    cell.score + _value(joined, codes[j]),
                    [*cell.steps, ("paired", i, j, [joined])],
                )
            # aligned with another count: for the fitting to complete, else to report
            if len(row) != len(codes[j]):
                near = ALIGNED / (1 + abs(len(row) - len(codes[j])))  # the nearest count first
                offer((i + 1, j + 1), cell.score + near, [*cell.steps, ("aligned", i, j, [row])])
    end = best[(n, m)]
    found: list[list[TileRead] | None] = [None] * m
    left: list[TileRead] = []
    for what, _i, j, cut in end.steps:
        if what == "left":
            left.extend(cut[0])
        elif what in ("paired", "aligned"):
            for k, tiles in enumerate(cut):
                found[j + k] = list(tiles)
    return Match(found, left, turn, end.score)


def search(
    tries: list[tuple[list[TileRead], list[TileRead]]], codes: list[list[str]], cuts: bool = True
) -> Match:
    """The best way to read the photo as the typed rows: each set of tiles to try (with the
    tiles it leaves out), each way of reading it (:func:`readings`), aligned (:func:`align`; no
    photo row cut into several typed rows without ``cuts``: codes the player did not type);
    the highest score wins, the first tried unless another is clearly better (:data:`BETTER_BY`,
    :data:`BETTER_SHARE`: rows merely aligned, or the reader's agreement on a tile, never tip it)."""
    chosen: Match | None = None
    for tiles, apart in tries:
        for turn, rows in readings(tiles):
            match = align(rows, codes, turn, cuts)
            match.left_out = [*apart, *match.left_out]
            margin = max(BETTER_BY, BETTER_SHARE * abs(chosen.score)) if chosen is not None else 0.0
            if chosen is None or match.score > chosen.score + margin:
                chosen = match
    assert chosen is not None
    return chosen

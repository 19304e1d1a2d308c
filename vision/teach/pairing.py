"""Pair the tiles found in a teaching photo with the codes the player typed, row by row.

The tiles are laid out the way the player reads them: turned to the way most of them point
(:func:`vision.layout.hand_turn`: a photo taken with the phone turned still reads top to bottom),
chained into rows (:func:`vision.layout.rows_of`), rows top to bottom, each left to right. The
typed rows are then searched for in the photo (:mod:`vision.teach.row_search`: a row behind
another, a photo row holding two typed rows, a block read the other way, rows the codes do not
name left out), and a typed row found with another count is fitted to its codes
(:func:`pair_fitted`, :func:`vision.teach.finding.fit_rows`: the detector's faint boxes in the
row's band, a box holding two tiles split, gaps at the row's pitch; the weakest boxes of a row
with too many dropped); on a photo with more rows than codes (a hand on a table) the tiles the
layout leaves out of the hand are left out. Every typed row that pairs is taught; a row that
still differs is reported (which row, how many tiles found against how many codes given, and
its tiles in the picture), and only when no row pairs is nothing taught.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mahjong_camera_scorer.vision.classes import NOT_A_TILE
from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.layout import framed_box, hand_turn, in_hand_frame, lay_out, rows_of
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.teach.codes import SKIP, STANDARD_ROWS, CodesError, row_text, standard_rows
from mahjong_camera_scorer.vision.teach.finding import Dropped, Recovered, fit_rows
from mahjong_camera_scorer.vision.teach.row_search import readings, search


@dataclass(frozen=True)
class Pair:
    """One tile of the photo and the code it was given (:data:`vision.teach.codes.SKIP`: none)."""

    tile: TileRead
    code: str
    row: int  # 1-based, top to bottom
    place: int  # 1-based, left to right
    #: "": a box the detector found; else how it was recovered (:data:`vision.teach.finding.HOW`)
    found: str = ""

    @property
    def taught(self) -> bool:
        return self.code != SKIP

    @property
    def negative(self) -> bool:
        """Typed ``-``: a box that holds no tile, taught as the set's "not a tile"."""
        return self.code == NOT_A_TILE

    @property
    def disagrees(self) -> bool:
        """The reader read this tile as another code (what teaching it will change)."""
        return self.taught and self.tile.code != self.code


class PairingError(ValueError):
    """The rows found and the rows typed do not match; ``lines`` says where, one line a row, and
    ``counts`` gives the same facts for a front end to word in its language: each row whose counts
    differ as ``{"row", "found", "given", "codes"}``, and ``rows`` the photo's and the codes' numbers
    of rows where those differ (empty when the codes themselves were the problem)."""

    def __init__(
        self,
        lines: list[str],
        counts: list[dict[str, Any]] | None = None,
        rows: tuple[int, int] | None = None,
    ) -> None:
        super().__init__("; ".join(lines))
        self.lines = lines
        self.counts = counts or []
        self.row_counts = rows
        #: the tiles found, row by row (for a picture of what was found when pairing fails)
        self.rows: list[list[TileRead]] = []
        self.image: np.ndarray | None = None


@dataclass(frozen=True)
class Unpaired:
    """A typed row that no tiles were paired with (nothing of it taught): its number, its codes,
    and the tiles found where it was looked for (none: the photo shows no row for it)."""

    row: int  # 1-based
    codes: list[str]
    tiles: list[TileRead]

    def facts(self) -> dict[str, Any]:
        """The row's counts for a front end to word: ``{"row", "found", "given", "codes"}``."""
        found, given = len(self.tiles), len(self.codes)
        return {"row": self.row, "found": found, "given": given, "codes": row_text(self.codes)}

    @property
    def line(self) -> str:
        """``row 2: 8 tiles found, 9 codes given (1p 2p …)``."""
        what = f"row {self.row}: {_n(len(self.tiles), 'tile')} found, {_n(len(self.codes), 'code')} given"
        text = row_text(self.codes)
        return what + (f" ({text})" if text else "")


@dataclass
class Fitted:
    """A photo's pairing and how its rows were fitted to the codes."""

    pairs: list[Pair]
    recovered: list[Recovered] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    #: tiles the layout left out of the hand (a hand photo: the table around it), and those of
    #: photo rows no typed row names
    left_out: list[TileRead] = field(default_factory=list)
    #: typed rows that did not pair (reported, not taught)
    unpaired: list[Unpaired] = field(default_factory=list)


def photo_rows(tiles: list[TileRead]) -> list[list[TileRead]]:
    """The photo's tiles in rows as the player reads them: top to bottom, each left to right, in
    the frame of the way most tiles point."""
    framed = in_hand_frame(tiles, hand_turn(tiles))
    return [[f.src for f in row] for row in rows_of(framed)]


def pair(rows: list[list[TileRead]], codes: list[list[str]] | None) -> list[Pair]:
    """Each tile with its code; ``codes`` None: the standard layout (:mod:`vision.teach.codes`).
    :class:`PairingError` naming every row whose counts differ, or the rows missing or extra."""
    if codes is None:
        try:
            codes = standard_rows([len(r) for r in rows])
        except CodesError as exc:
            raise PairingError([str(exc), *_found(rows)]) from None
    lines = []
    counts: list[dict[str, Any]] = []
    for k in range(max(len(rows), len(codes))):
        found = len(rows[k]) if k < len(rows) else 0
        given = len(codes[k]) if k < len(codes) else 0
        if found != given:
            what = f"row {k + 1}: {_n(found, 'tile')} found, {_n(given, 'code')} given"
            text = row_text(codes[k]) if k < len(codes) else ""
            if text:
                what += f" ({text})"
            lines.append(what)
            counts.append({"row": k + 1, "found": found, "given": given, "codes": text})
    if lines:
        row_counts = None
        if len(rows) != len(codes):
            lines.insert(0, f"the photo shows {_n(len(rows), 'row')} of tiles, the codes give {len(codes)}")
            row_counts = (len(rows), len(codes))
        raise PairingError(lines, counts, row_counts)
    return [
        Pair(t, c, k + 1, j + 1)
        for k, (row, cs) in enumerate(zip(rows, codes, strict=True))
        for j, (t, c) in enumerate(zip(row, cs, strict=True))
    ]


def pair_fitted(
    sure: list[TileRead],
    faint: list[TileRead],
    codes: list[list[str]] | None,
    image: np.ndarray,
    read_boxes: Callable[[np.ndarray, list[Detection]], list[TileRead]],
) -> Fitted:
    """Pair the photo's tiles (``sure``: the detector's boxes at its threshold; ``faint``: those
    under it) with ``codes`` (None: the standard layout): each typed row searched for in the
    photo (:func:`vision.teach.row_search.search`), a row found with another count fitted to its
    codes (:func:`vision.teach.finding.fit_rows`). On a photo with more rows than codes, the
    tiles the layout leaves out of the hand (:func:`vision.layout.lay_out`: walls, discards,
    other hands) are left out first. Every row that pairs is paired, the others are
    :attr:`Fitted.unpaired`; :class:`PairingError` (with the rows found) when none pairs."""
    given = codes if codes is not None else standard_codes(sure)
    tries: list[tuple[list[TileRead], list[TileRead]]] = [(sure, [])]
    if len(photo_rows(sure)) > len(given):
        ignored = {t.index for t in lay_out(sure).ignored}
        if ignored:
            tries.insert(
                0, ([t for t in sure if t.index not in ignored], [t for t in sure if t.index in ignored])
            )
    # the standard layout's rows are the tool's guess, not the player's: no photo row is cut into
    # several of them (a row of 18 tiles is not 1-9m and 1-9p)
    match = search(tries, given, cuts=codes is not None)
    rows = match.rows
    counts: list[int | None] = [
        len(c) if r is not None and len(r) != len(c) else None for r, c in zip(rows, given, strict=True)
    ]
    recovered: list[Recovered] = []
    dropped: list[Dropped] = []
    if any(n is not None for n in counts):
        fitted, recovered, dropped = fit_rows([r or [] for r in rows], faint, counts, image, read_boxes)
        rows = [
            _in_order(f, match.turn) if n is not None else r
            for r, f, n in zip(rows, fitted, counts, strict=True)
        ]
    pairs: list[Pair] = []
    unpaired: list[Unpaired] = []
    how = {r.tile.index: r.how for r in recovered}
    for k, (row, cs) in enumerate(zip(rows, given, strict=True)):
        if row is not None and len(row) == len(cs):
            pairs += [
                Pair(t, c, k + 1, j + 1, how.get(t.index, ""))
                for j, (t, c) in enumerate(zip(row, cs, strict=True))
            ]
        else:
            unpaired.append(Unpaired(k + 1, list(cs), list(row or [])))
    if not pairs:
        error = _unpaired_error(unpaired, match.left_out, photo_rows(sure), len(given))
        if codes is None:  # why the photo's rows are not the standard layout's
            try:
                standard_rows([len(r) for r in error.rows])
            except CodesError as exc:
                error.lines.insert(0, str(exc))
        raise error
    taught_rows = {p.row for p in pairs}
    return Fitted(
        pairs,
        [r for r in recovered if r.row in taught_rows],
        [d for d in dropped if d.row in taught_rows],
        match.left_out,
        unpaired,
    )


def standard_codes(tiles: list[TileRead]) -> list[list[str]]:
    """The standard layout's codes for the photo's rows (:func:`vision.teach.codes.standard_rows`
    on the rows of the first way of reading it whose counts fit), else its four fixed rows: the
    rows found beyond them, whatever they hold, are then left out and the four still pair."""
    for _, rows in readings(tiles):
        try:
            return standard_rows([len(r) for r in rows])
        except CodesError:
            continue
    return [list(r) for r in STANDARD_ROWS]


def _in_order(row: list[TileRead], turn: int) -> list[TileRead]:
    """A fitted row left to right in the frame it was found in."""
    return sorted(row, key=lambda t: sum(framed_box(t.box, turn)[::2]))


def _unpaired_error(
    unpaired: list[Unpaired], left_out: list[TileRead], found: list[list[TileRead]], typed: int
) -> PairingError:
    """No typed row paired: every row named (the typed rows with their counts, then the tiles in
    photo rows no code names), and the photo's rows for a picture of what was found."""
    lines = [u.line for u in unpaired]
    counts = [u.facts() for u in unpaired]
    if left_out:
        lines.append(f"{_n(len(left_out), 'tile')} in rows no codes name, left out")
    row_counts = None
    if len(found) != typed:
        lines.insert(0, f"the photo shows {_n(len(found), 'row')} of tiles, the codes give {typed}")
        row_counts = (len(found), typed)
    error = PairingError(lines, counts, row_counts)
    error.rows = found
    return error


def _found(rows: list[list[TileRead]]) -> list[str]:
    return [f"row {k + 1}: {len(r)} tiles found" for k, r in enumerate(rows)]


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"

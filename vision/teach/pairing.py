"""Pair the tiles found in a teaching photo with the codes the player typed, row by row.

The tiles are laid out the way the player reads them: turned to the way most of them point
(:func:`vision.layout.hand_turn`: a photo taken with the phone turned still reads top to bottom),
chained into rows (:func:`vision.layout.rows_of`), rows top to bottom, each left to right. A row
whose count differs from its codes is first fitted to them (:func:`pair_fitted`,
:func:`vision.teach.finding.fit_rows`: the detector's faint boxes in the row's band, a box
holding two tiles split, gaps at the row's pitch; the weakest boxes of a row with too many
dropped), and on a photo with more rows than codes (a hand on a table) the tiles the layout
leaves out of the hand are left out. A row that still differs pairs nothing: the player is told
which row has how many tiles found against how many codes given, and nothing is taught from that
photo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.classes import NOT_A_TILE
from vision.detect import Detection
from vision.layout import hand_turn, in_hand_frame, lay_out, rows_of
from vision.read import TileRead
from vision.teach.codes import SKIP, STANDARD_ROWS, CodesError, row_text, standard_rows
from vision.teach.finding import Dropped, Recovered, fit_rows


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


@dataclass
class Fitted:
    """A photo's pairing and how its rows were fitted to the codes."""

    pairs: list[Pair]
    recovered: list[Recovered] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    #: tiles the layout left out of the hand (a hand photo: the table around it)
    left_out: list[TileRead] = field(default_factory=list)


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
    under it) with ``codes`` (None: the standard layout), fitting rows whose counts differ
    (:func:`vision.teach.finding.fit_rows`). On a photo with more rows than codes, the tiles the
    layout leaves out of the hand (:func:`vision.layout.lay_out`: walls, discards, other hands)
    are left out first. :class:`PairingError` (with the rows found) when no fitting pairs."""
    tries: list[tuple[list[TileRead], list[TileRead]]] = [(sure, [])]
    rows = photo_rows(sure)
    if codes is not None and len(rows) > len(codes):
        ignored = {t.index for t in lay_out(sure).ignored}
        if ignored:
            tries.insert(
                0, ([t for t in sure if t.index not in ignored], [t for t in sure if t.index in ignored])
            )
    error: PairingError | None = None  # the last try's (every tile): what the player sees
    for tiles, left in tries:
        rows = photo_rows(tiles)
        try:
            return Fitted(pair(rows, codes), left_out=left)
        except PairingError as exc:
            error = exc
        counts = _counts([len(r) for r in rows], codes)
        if counts is None:
            continue
        fitted, recovered, dropped = fit_rows(rows, faint, counts, image, read_boxes)
        try:
            pairs = pair(fitted, codes)
        except PairingError as exc:
            error = exc  # what is still wrong after fitting
            continue
        how = {r.tile.index: r.how for r in recovered}
        pairs = [replace(p, found=how.get(p.tile.index, "")) for p in pairs]
        return Fitted(pairs, recovered, dropped, left)
    assert error is not None
    error.rows = photo_rows(sure)
    raise error


def _counts(found: list[int], codes: list[list[str]] | None) -> list[int | None] | None:
    """How many tiles each found row should hold (None: any), or None when the rows themselves
    do not match (a row missing or extra is not fitted)."""
    if codes is None:
        if len(found) < len(STANDARD_ROWS):
            return None
        return [len(r) for r in STANDARD_ROWS] + [None] * (len(found) - len(STANDARD_ROWS))
    if len(found) != len(codes):
        return None
    return [len(c) for c in codes]


def _found(rows: list[list[TileRead]]) -> list[str]:
    return [f"row {k + 1}: {len(r)} tiles found" for k, r in enumerate(rows)]


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"

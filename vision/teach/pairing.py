"""Pair the tiles found in a teaching photo with the codes the player typed, row by row.

The tiles are laid out the way the player reads them: turned to the way most of them point
(:func:`vision.layout.hand_turn`: a photo taken with the phone turned still reads top to bottom),
chained into rows (:func:`vision.layout.rows_of`), rows top to bottom, each left to right. A row
whose count differs from its codes pairs nothing: the player is told which row has how many tiles
found against how many codes given, and nothing is taught from that photo.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.layout import hand_turn, in_hand_frame, rows_of
from vision.read import TileRead
from vision.teach.codes import SKIP, CodesError, row_text, standard_rows


@dataclass(frozen=True)
class Pair:
    """One tile of the photo and the code it was given (:data:`vision.teach.codes.SKIP`: none)."""

    tile: TileRead
    code: str
    row: int  # 1-based, top to bottom
    place: int  # 1-based, left to right

    @property
    def taught(self) -> bool:
        return self.code != SKIP

    @property
    def disagrees(self) -> bool:
        """The reader read this tile as another code (what teaching it will change)."""
        return self.taught and self.tile.code != self.code


class PairingError(ValueError):
    """The rows found and the rows typed do not match; ``lines`` says where, one line a row."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("; ".join(lines))
        self.lines = lines


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
    for k in range(max(len(rows), len(codes))):
        found = len(rows[k]) if k < len(rows) else 0
        given = len(codes[k]) if k < len(codes) else 0
        if found != given:
            what = f"row {k + 1}: {_n(found, 'tile')} found, {_n(given, 'code')} given"
            if k < len(codes):
                what += f" ({row_text(codes[k])})"
            lines.append(what)
    if lines:
        if len(rows) != len(codes):
            lines.insert(0, f"the photo shows {_n(len(rows), 'row')} of tiles, the codes give {len(codes)}")
        raise PairingError(lines)
    return [
        Pair(t, c, k + 1, j + 1)
        for k, (row, cs) in enumerate(zip(rows, codes, strict=True))
        for j, (t, c) in enumerate(zip(row, cs, strict=True))
    ]


def _found(rows: list[list[TileRead]]) -> list[str]:
    return [f"row {k + 1}: {len(r)} tiles found" for k, r in enumerate(rows)]


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"

"""The order in which a photo's tiles are listed: the hand as it lies, never the reader's order.

The ``photo`` command's ``Read:`` line and the page's tiles both follow it, so a turned photo or a
table's rows read the same on the screen and in the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.result import HandResult


def reading_order(result: HandResult) -> list[tuple[TileRead, int | None, str]]:
    """Each tile with its place in the laid-out hand: its group (row, left to right) and its role
    (``concealed``, ``winning``, ``meld``, ``bonus`` or ``unused``), in reading order: the hand's
    groups as laid out, then the bonus tiles and the tiles left out, each row by row
    (:func:`by_rows`), never in the reader's order (by detector score)."""
    ordered: list[tuple[TileRead, int | None, str]] = [
        (t, i, g.role) for i, g in enumerate(result.layout.groups) for t in g.tiles
    ]
    seen = {t.index for t, _, _ in ordered}
    bonus = [t for t in result.tiles if t.index not in seen and t.code.endswith("f")]
    ordered += [(t, None, "bonus") for t in by_rows(bonus)]
    seen = {t.index for t, _, _ in ordered}
    ordered += [(t, None, "unused") for t in by_rows([t for t in result.tiles if t.index not in seen])]
    return ordered


def by_rows(tiles: Sequence[TileRead]) -> list[TileRead]:
    """Tiles row by row, top to bottom, each row left to right: a tile starts a new row when its
    centre lies more than half a tile's height below the row's first tile."""
    rows: list[list[TileRead]] = []
    for t in sorted(tiles, key=lambda t: t.box[1] + t.box[3]):
        first = rows[-1][0] if rows else None
        if (
            first is None
            or (t.box[1] + t.box[3]) / 2 - (first.box[1] + first.box[3]) / 2
            > (first.box[3] - first.box[1]) / 2
        ):
            rows.append([t])
        else:
            rows[-1].append(t)
    return [t for r in rows for t in sorted(r, key=lambda t: t.box[0])]

"""The codes a player types for a teaching photo: rows of tile codes, or the standard layout.

``"123456789m / 123456789p"``: rows top to bottom (``/`` or a new line between rows), each left
to right, in the mpsz notation of :mod:`scoring.tiles` (``0m`` a red five, ``1f``-``8f`` flowers and
seasons, ``?`` a face-down tile). ``|`` gaps and the ``*``/``^`` orientation marks of the notation
may be typed and are ignored; ``x`` stands for a tile that is there but is not to be taught (a
joker, a blank spare, a tile the player is unsure of), so the row still counts it; ``-`` for a
box that is not a tile at all (something on the table the detector boxes): it is taught as the
set's "not a tile", and boxes like it are read as no tile in later photos.
"""

from __future__ import annotations

import re

from mahjong_camera_scorer.scoring.tiles import TileError, parse_tiles
from mahjong_camera_scorer.vision.classes import BACK, NOT_A_TILE

#: A tile in the photo that is not taught (it still counts in its row).
SKIP = "x"
#: Typed for a box that holds no tile (a negative: taught as :data:`vision.classes.NOT_A_TILE`).
NOT_TILE = "-"
#: Characters a player may type from the hand notation that mean nothing here.
IGNORED = "|*^,;"

#: The standard layout: one of each kind in four rows, then (optionally) red fives, flowers and
#: seasons, and a face-down tile, in this order, on one row or on rows of their own.
STANDARD_ROWS: tuple[tuple[str, ...], ...] = (
    tuple(f"{n}m" for n in range(1, 10)),
    tuple(f"{n}p" for n in range(1, 10)),
    tuple(f"{n}s" for n in range(1, 10)),
    tuple(f"{n}z" for n in range(1, 8)),
)
STANDARD_EXTRAS: tuple[tuple[str, ...], ...] = (
    ("0m", "0p", "0s"),
    tuple(f"{n}f" for n in range(1, 9)),
    (BACK,),
)
STANDARD_TEXT = (
    "123456789m / 123456789p / 123456789s / 1234567z, then any of: 0m0p0s (red fives), "
    "12345678f (flowers and seasons), ? (a face-down tile), in this order, on one row or on rows "
    "of their own"
)


class CodesError(ValueError):
    """Typed codes that cannot be read (the message names the row and what is wrong)."""


def parse_rows(text: str) -> list[list[str]]:
    """Rows of reader codes (``back`` for a face-down tile, :data:`SKIP` for one not taught)."""
    rows = [r for r in re.split(r"\s*(?:/|\n)\s*", text.strip()) if r.strip()]
    if not rows:
        raise CodesError("no codes given: type the tiles row by row, e.g. '123456789m / 123456789p'")
    parsed = [_parse_row(r, k + 1) for k, r in enumerate(rows)]
    if all(c == SKIP for row in parsed for c in row):  # it would save an empty set and say it taught
        raise CodesError(
            "no tile to teach: every code is 'x' (a tile left out); type the codes of the tiles "
            "to teach, e.g. '123m x 45p'"
        )
    return parsed


def _parse_row(text: str, number: int) -> list[str]:
    clean = "".join(" " if ch in IGNORED else ch for ch in text)
    out: list[str] = []
    for piece in re.split(r"([xX-])", clean):
        if piece in ("x", "X"):
            out.append(SKIP)
            continue
        if piece == NOT_TILE:
            out.append(NOT_A_TILE)
            continue
        if not piece.strip():
            continue
        try:
            tiles = parse_tiles(piece)
        except TileError as exc:
            raise CodesError(f"row {number} ({text.strip()!r}): {exc}") from None
        out.extend(BACK if t.code == "?" else t.code for t in tiles)
    if not out:
        raise CodesError(f"row {number} is empty")
    return out


def standard_rows(counts: list[int]) -> list[list[str]]:
    """The standard layout's codes for rows of these sizes (as found in the photo). The first
    four rows are fixed; each further row holds the next extras in order, and its size tells
    which (3, 8 and 1 tiles, and their sums, are all different)."""
    if len(counts) < len(STANDARD_ROWS):
        raise CodesError(
            f"the standard layout has at least {len(STANDARD_ROWS)} rows ({STANDARD_TEXT}); "
            f"the photo shows {len(counts)}"
        )
    rows = [list(r) for r in STANDARD_ROWS]
    left = list(STANDARD_EXTRAS)
    for number, n in enumerate(counts[len(STANDARD_ROWS) :], start=len(STANDARD_ROWS) + 1):
        # the parts still to come that this row holds: any of them, in order (their sizes 3, 8
        # and 1 add up differently whichever are taken, so the size says which)
        pick = next(
            (chosen for chosen in _in_order(len(left)) if chosen and sum(len(left[i]) for i in chosen) == n),
            None,
        )
        if pick is None:
            raise CodesError(
                f"row {number} has {n} tiles: the standard layout's rows after the fourth hold red "
                "fives (3), flowers and seasons (8) and a face-down tile (1), in that order"
            )
        rows.append([c for i in pick for c in left[i]])
        left = left[pick[-1] + 1 :]
    return rows


def _in_order(n: int) -> list[tuple[int, ...]]:
    """Every selection of indices 0..n-1 in increasing order."""
    return [tuple(i for i in range(n) if mask >> i & 1) for mask in range(1, 1 << n)]


def row_text(codes: list[str]) -> str:
    """One row's codes as typed (``?`` for a back, ``x`` for a skipped tile, ``-`` for not a
    tile), space-separated."""
    return " ".join("?" if c == BACK else NOT_TILE if c == NOT_A_TILE else c for c in codes)

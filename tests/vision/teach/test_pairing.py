"""Pairing a teaching photo's tiles with typed codes (vision.teach.pairing)."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.teach.codes import SKIP, parse_rows
from mahjong_camera_scorer.vision.teach.pairing import PairingError, pair, photo_rows


def _grid(counts: list[int], turn: int = 0, code: str = "1m") -> list[TileRead]:
    """Tiles 30x40 px in rows of these counts (the photo turned by ``turn``: 0 or 90)."""
    tiles = []
    for r, n in enumerate(counts):
        for c in range(n):
            x0, y0 = 10 + 32 * c, 10 + 60 * r
            box = (x0, y0, x0 + 30, y0 + 40)
            if turn == 90:  # the phone turned: rows run down the photo, tops point right
                box = (1000 - y0 - 40, x0, 1000 - y0, x0 + 30)
            tiles.append(TileRead(box, code, 0.99, "upright", turn=turn, index=len(tiles)))
    return tiles[::-1]  # any order in: rows out


def test_rows_top_to_bottom_left_to_right() -> None:
    tiles = _grid([3, 2])
    rows = photo_rows(tiles)
    assert [len(r) for r in rows] == [3, 2]
    assert [t.index for t in rows[0]] == [0, 1, 2] and [t.index for t in rows[1]] == [3, 4]


def test_a_photo_taken_turned_reads_as_the_player_reads() -> None:
    rows = photo_rows(_grid([3, 2], turn=90))
    assert [[t.index for t in r] for r in rows] == [[0, 1, 2], [3, 4]]


def test_pairs_in_reading_order() -> None:
    pairs = pair(photo_rows(_grid([3, 2])), parse_rows("12m x / 5z?"))
    assert [(p.code, p.row, p.place) for p in pairs] == [
        ("1m", 1, 1),
        ("2m", 1, 2),
        (SKIP, 1, 3),
        ("5z", 2, 1),
        ("back", 2, 2),
    ]
    assert [p.taught for p in pairs] == [True, True, False, True, True]
    assert [p.disagrees for p in pairs] == [False, True, False, True, True]


def test_a_row_that_differs_is_named_and_nothing_is_paired() -> None:
    with pytest.raises(PairingError) as err:
        pair(photo_rows(_grid([3, 2])), parse_rows("123m / 456m"))
    assert err.value.lines == ["row 2: 2 tiles found, 3 codes given (4m 5m 6m)"]
    with pytest.raises(PairingError) as err:
        pair(photo_rows(_grid([3, 2, 1])), parse_rows("123m / 45m"))
    assert err.value.lines == [
        "the photo shows 3 rows of tiles, the codes give 2",
        "row 3: 1 tile found, 0 codes given",
    ]


def test_standard_layout_needs_no_codes() -> None:
    pairs = pair(photo_rows(_grid([9, 9, 9, 7, 3])), None)
    assert [p.code for p in pairs if p.row == 4] == [f"{n}z" for n in range(1, 8)]
    assert [p.code for p in pairs if p.row == 5] == ["0m", "0p", "0s"]
    with pytest.raises(PairingError) as err:
        pair(photo_rows(_grid([9, 9, 9])), None)
    assert "at least 4 rows" in err.value.lines[0] and err.value.lines[1:] == [
        f"row {k}: 9 tiles found" for k in (1, 2, 3)
    ]

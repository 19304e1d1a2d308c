"""Faint boxes the photo does not back up (vision.faint): left out away from the hand and as lone backs,
and rows the reader cannot read."""

from __future__ import annotations

from dataclasses import dataclass, replace

from mahjong_camera_scorer.vision.faint import (
    APART_BACK_READ,
    APART_SURE,
    LARGE_UNREAD,
    LARGE_UNREAD_READ,
    LONE_BACK_SURE,
    ROW_READ,
    ROW_SURE,
    UNREAD_ROW,
    UNREAD_ROW_MIN,
    without_faint_left_out,
    without_large_unread,
    without_lone_faint_backs,
    without_unread_rows,
)
from mahjong_camera_scorer.vision.layout import lay_out
from tests.vision.test_table import PLAYER, T, row, table


def test_a_faint_box_lying_apart_is_not_shown_and_a_sure_one_or_one_in_a_row_is() -> None:
    t = table()
    faint, sure = APART_SURE - 0.1, APART_SURE + 0.1
    discards = [*t["discards"][:1], T((335, 600, 370, 648), "9p", detector_score=faint), *t["discards"][2:]]
    far_faint = T((900, 450, 945, 510), "3p", detector_score=faint)
    far_sure = T((500, 450, 545, 510), "4p", detector_score=sure)
    faint_in_hand = T((*t["hand"][0].box[:2], *t["hand"][0].box[2:]), "1m", detector_score=faint)
    tiles = [faint_in_hand, *t["hand"][1:], *t["wall"], *discards, far_faint, far_sure]
    layout = lay_out(tiles)
    assert {lo.why for lo in layout.left_out if any(x is far_faint for x in lo.tiles)} == {"apart"}
    kept, left = without_faint_left_out(tiles, layout.left_out)
    assert [x for x in tiles if not any(x is k for k in kept)] == [far_faint]
    assert not any(x is far_faint for lo in left for x in lo.tiles)
    assert any(x is far_sure for lo in left if lo.why == "apart" for x in lo.tiles)
    assert any(x is discards[1] for lo in left for x in lo.tiles)  # a faint box in a row stays
    # nothing faint lying apart: the same lists back
    assert without_faint_left_out(tiles, layout.left_out, sure=0.0) == (tiles, layout.left_out)


def test_a_back_lying_apart_counts_only_read_surely_as_a_back() -> None:
    t = table()
    # a dark thing beside the mat, boxed surely as a back, read as one unsurely
    stand = T((900, 450, 945, 510), "back", detector_score=0.7, confidence=APART_BACK_READ - 0.1)
    real = T((500, 450, 545, 510), "back", detector_score=0.7, confidence=APART_BACK_READ + 0.1)
    face = T((700, 450, 745, 510), "4p", detector_score=0.7, confidence=APART_BACK_READ - 0.1)
    tiles = [*t["hand"], stand, real, face]
    layout = lay_out(tiles)
    assert all(
        any(x is lo_t for lo in layout.left_out if lo.why == "apart" for lo_t in lo.tiles)
        for x in (stand, real)
    )
    kept, _ = without_faint_left_out(tiles, layout.left_out)
    assert [x for x in tiles if not any(x is k for k in kept)] == [stand]  # an unsure face apart stays


def test_another_row_boxed_faintly_throughout_is_not_shown_but_a_faint_wall_is() -> None:
    t = table()
    faint = ROW_SURE - 0.05
    unread = ROW_READ - 0.1
    # lettering on a shelf: boxed faintly, read as nothing sure
    spines = [replace(x, detector_score=faint, confidence=unread) for x in t["discards"][:6]]
    wall = [replace(x, detector_score=faint) for x in t["wall"]]
    tiles = [*t["hand"], *wall, *spines, *t["discards"][6:]]
    layout = lay_out(tiles)
    assert any(lo.why == "other row" and spines[0] in lo.tiles for lo in layout.left_out)
    kept, left = without_faint_left_out(tiles, layout.left_out)
    assert [x for x in tiles if not any(x is k for k in kept)] == spines
    assert [lo.why for lo in left if wall[0] in lo.tiles] == ["wall"]
    # the same row scored a little surer counts
    sure_row = [replace(x, detector_score=ROW_SURE + 0.05) for x in spines]
    tiles = [*t["hand"], *wall, *sure_row, *t["discards"][6:]]
    assert without_faint_left_out(tiles, lay_out(tiles).left_out)[0] == tiles
    # and so does the faint row whose faces the reader reads: tiles half hidden behind a row
    read_row = [replace(x, confidence=ROW_READ + 0.1) for x in spines]
    tiles = [*t["hand"], *wall, *read_row, *t["discards"][6:]]
    assert without_faint_left_out(tiles, lay_out(tiles).left_out)[0] == tiles


def test_a_faint_back_alone_among_faces_is_not_shown() -> None:
    hand = row(PLAYER, 100, 900, 45, 60)
    gap = T((hand[4].box[2] - 10, 900, hand[5].box[0] + 10, 960), "back", detector_score=LONE_BACK_SURE - 0.1)
    tiles = [*hand[:5], gap, *hand[5:]]
    assert without_lone_faint_backs(tiles) == [*hand[:5], *hand[5:]]
    sure = replace(gap, detector_score=LONE_BACK_SURE + 0.1)
    assert without_lone_faint_backs([*hand[:5], sure, *hand[5:]]) == [*hand[:5], sure, *hand[5:]]


def test_a_concealed_kong_s_two_faint_backs_and_a_wall_stay() -> None:
    faint = LONE_BACK_SURE - 0.1
    kong = row("back 3z 3z back", 100, 800, 45, 60)
    kong = [replace(x, detector_score=faint) if x.code == "back" else x for x in kong]
    hand = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z", 100, 900, 45, 60)
    wall = [replace(x, detector_score=faint) for x in row("back " * 8, 200, 600, 40, 30)]
    lone_in_short_row = [T((900, 700, 945, 760), "back", detector_score=faint), T((950, 700, 995, 760), "5p")]
    tiles = [*kong, *hand, *wall, *lone_in_short_row]
    assert without_lone_faint_backs(tiles) == tiles


@dataclass
class Read(T):
    confidence: float = 0.9


def read_row(codes: str, x: float, y: float, w: float, h: float, confidences: list[float]) -> list[Read]:
    return [
        Read(t.box, t.code, confidence=c) for t, c in zip(row(codes, x, y, w, h), confidences, strict=True)
    ]


def test_a_row_the_reader_cannot_read_is_no_row_of_tiles() -> None:
    hand = read_row("1m 2m 3m 4p 5p 6p 7s 8s 9s", 100, 900, 45, 60, [0.9] * 9)
    low = UNREAD_ROW - 0.05
    # book spines boxed as a row: faces read at random, a few by chance a little surer
    spines = read_row("1s 5z 1s 8p 5z 1s", 100, 600, 45, 60, [low, 0.3, low, low, 0.05, 0.25])
    tiles = [*hand, *spines]
    assert without_unread_rows(tiles) == hand
    # a row of an unfamiliar set, a few faces unsure, the rest known: kept whole
    unfamiliar = read_row("1s 2s 3s 4s 5s", 100, 600, 45, 60, [low, low, 0.5, 0.7, 0.6])
    assert without_unread_rows([*hand, *unfamiliar]) == [*hand, *unfamiliar]
    # the hand itself is not spared
    unread_hand = [replace(t, confidence=low) for t in hand]
    assert without_unread_rows([*unread_hand, *unfamiliar]) == unfamiliar


def test_a_box_alone_is_not_a_row_the_reader_cannot_read() -> None:
    hand = read_row("1m 2m 3m 4p 5p 6p", 100, 900, 45, 60, [0.9] * 6)
    alone = read_row("5z", 700, 400, 45, 60, [0.05])
    assert UNREAD_ROW_MIN > 1
    assert without_unread_rows([*hand, *alone]) == [*hand, *alone]


def test_a_box_much_larger_than_the_photo_s_tiles_read_unsurely_is_no_tile() -> None:
    hand = read_row("1m 2m 3m 4p 5p 6p 7s 8s 9s", 100, 900, 45, 60, [0.9] * 9)
    big = 60 * LARGE_UNREAD + 10  # long side, against the hand's 60
    spine = Read((700, 400, 740, 400 + big), "1s", confidence=LARGE_UNREAD_READ - 0.1)
    near = Read((100, 1000, 150, 1000 + big), "2m", confidence=LARGE_UNREAD_READ + 0.1)  # read: kept
    small = Read((800, 400, 830, 440), "5z", confidence=0.05)  # unsure but of the tiles' size or less
    tiles = [*hand, spine, near, small]
    assert without_large_unread(tiles) == [*hand, near, small]
    assert without_large_unread([hand[0], spine]) == [hand[0], spine]  # too few to have a size

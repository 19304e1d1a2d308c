"""The reader's "not a tile" crops cut from the real photos (scripts/real_photos.py): gap boxes."""

from __future__ import annotations

import pytest

from tests.scripts.scriptutil import load_script


@pytest.fixture(scope="module")
def rp():  # type: ignore[no-untyped-def]
    return load_script("real_photos")


def test_a_gap_box_straddles_two_neighbours_side_by_side(rp) -> None:  # type: ignore[no-untyped-def]
    a, b = (100, 50, 140, 105), (144, 52, 184, 107)  # 40 x 55 tiles, 4 px apart
    (gap,) = rp.gap_boxes([a, b])
    assert gap == pytest.approx((122, 51, 162, 106))  # half of each, the gap in the middle
    assert rp.iou(gap, a) < 0.4 and rp.iou(gap, b) < 0.4


def test_no_gap_box_between_a_tile_and_the_one_below_it(rp) -> None:  # type: ignore[no-untyped-def]
    # its crop would show a 萬 over a numeral: a man tile upside down
    assert rp.gap_boxes([(10, 10, 50, 65), (12, 68, 52, 123)]) == []


@pytest.mark.parametrize(
    "b",
    [
        (260, 50, 300, 105),  # a tile's width and more between them: another tile may lie there
        (144, 90, 184, 145),  # beside but a row lower
        (115, 50, 155, 105),  # overlapping: the box between them is mostly a tile
    ],
)
def test_no_gap_box_where_the_two_are_no_neighbours_or_the_box_would_be_a_tile(rp, b) -> None:  # type: ignore[no-untyped-def]
    assert rp.gap_boxes([(100, 50, 140, 105), b]) == []


def test_at_most_three_gaps_a_picture_spread_over_the_row(rp) -> None:  # type: ignore[no-untyped-def]
    row = [(x, 0, x + 40, 55) for x in range(0, 14 * 42, 42)]
    gaps = rp.gap_boxes(row)
    assert len(gaps) == rp.GAPS_PER_PICTURE == 3
    assert gaps[0][0] == pytest.approx(21) and gaps[-1][0] > 6 * 42  # not the first three


def test_tiles_standing_apart_are_neighbours_only_with_a_wider_pitch(rp) -> None:  # type: ignore[no-untyped-def]
    a, b = (100, 50, 140, 105), (160, 50, 200, 105)  # 1.5 widths centre to centre
    assert rp.gap_boxes([a, b]) == []
    assert rp.gap_boxes([a, b], pitch=1.6) == [pytest.approx((130, 50, 170, 105))]

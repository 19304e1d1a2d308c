"""The verdict a read ends with (:mod:`vision.verdict`): sure, or the tiles to check by place."""

from __future__ import annotations

from dataclasses import replace

from mahjong_camera_scorer.vision.checks import Check
from mahjong_camera_scorer.vision.layout import lay_out
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.render.verdict import verdict_line
from mahjong_camera_scorer.vision.verdict import (
    BOX_SURE,
    FAINT_FLOOR,
    FAINT_MARGIN,
    READ_SURE,
    ROW_SIZE,
    Place,
    in_row_at_size,
    judge,
)

W, H = 30.0, 40.0


def hand(codes: str, conf: float = 0.99) -> list[TileRead]:
    """A row of touching tiles, the last one set apart (the winning tile)."""
    out, x = [], 10.0
    names = codes.split()
    for i, code in enumerate(names):
        if i == len(names) - 1:
            x += 0.8 * W
        out.append(
            TileRead((x, 100.0, x + W, 100.0 + H), code, conf, "upright", 0.9, ((code, conf),), index=i)
        )
        x += W + 1
    return out


WHOLE = "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z"


def test_a_whole_hand_read_surely_is_sure() -> None:
    tiles = hand(WHOLE)
    verdict = judge(tiles, lay_out(tiles), [])
    assert verdict.sure and verdict.tiles_sure and verdict_line(verdict) == "Verdict: sure"
    assert verdict_line(verdict, "it") == "Verdetto: sicuro"


def test_an_unsure_tile_is_named_by_its_place_and_its_likely_other_face() -> None:
    tiles = hand(WHOLE)
    tiles[5] = replace(tiles[5], confidence=READ_SURE - 0.2, alternatives=(("6p", 0.7), ("9p", 0.2)))
    verdict = judge(tiles, lay_out(tiles), [])
    assert not verdict.sure and [d.index for d in verdict.doubts] == [5]
    assert verdict.doubts[0].place == Place(1, 6) and verdict.doubts[0].reasons == ("unsure",)
    sure = f"{READ_SURE - 0.2:.2f}"
    assert verdict_line(verdict) == f"Verdict: check row 1, tile 6 (6p: {sure} sure, maybe 9p)"
    it = f"Verdetto: controlla fila 1, tessera 6 (6p: sicura a {sure}, forse 9p)"
    assert verdict_line(verdict, "it") == it


def test_a_faint_box_and_a_tile_a_check_names_are_doubts_and_a_wrong_sized_hand_is_never_sure() -> None:
    tiles = hand(WHOLE)
    tiles[0] = replace(tiles[0], detector_score=FAINT_FLOOR - 0.1)
    verdict = judge(tiles, lay_out(tiles), [Check("gap", "a tile may be missing", (3, 4))])
    assert [d.index for d in verdict.doubts] == [0, 3, 4] and not verdict.sure
    short = hand(WHOLE)[1:]
    size = Check("hand_size", "the hand shows 13 tiles where a finished hand has 14", ())
    verdict = judge(short, lay_out(short), [size])
    assert verdict.tiles_sure and not verdict.sure and verdict.hand == ("hand_size",)
    assert "number of tiles" in verdict_line(verdict)
    nothing = judge([], lay_out([]), [])
    assert not nothing.sure and not nothing.tiles_sure


def test_a_candidate_winning_tile_leaves_the_read_sure() -> None:
    tiles = hand(WHOLE)
    verdict = judge(tiles, lay_out(tiles), [Check("winning_candidate", "scored as if 2z won")])
    assert verdict.sure


def test_a_faint_box_read_surely_in_a_row_at_its_size_is_vouched_for() -> None:
    tiles = hand(WHOLE)
    tiles[2] = replace(tiles[2], detector_score=(FAINT_FLOOR + BOX_SURE) / 2)
    assert judge(tiles, lay_out(tiles), []).sure
    # read less surely, the same box is a doubt
    unsure = (FAINT_MARGIN + 1.0) / 2 - 0.1
    tiles[2] = replace(tiles[2], confidence=FAINT_MARGIN - 0.05, alternatives=((tiles[2].code, unsure),))
    assert [d.reasons for d in judge(tiles, lay_out(tiles), []).doubts] == [("faint",)]


def test_a_faint_box_below_the_floor_or_off_its_rows_size_stays_a_doubt() -> None:
    tiles = hand(WHOLE)
    tiles[2] = replace(tiles[2], detector_score=FAINT_FLOOR - 0.01)
    assert [d.index for d in judge(tiles, lay_out(tiles), []).doubts] == [2]
    big = hand(WHOLE)
    x0, y0, _, _ = big[2].box
    grown = (x0, y0 - H * 0.3, x0 + W, y0 + H * ROW_SIZE[1] * 1.05 - H * 0.3)
    big[2] = replace(big[2], box=grown, detector_score=(FAINT_FLOOR + BOX_SURE) / 2)
    layout = lay_out(big)
    assert 2 not in in_row_at_size(layout) and 3 in in_row_at_size(layout)
    assert [d.index for d in judge(big, layout, []).doubts] == [2]

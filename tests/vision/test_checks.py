"""Errors the tool can see are flagged, never silent (:mod:`vision.checks`): a gap where a tile is
missing, a hand of the wrong size, a fifth copy of a kind, a box read as "not a tile" beside the
hand, a faint box, a mended hand. Each names its tiles, and every front end shows them like the
low-confidence flags: ``HandResult.warned``, ``--json``, the CLI's Read line and the web page."""

from __future__ import annotations

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.vision.checks import Check, checks, fifth_copies, gaps, rejected_near, wrong_size
from mahjong_camera_scorer.vision.layout import lay_out
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.render.page import page_json
from mahjong_camera_scorer.vision.render.records import photo_json
from mahjong_camera_scorer.vision.render.text import left_out_notes, tile_line
from mahjong_camera_scorer.vision.result import score_tiles

W, H = 30.0, 40.0


def row(
    codes: str, x: float = 10.0, y: float = 100.0, gaps_at: tuple[int, ...] = (), score: float = 0.9
) -> list:
    """Readings left to right, touching; a tile-wide gap before each place in ``gaps_at``."""
    out = []
    for i, code in enumerate(codes.split()):
        if i in gaps_at:
            x += W + 1
        out.append(TileRead((x, y, x + W, y + H), code, 0.95, "upright", score, index=i))
        x += W + 1
    return out


def renumber(tiles: list) -> list:
    from dataclasses import replace

    return [replace(t, index=i) for i, t in enumerate(tiles)]


def kinds(found: list[Check]) -> list[str]:
    return [c.kind for c in found]


def test_a_gap_where_a_tile_is_missing_is_named_with_its_neighbours() -> None:
    # 123m 456p 78_s 111z 2z: the 9s is missing, the 8s..1z pitch is twice the usual
    tiles = row("1m 2m 3m 4p 5p 6p 7s 8s 1z 1z 1z 2z", gaps_at=(8,))
    tiles.append(
        TileRead((tiles[-1].box[2] + 25, 100, tiles[-1].box[2] + 55, 140), "2z", 0.95, "upright", index=13)
    )
    lay = lay_out(tiles)
    found = gaps(lay)
    assert kinds(found) == ["gap"] and found[0].tiles == (7, 8)
    assert "8s at x=227" in found[0].message and "1z at x=289" in found[0].message
    size = wrong_size(lay, found)
    assert kinds(size) == ["hand_size"] and size[0].tiles == (7, 8) and "13 tiles" in size[0].message


def test_no_gap_between_two_whole_sets_nor_in_a_complete_hand() -> None:
    tiles = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z", gaps_at=(3,))  # 123m set apart
    tiles.append(
        TileRead((tiles[-1].box[2] + 25, 100, tiles[-1].box[2] + 55, 140), "2z", 0.95, "upright", index=13)
    )
    lay = lay_out(tiles)
    assert gaps(lay) == [] and wrong_size(lay, []) == []


def test_a_hand_one_tile_too_many_names_its_faint_box() -> None:
    tiles = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 7z 1z 1z 1z 2z")
    tiles[9] = TileRead(tiles[9].box, "7z", 0.95, "upright", 0.4, index=9)  # a faint box on the table
    tiles.append(
        TileRead((tiles[-1].box[2] + 25, 100, tiles[-1].box[2] + 55, 140), "2z", 0.95, "upright", index=14)
    )
    lay = lay_out(tiles)
    size = wrong_size(lay, [])
    assert kinds(size) == ["hand_size"] and size[0].tiles == (9,) and "15 tiles" in size[0].message


def test_a_fifth_copy_names_the_least_sure_copy_and_a_kong_is_fine() -> None:
    tiles = row("3m 3m 3m 3m 3m 4p")
    tiles[2] = TileRead(tiles[2].box, "3m", 0.41, "upright", 0.9, index=2)
    found = fifth_copies(tiles)
    assert (
        kinds(found) == ["fifth_copy"] and found[0].tiles == (2,) and "5 tiles read as 3m" in found[0].message
    )
    assert fifth_copies(row("3m 3m 3m 3m 4p")) == []
    # a red five is a five: four plain fives and a red one are five copies of 5m
    assert kinds(fifth_copies(row("5m 5m 5m 5m 0m"))) == ["fifth_copy"]
    assert fifth_copies(row("5m 5m 5m 0m 0p 5p")) == []  # red fives of a set with them: fine


def test_a_box_read_as_not_a_tile_beside_the_hand_is_named_and_one_far_away_is_not() -> None:
    tiles = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z", gaps_at=(13,))
    lay = lay_out(tiles)
    near = TileRead((470.0, 100.0, 500.0, 140.0), "none", 0.8, "upright", 0.6, index=20)
    far = TileRead((1400.0, 900.0, 1430.0, 940.0), "none", 0.8, "upright", 0.6, index=21)
    found = rejected_near(lay, [near, far])
    assert kinds(found) == ["rejected_near"] and found[0].tiles == (20,)


def test_faint_boxes_and_mended_tiles_are_checks_and_a_clean_hand_has_none() -> None:
    tiles = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z", gaps_at=(13,))
    assert checks(tiles, lay_out(tiles)) == []
    faint = renumber([*tiles[:3], TileRead(tiles[3].box, "4p", 0.95, "upright", 0.38, index=3), *tiles[4:]])
    found = checks(faint, lay_out(faint))
    assert kinds(found) == ["faint"] and found[0].tiles == (3,) and "0.38" in found[0].message


def test_every_front_end_shows_the_checked_tiles_like_the_low_confidence_ones() -> None:
    tiles = row("1m 2m 3m 4p 5p 6p 7s 8s 1z 1z 1z 2z", gaps_at=(8,))
    tiles.append(
        TileRead((tiles[-1].box[2] + 25, 100, tiles[-1].box[2] + 55, 140), "2z", 0.95, "upright", index=12)
    )
    stray = [
        TileRead((900.0 + 31 * i, 600.0, 930.0 + 31 * i, 640.0), "back", 0.9, "upright", index=13 + i)
        for i in range(4)
    ]
    result = score_tiles(tiles + stray, HandContext(), "mcr")
    assert result.warned == {7, 8} and kinds(result.checks) == ["gap", "hand_size"]
    assert result.warnings == [c.message for c in result.checks]
    record = photo_json(result)
    assert [c["kind"] for c in record["checks"]] == ["gap", "hand_size"]
    assert record["tiles"][7]["checks"] == ["gap", "hand_size"] and "checks" not in record["tiles"][6]
    assert [t["why"] for t in record["ignored"]] == ["wall"] * 4
    line = tile_line(result)
    assert "8s!" in line and "1z!" in line and "7s!" not in line
    assert left_out_notes(result) == [
        "note: left out 4 tile(s) in a wall (face down) (x=900 y=600, x=931 y=600, x=962 y=600, x=993 y=600)"
    ]
    page = page_json(result)
    flagged = [t["code"] for t in page["tiles"] if t["flagged"]]
    assert flagged == ["8s", "1z"] and page["tiles"][7]["checks"][0].startswith("a tile may be missing")
    assert page["left_out"] == [{"why": "wall", "tiles": [13, 14, 15, 16]}]
    assert {t["why"] for t in page["tiles"] if t["role"] == "unused"} == {"wall"}
    assert [c["tiles"] for c in page["checks"]] == [[7, 8], [7, 8]]


def test_the_read_line_follows_the_hands_rows_not_the_readers_order() -> None:
    """The ``Read:`` line lists the hand as laid out (its rows, each left to right), then what was
    left out: a reader's order (by detector score) or a second row of tiles under the hand never
    interleaves with it (it once sorted by ``box[1] // 1e9``, which is always 0: by x alone)."""
    import random

    hand = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z")
    below = [  # another player's tiles under the hand, their x between the hand's
        TileRead((25.0 + 62 * i, 600.0, 55.0 + 62 * i, 640.0), "9m", 0.9, "upright", index=14 + i)
        for i in range(5)
    ]
    tiles = hand + below
    random.Random(3).shuffle(tiles)
    result = score_tiles(tiles, HandContext(), "mcr")
    codes = [part[:2] for part in tile_line(result).split()]
    in_hand = [c for g in result.layout.groups for c in (t.code for t in g.tiles)]
    assert codes[: len(in_hand)] == in_hand and sorted(codes) == sorted(t.code for t in tiles)
    # the row the layout took as the hand, then the other row, each left to right
    (kept,) = {tuple(sorted(t.index for t in g.tiles)) for g in result.layout.groups}
    other = sorted((t for t in tiles if t.index not in kept), key=lambda t: t.box[0])
    assert codes == in_hand + [t.code for t in other] and len(other) in (len(hand), len(below))


def test_one_list_of_checks_and_the_mended_column_counts_mending_only() -> None:
    from dataclasses import replace

    from mahjong_camera_scorer.vision.render.csv_row import CSV_COLUMNS, csv_cells

    tiles = row("1m 2m 3m 4p 5p 6p 7s 8s 1z 1z 1z 2z", gaps_at=(8,))
    result = score_tiles(tiles, HandContext(), "riichi")
    record = photo_json(result)
    # the JSON's keys are views of the one list
    assert sorted(record["warnings"] + record["problems"]) == sorted(c.message for c in result.checks)
    assert [c["kind"] for c in record["checks"]] == [c.kind for c in result.tile_checks]
    mended = CSV_COLUMNS.index("mended")
    assert result.warnings and csv_cells(result)[mended] == 0  # a gap and a hand size: no mending
    fixed = replace(result, checks=[*result.checks, Check("mended", "took 3p for 8p", (4,))])
    assert csv_cells(fixed)[mended] == 1 and len(fixed.warnings) == len(result.warnings) + 1

"""The unseen-set measurement (scripts/eval_unseen.py): rows aligned with their codes, kinds counted."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.vision.read import TileRead
from tests.scripts.scriptutil import load_script

ev = load_script("eval_unseen")


def _row(codes: str) -> list[TileRead]:
    return [
        TileRead((i * 10.0, 0.0, i * 10.0 + 8, 12.0), c, 0.9, "upright", index=i)
        for i, c in enumerate(codes.split())
    ]


def test_align_counts_a_miss_a_false_box_and_a_misread() -> None:
    truth = ["1m", "2m", "3m", "4m", "5m"]
    read = _row("1m 3m 9m 4m 5m 6p")  # 2m missed, 9m extra, 6p extra at the end
    pairs = ev.align(truth, read)
    missed = [truth[i] for i, j in pairs if j is None]
    extra = [read[j].code for i, j in pairs if i is None]
    assert missed == ["2m"] and sorted(extra) == ["6p", "9m"]
    assert ev.errors([truth], [read]) == 3
    assert ev.errors([truth], [_row("1m 2m 3m 4m 6m")]) == 1  # a misread pairs with its place


def test_a_skipped_code_matches_anything_or_nothing() -> None:
    truth = ["1m", ev.SKIP, "3m"]
    assert ev.errors([truth], [_row("1m 7z 3m")]) == 0
    assert ev.errors([truth], [_row("1m 3m")]) == 0


def test_kinds_of_codes_and_sideways_boxes() -> None:
    assert set(ev.kinds_of("5z")) == {"white_dragon", "honours"}
    assert set(ev.kinds_of("0m")) == {"man", "red_five"}
    assert ev.kinds_of("back") == ["back"]
    assert "sideways" in ev.kinds_of("3s", (0, 0, 40, 20)) and "sideways" not in ev.kinds_of(
        "3s", (0, 0, 20, 30)
    )


def test_tally_per_kind() -> None:
    t = ev.Tally()
    t.truth("5z", None, True, "5z")
    t.truth("5z", None, True, "none")  # boxed, then dropped as not a tile
    t.truth("1m", None, False, None)
    t.reading("5z", True)
    t.reading("5z", False)  # a booklet read as a blank white
    kinds = t.summary()["kinds"]
    white = kinds["white_dragon"]
    assert (white["labels"], white["found"], white["read"], white["dropped_as_none"]) == (2, 2, 1, 1)
    assert white["precision"] == 0.5 and kinds["man"]["found_share"] == 0.0


@pytest.mark.skipif(not ev.PR4.is_dir(), reason="no ../shared/data/camerash-pr4")
def test_pr4_codes_parse_into_four_grids_of_36() -> None:
    grids = ev.pr4_grids()
    assert [p.name for p, _ in grids] == ["15-1.jpg", "15-2.jpg", "15-3.jpg", "15-4.jpg"]
    assert all(len(rows) == 4 and all(len(r) == 9 for r in rows) for _, rows in grids)
    crops = ev.pr4_crops()
    assert len(crops) == 80 and all(p.is_file() for p, _ in crops)


def _grid(rows: list[str], w: float = 20.0, h: float = 28.0) -> list[TileRead]:
    """Tiles standing in rows, as a grid photo shows them (left to right, top to bottom)."""
    out: list[TileRead] = []
    for r, codes in enumerate(rows):
        for c, code in enumerate(codes.split()):
            x, y = c * (w + 2), r * (h + 6)
            out.append(TileRead((x, y, x + w, y + h), code, 0.9, "upright", index=len(out)))
    return out


def test_grid_set_names_the_set_a_photo_shows() -> None:
    assert ev.grid_set(ev.CAMERASH / "4.jpg") == "camerash-4"
    assert ev.grid_set(ev.CAMERASH / "6-2.png") == "camerash-6"
    assert ev.grid_set(ev.PR4 / "raw-images" / "15-3.jpg") == "pr4"


def test_grid_rows_keeps_rows_and_merges_them_when_their_count_differs() -> None:
    tiles = _grid(["1m 2m 3m", "4p 5p 6p"])
    rows, codes, done = ev.grid_rows(tiles, [["1m", "2m", "3m"], ["4p", "5p", "6p"]])
    assert [[t.code for t in r] for r in rows] == [["1m", "2m", "3m"], ["4p", "5p", "6p"]]
    assert done == [] and ev.errors(codes, rows) == 0
    rows, codes, done = ev.grid_rows(tiles, [["1m", "2m", "3m", "4p", "5p", "6p"]])
    assert done == ["rows_merged"] and len(rows) == 1 and ev.errors(codes, rows) == 0


def test_grid_rows_turns_a_photo_whose_codes_fit_it_turned() -> None:
    tiles = _grid(["6p 5p 4p", "3m 2m 1m"])  # the grid photographed from the other side
    rows, codes, done = ev.grid_rows(tiles, [["1m", "2m", "3m"], ["4p", "5p", "6p"]])
    assert done == ["photo_turned"] and ev.errors(codes, rows) == 0


def test_eval_grids_reads_each_photo_with_the_reader_picked_for_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    class Seen:
        def __init__(self, tiles: list[TileRead]) -> None:
            self.tiles, self.rejected = tiles, []

    class Reader:  # a stand-in for PhotoReader: reads every photo as one row
        def __init__(self, row: str) -> None:
            self.row = row

        def read(self, path):  # type: ignore[no-untyped-def]
            return Seen(_grid([self.row]))

    good, bad = Reader("1m 2m 3m"), Reader("1m 2m 9m")
    photos = [(tmp_path / "4.jpg", [["1m", "2m", "3m"]]), (tmp_path / "7.jpg", [["1m", "2m", "3m"]])]
    picked = ev.eval_grids(lambda p: good if p.name == "4.jpg" else bad, photos)
    assert picked["per_set"]["4.jpg"]["tile_f1"] == 1.0 and picked["per_set"]["7.jpg"]["misread"] == 1
    assert picked["all"]["tile_tp"] == 5

"""The unseen-set measurement (scripts/eval_unseen.py): rows aligned with their codes, kinds counted."""

from __future__ import annotations

import pytest

from tests.scripts.scriptutil import load_script
from vision.read import TileRead

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

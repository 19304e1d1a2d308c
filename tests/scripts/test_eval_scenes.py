"""The scene measurement (scripts/eval_scenes.py): size buckets, grid boxes, and the counting."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth import photo_variants as pv
from mahjong_camera_scorer.mjsynth.photo_variants import SceneTile, with_rows
from mahjong_camera_scorer.mjsynth.realphotos import UNKNOWN_FACE
from tests.scripts.scriptutil import load_script

ev = load_script("eval_scenes")
ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"


@dataclass
class Reading:
    """The fields of a vision.read.TileRead that the counting looks at."""

    box: tuple[float, float, float, float]
    code: str
    detector_score: float = 0.9


def photo() -> tuple[np.ndarray, list[SceneTile]]:
    """A row of four tiles 40 x 60 (one a box-only label) and a tile lying apart."""
    labels = [(c, (100.0 + 45 * i, 100.0, 140.0 + 45 * i, 160.0)) for i, c in enumerate(["1m", "2m", "3m"])]
    labels += [(UNKNOWN_FACE, (235.0, 100.0, 275.0, 160.0)), ("7z", (500.0, 300.0, 540.0, 360.0))]
    return np.zeros((400, 640, 3), np.uint8), with_rows(labels)


def perfect(tiles: list[SceneTile]) -> list[Reading]:
    return [Reading(t.box, "9p" if t.code == UNKNOWN_FACE else t.code) for t in tiles]


def count(pred: list[Reading], variant: Any = None, rejected: list[Reading] | None = None) -> Any:
    image, tiles = photo()
    v = variant or pv.original(image, tiles)
    t = ev.SceneTally()
    t.add(v, ev.row_bands(tiles), pred, rejected or [], sure=True)
    return t


def test_size_buckets_are_half_open() -> None:
    assert [ev.bucket(s) for s in (9.9, 10, 15.9, 16, 24, 39.9, 40, 80, 500)] == [
        "<10", "10-16", "10-16", "16-24", "24-40", "24-40", "40-80", "80+", "80+",
    ]  # fmt: skip


def test_a_perfect_reading_is_exact_and_counts_every_tile_in_its_size() -> None:
    _, tiles = photo()
    t = count(perfect(tiles))
    s = t.summary()
    assert (s["recall"], s["tile_f1"], s["exact_rows"], s["exact_photos"]) == (1.0, 1.0, "1/1", "1/1")
    assert s["labels"] == 5 and s["coded_labels"] == 4 and s["box_only_boxed"] == 1
    assert s["right_called_sure"] == "1/1" and s["wrong_called_sure"] == "0/0"
    assert s["by_size"]["40-80"]["labels"] == 5 and set(s["by_size"]) == {"40-80"}


def test_a_missed_tile_lowers_recall_and_breaks_its_row() -> None:
    _, tiles = photo()
    pred = perfect(tiles)
    del pred[1]  # 2m not found
    rejected = [Reading(tiles[1].box, "none")]  # boxed, then read as not a tile
    s = count(pred, rejected=rejected).summary()
    assert s["recall"] == 0.8 and s["tile_recall"] == 0.75 and s["tile_precision"] == 1.0
    assert (s["exact_rows"], s["exact_photos"], s["dropped_as_none"]) == ("0/1", "0/1", 1)
    assert s["wrong_called_sure"] == "1/1"


def test_a_misread_lowers_f1_not_recall() -> None:
    _, tiles = photo()
    pred = perfect(tiles)
    pred[0] = Reading(pred[0].box, "4m")
    s = count(pred).summary()
    assert s["recall"] == 1.0 and s["tile_f1"] == pytest.approx(0.75)
    assert s["misread"] == 1 and s["top_misreads"] == [("1m->4m", 1)] and s["exact_rows"] == "0/1"
    # a box-only label read as anything is no misread
    pred = perfect(tiles)
    pred[3] = Reading(pred[3].box, "5z")
    assert count(pred).summary()["tile_f1"] == 1.0


def test_an_extra_box_is_false_and_breaks_the_row_it_lies_in() -> None:
    _, tiles = photo()
    in_row = count([*perfect(tiles), Reading((280.0, 100.0, 300.0, 160.0), "5p")]).summary()
    assert in_row["false_boxes"] == 1 and in_row["recall"] == 1.0 and in_row["tile_precision"] == 0.8
    assert (in_row["exact_rows"], in_row["exact_photos"]) == ("0/1", "0/1")
    apart = count([*perfect(tiles), Reading((10.0, 350.0, 30.0, 380.0), "5p")]).summary()
    assert (apart["exact_rows"], apart["exact_photos"], apart["false_boxes"]) == ("1/1", "0/1", 1)
    # a false box counts in the bucket of its own size
    assert apart["by_size"]["24-40"]["false_boxes"] == 1


def test_a_tile_cut_at_the_border_is_either_way() -> None:
    image, tiles = photo()
    v = pv.Variant("crop", "crop-r0", image[:, :120], np.eye(3), pv.place(tiles, np.eye(3), 120, 400))
    assert [(p.code, p.required) for p in v.tiles] == [("1m", False)]  # half of 1m, 2m out
    for pred in ([], [Reading((100.0, 100.0, 120.0, 160.0), "1m")]):
        s = count(pred, v).summary()
        assert (s["labels"], s["false_boxes"], s["cut_tiles"], s["photos"]) == (0, 0, 1, 1)


def test_a_false_box_in_a_variant_is_placed_in_its_row_through_the_variant() -> None:
    image, tiles = photo()
    v = pv.turned(image, tiles, 1)  # the row now stands upright at the left
    pred = [Reading(p.box, "9p" if p.code == UNKNOWN_FACE else p.code) for p in v.tiles]
    x0, y0, x1, y1 = v.tiles[0].box
    extra = Reading((x0, y0 - 70, x1, y1 - 70), "5p")  # next to the row's end, in the turned frame
    s = count([*pred, extra], v).summary()
    assert (s["recall"], s["false_boxes"], s["exact_rows"]) == (1.0, 1, "0/1")


def test_grid_cells_are_the_tiles_of_a_grid_photo() -> None:
    tiles = ev.grid_tiles([["1m", "2m", "x"], ["3p", "4p", "5p"]], 300, 200)
    assert tiles[0] == SceneTile("1m", (0.0, 0.0, 100.0, 100.0), 0)
    assert tiles[2].code == UNKNOWN_FACE and tiles[5] == SceneTile("5p", (200.0, 100.0, 300.0, 200.0), 1)


def test_sure_from_the_verdict_where_there_is_one_else_the_proxy() -> None:
    @dataclass
    class Result:
        flagged: list[int] = field(default_factory=list)
        tile_checks: list[str] = field(default_factory=list)

    from mahjong_camera_scorer.vision.verdict import Verdict

    assert ev.is_sure(Result()) == (True, "proxy")
    assert ev.is_sure(Result(flagged=[1])) == (False, "proxy")
    assert ev.is_sure(Result(tile_checks=["hand_size"])) == (False, "proxy")
    with_verdict = Result(flagged=[1])
    # these photos are no hands: a hand of the wrong size is no doubt about the tiles read
    with_verdict.verdict = Verdict(False, (), ("hand_size",), shown=9)  # type: ignore[attr-defined]
    assert ev.is_sure(with_verdict) == (True, "verdict")
    with_verdict.verdict = Verdict(False, (), (), shown=0)  # type: ignore[attr-defined]
    assert ev.is_sure(with_verdict) == (False, "verdict")


def test_spread_takes_photos_evenly() -> None:
    assert ev.spread(list(range(10)), 3) == [0, 3, 6] and ev.spread([1, 2], 5) == [1, 2]
    assert ev.spread([1, 2], None) == [1, 2]


def test_bad_choices_are_one_line_errors(capsys) -> None:  # type: ignore[no-untyped-def]
    assert ev.main(["--variants", "crop,zoom"]) == 2
    assert "unknown variant zoom" in capsys.readouterr().err
    assert ev.main(["--sources", "chinese,mars"]) == 2
    assert "unknown source mars" in capsys.readouterr().err
    assert ev.main(["--limit", "0"]) == 2
    assert ev.main(["--models", "/nonexistent", "--limit", "1"]) in (2,)


def test_a_grid_set_is_read_by_its_own_reader_left_out() -> None:
    shipped, left_out = object(), object()
    read_by = ev.per_set({"pr4": left_out}, shipped)  # type: ignore[dict-item, arg-type]
    assert read_by(ev.SourcePhoto("pr4", "15-1.jpg", photo, "pr4")) is left_out
    assert read_by(ev.SourcePhoto("chinese", "a.jpg", photo)) is shipped


@pytest.mark.skipif(not (SHARED / "camerash-pr4").is_dir(), reason="../shared/data/camerash-pr4 not present")
def test_missing_left_out_readers_are_named(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert ev.main(["--loso", str(tmp_path), "--sources", "pr4,frames", "--limit", "1"]) == 2
    assert f"no reader at {tmp_path / 'reader-pr4.onnx'}" in capsys.readouterr().err


@pytest.mark.models
@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "real").is_dir(), reason="../shared/data/real not present")
def test_one_real_photo_end_to_end(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "scenes.json"
    assert ev.main(["--limit", "1", "--sources", "chinese", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    per = result["chinese"]
    assert result["photos_per_source"] == {"chinese": 1} and set(per) == set(pv.KINDS)
    assert per["original"]["photos"] == 1 and per["far"]["photos"] == 2
    assert per["original"]["recall"] >= 0.8  # the shipped models read the test photos at 0.99
    assert result["scoring"]["sure"] in (["proxy"], ["verdict"])
    table = capsys.readouterr().out
    assert "| chinese | seat |" in table and "| all | turn180 |" in table


def test_the_tables_show_every_case_and_sizes_with_false_boxes_only() -> None:
    _, tiles = photo()
    t = count([*perfect(tiles), Reading((10.0, 350.0, 22.0, 362.0), "5p")])  # a 12 px false box
    results = ev.results_json({"frames": {"seat": t}}, ["original", "seat"])
    table = ev.markdown(results, ["original", "seat"])
    assert "| frames | seat | 1 | 5 | 1.000 | 0.889 | 1.00 | 1/1 | 0/1 | 0/0 | 1/1 |" in table
    assert "| frames | seat |  | (1 false) |  |  | 1.000 / 1.000 (5) |  |" in table
    assert "| all | seat |" in table and "| seat |  |  |  |  | 1/1 |  |" in table
    assert "original" not in table

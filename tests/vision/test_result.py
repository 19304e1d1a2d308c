"""The one road from a photo to its score (:func:`vision.pipeline.read_and_score` and
:mod:`vision.result`): each stage once, the hand built from the layout directly, boxes in the
photo's own pixels, every mending change named."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import pytest

import mahjong_camera_scorer.vision.mend
from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.tiles import tile
from mahjong_camera_scorer.vision.layout import Layout
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.render.records import photo_json
from mahjong_camera_scorer.vision.result import mend_notes
from mahjong_camera_scorer.vision.table import LeftOut
from tests.vision.support import EXAMPLE, TruthReader, truth_tiles

CTX = HandContext(win_by="self_draw", seat_wind="W", dora_indicators=(tile("3m"),))


def test_a_frame_is_read_laid_out_once_and_scored_without_a_text_round_trip(monkeypatch) -> None:
    calls = {"lay_out": 0}
    real = mahjong_camera_scorer.vision.mend.lay_out

    def counting(tiles):  # type: ignore[no-untyped-def]
        calls["lay_out"] += 1
        return real(tiles)

    def no_text(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("the hand must be built from the layout, not from its text")

    monkeypatch.setattr(mahjong_camera_scorer.vision.mend, "lay_out", counting)
    monkeypatch.setattr(Layout, "to_dict", no_text)  # the structured form is only for rendering
    reader = TruthReader()
    result = reader.read_and_score(cv2.imread(str(EXAMPLE)), CTX, "riichi", {})
    monkeypatch.undo()
    assert calls["lay_out"] == 1 and reader.calls == {"detect": 1, "read": 1}
    assert result.score is not None and result.score.valid and result.score.details["han"] == 4  # + dora 4m
    assert result.hand is not None and result.hand.context.dora_indicators == (tile("3m"),)
    assert result.hand_json()["hand"] == "345m55888p444s" and result.hand_json()["dora_indicators"] == ["3m"]
    assert result.hand_json(with_context=False).keys() == {"hand", "melds", "winning_tile", "bonus_tiles"}
    assert list(result.timings) == ["detect", "read", "layout", "score"]
    assert result.image_shape == (768, 1024, 3) and result.warnings == [] and result.problems == []
    assert len(result.tiles) == len(truth_tiles()) == len({t.index for t in result.tiles})


def test_detections_given_are_not_found_again_and_no_rules_means_no_score() -> None:
    reader = TruthReader()
    image = cv2.imread(str(EXAMPLE))
    dets = reader.detect(image)
    result = reader.read_and_score(image, detections=dets, mend_boxes=False)
    assert reader.calls == {"detect": 1, "read": 1} and "detect" not in result.timings
    assert result.score is None and result.hand is not None and result.rules is None


def test_a_photo_file_decoded_reduced_gives_boxes_in_its_own_pixels(tmp_path: Path) -> None:
    big = cv2.resize(cv2.imread(str(EXAMPLE)), (4096, 3072), interpolation=cv2.INTER_LINEAR)
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), big)
    reader = TruthReader(scale=2.0)  # the truth boxes in the 2048 px picture the decoder gives
    result = reader.read_and_score(path, CTX, "riichi", {})
    assert result.image_shape == (3072, 4096, 3) and result.scale == 2.0 and result.image.shape[1] == 2048
    want = sorted(tuple(v * 4 for v in t["box"]) for t in truth_tiles())
    assert [v for b in sorted(t.box for t in result.tiles) for v in b] == pytest.approx(
        [v for b in want for v in b]
    )
    assert {t.box for g in result.layout.groups for t in g.tiles} <= {t.box for t in result.tiles}
    assert set(result.timings) == {"decode", "detect", "read", "layout", "score"}
    assert result.score is not None and result.score.valid


def test_the_context_winning_tile_overrides_the_layout_and_drops_its_problem() -> None:
    reader = TruthReader()
    image = cv2.imread(str(EXAMPLE))
    far = reader.read_and_score(image, replace(CTX, winning_tile=tile("5m")), "riichi", {})
    assert far.hand_json()["winning_tile"] == "5m" and far.hand is not None
    assert far.hand.context.winning_tile == tile("5m")
    assert not any("winning tile" in p for p in far.problems)


def test_a_scorer_bug_is_an_invalid_score_not_an_exception(monkeypatch) -> None:
    import mahjong_camera_scorer.scoring.rules

    def boom(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(
        mahjong_camera_scorer.scoring.rules, "score_hand", boom
    )  # score_or_invalid lives there now
    result = TruthReader().read_and_score(cv2.imread(str(EXAMPLE)), CTX, "mcr", {})
    assert result.score is not None and not result.score.valid
    assert "internal error while scoring: ZeroDivisionError: oops" in (result.score.error or "")


def test_every_mending_change_is_named_for_the_player() -> None:
    kept = TileRead((10.0, 20.0, 40.0, 60.0), "9s", 0.7, "upright", 0.25, index=0)
    fixed = replace(
        kept, box=(50.0, 20.0, 80.0, 60.0), code="3p", corrected_from="8p", detector_score=0.9, index=1
    )
    dropped = replace(kept, box=(90.0, 20.0, 120.0, 60.0), code="7z", detector_score=0.4, index=2)
    notes = mend_notes([kept, fixed], Layout(dropped=[dropped], added=[kept]))
    assert len(notes) == 3
    assert "x=90 y=20" in notes[0] and "7z" in notes[0] and "left out" in notes[0]
    assert "x=10 y=20" in notes[1] and "taken in as 9s" in notes[1]
    assert "read as 8p, taken as 3p" in notes[2]
    assert mend_notes([kept], Layout()) == []
    apart = Layout(left_out=[LeftOut("apart", [fixed])])
    assert mend_notes([fixed], apart) == []  # a tile lying apart is not the hand's


def test_a_reduced_photo_is_read_in_its_own_pixels_and_the_layout_names_those_readings(
    tmp_path: Path,
) -> None:
    """Boxes are in the photo's pixels from the moment a tile is read (no rescaling afterwards),
    so the layout's groups and left-out lists hold the very readings the result lists (front
    ends match left-out and flagged tiles by their index)."""
    big = cv2.resize(cv2.imread(str(EXAMPLE)), (4096, 3072), interpolation=cv2.INTER_LINEAR)
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), big)
    result = TruthReader(scale=2.0).read_and_score(path, CTX, "riichi", {})
    shown = {id(t) for t in result.tiles}
    assert result.scale == 2.0 and result.layout.groups
    assert all(id(t) in shown for g in result.layout.groups for t in g.tiles)
    assert all(id(t) in shown for t in result.layout.ignored)
    assert max(t.box[2] for t in result.tiles) > result.image.shape[1]  # photo pixels, not decoded


def test_a_hand_in_one_row_is_scored_with_its_best_candidate_and_lists_them_all() -> None:
    """No winning tile set apart: each tile that could have completed the hand is scored, the
    best gives the score (flagged: to be checked), the layout's complaint is gone."""
    from tests.vision.support import one_row_manifest

    reader = TruthReader(one_row_manifest())
    result = reader.read_and_score(cv2.imread(str(EXAMPLE)), CTX, "riichi", {})
    assert result.layout.winning_tile is None and result.layout.problem_kinds == ["no_winning_tile"]
    assert [c.tile.code for c in result.candidates] and result.winning_from == "candidate"
    assert sorted(c.tile.code for c in result.candidates) == ["3m", "4m", "4s", "5m", "5p", "8p"]
    assert result.score is result.candidates[0].score and result.score.valid
    assert result.scored_winning_tile == result.candidates[0].tile.code
    assert result.problems == [] and result.problem_kinds == []
    assert any("check which tile won" in w for w in result.warnings)
    record = photo_json(result)
    assert record["hand"]["winning_tile"] is None and record["winning_tile_from"] == "candidate"
    assert [c["tile"] for c in record["candidates"]] == [c.tile.code for c in result.candidates]
    # the tile that won, given: that score, the candidates still listed (the page switches)
    won = replace(CTX, winning_tile=tile("4s"))
    given = reader.read_and_score(cv2.imread(str(EXAMPLE)), won, "riichi", {})
    assert given.winning_from == "given" and given.score.valid and given.candidates == result.candidates
    assert given.score.to_json() == next(c for c in result.candidates if c.tile.code == "4s").score.to_json()


def _without(manifest: dict, codes: list[str], keep: int | None = None) -> dict:
    """The manifest less one tile of each code given (or only its first ``keep`` tiles)."""
    tiles = [t for t in manifest["tiles"] if t.get("labelled", True) and t.get("seat", 0) == 0]
    for code in codes:
        tiles.remove(next(t for t in tiles if t["code"] == code))
    return {**manifest, "tiles": tiles[:keep] if keep is not None else tiles}


def test_a_photo_short_of_tiles_says_its_count_not_which_tile_to_give() -> None:
    """Four tiles read: the count, never "give it with --winning-tile" (issue 38)."""
    from mahjong_camera_scorer.vision.render.text import text_lines
    from tests.vision.support import one_row_manifest

    reader = TruthReader(_without(one_row_manifest(), [], keep=4))
    result = reader.read_and_score(cv2.imread(str(EXAMPLE)), CTX, "mcr", {})
    assert result.score is not None and not result.score.valid
    assert result.problem is not None and result.problem.kind == "incomplete" and result.problem.have == 4
    text = "\n".join(text_lines(result))
    assert "4 concealed tiles with 0 declared sets: a hand has 13 before its winning tile" in text
    assert "--winning-tile" not in text + " ".join(result.problems) and "give the winning tile" not in text
    assert photo_json(result)["problem"] == {"kind": "incomplete", "have": 4, "need": 14}


def test_a_ready_hand_photographed_lists_its_waits_in_text_json_page_and_camera() -> None:
    """The example in one row less its 3m: 13 tiles waiting on 3m and 6m, each scored."""
    from mahjong_camera_scorer.vision.render.page import page_json
    from mahjong_camera_scorer.vision.render.records import camera_json
    from mahjong_camera_scorer.vision.render.text import text_lines
    from tests.vision.support import one_row_manifest

    reader = TruthReader(_without(one_row_manifest(), ["3m"]))
    result = reader.read_and_score(cv2.imread(str(EXAMPLE)), CTX, "riichi", {})
    assert result.score is not None and not result.score.valid
    assert [w.tile.code for w in sorted(result.waits, key=lambda w: w.tile.code)] == ["3m", "6m"]
    assert all(w.valid for w in result.waits)
    text = "\n".join(text_lines(result))
    assert "Waits: one tile from a win, on 3m 6m" in text and "it waits on 3m, 6m" in text
    page = page_json(result)
    assert {w["code"] for w in page["waits"]} == {"3m", "6m"}
    assert [n["kind"] for n in page["notices"] if n["about"] == "score"] == ["ready"]
    assert [w["tile"] for w in photo_json(result)["waits"]] == [w.tile.code for w in result.waits]
    assert camera_json(result, 0, 0.1)["waits"] == photo_json(result)["waits"]

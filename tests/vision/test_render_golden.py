"""Every rendering of one :class:`vision.result.HandResult`, pinned byte for byte.

The renderers (the ``photo`` command's lines, ``--json``, the photos CSV's cells, the phone page's
payload, the camera's lines and JSON, the session's :class:`PhotoHand`) were moved out of one
module into one per output kind; these files were written by the code before the move, so a
rendering that changes without meaning to fails here. Three scenes, read by the stand-in reader
(no models): the example photo with its winning tile set apart; the same hand in one row (the
candidates); two tiles read with low confidence under MCR (what to check).

``GOLDEN_UPDATE=1 pytest tests/vision/test_render_golden.py`` rewrites the files after a change
that is meant (review the diff).
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import cv2
import pytest

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.notation import format_hand
from mahjong_camera_scorer.scoring.tiles import tile
from mahjong_camera_scorer.vision.camera import FrameState, SteadyView, breakdown, overlay
from mahjong_camera_scorer.vision.render.camera import candidates_line, hand_line, score_line
from mahjong_camera_scorer.vision.render.csv_row import csv_cells
from mahjong_camera_scorer.vision.render.page import page_json
from mahjong_camera_scorer.vision.render.records import camera_json, photo_json
from mahjong_camera_scorer.vision.render.text import check_lines, text_lines
from mahjong_camera_scorer.vision.result import HandResult
from mahjong_camera_scorer.vision.session_photo import photo_hand
from tests.vision.support import EXAMPLE, TruthReader, one_row_manifest

GOLDEN = Path(__file__).with_name("golden")

SCENES: dict[str, tuple[dict[str, Any] | None, tuple[int, ...], str, HandContext]] = {
    "set_apart": (None, (), "riichi", HandContext(win_by="self_draw", seat_wind="W")),
    "one_row": (one_row_manifest(), (), "riichi", HandContext(win_by="self_draw", seat_wind="W")),
    "low_mcr": (None, (2, 5), "mcr", HandContext(win_by="discard", seat_wind="S", discarder="E")),
    "given_zj": (one_row_manifest(), (), "zung-jung", HandContext(win_by="discard", winning_tile=tile("4s"))),
}


@pytest.fixture(scope="module")
def image() -> Any:
    return cv2.imread(str(EXAMPLE))


def _result(image: Any, scene: str) -> HandResult:
    manifest, low, rules, ctx = SCENES[scene]
    return TruthReader(manifest, low).read_and_score(image, ctx, rules, {})


def drawn_text(image: Any, result: HandResult, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The text the camera draws on its live overlay and on the frozen breakdown, line by line."""
    drawn: list[str] = []
    put = cv2.putText

    def record(canvas: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return put(canvas, text, *args, **kwargs)

    monkeypatch.setattr(cv2, "putText", record)
    view = SteadyView(3, result, 0.25)
    detections = TruthReader().detect(image)
    rules = result.score.rules if result.score else ""
    overlay(image, FrameState(3, detections, True, 0.0, view), 12.5, rules)
    live, drawn[:] = list(drawn), []
    breakdown(image, view)
    frozen = list(drawn)
    monkeypatch.undo()
    return {"camera_overlay": live, "camera_breakdown": frozen}


def renderings(result: HandResult) -> dict[str, Any]:
    """Each renderer's output for ``result`` (timings, which vary, left out)."""
    record = photo_json(result)
    record.pop("timings_ms")
    view = SteadyView(3, result, 0.25)
    session = photo_hand(result)
    return {
        "text_lines": text_lines(result),
        "check_lines": check_lines(result),
        "photo_json": record,
        "csv_cells": csv_cells(result),
        "page_json": page_json(result),
        "page_json_ids": page_json(result, [f"t{i}" for i in range(len(result.tiles))]),
        "camera_json": camera_json(result, 3, 0.25),
        "camera_line": hand_line(result),
        "camera_candidates_line": candidates_line(result),
        "camera_score_line": score_line(view.score),
        "photo_hand": {
            **{f.name: getattr(session, f.name) for f in dataclasses.fields(session) if f.name != "hand"},
            "hand": format_hand(session.hand) if session.hand is not None else None,
        },
    }


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_each_rendering_is_unchanged(image: Any, scene: str, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _result(image, scene)
    got = "".join(
        f"{name}: {json.dumps(value, ensure_ascii=False)}\n"
        for name, value in {**renderings(result), **drawn_text(image, result, monkeypatch)}.items()
    )
    path = GOLDEN / f"render-{scene}.txt"
    if os.environ.get("GOLDEN_UPDATE"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8"), f"{path.name} differs: a rendering changed"


def test_the_scenes_differ_where_they_should(image: Any) -> None:
    """The check itself: the scenes exercise the candidates, the flagged tiles and a given tile."""
    one_row, low = _result(image, "one_row"), _result(image, "low_mcr")
    assert one_row.winning_from == "candidate" and len(one_row.candidates) > 1
    assert len(low.flagged) == 2 and low.score is not None
    assert _result(image, "given_zj").winning_from == "given"

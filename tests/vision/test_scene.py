"""The scene a photo's road passes along (:mod:`vision.scene`): each step's changes recorded, the
hand's frame kept only while the tiles are the same, and ``--json`` showing the record."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from mahjong_camera_scorer.vision.photo import Photo
from mahjong_camera_scorer.vision.pipeline import ROAD
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.render.records import photo_json
from mahjong_camera_scorer.vision.scene import Scene, changes
from tests.vision.support import EXAMPLE, TruthReader


def _tile(i: int, code: str = "1m", x: float = 0.0) -> TileRead:
    return TileRead((x, 0.0, x + 30.0, 40.0), code, 0.9, "upright", index=i)


def test_each_kind_of_change_is_recorded_with_its_reason() -> None:
    a, b, c = _tile(0, "1m"), _tile(1, "2m", 31), _tile(2, "3m", 62)
    after = [replace(a, code="7m"), replace(b, box=(40.0, 0.0, 70.0, 40.0)), _tile(3, "4m", 93)]
    found = changes("mend", [a, b, c], after, {"recoded": "next candidate", "dropped": "faint"}, {3: "asked"})
    assert [(x.what, x.index, x.why) for x in found] == [
        ("added", 3, "asked"),
        ("dropped", 2, "faint"),
        ("moved", 1, "mend"),
        ("recoded", 0, "next candidate"),
    ]
    assert found[-1].was == "1m" and found[-1].code == "7m"


def test_a_scene_is_never_changed_in_place_and_keeps_its_frame_only_for_the_same_tiles() -> None:
    tiles = [_tile(i, "1m", 31.0 * i) for i in range(4)]
    scene = Scene(Photo(np.zeros((50, 200, 3), np.uint8))).after("read", tiles=tiles)
    framed = scene.after("frame", frame=scene.hand_frame())
    assert scene.frame is None and framed.frame is not None
    same = framed.after("nothing", tiles=list(framed.tiles))
    assert same.frame is framed.frame
    fewer = framed.after("drop", tiles=tiles[:3], why={"dropped": "gone"})
    assert fewer.frame is None and len(framed.tiles) == 4
    assert [c.what for c in fewer.record] == ["added"] * 4 + ["dropped"]


def test_the_road_records_where_every_tile_shown_came_from_and_json_shows_it() -> None:
    result = TruthReader().read_and_score(cv2.imread(str(EXAMPLE)), rules="riichi")
    added = {c.index for c in result.record if c.what in ("added", "found")}
    dropped = {c.index for c in result.record if c.what == "dropped"}
    assert {t.index for t in result.tiles} <= added - dropped
    shown = photo_json(result)["record"]
    assert shown and {"step", "change", "tile", "code", "why"} <= shown[0].keys()
    assert len(ROAD) >= 5

"""The photo reader's road as a whole (:class:`vision.pipeline.PhotoReader`) with the shipped models."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.faint import APART_SURE
from tests.vision.support import EXAMPLE, models_present, truth_tiles


@pytest.fixture(scope="module")
def shipped():  # type: ignore[no-untyped-def]
    if not models_present():
        pytest.skip("the shipped models are not in models/")
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    return PhotoReader()


@pytest.mark.models
@pytest.mark.parametrize("score", [APART_SURE - 0.1, APART_SURE + 0.2])
def test_a_tile_lying_alone_on_the_table_is_shown_only_when_the_detector_is_sure(
    shipped, score: float
) -> None:  # type: ignore[no-untyped-def]
    truth = truth_tiles()
    image = cv2.imread(str(EXAMPLE))
    x0, y0, x1, y1 = (round(v) for v in truth[3]["box"])
    photo = image.copy()
    at = (600, 500)  # plain table, far below the hand's row
    photo[at[1] : at[1] + y1 - y0, at[0] : at[0] + x1 - x0] = image[y0:y1, x0:x1]
    alone = (float(at[0]), float(at[1]), float(at[0] + x1 - x0), float(at[1] + y1 - y0))
    dets = [Detection(t["box"], "back" if t["code"] == "back" else "tile", 0.9) for t in truth]
    result = shipped.read_and_score(
        np.ascontiguousarray(photo), detections=[*dets, Detection(alone, "tile", score)]
    )
    shown = [t for t in result.tiles if t.box == alone]
    if score < APART_SURE:
        assert shown == [] and len(result.tiles) == len(truth)
        assert all(t.box != alone for t in [*result.layout.ignored, *result.rejected])
    else:
        assert [t.code for t in shown] == [truth[3]["code"]]
        assert [lo.why for lo in result.layout.left_out if shown[0] in lo.tiles] == ["apart"]
    assert result.layout.concealed  # the hand is read as before

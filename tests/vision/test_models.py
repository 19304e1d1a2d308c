"""The shipped ONNX models load with onnxruntime alone and describe themselves in metadata."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from mahjong_camera_scorer.vision.classes import DETECTOR_CLASSES, READER_CLASSES
from mahjong_camera_scorer.vision.models import DETECTOR_FILE, MODELS_DIR, READER_FILE, ModelError, load_model

needs_models = pytest.mark.skipif(
    not (MODELS_DIR / DETECTOR_FILE).is_file() or not (MODELS_DIR / READER_FILE).is_file(),
    reason="models not built (make models)",
)


def test_missing_model_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ModelError, match="model not found"):
        load_model(tmp_path / "none.onnx")
    (tmp_path / "bad.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot load model"):
        load_model(tmp_path / "bad.onnx")


@pytest.mark.models
@needs_models
def test_detector_metadata_and_output_shape() -> None:
    det = load_model(MODELS_DIR / DETECTOR_FILE)
    assert det.classes == DETECTOR_CLASSES
    h, w = det.imgsz
    assert h == w and h % 32 == 0
    out = det.run(np.zeros((1, 3, h, w), np.float32))[0]
    assert out.shape[:2] == (1, 4 + len(DETECTOR_CLASSES))


@pytest.mark.models
@needs_models
def test_detector_runs_at_its_own_size_and_smaller_for_the_live_camera() -> None:
    import cv2

    from mahjong_camera_scorer.vision.detect import detect

    det = load_model(MODELS_DIR / DETECTOR_FILE)
    assert det.dynamic and det.imgsz == (480, 480)
    example = cv2.imread(str(MODELS_DIR.parent / "examples" / "hand.jpg"))
    assert len(detect(det, example)) == 15  # 480 px, as photos are read
    assert len(detect(det, example, size=(320, 320))) == 15  # the camera's live size
    with pytest.raises(ValueError, match="multiple of 32"):
        detect(det, example, size=(300, 300))


@pytest.mark.models
@needs_models
def test_reader_metadata_and_heads() -> None:
    rdr = load_model(MODELS_DIR / READER_FILE)
    assert rdr.classes == READER_CLASSES  # the tile classes, then "none"
    s = rdr.imgsz[0]
    logits, flip, features = rdr.run(np.zeros((3, 3, s, s), np.float32))
    assert logits.shape == (3, len(READER_CLASSES)) and flip.shape == (3, 1)
    assert features.shape[0] == 3 and features.shape[1] >= 128  # what a taught set compares


def test_runtime_imports_no_training_stack() -> None:
    import mahjong_camera_scorer.vision.cli.photo
    import mahjong_camera_scorer.vision.pipeline  # noqa: F401 - importing is the test

    assert "torch" not in sys.modules and "ultralytics" not in sys.modules


def test_a_folder_without_the_small_detector_looks_closer_with_its_own(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from mahjong_camera_scorer.vision.models import load_small_detector

    assert load_small_detector(tmp_path) is None  # a user's own models: detector.onnx looks closer too


@pytest.mark.models
@needs_models
def test_the_shipped_small_detector_is_a_tile_detector_of_the_same_input() -> None:
    from mahjong_camera_scorer.vision.models import SMALL_DETECTOR_FILE, load_small_detector

    small = load_small_detector(MODELS_DIR)
    det = load_model(MODELS_DIR / DETECTOR_FILE)
    assert small is not None and small.path.name == SMALL_DETECTOR_FILE
    assert small.classes == DETECTOR_CLASSES and small.imgsz == det.imgsz and small.dynamic

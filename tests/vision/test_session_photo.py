"""The session's photo adapter: the bundled example photo through the pipeline, and a photo that
cannot be read comes back as a reading to confirm, never an exception."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring.cli import build_parser, run
from mahjong_camera_scorer.scoring.tiles import tile
from mahjong_camera_scorer.vision.models import DETECTOR_FILE, MODELS_DIR, READER_FILE
from mahjong_camera_scorer.vision.session_photo import read_photo_hand

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
needs_models = pytest.mark.skipif(
    not (Path(MODELS_DIR) / DETECTOR_FILE).is_file() or not (Path(MODELS_DIR) / READER_FILE).is_file(),
    reason="models not built (make models)",
)


@pytest.mark.models
@needs_models
def test_example_photo_reads_as_a_hand() -> None:
    photo = read_photo_hand(EXAMPLES / "hand.jpg")
    assert photo.hand is not None and photo.hand.context.winning_tile == tile("4s")
    assert [(m.kind, m.code, m.open) for m in photo.hand.melds] == [("kong", "1111p", False)]


@needs_models
def test_unreadable_photo_needs_confirmation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not an image")
    photo = read_photo_hand(bad)
    assert photo.hand is None and "not an image" in (photo.error or "") and photo.needs_confirmation


@pytest.mark.models
@needs_models
def test_riichi_example_session_with_its_photo() -> None:
    out = io.StringIO()
    parser, _ = build_parser()
    code = run(parser, ["session", str(EXAMPLES / "session-riichi.yaml"), "--rules", "riichi"], out)
    text = out.getvalue()
    assert code == 0, text
    assert "E3    Anna 3 han tsumo" in text  # the photo's hand: menzen tsumo + san ankou, mangan

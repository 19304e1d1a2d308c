"""Shared by the web and camera tests: a reader that answers with a synthetic photo's ground truth.

The trained models are not needed to test the page, the API or the camera loop; this replaces the
models of :class:`vision.pipeline.PhotoReader` (``detect`` and ``read_boxes``) and returns the
tiles listed in the photo's manifest (``examples/hand.json``).
The tests that need the real models are separate and skip while ``models/*.onnx`` are missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.detect import DETECTOR_CONF, Detection
from vision.models import DETECTOR_FILE, MODELS_DIR, READER_FILE
from vision.pipeline import PhotoReader
from vision.read import TileRead

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "hand.jpg"
EXAMPLE_TRUTH = ROOT / "examples" / "hand.json"


def models_present() -> bool:
    return (MODELS_DIR / DETECTOR_FILE).is_file() and (MODELS_DIR / READER_FILE).is_file()


def truth_tiles(manifest: dict | None = None) -> list[dict]:
    """The labelled tiles of the manifest: code (``back`` when face down), box, orientation."""
    manifest = manifest or json.loads(EXAMPLE_TRUTH.read_text())
    return [
        {
            "code": "back" if t["face_down"] else t["code"],
            "box": tuple(float(v) for v in t["box"]),
            "orientation": t["orientation"],
        }
        for t in manifest["tiles"]
        if t.get("labelled", True) and t.get("seat", 0) == 0
    ]


class TruthReader(PhotoReader):
    """A PhotoReader whose two models are stand-ins: every image is read as the manifest says
    (``low`` = indices of tiles to report with low confidence, and the alternatives offered for
    them). Everything after the models (mending, layout, hand, score) is the real pipeline."""

    def __init__(self, manifest: dict | None = None, low: tuple[int, ...] = (), scale: float = 1.0) -> None:
        self.tiles = truth_tiles(manifest)
        self.low = set(low)
        self.scale = scale
        self.calls = {"detect": 0, "read": 0}
        self.conf, self.tta, self.det_size = DETECTOR_CONF, True, None
        self.closer = False  # the manifest's boxes are all there is: no second pass

    def _box(self, t: dict) -> tuple[float, float, float, float]:
        return tuple(v * self.scale for v in t["box"])  # type: ignore[return-value]

    def detect(self, image: np.ndarray) -> list[Detection]:
        self.calls["detect"] += 1
        return [Detection(self._box(t), "back" if t["code"] == "back" else "tile", 0.9) for t in self.tiles]

    detect_candidates = detect

    def readings(self) -> list[TileRead]:
        out = []
        for i, t in enumerate(self.tiles):
            conf = 0.41 if i in self.low else 0.98
            alts = ((t["code"], conf), ("9s", 0.3), ("1s", 0.1)) if i in self.low else ((t["code"], conf),)
            out.append(TileRead(self._box(t), t["code"], conf, t["orientation"], 0.9, alts, index=i))
        return out

    def read_boxes(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        self.calls["read"] += 1
        return self.readings()

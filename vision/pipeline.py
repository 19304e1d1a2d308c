"""Photo → tiles → hand → score, with the time each stage took.

One :class:`PhotoReader` holds both models (loaded once) and is reused for every photo of a batch.
Errors a user can cause (missing file, not an image) are :class:`PhotoError`; the caller prints
them as one line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detect import Detection, detect
from vision.layout import Layout, lay_out
from vision.models import MODELS_DIR, OnnxModel, detector, reader
from vision.read import Reading, read_tiles

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class PhotoError(ValueError):
    """The photo cannot be read (missing, empty, not an image, corrupt)."""


@dataclass
class PhotoResult:
    """Everything read from one photo, and the seconds each stage took."""

    readings: list[Reading]
    layout: Layout
    image_shape: tuple[int, ...]
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def flagged(self) -> list[Reading]:
        return [r for r in self.readings if r.flagged]


def load_image(path: str | Path) -> np.ndarray:
    """Decode a photo as BGR; raise :class:`PhotoError` with a clear reason otherwise."""
    p = Path(path)
    if not p.exists():
        raise PhotoError(f"no such file: {p}")
    if not p.is_file():
        raise PhotoError(f"not a file: {p}")
    data = np.fromfile(str(p), dtype=np.uint8)
    if data.size == 0:
        raise PhotoError(f"empty file: {p}")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise PhotoError(f"not an image or corrupt: {p}")
    return image


class PhotoReader:
    """The two models and the steps between them."""

    def __init__(
        self,
        models_dir: str | Path = MODELS_DIR,
        det: OnnxModel | None = None,
        rdr: OnnxModel | None = None,
        conf: float = 0.35,
        tta: bool = True,
    ) -> None:
        self.det = det or detector(str(models_dir))
        self.rdr = rdr or reader(str(models_dir))
        self.conf, self.tta = conf, tta

    def detect(self, image: np.ndarray) -> list[Detection]:
        return detect(self.det, image, conf=self.conf)

    def read_image(self, image: np.ndarray) -> PhotoResult:
        t0 = time.perf_counter()
        dets = self.detect(image)
        t1 = time.perf_counter()
        readings = read_tiles(self.rdr, image, dets, tta=self.tta)
        t2 = time.perf_counter()
        layout = lay_out(readings)
        t3 = time.perf_counter()
        return PhotoResult(
            readings, layout, image.shape, {"detect": t1 - t0, "read": t2 - t1, "layout": t3 - t2}
        )

    def read_photo(self, path: str | Path) -> PhotoResult:
        t0 = time.perf_counter()
        image = load_image(path)
        decode = time.perf_counter() - t0
        result = self.read_image(image)
        result.timings = {"decode": decode, **result.timings}
        return result


def hand_dict(layout: Layout, context: dict[str, Any]) -> dict[str, Any]:
    """The structured hand of :mod:`scoring.structured`: what the photo showed plus the context
    a photo cannot show (seat, round, win by, flags, dora indicators …)."""
    out = layout.to_dict()
    out.update({k: v for k, v in context.items() if v not in (None, [], "")})
    return out

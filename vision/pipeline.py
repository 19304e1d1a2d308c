"""Photo → tiles → hand → score, with the time each stage took.

One :class:`PhotoReader` holds both models (loaded once) and is reused for every photo of a batch.
Errors a user can cause (missing file, not an image) are :class:`PhotoError`; the caller prints
them as one line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detect import DETECTOR_CONF, Detection, detect
from vision.layout import Layout
from vision.mend import UNSURE_LOW, lay_out_mended
from vision.models import MODELS_DIR, OnnxModel, detector, reader
from vision.read import TileRead, read_tiles, split_rejected

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class PhotoError(ValueError):
    """The photo cannot be read (missing, empty, not an image, corrupt)."""


@dataclass
class PhotoResult:
    """Everything read from one photo, and the seconds each stage took."""

    readings: list[TileRead]
    layout: Layout
    image_shape: tuple[int, ...]
    timings: dict[str, float] = field(default_factory=dict)
    #: boxes the reader read as "not a tile" (clutter, a tile's side, part of a tile): never laid out
    rejected: list[TileRead] = field(default_factory=list)

    @property
    def flagged(self) -> list[TileRead]:
        return [r for r in self.readings if r.flagged]


#: Photos are decoded at a reduced scale (JPEG DCT scaling, nearly free) while the long side
#: stays at least this long: a 12-megapixel photo decodes at 2000 px, where a tile of a hand
#: spanning the frame is still ~90 px wide, more than the reader's 96 px crop needs.
DECODE_MIN_SIDE = 1600
_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def jpeg_size(data: np.ndarray | bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's SOF marker without decoding; None if not a baseline JPEG.

    Only the first 4 MB are scanned (the SOF marker comes before the image data), and 0xFF fill
    bytes between markers are skipped, so a hostile or odd file cannot make this loop long.
    """
    if isinstance(data, np.ndarray):
        data = bytes(data[: min(data.size, 4 << 20)])
    b, n = data, min(len(data), 4 << 20)
    if b[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < n:
        if b[i] != 0xFF:
            i += 1
            continue
        marker = b[i + 1]
        if marker in (0xD8, 0x01, 0xFF) or 0xD0 <= marker <= 0xD7:
            i += 1 if marker == 0xFF else 2
            continue
        length = int.from_bytes(b[i + 2 : i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(b[i + 7 : i + 9], "big"), int.from_bytes(b[i + 5 : i + 7], "big")
        i += 2 + length
    return None


def decode(data: np.ndarray, min_side: int = DECODE_MIN_SIDE) -> tuple[np.ndarray | None, float]:
    """Decode image bytes as BGR, reduced by 2/4/8 when the photo is large; (image, factor back
    to the original pixels)."""
    size = jpeg_size(data)
    factor = 1
    if size:
        while factor < 8 and max(size) / (factor * 2) >= min_side:
            factor *= 2
    if factor > 1:
        image = cv2.imdecode(data, _REDUCED[factor])
        if image is not None and image.size:
            return image, float(max(size)) / max(image.shape[:2])
    return cv2.imdecode(data, cv2.IMREAD_COLOR), 1.0


def load_image(path: str | Path, reduce: bool = False) -> np.ndarray:
    """Decode a photo as BGR at full size; raise :class:`PhotoError` with a clear reason otherwise."""
    return _load(path, reduce)[0]


def _load(path: str | Path, reduce: bool) -> tuple[np.ndarray, float]:
    p = Path(path)
    if not p.exists():
        raise PhotoError(f"no such file: {p}")
    if not p.is_file():
        raise PhotoError(f"not a file: {p}")
    try:
        data = np.fromfile(str(p), dtype=np.uint8)
    except OSError as exc:
        raise PhotoError(f"cannot read {p}: {exc.strerror or exc}") from None
    if data.size == 0:
        raise PhotoError(f"empty file: {p}")
    image, factor = decode(data) if reduce else (cv2.imdecode(data, cv2.IMREAD_COLOR), 1.0)
    if image is None or image.size == 0:
        raise PhotoError(f"not an image or corrupt: {p}")
    return image, factor


class PhotoReader:
    """The two models and the steps between them."""

    def __init__(
        self,
        models_dir: str | Path = MODELS_DIR,
        det: OnnxModel | None = None,
        rdr: OnnxModel | None = None,
        conf: float = DETECTOR_CONF,
        tta: bool = True,
        det_size: tuple[int, int] | None = None,
    ) -> None:
        self.det = det or detector(str(models_dir))
        self.rdr = rdr or reader(str(models_dir))
        self.conf, self.tta = conf, tta
        #: the detector's input size (h, w); None: the size it was trained at
        self.det_size = det_size

    def detect(self, image: np.ndarray) -> list[Detection]:
        return detect(self.det, image, conf=self.conf, size=self.det_size)

    def detect_candidates(self, image: np.ndarray) -> list[Detection]:
        """Every box down to :data:`vision.mend.UNSURE_LOW`: the faint ones may complete a hand."""
        return detect(self.det, image, conf=min(self.conf, UNSURE_LOW), size=self.det_size)

    def read_image(self, image: np.ndarray) -> PhotoResult:
        t0 = time.perf_counter()
        dets = self.detect_candidates(image)
        t1 = time.perf_counter()
        readings, rejected = split_rejected(read_tiles(self.rdr, image, dets, tta=self.tta))
        t2 = time.perf_counter()
        readings, layout = lay_out_mended(readings, keep=self.conf)
        t3 = time.perf_counter()
        rejected = [r for r in rejected if r.detector_score >= self.conf]  # faint ones were never shown
        return PhotoResult(
            readings, layout, image.shape, {"detect": t1 - t0, "read": t2 - t1, "layout": t3 - t2}, rejected
        )

    def read_photo(self, path: str | Path) -> PhotoResult:
        """Read a photo file; boxes are in the original photo's pixels."""
        t0 = time.perf_counter()
        image, factor = _load(path, reduce=True)
        decoded = time.perf_counter() - t0
        result = self.read_image(image)
        if factor != 1.0:
            _rescale(result, factor)
            result.image_shape = (round(image.shape[0] * factor), round(image.shape[1] * factor), 3)
        result.timings = {"decode": decoded, **result.timings}
        return result


def _rescale(result: PhotoResult, factor: float) -> None:
    """Boxes back to the original photo's pixels, everywhere a reading is referred to (the
    layout's groups and its left-out lists too)."""
    new: dict[int, TileRead] = {}

    def scaled(r: TileRead) -> TileRead:
        if r.index not in new:
            new[r.index] = replace(r, box=tuple(v * factor for v in r.box))
        return new[r.index]

    result.readings = [scaled(r) for r in result.readings]
    result.rejected = [scaled(r) for r in result.rejected]
    lay = result.layout
    for g in lay.groups:
        g.tiles = [scaled(t) for t in g.tiles]
    lay.ignored = [scaled(t) for t in lay.ignored]
    lay.dropped = [scaled(t) for t in lay.dropped]
    lay.added = [scaled(t) for t in lay.added]


def mend_notes(result: PhotoResult) -> list[str]:
    """One sentence per change :mod:`vision.mend` made to complete the hand, for the player to
    check: boxes left out or taken in, tiles taken as another candidate than the reader's first."""
    lay = result.layout
    ignored = {t.index for t in lay.ignored}
    notes = [
        f"box at x={r.box[0]:.0f} y={r.box[1]:.0f} (read as {r.code}, detector score "
        f"{r.detector_score:.2f}) left out: the hand is complete without it (check it)"
        for r in lay.dropped
    ]
    notes += [
        f"faint box at x={r.box[0]:.0f} y={r.box[1]:.0f} (detector score {r.detector_score:.2f}) "
        f"taken in as {r.code}: it completes the hand (check it)"
        for r in lay.added
    ]
    notes += [
        f"tile at x={r.box[0]:.0f} y={r.box[1]:.0f} read as {r.corrected_from}, taken as {r.code}: "
        "the likeliest way to complete the hand (check it)"
        for r in result.readings
        if r.corrected_from and r.index not in ignored
    ]
    return notes


def hand_dict(layout: Layout, context: dict[str, Any]) -> dict[str, Any]:
    """The structured hand of :mod:`scoring.structured`: what the photo showed plus the context
    a photo cannot show (seat, round, win by, flags, dora indicators …)."""
    out = layout.to_dict()
    out.update({k: v for k, v in context.items() if v not in (None, [], "")})
    return out

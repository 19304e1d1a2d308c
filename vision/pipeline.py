"""Photo → tiles → hand → score, with the time each stage took: :func:`read_and_score`.

One :class:`PhotoReader` holds both models (loaded once) and is reused for every photo of a batch;
its :meth:`~PhotoReader.read_and_score` is the one road every front end takes, and gives a
:class:`vision.result.HandResult`. Errors a user can cause (missing file, not an image) are
:class:`PhotoError`; the caller prints them as one line.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detect import DETECTOR_CONF, Detection, detect
from vision.layout import Layout
from vision.mend import UNSURE_LOW, lay_out_mended
from vision.models import MODELS_DIR, OnnxModel, detector, reader
from vision.read import TileRead, read_tiles, split_rejected
from vision.result import HandContext, HandResult, finish

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class PhotoError(ValueError):
    """The photo cannot be read (missing, empty, not an image, corrupt)."""


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


Source = str | Path | np.ndarray


class PhotoReader:
    """The two models and the one road from a photo to its score (:meth:`read_and_score`)."""

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

    # -- the two models ------------------------------------------------------------------------
    def detect(self, image: np.ndarray) -> list[Detection]:
        return detect(self.det, image, conf=self.conf, size=self.det_size)

    def detect_candidates(self, image: np.ndarray) -> list[Detection]:
        """Every box down to :data:`vision.mend.UNSURE_LOW`: the faint ones may complete a hand."""
        return detect(self.det, image, conf=min(self.conf, UNSURE_LOW), size=self.det_size)

    def read_boxes(self, image: np.ndarray, detections: list[Detection]) -> list[TileRead]:
        """The reader on every box (each reading numbered by its box's place in ``detections``)."""
        return read_tiles(self.rdr, image, detections, tta=self.tta)

    # -- the road --------------------------------------------------------------------------------
    def read_and_score(
        self,
        source: Source,
        context: HandContext | None = None,
        rules: str | None = None,
        options: dict[str, str] | None = None,
        *,
        detections: list[Detection] | None = None,
        mend_boxes: bool = True,
    ) -> HandResult:
        """Photo → tiles → layout → hand → score, each stage once.

        ``source`` is a photo file (decoded reduced when large: boxes come back in the photo's own
        pixels) or decoded BGR pixels (a camera frame, an upload). ``detections`` are boxes found
        already (the camera detects every frame); otherwise every candidate box is found here, and
        with ``mend_boxes`` the faint and weak ones may be taken in or left out to complete the
        hand (:mod:`vision.mend`). Without ``rules`` the hand is built but not scored."""
        context = context or HandContext()
        timings: dict[str, float] = {}
        t = time.perf_counter()
        if isinstance(source, np.ndarray):
            image, scale = source, 1.0
        else:
            image, scale = _load(source, reduce=True)
            timings["decode"] = time.perf_counter() - t
            t = time.perf_counter()
        if detections is None:
            detections = self.detect_candidates(image) if mend_boxes else self.detect(image)
            timings["detect"] = time.perf_counter() - t
            t = time.perf_counter()
        tiles, rejected = split_rejected(self.read_boxes(image, detections))
        timings["read"] = time.perf_counter() - t
        t = time.perf_counter()
        tiles, layout = lay_out_mended(tiles, keep=self.conf if mend_boxes else None)
        timings["layout"] = time.perf_counter() - t
        rejected = [r for r in rejected if r.detector_score >= self.conf]  # faint ones were never shown
        shape = image.shape
        if scale != 1.0:
            tiles, rejected = _rescale(tiles, rejected, layout, scale)
            shape = (round(image.shape[0] * scale), round(image.shape[1] * scale), *image.shape[2:])
        return finish(
            tiles,
            layout,
            context,
            rules,
            options,
            rejected=rejected,
            timings=timings,
            image_shape=tuple(shape),
            image=image,
            scale=scale,
        )


_DEFAULT: PhotoReader | None = None


def read_and_score(
    source: Source,
    context: HandContext | None = None,
    rules: str | None = None,
    options: dict[str, str] | None = None,
    *,
    reader: PhotoReader | None = None,
    **how: Any,
) -> HandResult:
    """:meth:`PhotoReader.read_and_score` with ``reader``, or with the shipped models (loaded on
    the first call, then kept for the process)."""
    global _DEFAULT
    if reader is None:
        if _DEFAULT is None:
            _DEFAULT = PhotoReader()
        reader = _DEFAULT
    return reader.read_and_score(source, context, rules, options, **how)


def _rescale(
    tiles: list[TileRead], rejected: list[TileRead], layout: Layout, factor: float
) -> tuple[list[TileRead], list[TileRead]]:
    """Boxes back to the original photo's pixels, everywhere a reading is referred to (the
    layout's groups and its left-out lists too: the layout is changed in place)."""
    new: dict[int, TileRead] = {}

    def scaled(r: TileRead) -> TileRead:
        if r.index not in new:
            new[r.index] = replace(r, box=tuple(v * factor for v in r.box))
        return new[r.index]

    for g in layout.groups:
        g.tiles = [scaled(t) for t in g.tiles]
    layout.ignored = [scaled(t) for t in layout.ignored]
    layout.dropped = [scaled(t) for t in layout.dropped]
    layout.added = [scaled(t) for t in layout.added]
    return [scaled(r) for r in tiles], [scaled(r) for r in rejected]

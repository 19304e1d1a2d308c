"""Photo → tiles → hand → score, with the time each stage took: :func:`read_and_score`.

One :class:`PhotoReader` holds both models (loaded once) and is reused for every photo of a batch;
its :meth:`~PhotoReader.read_and_score` is the one road every front end takes, and gives a
:class:`vision.result.HandResult`. Errors a user can cause (missing file, not an image, too many
pixels) are :class:`vision.images.PhotoError`; the caller prints them as one line.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from scoring.context import HandContext
from vision.ask import ask
from vision.detect import DETECTOR_CONF, Detection, detect
from vision.faint import without_faint_left_out, without_lone_faint_backs
from vision.images import PhotoError, load_photo
from vision.layout import Layout, lay_out, orient
from vision.mend import UNSURE_LOW, lay_out_mended
from vision.models import MODELS_DIR, OnnxModel, detector, reader
from vision.read import LogitAdjuster, TileRead, read_tiles, split_rejected
from vision.result import HandResult, finish
from vision.zoom import SecondPass, second_pass

Source = str | Path | np.ndarray


class _Own(enum.Enum):
    """The type of :data:`OWN_SET` (an enum member, so that ``tileset is OWN_SET`` narrows the type)."""

    SET = "own"


#: ``tileset=`` default: read with the reader's own taught set (:attr:`PhotoReader.tileset`)
OWN_SET = _Own.SET


@dataclass
class PhotoTiles:
    """What :meth:`PhotoReader.read` found: the decoded pixels, photo pixels per decoded pixel,
    the tiles and the boxes read as not a tile (both in decoded pixels), seconds per stage, and
    where the detector looked a second time."""

    image: np.ndarray
    scale: float
    tiles: list[TileRead]
    rejected: list[TileRead]
    timings: dict[str, float]
    closer: SecondPass | None = None


class PhotoReader:
    """The two models and the one road from a photo to its score (:meth:`read_and_score`)."""

    #: look again, closer, where a photo's tiles are small (:mod:`vision.zoom`)
    closer: bool = True
    #: read the gaps in the hand's rows where the row's pitch predicts a tile (:mod:`vision.ask`)
    ask_gaps: bool = True

    def __init__(
        self,
        models_dir: str | Path = MODELS_DIR,
        det: OnnxModel | None = None,
        rdr: OnnxModel | None = None,
        conf: float = DETECTOR_CONF,
        tta: bool = True,
        det_size: tuple[int, int] | None = None,
        closer: bool = True,
        tileset: LogitAdjuster | None = None,
        ask_gaps: bool = True,
    ) -> None:
        self.det = det or detector(str(models_dir))
        self.rdr = rdr or reader(str(models_dir))
        self.conf, self.tta = conf, tta
        #: the detector's input size (h, w); None: the size it was trained at
        self.det_size = det_size
        self.closer = closer
        self.ask_gaps = ask_gaps
        #: a taught tile set the reader's answers are adjusted with (:mod:`vision.teach`), if any
        self.tileset = tileset

    # -- the two models ------------------------------------------------------------------------
    def detect(self, image: np.ndarray) -> list[Detection]:
        return detect(self.det, image, conf=self.conf, size=self.det_size)

    def detect_candidates(self, image: np.ndarray) -> list[Detection]:
        """Every box down to :data:`vision.mend.UNSURE_LOW`: the faint ones may complete a hand."""
        return detect(self.det, image, conf=min(self.conf, UNSURE_LOW), size=self.det_size)

    def find_boxes(
        self, image: np.ndarray, mend_boxes: bool = True
    ) -> tuple[list[Detection], SecondPass | None]:
        """A photo's boxes: the whole photo at the detector's input, then, where its tiles came out
        small, a second closer pass over their region (:mod:`vision.zoom`; with ``closer``)."""
        find = self.detect_candidates if mend_boxes else self.detect
        first = find(image)
        if not self.closer:
            return first, None
        size = self.det_size if self.det_size is not None and self.det.dynamic else self.det.imgsz
        return second_pass(find, image, first, size)

    def read_boxes(
        self, image: np.ndarray, detections: list[Detection], tileset: LogitAdjuster | _Own | None = OWN_SET
    ) -> list[TileRead]:
        """The reader on every box (each reading numbered by its box's place in ``detections``),
        with ``tileset`` (default: this reader's own, :attr:`tileset`; None: no set)."""
        adjuster = self.tileset if tileset is OWN_SET else tileset
        return read_tiles(self.rdr, image, detections, tta=self.tta, adjuster=adjuster)

    def read(
        self,
        source: Source,
        *,
        detections: list[Detection] | None = None,
        mend_boxes: bool = False,
        tileset: LogitAdjuster | _Own | None = OWN_SET,
    ) -> PhotoTiles:
        """Photo → tiles, the first half of the road: decode (a file), find the boxes (unless
        given), read them; boxes in the decoded pixels. Teaching a set stops here. ``tileset``: a
        taught set for this photo (default: the reader's own; None: none)."""
        timings: dict[str, float] = {}
        t = time.perf_counter()
        if isinstance(source, np.ndarray):
            image, scale = source, 1.0
        else:
            image, scale = load_photo(source)
            timings["decode"] = time.perf_counter() - t
            t = time.perf_counter()
        closer: SecondPass | None = None
        adjuster = getattr(self, "tileset", None) if tileset is OWN_SET else tileset
        # a taught set that finds tiles (vision.teach.finding) looks at the faint boxes too
        finder = getattr(adjuster, "find", None)
        if detections is None:
            detections, closer = self.find_boxes(image, mend_boxes or finder is not None)
            timings["detect"] = time.perf_counter() - t
            t = time.perf_counter()
        readings = self.read_boxes(image, detections, adjuster)
        timings["read"] = time.perf_counter() - t
        if finder is not None:
            t = time.perf_counter()
            readings = finder(self, image, readings, self.conf)
            if not mend_boxes:  # the faint boxes the set did not take stay out, as without a set
                readings = [r for r in readings if r.detector_score >= self.conf]
            timings["set"] = time.perf_counter() - t
        tiles, rejected = split_rejected(readings)
        return PhotoTiles(image, scale, tiles, rejected, timings, closer)

    def fill_gaps(
        self,
        image: np.ndarray,
        tiles: list[TileRead],
        rejected: list[TileRead],
        keep: float | None,
        tileset: LogitAdjuster | _Own | None = OWN_SET,
    ) -> tuple[list[TileRead], Layout | None]:
        """``tiles`` with the tiles the reader reads in the hand's gaps, where a row's pitch
        predicts a tile the detector missed (:mod:`vision.ask`: one reader call, none without a
        gap), every tile's orientation judged again with them as if the detector had found them.
        ``keep``: the detector score a box needs to count without the mending (None: every
        tile counts); the hand's rows are those of the tiles that count. Also returns the layout
        of the tiles that count when nothing was added (the mending starts from it), else None."""
        kept = tiles if keep is None else [t for t in tiles if t.detector_score >= keep]
        layout = lay_out(kept)
        asked = ask(
            lambda dets: self.read_boxes(image, dets, tileset),
            layout,
            [*tiles, *rejected],
            image.shape,
            self.conf if keep is None else keep,
        )
        return (orient([*tiles, *asked]), None) if asked else (tiles, layout)

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
        tileset: LogitAdjuster | _Own | None = OWN_SET,
    ) -> HandResult:
        """Photo → tiles → layout → hand → score, each stage once.

        ``source`` is a photo file (decoded reduced when large: boxes come back in the photo's own
        pixels) or decoded BGR pixels (a camera frame, an upload). ``detections`` are boxes found
        already (the camera detects every frame); otherwise every candidate box is found here, and
        with ``mend_boxes`` the faint and weak ones may be taken in or left out to complete the
        hand (:mod:`vision.mend`). Without ``rules`` the hand is built but not scored.
        ``tileset``: a taught set to read this photo with (default: the reader's own, if any)."""
        context = context or HandContext()
        seen = self.read(source, detections=detections, mend_boxes=mend_boxes, tileset=tileset)
        timings = seen.timings
        t = time.perf_counter()
        image, scale, tiles, rejected, closer = seen.image, seen.scale, seen.tiles, seen.rejected, seen.closer
        tiles = without_lone_faint_backs(tiles)
        keep = self.conf if mend_boxes else None
        first: Layout | None = None
        if self.ask_gaps:
            tiles, first = self.fill_gaps(image, tiles, rejected, keep, tileset)
            timings["gaps"] = time.perf_counter() - t
            t = time.perf_counter()
        tiles, layout = lay_out_mended(tiles, keep=keep, first=first)
        tiles, left = without_faint_left_out(tiles, layout.left_out)
        layout = replace(layout, left_out=left)
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
            second_pass=_rescaled_pass(closer, scale),
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


def _rescaled_pass(closer: SecondPass | None, factor: float) -> SecondPass | None:
    if closer is None or factor == 1.0:
        return closer
    x0, y0, x1, y1 = closer.region
    return replace(closer, region=(x0 * factor, y0 * factor, x1 * factor, y1 * factor))


def _rescale(
    tiles: list[TileRead], rejected: list[TileRead], layout: Layout, factor: float
) -> tuple[list[TileRead], list[TileRead]]:
    """Boxes back to the original photo's pixels, everywhere a reading is referred to (the
    layout's groups and its left-out lists too: the layout is changed in place)."""
    new: dict[int, TileRead] = {}

    def scaled(r: TileRead) -> TileRead:
        if r.index not in new:
            x0, y0, x1, y1 = r.box
            new[r.index] = replace(r, box=(x0 * factor, y0 * factor, x1 * factor, y1 * factor))
        return new[r.index]

    for g in layout.groups:
        g.tiles = [scaled(t) for t in g.tiles]
    for lo in layout.left_out:
        lo.tiles = [scaled(t) for t in lo.tiles]
    layout.dropped = [scaled(t) for t in layout.dropped]
    layout.added = [scaled(t) for t in layout.added]
    return [scaled(r) for r in tiles], [scaled(r) for r in rejected]


__all__ = ["PhotoError", "PhotoReader", "read_and_score"]

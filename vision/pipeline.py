"""Photo → tiles → hand → score: one road, declared as a list of steps (:data:`ROAD`).

One :class:`PhotoReader` holds both models (loaded once) and is reused for every photo of a batch;
its :meth:`~PhotoReader.read_and_score` is the one road every front end takes, and gives a
:class:`vision.result.HandResult`. The road is :data:`ROAD`: each step takes a
:class:`vision.scene.Scene` and returns a new one, recording every tile it adds, drops, moves or
recodes and why (``--json``: ``record``). Boxes are in the photo's own pixels from the moment a
tile is read (:class:`vision.photo.Photo` maps decoded pixels once, where they are touched).
Errors a user can cause (missing file, not an image, too many pixels) are
:class:`vision.images.PhotoError`; the caller prints them as one line.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.vision.ask import ask, blank_whites, read_ends
from mahjong_camera_scorer.vision.detect import DETECTOR_CONF, Detection, detect, look
from mahjong_camera_scorer.vision.faint import (
    LARGE_UNREAD,
    LARGE_UNREAD_READ,
    UNREAD_ROW,
    without_faint_left_out,
    without_large_unread,
    without_lone_faint_backs,
    without_unread_rows,
)
from mahjong_camera_scorer.vision.images import PhotoError, load_photo
from mahjong_camera_scorer.vision.layout import HandFrame, Layout, lay_out, orient
from mahjong_camera_scorer.vision.mend import UNSURE_LOW, lay_out_mended
from mahjong_camera_scorer.vision.models import MODELS_DIR, OnnxModel, detector, reader, small_detector
from mahjong_camera_scorer.vision.photo import Photo
from mahjong_camera_scorer.vision.read import TaughtSet, TileRead, read_tiles, split_rejected
from mahjong_camera_scorer.vision.result import HandResult, scene_result
from mahjong_camera_scorer.vision.scene import Scene
from mahjong_camera_scorer.vision.zoom import (
    HINT,
    SecondPass,
    looks_turned,
    needs_slices,
    rows_after_slices,
    second_pass,
    sliced_pass,
    turned_pass,
)

Source = str | Path | np.ndarray


class _Own(enum.Enum):
    """The type of :data:`OWN_SET` (an enum member, so that ``tileset is OWN_SET`` narrows the type)."""

    SET = "own"


#: ``tileset=`` default: read with the reader's own taught set (:attr:`PhotoReader.tileset`)
OWN_SET = _Own.SET


@dataclass(frozen=True)
class Trip:
    """How one photo travels the road: the boxes found already (a camera frame's, in its pixels),
    whether the faint boxes may be taken in or left out to complete the hand (``mend_boxes``),
    and the taught set to read it with."""

    detections: list[Detection] | None = None
    mend_boxes: bool = True
    tileset: TaughtSet | None = None


class PhotoReader:
    """The two models and the one road from a photo to its score (:meth:`read_and_score`)."""

    #: look again, closer, where a photo's tiles are small (:mod:`vision.zoom`)
    closer: bool = True
    #: after a row's closer look, look closer still where its tiles are still small (:mod:`vision.zoom`)
    closer_still: bool = True
    #: read the gaps in the hand's rows where the row's pitch predicts a tile (:mod:`vision.ask`)
    ask_gaps: bool = True
    #: read beyond both ends of the hand's rows while the reader sees a face there
    read_ends: bool = True
    #: a taught tile set the reader's answers are adjusted with (:mod:`vision.teach`), if any
    tileset: TaughtSet | None = None

    def __init__(
        self,
        models_dir: str | Path = MODELS_DIR,
        det: OnnxModel | None = None,
        rdr: OnnxModel | None = None,
        conf: float = DETECTOR_CONF,
        tta: bool = True,
        det_size: tuple[int, int] | None = None,
        closer: bool = True,
        tileset: TaughtSet | None = None,
        ask_gaps: bool = True,
        small_det: OnnxModel | None = None,
    ) -> None:
        self.det = det or detector(str(models_dir))
        # the closer looks' detector: given, else ``det`` where one is given (measured alone), else
        # the folder's, loaded at the first closer look (most photos need none): :attr:`small_det`
        self._small_det = small_det or det
        self._models_dir = str(models_dir)
        self.rdr = rdr or reader(str(models_dir))
        self.conf, self.tta = conf, tta
        #: the detector's input size (h, w); None: the size it was trained at
        self.det_size = det_size
        self.closer = closer
        self.ask_gaps = ask_gaps
        self.tileset = tileset

    # -- the models ----------------------------------------------------------------------------
    @property
    def small_det(self) -> OnnxModel:
        """The detector of the closer looks (slices, a closer region: :mod:`vision.zoom`), trained
        on far rows too: the one given, else the first look's where that was given (a detector
        measured alone), else the folder's ``detector-small.onnx`` (or its ``detector.onnx``)."""
        if self._small_det is None:
            self._small_det = small_detector(self._models_dir) or self.det
        return self._small_det

    def detector_model(self) -> OnnxModel | None:
        """The detector's model, for a caller that runs it at a size of its own (the live camera);
        None from a stand-in reader that has none."""
        return self.det

    def reader_model(self) -> OnnxModel | None:
        """The tile reader's model, whose features a taught set compares; None from a stand-in
        reader that has none."""
        return self.rdr

    def detect(self, image: np.ndarray, model: OnnxModel | None = None) -> list[Detection]:
        """The boxes at the reader's threshold, by ``model`` (default: the first look's detector)."""
        return detect(model or self.det, image, conf=self.conf, size=self.det_size)

    def detect_candidates(self, image: np.ndarray, model: OnnxModel | None = None) -> list[Detection]:
        """Every box down to :data:`vision.mend.UNSURE_LOW`: the faint ones may complete a hand."""
        return detect(model or self.det, image, conf=self._floor(True), size=self.det_size)

    def _floor(self, mend_boxes: bool) -> float:
        """The faintest box kept: down to the mending's unsure boxes where they may be taken in."""
        return min(self.conf, UNSURE_LOW) if mend_boxes else self.conf

    def find_boxes(
        self, image: np.ndarray, mend_boxes: bool = True
    ) -> tuple[list[Detection], SecondPass | None]:
        """An image's boxes (in its pixels): the whole image at the detector's input, then (with
        ``closer``, :mod:`vision.zoom`) where its tiles came out small, a second closer pass over
        their region, or, where it found almost nothing or only tiles too small and spread for
        one region, the whole image again in overlapping windows. The closer looks are
        :attr:`small_det`'s."""
        boxes = self.detect_candidates if mend_boxes else self.detect
        if not self.closer:
            return boxes(image), None
        conf = self._floor(mend_boxes)

        def find(image: np.ndarray) -> list[Detection]:
            return boxes(image, self.small_det)

        def first_look(image: np.ndarray) -> tuple[list[Detection], np.ndarray]:
            return look(self.det, image, conf=conf, size=self.det_size, hint=HINT)

        def upright_search(turned: np.ndarray) -> list[Detection]:
            return self._closer_look(find, turned, *first_look(turned))[0]

        first, hints = first_look(image)
        if looks_turned(first):
            return turned_pass(upright_search, image, first)
        return self._closer_look(find, image, first, hints)

    def _closer_look(
        self,
        find: Callable[[np.ndarray], list[Detection]],
        image: np.ndarray,
        first: list[Detection],
        hints: np.ndarray,
    ) -> tuple[list[Detection], SecondPass | None]:
        """``first`` with the closer looks :meth:`find_boxes` takes where the tiles came out small:
        slices where the first look found too little (only the windows where it saw anything,
        ``hints``), then closer regions around the rows of small tiles (a second level of them
        with :attr:`closer_still`)."""
        small = self.small_det
        size = self.det_size if self.det_size is not None and small.dynamic else small.imgsz
        depth = 2 if self.closer_still else 1
        if not needs_slices(first, image.shape, size):
            return second_pass(find, image, first, size, depth)
        boxes, where = sliced_pass(find, image, first, size, hints)
        if where is None:
            return boxes, where
        return rows_after_slices(find, image, boxes, size, where, depth)

    def read_boxes(
        self, image: np.ndarray, detections: list[Detection], tileset: TaughtSet | _Own | None = OWN_SET
    ) -> list[TileRead]:
        """The reader on every box of an image (boxes in its pixels; each reading numbered by its
        box's place in ``detections``), with ``tileset`` (default: this reader's own,
        :attr:`tileset`; None: no set)."""
        return read_tiles(self.rdr, image, detections, tta=self.tta, adjuster=self._set(tileset))

    def _set(self, tileset: TaughtSet | _Own | None) -> TaughtSet | None:
        return self.tileset if tileset is OWN_SET else tileset

    def read_in_photo(
        self, photo: Photo, detections: list[Detection], tileset: TaughtSet | None
    ) -> list[TileRead]:
        """:meth:`read_boxes` for boxes in the photo's pixels: crops cut from its decoded pixels,
        readings back in the photo's."""
        return photo.in_photo(self.read_boxes(photo.pixels, photo.in_pixels(detections), tileset))

    def keep(self, trip: Trip) -> float | None:
        """The detector score a box needs to count without the mending's help (None: every box
        read counts, as in a camera frame whose boxes were found already)."""
        return self.conf if trip.mend_boxes else None

    # -- the road --------------------------------------------------------------------------------
    def start(self, source: Source) -> Scene:
        """A photo file decoded (reduced when large) or decoded BGR pixels, as a scene."""
        if isinstance(source, np.ndarray):
            return Scene(Photo(source))
        t = time.perf_counter()
        pixels, scale = load_photo(source)
        return Scene(Photo(pixels, scale)).after("decode", seconds=time.perf_counter() - t)

    def read(
        self,
        source: Source,
        *,
        detections: list[Detection] | None = None,
        mend_boxes: bool = False,
        tileset: TaughtSet | _Own | None = OWN_SET,
    ) -> Scene:
        """Photo → tiles, the first half of the road (:data:`READING`): decode (a file), find the
        boxes (unless given), read them, let a taught set find more. Teaching a set stops here.
        ``tileset``: a taught set for this photo (default: the reader's own; None: none)."""
        trip = Trip(detections, mend_boxes, self._set(tileset))
        return travel(self, self.start(source), trip, READING)

    def read_and_score(
        self,
        source: Source,
        context: HandContext | None = None,
        rules: str | None = None,
        options: dict[str, str] | None = None,
        *,
        detections: list[Detection] | None = None,
        mend_boxes: bool = True,
        tileset: TaughtSet | _Own | None = OWN_SET,
    ) -> HandResult:
        """Photo → tiles → layout → hand → score: the :data:`ROAD`, each step once.

        ``source`` is a photo file (decoded reduced when large: boxes are in the photo's own
        pixels) or decoded BGR pixels (a camera frame, an upload). ``detections`` are boxes found
        already (the camera detects every frame); otherwise every candidate box is found here, and
        with ``mend_boxes`` the faint and weak ones may be taken in or left out to complete the
        hand (:mod:`vision.mend`). Without ``rules`` the hand is built but not scored.
        ``tileset``: a taught set to read this photo with (default: the reader's own, if any)."""
        trip = Trip(detections, mend_boxes, self._set(tileset))
        scene = travel(self, self.start(source), trip, ROAD)
        return scene_result(scene, context or HandContext(), rules, options)


#: One step of the road: the scene after it.
Step = Callable[[PhotoReader, Scene, Trip], Scene]


def travel(reader: PhotoReader, scene: Scene, trip: Trip, steps: tuple[Step, ...]) -> Scene:
    """The scene after each of ``steps`` in turn."""
    for step in steps:
        scene = step(reader, scene, trip)
    return scene


# -- the steps ---------------------------------------------------------------------------------------
def find_and_read(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """The detector's boxes (given, or found in the whole photo and, where its tiles are small, a
    second closer look), each read by the reader; the tiles in the hand's frame. Faint boxes
    (down to :data:`vision.mend.UNSURE_LOW`) are read too when the mending or a taught set may
    take them in."""
    photo = scene.photo
    t = time.perf_counter()
    closer: SecondPass | None = None
    detections = trip.detections
    if detections is None:
        detections, closer = reader.find_boxes(photo.pixels, trip.mend_boxes or trip.tileset is not None)
        scene = scene.after("detect", seconds=time.perf_counter() - t)
        t = time.perf_counter()
    readings = photo.in_photo(reader.read_boxes(photo.pixels, detections, trip.tileset))
    tiles, rejected = split_rejected(readings)
    return scene.after(
        "read",
        tiles=tiles,
        rejected=rejected,
        frame=HandFrame.of(tiles),
        second_pass=closer if closer is None else closer.mapped(photo.to_photo),
        seconds=time.perf_counter() - t,
        why={
            "added": "the detector boxed it and the reader read it",
            "rejected": "the reader read no tile in it",
        },
    )


def taught_set_finds(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """A taught set takes in the faint boxes and the row slots that look like its taught tiles
    (:mod:`vision.teach.finding`); without the mending, the faint boxes it did not take stay out,
    as without a set."""
    if trip.tileset is None:
        return scene
    t = time.perf_counter()
    photo = scene.photo
    found = trip.tileset.find(
        reader, photo.pixels, photo.in_pixels([*scene.tiles, *scene.rejected]), reader.conf
    )
    readings = photo.in_photo(found)
    if not trip.mend_boxes:
        readings = [r for r in readings if r.detector_score >= reader.conf]
    tiles, rejected = split_rejected(readings)
    return scene.after(
        "set",
        tiles=tiles,
        rejected=rejected,
        seconds=time.perf_counter() - t,
        why={
            "added": "the taught set recognised one of its tiles where the detector boxed none",
            "found": "a faint box the taught set recognised as one of its tiles",
            "dropped": "a faint box the taught set did not take (without the mending)",
        },
    )


def lone_faint_backs(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """A face-down tile alone in a row of faces, faintly boxed, is the table between two standing
    tiles (:func:`vision.faint.without_lone_faint_backs`)."""
    t = time.perf_counter()
    tiles = without_lone_faint_backs(list(scene.tiles), frame=scene.hand_frame())
    return scene.after(
        "lone backs",
        tiles=tiles,
        seconds=time.perf_counter() - t,
        clock="gaps" if reader.ask_gaps else "layout",  # the stages the photo bench times
        why={"dropped": "a face-down tile alone among faces, faintly boxed: the table between two tiles"},
    )


def counting_layout(scene: Scene, keep: float | None) -> Layout[TileRead]:
    """The layout of the tiles that count without the mending's help (a detector score of at
    least ``keep``; every tile when None), in the scene's hand frame when all of them count: the
    rows the gap, end and blank-face readings look along."""
    tiles = list(scene.tiles)
    kept = tiles if keep is None else [r for r in tiles if r.detector_score >= keep]
    return lay_out(kept, scene.hand_frame() if len(kept) == len(tiles) else None)


def oriented_with(tiles: list[TileRead]) -> tuple[list[TileRead], HandFrame[TileRead]]:
    """``tiles`` oriented again in the frame they make together (after tiles were added), and
    that frame holding them."""
    frame = HandFrame.of(tiles)
    oriented = orient(tiles, frame)
    return oriented, frame.with_tiles(oriented)


def blank_faces_in_rows(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """A box read as no tile that stands in a row of the hand, boxed surely, with the white
    dragon the reader's next answer, is a blank white dragon (:func:`vision.ask.blank_whites`)."""
    if not scene.rejected:
        return scene
    t = time.perf_counter()
    found = blank_whites(counting_layout(scene, reader.keep(trip)), scene.rejected)
    if not found:
        return scene
    taken = {r.index for r in found}
    oriented, frame = oriented_with([*scene.tiles, *found])
    return scene.after(
        "blank faces",
        tiles=oriented,
        rejected=tuple(r for r in scene.rejected if r.index not in taken),
        frame=frame,
        seconds=time.perf_counter() - t,
        clock="gaps",
        why={
            "added": "read as no tile, but it stands in a row of the hand, boxed surely: a blank white dragon"
        },
    )


def read_the_gaps(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """Where a row of the hand has a gap its pitch says a tile fills, the reader reads it
    (:mod:`vision.ask`); the tiles are oriented again with them. Leaves the plain layout of the
    tiles that count (the mending starts from it) when nothing was added."""
    if not reader.ask_gaps:
        return scene
    t = time.perf_counter()
    keep = reader.keep(trip)
    tiles = list(scene.tiles)
    layout = counting_layout(scene, keep)
    asked = ask(
        lambda dets: reader.read_in_photo(scene.photo, dets, trip.tileset),
        layout,
        [*tiles, *scene.rejected],
        scene.photo.shape,
        reader.conf if keep is None else keep,
    )
    if not asked:
        return scene.after("gaps", layout=layout, seconds=time.perf_counter() - t)
    again = {r.index for r in asked}  # a faint box read in a gap comes back taken in
    oriented, frame = oriented_with([*(r for r in tiles if r.index not in again), *asked])
    return scene.after(
        "gaps",
        tiles=oriented,
        frame=frame,
        seconds=time.perf_counter() - t,
        why={
            "added": "a gap in a row of the hand, where its pitch predicts a tile: read there",
            "found": "a faint box in a gap of a row of the hand, where its pitch predicts a tile",
        },
    )


def read_the_row_ends(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """Beyond both ends of each row of the hand, where the detector boxed nothing, the reader reads
    a slot at the row's pitch and goes on while it sees a face (:func:`vision.ask.read_ends`):
    the last tiles of a tight crop, a blank white dragon at a row's end. The tiles are oriented
    again with them."""
    if not reader.read_ends:
        return scene
    t = time.perf_counter()
    keep = reader.keep(trip)
    tiles = list(scene.tiles)
    layout = scene.layout if scene.layout is not None else counting_layout(scene, keep)
    found = read_ends(
        lambda dets: reader.read_in_photo(scene.photo, dets, trip.tileset),
        layout,
        [*tiles, *scene.rejected],
        scene.photo.shape,
        reader.conf if keep is None else keep,
    )
    if not found:
        return scene.after("ends", layout=layout, seconds=time.perf_counter() - t, clock="gaps")
    oriented, frame = oriented_with([*tiles, *found])
    after = scene.after(
        "ends",
        tiles=oriented,
        frame=frame,
        seconds=time.perf_counter() - t,
        clock="gaps",
        why={"added": "beyond a row's end, at its pitch, the reader saw a face the detector had not boxed"},
    )
    return replace(after, layout=None)  # the tiles changed: the hand is laid out again


def mend_and_lay_out(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """The hand laid out; if it is not complete, the likeliest change that completes it: a faint
    box taken in, a weak one left out, an unsure tile read as its next candidate
    (:mod:`vision.mend`). The faint boxes it did not take in are not shown."""
    t = time.perf_counter()
    keep = reader.keep(trip)
    tiles, layout = lay_out_mended(list(scene.tiles), keep=keep, first=scene.layout)
    left_out = {r.index for r in layout.dropped}
    notes = {
        i: "a weak box left out: the hand is complete without it"
        if i in left_out
        else "a faint box (under the detector's threshold) the hand did not need"
        for i in {r.index for r in scene.tiles} - {r.index for r in tiles}
    }
    return scene.after(
        "mend",
        tiles=tiles,
        layout=layout,
        seconds=time.perf_counter() - t,
        clock="layout",
        why={
            "added": "a faint box taken in: it completes the hand",
            "recoded": "the reader's next candidate: the likeliest way to complete the hand",
        },
        notes=notes,
    )


def faint_away_from_the_hand(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """Faint boxes lying apart from every row, and rows boxed faintly, are not shown
    (:func:`vision.faint.without_faint_left_out`): what the detector boxes away from the tiles
    is mostly not a tile."""
    assert scene.layout is not None
    t = time.perf_counter()
    tiles, left = without_faint_left_out(list(scene.tiles), scene.layout.left_out)
    return scene.after(
        "faint apart",
        tiles=tiles,
        layout=replace(scene.layout, left_out=left),
        seconds=time.perf_counter() - t,
        clock="layout",
        why={"dropped": "a faint box away from the hand (apart from every row, or in a faint row)"},
    )


def faint_rejections_unshown(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """Boxes read as no tile are listed so that a wrong rejection shows; not the faint ones,
    which were never shown."""
    return replace(scene, rejected=tuple(r for r in scene.rejected if r.detector_score >= reader.conf))


def unread_rows(reader: PhotoReader, scene: Scene, trip: Trip) -> Scene:
    """A row whose faces the reader cannot read is no row of tiles: book spines or a cloth's
    pattern boxed as a far row (:func:`vision.faint.without_unread_rows`); nor is a box much
    larger than the photo's tiles that it cannot read (:func:`vision.faint.without_large_unread`)."""
    t = time.perf_counter()
    tiles = without_large_unread(without_unread_rows(list(scene.tiles), frame=scene.hand_frame()))
    return scene.after(
        "unread rows",
        tiles=tiles,
        seconds=time.perf_counter() - t,
        clock="gaps" if reader.ask_gaps else "layout",  # the stages the photo bench times
        why={
            "dropped": f"a row whose faces the reader cannot read (median confidence under {UNREAD_ROW}),"
            f" or a box over {LARGE_UNREAD} times the photo's tiles read under {LARGE_UNREAD_READ}"
        },
    )


#: Photo → tiles: what teaching a set and the grid measurements stop at.
READING: tuple[Step, ...] = (find_and_read, taught_set_finds)
#: The whole road, in order: after it, :func:`vision.result.finish` builds the hand and scores it.
ROAD: tuple[Step, ...] = (
    *READING,
    lone_faint_backs,
    unread_rows,
    blank_faces_in_rows,
    read_the_gaps,
    read_the_row_ends,
    mend_and_lay_out,
    faint_away_from_the_hand,
    faint_rejections_unshown,
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


__all__ = ["OWN_SET", "ROAD", "PhotoError", "PhotoReader", "Trip", "read_and_score"]

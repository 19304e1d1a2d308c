"""Name each detected tile: cut its crop (shared code in :mod:`vision.crops`), classify it.

The reader is a small CNN with two heads: 46 tile classes (``vision.classes.TILE_CLASSES``) and
one "upside down" logit. Orientation then comes from two sources: a landscape box is a sideways
tile (the crop code turns it to portrait), otherwise the upside-down head decides between
``upright`` and ``upside_down``. Crops stay in colour: red fives differ from fives only by colour.

By default each crop is also read turned 180° and the two readings are averaged (the second one's
upside-down answer inverted): it costs one more tiny batch and steadies tiles the model sees
rarely upside down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from mahjong_camera_scorer.vision.classes import BACK, NOT_A_TILE
from mahjong_camera_scorer.vision.crops import crop_box
from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.layout import orient
from mahjong_camera_scorer.vision.models import OnnxModel

#: Below this the reading is flagged for the player to check (never silently trusted).
LOW_CONFIDENCE = 0.6
#: A box is rejected as not a tile only when the reader gives "not a tile" at least this
#: probability; below it the box is read as its likeliest tile, with that tile's (then low)
#: confidence, so it is flagged. Chosen on a set the reader never saw (the camera frames' training
#: pictures, 30): tile F1 0.743 rejecting by plurality (43 boxes rejected, most of them real tiles)
#: against 0.759 at 0.5 (6); the Chinese validation pictures barely move (0.950 / 0.947).
REJECT_AT = 0.5
#: Boxes this shape (width / height) are read both as they are and turned to portrait, and the
#: surer reading wins. A claimed tile lying sideways in front of standing or bigger tiles is often
#: boxed nearly square (the box takes the row's height), and an unturned crop of a sideways tile
#: is read wrong: on the real-tile hands, 29 of 97 sideways tiles boxed 0.8-1.1 were misread
#: against 3 of 91 boxed wider. Upright tiles are boxed 0.7-0.8 (1 % at 0.9 or more) when seen
#: from above; seen from the seat, a standing tile's face is foreshortened and its box comes out
#: up to 1.5 times wider than tall, where turning it by its shape misreads it (3m, 9p and 8m read
#: as 7z, 9s and 1f). So boxes up to 1.6 are read both ways; a box its shape turned (wider than
#: :data:`vision.crops.LANDSCAPE_RATIO`) is read unturned only where that reading is surer by
#: :data:`OTHER_WAY_MARGIN`. Chosen on the val split's variants (``eval_scenes.py --sources
#: chinese-val``): seat views 12 -> 18 of 37 photos exact, tile F1 0.883 -> 0.910, and no photo
#: of another variant lost (1.15 and no margin before; 1.6 with no margin lost a photo of the
#: originals, crops and quarter turns each, 0.1 one crop; 2.0 read as 1.6). With the photo's
#: vote below, boxes up to 1.8 (val seat views F1 0.910 -> 0.917, 18 -> 19 exact; no other
#: variant lost; 1.6 with the vote 0.915).
AMBIGUOUS_ASPECT = (0.9, 1.8)
#: How much surer the unturned reading of a box its shape turns must be to win.
OTHER_WAY_MARGIN = 0.15
#: Where a photo has at least this many boxes its shape turned that are read both ways, they
#: vote: the way (turned or not) read surer on average is every such box's way, unless its other
#: reading is surer by :data:`VOTE_MARGIN`. A hand seen from the seat stands as one: its
#: foreshortened tiles are all standing, a photo turned a quarter has them all lying. Chosen on
#: val with the bounds above (margins 0.15 / 0.3 / 0.5: seat F1 0.917 / 0.917 / 0.918, crops
#: 0.920 / 0.920 / 0.919; half turns 0.953 / 0.954 / 0.954).
VOTE_MIN = 3
VOTE_MARGIN = 0.3


@dataclass(frozen=True)
class TileRead:
    """The reading of one tile: code, confidence, orientation, and where it is in the photo."""

    box: tuple[float, float, float, float]
    code: str
    confidence: float
    orientation: str  # upright | sideways | upside_down
    detector_score: float = 1.0
    alternatives: tuple[tuple[str, float], ...] = ()
    #: Which way the tile's top points in the photo, degrees clockwise from up (0, 90, 180, 270):
    #: from the box's shape (the crop code turns landscape boxes clockwise) and the upside-down
    #: head. The layout turns the whole hand by the tiles' majority before reading rows.
    turn: int = 0
    #: the reader's own answer when :mod:`vision.mend` changed the code to complete the hand
    corrected_from: str | None = None
    #: How sure the upside-down head is, |2 P(upside down) - 1| (0..1). A face that looks the same
    #: both ways (a 5-circle, a blank white dragon) reads the same turned, so the two averaged
    #: looks cancel out near 0: such tiles should not decide which way the hand points.
    turn_confidence: float = 1.0
    #: This reading's number among the photo's boxes (the detector's order): how the layout, the
    #: mending and every front end refer to it, whatever list it is in and however often it is
    #: replaced (a rescaled box, a mended code). Given by keyword.
    index: int = field(kw_only=True)
    #: how a taught set sees the box (:mod:`vision.teach.finding`): its best similarity to the
    #: set's taught tiles, 0 when it looks more like the set's "not a tile" crops or no set is used
    taught_match: float = field(default=0.0, kw_only=True, compare=False)
    #: None: the detector found the box; ``"set"``: a box the detector was unsure of, or a gap in
    #: a row, that a taught set recognised as one of its tiles
    found_by: str | None = field(default=None, kw_only=True)

    @property
    def flagged(self) -> bool:
        return self.confidence < LOW_CONFIDENCE

    @property
    def is_tile(self) -> bool:
        """False for a box the reader says holds no whole tile (:data:`NOT_A_TILE`)."""
        return self.code != NOT_A_TILE

    @property
    def is_back(self) -> bool:
        return self.code == BACK

    @property
    def sideways(self) -> bool:
        return self.orientation == "sideways"

    def to_json(self) -> dict[str, Any]:
        out = {
            "code": self.code,
            "box": [round(v, 1) for v in self.box],
            "confidence": round(self.confidence, 4),
            "orientation": self.orientation,
            "turn": self.turn,
            "turn_confidence": round(self.turn_confidence, 3),
        }
        if self.corrected_from:
            out["corrected_from"] = self.corrected_from
        if self.found_by:
            out["found_by"] = self.found_by
        if self.flagged:
            out["flagged"] = True
            out["alternatives"] = [{"code": c, "confidence": round(p, 4)} for c, p in self.alternatives]
        return out


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def to_batch(crops: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops → RGB float32 NCHW in [0, 1] (the reader's training normalisation)."""
    arr = np.stack(crops)[..., ::-1].transpose(0, 3, 1, 2)
    return np.ascontiguousarray(arr, dtype=np.float32) / 255.0


@dataclass(frozen=True)
class Looks:
    """The reader's raw answers for prepared crops, one row per look: each crop, then (with the
    second look) each crop turned 180°. ``features`` is what both heads read (None for a reader
    exported without it): a taught set compares them (:mod:`vision.teach.adapt`)."""

    logits: np.ndarray  # (looks, classes)
    flip: np.ndarray  # (looks,) the upside-down logit
    features: np.ndarray | None  # (looks, features)
    crops: int  # how many crops (looks = crops, or 2 x crops with the second look)


class BoxReader(Protocol):
    """Reads boxes of an image in one batch (:meth:`vision.pipeline.PhotoReader.read_boxes`):
    each reading numbered by its box's place, boxes in the image's pixels."""

    def read_boxes(
        self, image: np.ndarray, detections: list[Detection], tileset: TaughtSet | None
    ) -> list[TileRead]: ...


class TaughtSet(Protocol):
    """A taught tile set as the road uses it (:class:`vision.teach.adapt.TaughtReader`), declared
    here so that the reader and the road call it by name, not by looking for attributes.

    ``adjust``: the reader's tile logits raised for the taught codes each look resembles
    (``tiles``: how many tiles the looks are of, each tile's looks ``tiles`` rows apart);
    ``match``: how like the set's taught tiles each tile looks (0: like its "not a tile" crops);
    ``find``: ``readings`` (boxes in ``image``'s pixels, faint ones too) with the faint boxes and
    row slots the set recognises taken in (:func:`vision.teach.finding.find`)."""

    def adjust(self, logits: np.ndarray, features: np.ndarray, tiles: int | None = None) -> np.ndarray: ...

    def match(self, features: np.ndarray, tiles: int | None = None) -> np.ndarray: ...

    def find(
        self, reader: BoxReader, image: np.ndarray, readings: list[TileRead], keep: float
    ) -> list[TileRead]: ...


def look(model: OnnxModel, crops: list[np.ndarray], tta: bool = True) -> Looks:
    """Run the reader on square crops (resized to its input when needed), each also turned 180°
    when ``tta``."""
    size = model.imgsz[0]
    n = len(crops)
    if not n:
        empty = np.zeros((0, len(model.classes)), np.float32)
        return Looks(empty, np.zeros((0,), np.float32), None, 0)
    crops = [
        c if c.shape[0] == size else cv2.resize(c, (size, size), interpolation=cv2.INTER_AREA) for c in crops
    ]
    batch = to_batch(crops)
    if tta:
        batch = np.concatenate([batch, batch[:, :, ::-1, ::-1]])
    out = model.run(np.ascontiguousarray(batch))
    features = out[2] if len(out) > 2 else None
    return Looks(out[0], out[1].reshape(-1), features, n)


def classify(
    model: OnnxModel, crops: list[np.ndarray], tta: bool = True, adjuster: TaughtSet | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities (N, classes) and P(upside down) (N,) for prepared square crops; with
    ``adjuster`` (a taught set) the logits are adjusted from the features first."""
    probs, p_flip, _ = _classify(model, crops, tta, adjuster)
    return probs, p_flip


def _classify(
    model: OnnxModel, crops: list[np.ndarray], tta: bool, adjuster: TaughtSet | None
) -> tuple[np.ndarray, np.ndarray, Looks]:
    """:func:`classify`, and the looks it read (their features: what a set finds tiles by)."""
    looks = look(model, crops, tta)
    n = looks.crops
    if not n:
        return looks.logits, looks.flip, looks
    logits = looks.logits
    if adjuster is not None and looks.features is not None:
        logits = adjuster.adjust(logits, looks.features, n)
    probs = _softmax(logits)
    p_flip = 1.0 / (1.0 + np.exp(-looks.flip))
    if tta:
        probs = (probs[:n] + probs[n:]) / 2
        p_flip = (p_flip[:n] + (1.0 - p_flip[n:])) / 2
    return probs, p_flip, looks


def tile_crop(image: np.ndarray, r: TileRead, size: int) -> np.ndarray:
    """The crop the reader read for one reading: turned to portrait when the tile lies a quarter
    turn (a landscape box, or a nearly square one read turned)."""
    return crop_box(image, r.box, size=size, turn=r.turn in (90, 270))[0]


def _ambiguous(d: Detection) -> bool:
    """Is the box so nearly square that it may hold a tile lying either way?"""
    aspect = d.width / max(d.height, 1e-6)
    return AMBIGUOUS_ASPECT[0] <= aspect <= AMBIGUOUS_ASPECT[1]


def _not_a_back(classes: tuple[str, ...], p: np.ndarray) -> bool:
    """Does the reader take a box the detector calls a back for no tile at all (P(not a tile) above
    P(back))? The detector's back is its only claim that such a box is a tile: on the real photos no
    real back is labelled, and every box it read as a back was a dark thing on a shelf or the mat
    in shadow between two tiles (48 on the camera frames, 9 on the Chinese test pictures); the
    reader put "not a tile" above "back" on 33 of the 48."""
    if BACK not in classes or NOT_A_TILE not in classes:
        return False
    return bool(p[classes.index(NOT_A_TILE)] > p[classes.index(BACK)])


def read_tiles(
    model: OnnxModel,
    image: np.ndarray,
    detections: list[Detection],
    tta: bool = True,
    adjuster: TaughtSet | None = None,
    oriented: bool = True,
) -> list[TileRead]:
    """Read every detection; a detector ``back`` stays a back unless the reader is sure of a face
    or takes it for no tile (:func:`_not_a_back`: then it is rejected).
    ``adjuster``: a taught set that adjusts the reader's answers (:mod:`vision.teach`).
    The tiles come first, each oriented in the hand's frame (:func:`vision.layout.orient`; not
    with ``oriented`` false: the caller orients them with a frame it keeps), then the boxes
    read as no tile."""
    if not detections:
        return []
    size = model.imgsz[0]
    cut = [crop_box(image, d.box, size=size) for d in detections]
    both = [i for i, d in enumerate(detections) if _ambiguous(d)]
    # the other way: turned where the box's shape did not turn it, unturned where it did
    other = [crop_box(image, detections[i].box, size=size, turn=not cut[i][1]) for i in both]
    probs_all, flips_all, looks = _classify(model, [c for c, _ in cut + other], tta, adjuster)
    probs, p_flip = probs_all[: len(cut)].copy(), flips_all[: len(cut)].copy()
    # a taught set says how like its tiles each crop looks (what vision.teach.finding finds by)
    matches_all = (
        adjuster.match(looks.features, looks.crops)
        if adjuster is not None and looks.features is not None
        else np.zeros(len(probs_all), np.float32)
    )
    matches = matches_all[: len(cut)].copy()
    # how much surer the other reading must be to win: none for a box its shape left unturned;
    # for one its shape turned, OTHER_WAY_MARGIN, or where enough such boxes vote, VOTE_MARGIN
    # against the photo's way (the way read surer on average) and -VOTE_MARGIN along it
    wide = [k for k, i in enumerate(both) if cut[i][1]]
    need = OTHER_WAY_MARGIN
    if len(wide) >= VOTE_MIN:
        turned_way = float(np.mean([probs[both[k]].max() for k in wide]))
        unturned_way = float(np.mean([probs_all[len(cut) + k].max() for k in wide]))
        need = -VOTE_MARGIN if unturned_way > turned_way else VOTE_MARGIN
    for k, i in enumerate(both):  # the surer of the two ways to read a nearly square box
        j = len(cut) + k
        if probs_all[j].max() > probs[i].max() + (need if cut[i][1] else 0.0):
            probs[i], p_flip[i], cut[i] = probs_all[j], flips_all[j], other[k]
        matches[i] = max(matches[i], matches_all[j])
    out: list[TileRead] = []
    for index, (d, p, f, (_, turned)) in enumerate(zip(detections, probs, p_flip, cut, strict=True)):
        order = np.argsort(p)[::-1]
        if model.classes[int(order[0])] == NOT_A_TILE and p[order[0]] < REJECT_AT and len(order) > 1:
            order = order[1:]  # "not a tile" only by a plurality: read as the likeliest tile, unsure
        code, conf = model.classes[int(order[0])], float(p[order[0]])
        if d.label == BACK and _not_a_back(model.classes, p):
            code, conf = NOT_A_TILE, float(p[model.classes.index(NOT_A_TILE)])
        elif d.label == BACK and code != BACK and conf < 0.9:
            code, conf = (
                BACK,
                max(d.score, float(p[model.classes.index(BACK)]) if BACK in model.classes else d.score),
            )
        orientation = "upside_down" if f > 0.5 else "upright"
        # five tile codes: vision.mend may need the fourth or fifth; "not a tile" is no candidate
        alts = tuple(
            (model.classes[int(i)], float(p[i])) for i in order if model.classes[int(i)] != NOT_A_TILE
        )[:5]
        # a crop turned clockwise to portrait that reads upright shows a tile lying turned
        # counter-clockwise (270); read upside down, clockwise (90)
        turn = (90 if f > 0.5 else 270) if turned else (180 if f > 0.5 else 0)
        out.append(
            TileRead(
                d.box,
                code,
                conf,
                orientation,
                d.score,
                alts,
                turn,
                turn_confidence=abs(2 * float(f) - 1),
                index=index,
                taught_match=float(matches[index]),
            )
        )
    tiles, rejected = split_rejected(out)
    return (orient(tiles) if oriented else tiles) + rejected


def split_rejected(readings: list[TileRead]) -> tuple[list[TileRead], list[TileRead]]:
    """(tiles, boxes read as :data:`NOT_A_TILE`): the second never reach the layout; the photo
    command lists them (``rejected``) so that a wrong rejection can be seen."""
    return [r for r in readings if r.is_tile], [r for r in readings if not r.is_tile]

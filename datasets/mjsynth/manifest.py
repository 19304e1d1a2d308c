"""The shape of a scene's manifest (:func:`mjsynth.scene.render_scene`): one typed dict per part.

A manifest is JSON (``manifests/<stem>.json``, read back by the training and evaluation scripts), so it
stays a plain dict; these types name each key and its type in one place for the modules that build
and read it (the scene, its negatives, the writers), so a key misspelt or a value of the wrong kind is
a type error, not a silently different dataset. Types only: nothing here runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict

if TYPE_CHECKING:
    from mahjong_camera_scorer.mjsynth.camera import PhotoLog
    from mahjong_camera_scorer.mjsynth.hands import HandRecord


class TileLabel(TypedDict):
    """One tile of the photo: what it is, where the photo shows it, and whether it is labelled."""

    code: str
    kind: str  # the code without the red five (``hands.kind_of``)
    face_down: bool  # the camera sees its back
    pose: str  # flat | edge | standing
    role: str  # concealed | winning | meld | bonus | discard | wall | other
    group: int  # meld index, or -1
    seat: int
    box: list[float] | None  # visible xyxy in pixels (occlusion and frame cuts counted); None: unseen
    quad: list[list[float]]  # the face (the back when face down) as read: TL, TR, BR, BL
    orientation: str  # one of ``vision.classes.ORIENTATIONS``
    rotation_deg: float  # 0 = reading up the image, +90 = pointing right
    tile_px: float  # the face's long side in pixels
    visible_fraction: float
    labelled: bool  # the detector and the reader learn it
    part: NotRequired[str]  # one of ``scene.PARTS``, set once every tile is labelled


class Negative(TypedDict):
    """A box that holds no whole tile (:mod:`mjsynth.negatives`): cut as a ``none`` crop."""

    what: str  # keycap | icon | glyph_stroke | cup_rim | partial_tile | tile_side | tile_part
    box: list[float]  # xyxy in pixels


class CameraRecord(TypedDict):
    """Where the phone was: degrees and millimetres."""

    elevation: float
    azimuth: float
    roll: float
    hfov: float
    distance_mm: float


class TableRecord(TypedDict):
    """An automatic table's riichi discards (seat, place in the pond) and its dora indicators."""

    automatic: bool
    riichi: list[list[int]]
    dora_indicators: list[str]


class Manifest(TypedDict):
    """The ground truth of one generated photo, as ``manifests/<stem>.json`` holds it."""

    seed: int
    image_size: list[int]  # width, height
    kind: str  # hand | multirow | table | automatic | loose
    closeup: bool
    eyelevel: bool
    far: bool
    game: bool
    blank_white: bool
    inks: list[str] | None  # where the green and the blue inks went (None: not swapped)
    player_seat: int | None  # the hand nearest the camera (None: no hand)
    complete_in_frame: bool
    style: str
    index_overlay: bool
    tile_mm: list[float]  # width, height, thickness
    back_colour: str
    background: str
    room: str | None
    props: list[str]
    standing: bool
    camera: CameraRecord
    photo: PhotoLog
    hands: list[HandRecord]
    tiles: list[TileLabel]
    negatives: list[Negative]
    hand: NotRequired[HandRecord]  # the one hand of a photo of one hand
    table: NotRequired[TableRecord]  # automatic tables only
    split: NotRequired[str]  # added by ``writers.write_manifest``
    image: NotRequired[str]  # added by ``writers.write_manifest``

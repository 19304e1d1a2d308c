"""The one value a photo's road passes along: :class:`Scene`, and the record of what each step did.

A photo goes through a fixed list of steps (:data:`vision.pipeline.ROAD`): find the boxes, read
them, drop what the photo does not back up, read the gaps of the hand's rows, mend and lay out the
hand. Each step takes a :class:`Scene` and returns a new one; none changes a scene in place. A
scene holds the tile readings with their boxes in the photo's own pixels from the moment they
are read (a large JPEG is decoded reduced: :class:`Photo` maps its decoded pixels to the photo's
once, where a crop is cut or a box is found, so nothing is rescaled afterwards), the hand's
frame and layout once a step has made them, and the record of every tile a step added, dropped,
moved or recoded and why (:class:`Change`): "why was this tile dropped?" has one answer, the
record, which ``photo --json`` shows as ``record``.

The same habit as ultralytics' ``Results`` (boxes kept once, in the original image's pixels) and
RapidOCR's det -> cls -> rec (each stage its own typed output).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from mahjong_camera_scorer.vision.layout import HandFrame, Layout
from mahjong_camera_scorer.vision.photo import Photo
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.zoom import SecondPass

#: What a step can do to a tile (:attr:`Change.what`).
CHANGES = ("added", "found", "dropped", "moved", "recoded")


@dataclass(frozen=True)
class Change:
    """One thing a step did to one tile (by its reading ``index``): ``added`` (a tile the scene did
    not have), ``found`` (a faint box taken as a sure tile), ``dropped`` (no longer shown),
    ``moved`` (its box changed), ``recoded`` (its code changed; ``was`` is the code before), and
    why, in the step's words."""

    step: str
    what: str
    index: int
    code: str
    why: str
    was: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.step, "change": self.what, "tile": self.index, "code": self.code}
        if self.was is not None:
            out["was"] = self.was
        out["why"] = self.why
        return out


def changes(
    step: str,
    before: Sequence[TileRead],
    after: Sequence[TileRead],
    why: Mapping[str, str],
    notes: Mapping[int, str] | None = None,
) -> list[Change]:
    """What ``step`` did, tile by tile, going from ``before`` to ``after`` (readings matched by
    ``index``): ``why`` words each kind of change (:data:`CHANGES`), ``notes`` a tile's own
    (by index); a change the step did not word is recorded with the step's own name."""
    notes = notes or {}
    old = {r.index: r for r in before}
    new = {r.index: r for r in after}
    out: list[Change] = []

    def said(what: str, i: int) -> str:
        return notes.get(i) or why.get(what, step)

    for i, r in new.items():
        o = old.get(i)
        if o is None:
            out.append(Change(step, "added", i, r.code, said("added", i)))
            continue
        if r.found_by is not None and o.found_by is None:
            out.append(Change(step, "found", i, r.code, said("found", i)))
        if o.code != r.code:
            out.append(Change(step, "recoded", i, r.code, said("recoded", i), was=o.code))
        if o.box != r.box:
            out.append(Change(step, "moved", i, r.code, said("moved", i)))
    out.extend(Change(step, "dropped", i, o.code, said("dropped", i)) for i, o in old.items() if i not in new)
    return sorted(out, key=lambda c: (CHANGES.index(c.what), c.index))


@dataclass(frozen=True)
class Scene:
    """A photo on its road: its pixels, the readings (boxes in the photo's pixels), the boxes read
    as no tile, the hand's frame and layout once made, what the detector's second look found,
    the seconds each step took and the record of every change (:class:`Change`).

    ``tiles`` holds every box read as a tile that is still in play: until the mending, the faint
    boxes under the detector's threshold too (it may take them in); from the layout on, exactly
    the tiles the layout was made from, in reading order."""

    photo: Photo
    tiles: tuple[TileRead, ...] = ()
    rejected: tuple[TileRead, ...] = ()
    layout: Layout[TileRead] | None = None
    #: the hand's frame of :attr:`tiles` (its turn, its rows), made once per set of tiles
    frame: HandFrame[TileRead] | None = None
    second_pass: SecondPass | None = None
    timings: Mapping[str, float] = field(default_factory=dict)
    record: tuple[Change, ...] = ()

    @property
    def image(self) -> np.ndarray:
        """The decoded pixels (:attr:`Photo.pixels`)."""
        return self.photo.pixels

    @property
    def scale(self) -> float:
        return self.photo.scale

    def hand_frame(self) -> HandFrame[TileRead]:
        """The frame of the scene's tiles: the one the last step made, or made now."""
        return self.frame if self.frame is not None else HandFrame.of(list(self.tiles))

    def after(
        self,
        step: str,
        *,
        tiles: Sequence[TileRead] | None = None,
        rejected: Sequence[TileRead] | None = None,
        layout: Layout[TileRead] | None = None,
        frame: HandFrame[TileRead] | None = None,
        seconds: float | None = None,
        clock: str | None = None,
        why: Mapping[str, str] | None = None,
        notes: Mapping[int, str] | None = None,
        **fields: Any,
    ) -> Scene:
        """The scene after ``step``: what it changed, recorded tile by tile (``why`` words each
        kind of change, ``notes`` a tile's own), ``seconds`` added to the stage ``clock`` of
        :attr:`timings` (default: the step's name), and the frame kept only while the tiles
        stay the very same readings."""
        record = list(self.record)
        new_tiles = self.tiles if tiles is None else tuple(tiles)
        if tiles is not None:
            record += changes(step, self.tiles, new_tiles, why or {}, notes)
        new_rejected = self.rejected if rejected is None else tuple(rejected)
        if rejected is not None:
            gone = {r.index for r in new_rejected} - {r.index for r in self.rejected}
            record += [
                Change(step, "dropped", r.index, r.code, (why or {}).get("rejected", step))
                for r in new_rejected
                if r.index in gone
            ]
        same = len(new_tiles) == len(self.tiles) and all(
            a is b for a, b in zip(new_tiles, self.tiles, strict=True)
        )
        timings = dict(self.timings)
        if seconds is not None:
            stage = clock or step
            timings[stage] = timings.get(stage, 0.0) + seconds
        return replace(
            self,
            tiles=new_tiles,
            rejected=new_rejected,
            layout=self.layout if layout is None else layout,
            frame=frame if frame is not None else (self.frame if same else None),
            timings=timings,
            record=tuple(record),
            **fields,
        )


def record_json(record: Sequence[Change]) -> list[dict[str, Any]]:
    """The record as ``--json`` shows it: one entry per change, in the road's order."""
    return [c.to_json() for c in record]

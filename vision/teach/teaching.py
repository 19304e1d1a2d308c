"""Teaching: a photo and its codes → taught examples, and the set checked after a change.

Shared by the ``teach`` command and the phone page, so both pair, cut and check the same way.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from mahjong_camera_scorer.vision.annotate import draw, write_image
from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.pipeline import PhotoReader, Source
from mahjong_camera_scorer.vision.read import TileRead, tile_crop
from mahjong_camera_scorer.vision.teach.adapt import (
    Suspect,
    cached_looks,
    looks_of,
    reader_of,
    suspects,
    taught_reader,
)
from mahjong_camera_scorer.vision.teach.finding import HOW, Dropped, Recovered
from mahjong_camera_scorer.vision.teach.pairing import Pair, PairingError, Unpaired, pair_fitted
from mahjong_camera_scorer.vision.teach.profile import Example, TileSet
from mahjong_camera_scorer.vision.teach.store import SetStore


@dataclass
class TaughtPhoto:
    """One teaching photo paired with its codes (the decoded pixels kept for cutting crops)."""

    source: str
    pairs: list[Pair]
    image: np.ndarray = field(repr=False)
    #: tiles taken into rows short of tiles, boxes left out of rows with too many
    recovered: list[Recovered] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    #: tiles the layout left out of a hand photo (the table around the hand)
    left_out: list[TileRead] = field(default_factory=list)
    #: typed rows that did not pair: not taught, reported with their tiles in the picture
    unpaired: list[Unpaired] = field(default_factory=list)

    @property
    def taught(self) -> list[Pair]:
        return [p for p in self.pairs if p.taught]

    @property
    def disagreeing(self) -> list[Pair]:
        """Tiles the reader read as another code than the one given: what teaching changes."""
        return [p for p in self.pairs if p.disagrees]

    def examples(self, size: int, how: str = "teach") -> list[Example]:
        """A taught example per paired tile (tiles marked ``x`` are left out)."""
        return [
            Example(code=p.code, crop=tile_crop(self.image, p.tile, size), source=self.source, how=how)
            for p in self.taught
        ]

    def annotate(self, out: Path) -> None:
        """The photo with each tile's given code: green, or red with ``!`` where the reader read
        another code (its reading is not shown: the given code is what will be taught); tiles
        recovered for a row framed blue and marked ``+``, boxes dropped grey and crossed."""
        shown = [replace(p.tile, code=p.code, confidence=1.0) for p in self.pairs]
        warned = {p.tile.index for p in self.pairs if p.disagrees or not p.taught}
        canvas = draw(self.image, shown, None, warned=warned)
        mark(
            canvas,
            [r.tile for r in self.recovered if any(p.tile.index == r.tile.index for p in self.pairs)],
            RECOVERED_COLOUR,
            "+",
        )
        mark(canvas, [d.tile for d in self.dropped], DROPPED_COLOUR, "x", cross=True)
        mark(canvas, self.left_out, DROPPED_COLOUR, "")
        for u in self.unpaired:  # the rows not taught: their tiles red, with the row's number
            mark(canvas, u.tiles, UNPAIRED_COLOUR, f"{u.row}?")
        write_image(canvas, out)

    def recovery_lines(self) -> list[str]:
        """What was recovered or dropped, one line each (the text output and the page)."""
        place = {p.tile.index: p for p in self.pairs}
        lines = []
        for r in self.recovered:
            p = place.get(r.tile.index)
            if p is not None:
                lines.append(f"row {p.row}, tile {p.place}: {p.code} recovered ({HOW[r.how]})")
        for d in self.dropped:
            lines.append(f"row {d.row}: a box read {d.tile.code} dropped ({d.why})")
        if self.left_out:
            lines.append(f"{len(self.left_out)} tile(s) around the hand left out (not the hand's rows)")
        lines += [f"{u.line}: not taught" for u in self.unpaired]
        return lines


RECOVERED_COLOUR = (255, 140, 0)  # BGR: blue
DROPPED_COLOUR = (150, 150, 150)
UNPAIRED_COLOUR = (40, 40, 220)  # red


def mark(
    canvas: np.ndarray, tiles: list[TileRead], colour: tuple[int, int, int], label: str, cross: bool = False
) -> None:
    """Frame (and label, and cross) these tiles on ``canvas`` in place."""
    scale = max(canvas.shape[:2]) / 1000
    thick = max(2, round(3 * scale))
    for t in tiles:
        x0, y0, x1, y1 = (round(v) for v in t.box)
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, thick)
        if cross:
            cv2.line(canvas, (x0, y0), (x1, y1), colour, thick)
            cv2.line(canvas, (x0, y1), (x1, y0), colour, thick)
        if label:
            fs = 0.6 * max(scale, 0.6)
            cv2.putText(
                canvas,
                label,
                (x1 - round(14 * max(scale, 0.6)), y1 - 4),
                cv2.FONT_HERSHEY_SIMPLEX,
                fs,
                colour,
                thick,
                cv2.LINE_AA,
            )


def annotate_found(image: np.ndarray, rows: list[list[TileRead]], out: Path) -> None:
    """A photo that did not pair: the tiles found, each with the reader's code and its row's
    number (what to compare with the codes typed)."""
    shown = [replace(t, code=f"{k + 1}:{t.code}") for k, row in enumerate(rows) for t in row]
    write_image(draw(image, shown, None), out)


def pair_photo(
    reader: PhotoReader, source: Source, codes: list[list[str]] | None, name: str = ""
) -> TaughtPhoto:
    """Find the photo's tiles (the boxes the detector is sure of, and under its threshold the
    faint ones a row short of tiles may take in), lay them out in rows and pair them with
    ``codes`` (None: the standard layout; :func:`vision.teach.pairing.pair_fitted`).
    :class:`vision.images.PhotoError` for a photo that cannot be read,
    :class:`vision.teach.pairing.PairingError` (``image`` and ``rows``: what was found) when the
    rows do not match."""
    seen = reader.read(source, mend_boxes=True, tileset=None)
    tiles = seen.photo.in_pixels(seen.tiles)  # crops are cut from the decoded pixels
    sure = [t for t in tiles if t.detector_score >= reader.conf]
    faint = [t for t in tiles if t.detector_score < reader.conf]

    def read_boxes(image: np.ndarray, dets: list[Detection]) -> list[TileRead]:
        return reader.read_boxes(image, dets, None)

    try:
        fitted = pair_fitted(sure, faint, codes, seen.image, read_boxes)
    except PairingError as exc:
        exc.image = seen.image
        raise
    return TaughtPhoto(
        name or (str(source) if not isinstance(source, np.ndarray) else "photo"),
        fitted.pairs,
        seen.image,
        fitted.recovered,
        fitted.dropped,
        fitted.left_out,
        fitted.unpaired,
    )


def crop_key(e: Example) -> bytes:
    """A taught crop's fingerprint: the same photo paired again cuts the same crops, pixel for
    pixel (the crops are kept as PNG, so a saved crop reads back the same)."""
    crop = np.ascontiguousarray(e.crop)
    return hashlib.sha256(repr(crop.shape).encode() + crop.tobytes()).digest()


@dataclass
class Added:
    """What adding taught tiles to a set did: ``added`` the new ones; ``already`` those whose
    crop the set holds with the same code (the same photo taught again: not doubled);
    ``retaught`` those whose crop it held with another code (the earlier tile replaced: the
    player's latest word)."""

    added: list[Example] = field(default_factory=list)
    already: list[Example] = field(default_factory=list)
    retaught: list[Example] = field(default_factory=list)


def add_new(ts: TileSet, examples: list[Example]) -> Added:
    """Add ``examples`` to ``ts`` without doubling what it holds (:class:`Added`). Shared by the
    ``teach`` command and the page, inside the set's read-modify-write."""
    have = {crop_key(e): e for e in ts.examples}
    out = Added()
    for e in examples:
        key = crop_key(e)
        old = have.get(key)
        if old is not None and old.code == e.code:
            out.already.append(e)
            continue
        if old is not None:
            ts.remove([old.id])
            out.retaught.append(e)
        have[key] = e
        out.added.append(e)
    ts.add(out.added)
    return out


def added_line(done: Added, seconds: float) -> str:
    """What :func:`add_new` did, in one line (the command's output)."""
    notes = []
    if done.retaught:
        notes.append(f"{len(done.retaught)} taught before with another code: replaced")
    if done.already:
        notes.append(f"{len(done.already)} taught before from the same photo: not added again")
    more = f" ({'; '.join(notes)})" if notes else ""
    return f"taught {len(done.added)} tiles in {seconds:.1f} s{more}"


@dataclass
class SetReport:
    """What a set holds after a change: counts and the taught crops that look wrong."""

    tileset: TileSet
    suspects: list[Suspect]


def check_set(ts: TileSet, reader: PhotoReader, store: SetStore | None = None) -> SetReport:
    """The set's suspect crops (:func:`vision.teach.adapt.suspects`), features from the cache."""
    cache = _cache(store, ts)
    return SetReport(ts, suspects(ts, looks_of(ts, reader.rdr, cache)) if len(ts) else [])


def _cache(store: SetStore | None, ts: TileSet) -> Path | None:
    if store is None or not store.exists(ts.name):
        return None
    return store.folder(ts.name) / "features.npz"


def load_taught_reader(store: SetStore, name: str, reader: PhotoReader) -> None:
    """Make ``reader`` read with the set ``name``: from ``set.json`` and the features cache alone
    when it holds every taught tile (a full set: no 5,000 crops decoded a photo), else from the
    crops (and the cache filled)."""
    cache = store.folder(name) / "features.npz"
    index = store.index(name)
    looks = cached_looks([i for i, _ in index], reader.rdr, cache)
    if looks is not None:
        reader.tileset = reader_of(name, [c for _, c in index], looks, reader.rdr.classes)
        return
    reader.tileset = taught_reader(store.load(name), reader.rdr, cache)

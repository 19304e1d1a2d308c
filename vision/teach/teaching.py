"""Teaching: a photo and its codes → taught examples, and the set checked after a change.

Shared by the ``teach`` command and the phone page, so both pair, cut and check the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from vision.annotate import draw
from vision.pipeline import PhotoReader, Source
from vision.read import tile_crop
from vision.teach.adapt import Suspect, cached_looks, looks_of, reader_of, suspects, taught_reader
from vision.teach.pairing import Pair, pair, photo_rows
from vision.teach.profile import Example, TileSet
from vision.teach.store import SetStore


@dataclass
class TaughtPhoto:
    """One teaching photo paired with its codes (the decoded pixels kept for cutting crops)."""

    source: str
    pairs: list[Pair]
    image: np.ndarray = field(repr=False)

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
        another code (its reading is not shown: the given code is what will be taught)."""
        shown = [replace(p.tile, code=p.code, confidence=1.0) for p in self.pairs]
        warned = {p.tile.index for p in self.pairs if p.disagrees or not p.taught}
        draw(self.image, shown, out, warned=warned)


def pair_photo(
    reader: PhotoReader, source: Source, codes: list[list[str]] | None, name: str = ""
) -> TaughtPhoto:
    """Find the photo's tiles (only boxes the detector is sure of), lay them out in rows and pair
    them with ``codes`` (None: the standard layout). :class:`vision.images.PhotoError` for a photo
    that cannot be read, :class:`vision.teach.pairing.PairingError` when the rows do not match."""
    seen = reader.read(source, mend_boxes=False)
    pairs = pair(photo_rows(seen.tiles), codes)
    return TaughtPhoto(
        name or (str(source) if not isinstance(source, np.ndarray) else "photo"), pairs, seen.image
    )


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

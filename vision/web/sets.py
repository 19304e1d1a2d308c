"""The taught tile sets as the phone page uses them: the folder of sets, each set's taught reader,
and the little the server keeps in memory so that a photo is never sent twice nor written to disk.

- **Sets**: a :class:`vision.teach.store.SetStore` (``serve --profile DIR``, else the user's
  folder): the same sets as ``mahjong-score teach``. Each set is loaded once and kept, with the
  reader's features of its crops and its taught reader, until its ``set.json`` changes. Every save
  replaces that file by a rename (a new inode), so a change made by the ``teach`` command while
  the server runs is seen too. Changes made here are made one at a time (load, change, save), so
  two corrections at once both land.
- **Recent reads**: learning from a correction needs the corrected tile's crop as the reader saw
  it. The page holds only a reduced preview (a crop cut from it would be smaller and scaled
  otherwise), and the server never writes photos to disk, so each read keeps its tiles' crops in
  memory, not the photo (up to 36 MB decoded): 96 px squares of 27 kB, half a MB for a hand, a few
  MB for a whole table's photo, for the last :data:`READS_KEPT` reads (tens of MB at most), by a
  random id the page sends back with a correction.
- **Teaching previews**: the tiles a teaching photo was paired with, kept until the player saves
  them (the last :data:`PREVIEWS_KEPT`), so saving does not upload and read the photo again.
- **Undo**: a taught tile removed on the page, kept for its Undo (the last :data:`UNDO_KEPT`).

All three are bounded and forgotten on restart: an id that is gone is a clear 410.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

import numpy as np

from mahjong_camera_scorer.scoring.clean_text import for_terminal
from mahjong_camera_scorer.vision.models import OnnxModel
from mahjong_camera_scorer.vision.pipeline import PhotoReader
from mahjong_camera_scorer.vision.read import tile_crop
from mahjong_camera_scorer.vision.result import HandResult
from mahjong_camera_scorer.vision.teach.adapt import (
    CropLooks,
    Suspect,
    TaughtReader,
    looks_of,
    reader_of,
    suspects,
)
from mahjong_camera_scorer.vision.teach.pairing import PairingError
from mahjong_camera_scorer.vision.teach.profile import MAX_EXAMPLES, Example, SetError, TileSet, check_name
from mahjong_camera_scorer.vision.teach.store import SetStore
from mahjong_camera_scorer.vision.teach.teaching import Added, TaughtPhoto, add_new, pair_photo
from mahjong_camera_scorer.vision.web.errors import ApiError
from mahjong_camera_scorer.vision.web.reader import SharedReader

#: a pairing's report: each line (and each row's codes) cut to this, as the command line's
MAX_LINE = 300

#: Reads whose crops are kept for corrections (a phone corrects the photo it shows: one each).
READS_KEPT = 8
#: Teaching previews kept until saved.
PREVIEWS_KEPT = 4
#: Removed taught tiles kept for Undo.
UNDO_KEPT = 64
#: Sets kept loaded (their crops and features) at once.
SETS_KEPT = 4

V = TypeVar("V")
T = TypeVar("T")


def photo_name(filename: str) -> str:
    """What a taught tile says it came from: the uploaded file's name, without any folder."""
    name = filename.replace("\\", "/").rsplit("/", 1)[-1].strip()
    return "".join(ch for ch in name if ch.isprintable())[:100] or "photo"


class Recent(Generic[V]):
    """The last ``size`` values put, each under a new random id; older ones are forgotten."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, value: V) -> str:
        key = secrets.token_hex(8)
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return key

    def get(self, key: str) -> V | None:
        with self._lock:
            return self._items.get(key)

    def pop(self, key: str) -> V | None:
        with self._lock:
            return self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True)
class ReadCrops:
    """What a read keeps for corrections: its tiles' crops by tile index, and the photo's name."""

    source: str
    crops: dict[int, np.ndarray]


@dataclass(frozen=True)
class Preview:
    """A teaching photo paired and cut, waiting to be saved into ``name``."""

    name: str
    examples: list[Example]


@dataclass(frozen=True)
class Removed:
    name: str
    example: Example
    place: int


@dataclass
class _Loaded:
    """A set as loaded, for the ``set.json`` it was loaded from (``stamp``); the reader's looks
    at its crops and its taught reader are made when first needed."""

    stamp: tuple[int, int, int]
    tileset: TileSet
    looks: CropLooks | None = None
    taught: TaughtReader | None = None


def _copy(ts: TileSet) -> TileSet:
    """A set to change and save, leaving the loaded one as it is until the save is done."""
    return TileSet(ts.name, list(ts.examples), ts.created, ts.note)


class Sets:
    """The page's sets: ``store`` on disk, ``reader`` for features and pairing, ``default`` the
    set ``serve --set`` named (read with when a request names none)."""

    def __init__(self, store: SetStore, reader: SharedReader, default: str | None = None) -> None:
        self.store, self.reader, self.default = store, reader, default
        self.reads: Recent[ReadCrops] = Recent(READS_KEPT)
        self.previews: Recent[Preview] = Recent(PREVIEWS_KEPT)
        self.removed: Recent[Removed] = Recent(UNDO_KEPT)
        self._loaded: OrderedDict[str, _Loaded] = OrderedDict()
        self._counts: dict[str, tuple[tuple[int, int, int], dict[str, int]]] = {}
        self._lock = threading.Lock()  # the two caches above
        self._writing = threading.Lock()  # load, change, save: one change at a time

    # -- finding and loading ---------------------------------------------------------------------
    @staticmethod
    def checked(name: str) -> str:
        try:
            return check_name(name)
        except SetError as exc:
            raise ApiError(400, str(exc)) from None

    def _stamp(self, name: str) -> tuple[int, int, int] | None:
        try:
            st = (self.store.folder(name) / "set.json").stat()
        except OSError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def exists(self, name: str) -> bool:
        return self._stamp(self.checked(name)) is not None

    def missing(self, name: str) -> ApiError:
        known = ", ".join(self.store.names()) or "none yet"
        return ApiError(404, f"no taught set {name!r} (sets: {known})")

    def _entry(self, name: str) -> _Loaded:
        stamp = self._stamp(self.checked(name))
        if stamp is None:
            raise self.missing(name)
        with self._lock:
            entry = self._loaded.get(name)
            if entry is not None and entry.stamp == stamp:
                self._loaded.move_to_end(name)
                return entry
        try:
            ts = self.store.load(name)
        except SetError as exc:
            if self._stamp(name) is None:  # removed meanwhile
                raise self.missing(name) from None
            raise ApiError(500, f"set {name!r} cannot be read: {exc}") from None
        return self._keep(_Loaded(stamp, ts))

    def _keep(self, entry: _Loaded) -> _Loaded:
        with self._lock:
            self._loaded[entry.tileset.name] = entry
            self._loaded.move_to_end(entry.tileset.name)
            while len(self._loaded) > SETS_KEPT:
                self._loaded.popitem(last=False)
            self._counts[entry.tileset.name] = (entry.stamp, entry.tileset.codes())
        return entry

    def load(self, name: str) -> TileSet:
        """The set ``name`` as saved now: 400 for a bad name, 404 when there is none."""
        return self._entry(name).tileset

    def listing(self) -> list[dict[str, object]]:
        """Every set: name, taught tiles, codes, whether it is the default (a set that cannot
        be read is listed with its error)."""
        out: list[dict[str, object]] = []
        for name in self.store.names():
            item: dict[str, object] = {"name": name, "default": name == self.default}
            stamp = self._stamp(name)
            with self._lock:
                known = self._counts.get(name)
            try:
                counts = known[1] if known is not None and known[0] == stamp else self.load(name).codes()
            except ApiError as exc:
                out.append({**item, "error": exc.message})
                continue
            out.append({**item, "tiles": sum(counts.values()), "codes": len(counts)})
        return out

    # -- the reader's view of a set ----------------------------------------------------------------
    def _looks(self, entry: _Loaded) -> CropLooks:
        if entry.looks is None:
            ts, cache = entry.tileset, self.store.folder(entry.tileset.name) / "features.npz"
            try:  # the set's cache: after a change only the crops it added are read again
                entry.looks = self.reader.use(lambda r: looks_of(ts, _model(r), cache))
            except ValueError as exc:  # a reader without its features output
                raise ApiError(503, str(exc)) from None
        return entry.looks

    def adjuster(self, name: str) -> TaughtReader:
        """The set ready to read with (built once per version of the set)."""
        entry = self._entry(name)
        if entry.taught is None:
            looks = self._looks(entry)
            codes = [e.code for e in entry.tileset.examples]
            classes = self.reader.use(lambda r: _model(r).classes)
            entry.taught = reader_of(name, codes, looks, classes)
        return entry.taught

    def suspects(self, name: str) -> list[Suspect]:
        """The set's taught tiles that disagree with the rest of their code."""
        entry = self._entry(name)
        return suspects(entry.tileset, self._looks(entry)) if len(entry.tileset) else []

    # -- changing a set --------------------------------------------------------------------------
    def _saved(self, ts: TileSet) -> TileSet:
        stamp = self._stamp(ts.name)
        if stamp is not None:
            self._keep(_Loaded(stamp, ts))
        return ts

    def _update(self, name: str, change: Callable[[TileSet], T], create: bool = False) -> tuple[TileSet, T]:
        """Change the set as it is on disk now, under its lock (the command line may be teaching
        it at the same time: both keep their tiles)."""
        self.checked(name)
        if not create and not self.exists(name):
            raise self.missing(name)
        try:
            ts, result = self.store.update(name, change, create)
        except SetError as exc:
            raise ApiError(500, str(exc)) from None
        self._saved(ts)
        return ts, result

    def create(self, name: str) -> TileSet:
        def change(ts: TileSet) -> None:
            if len(ts) or ts.broken:  # made meanwhile (by the command line): never emptied
                raise ApiError(409, f"a set {name!r} exists already")

        with self._writing:
            if self.exists(name):
                raise ApiError(409, f"a set {name!r} exists already")
            return self._update(name, change, create=True)[0]

    def add(
        self, name: str, examples: list[Example], create: bool = False, photo: bool = False
    ) -> tuple[TileSet, Added]:
        """Add taught tiles to ``name`` (made when new with ``create``, else 404). A taught tile
        already there (the same correction posted twice: one id) is not taught again; nor, for a
        teaching ``photo``, a crop the set holds already (the same photo taught twice:
        :func:`vision.teach.teaching.add_new`). A correction is always added: its Undo takes
        exactly it out again."""

        def change(ts: TileSet) -> Added:
            known = {e.id: i for i, e in enumerate(ts.examples)}
            for e in examples:
                if e.id in known:  # taught already: its code as given now
                    ts.examples[known[e.id]] = e
            fresh = [e for e in examples if e.id not in known]
            try:
                if photo:
                    return add_new(ts, fresh)
                ts.add(fresh)
                return Added(added=fresh)
            except SetError as exc:
                raise ApiError(409, str(exc)) from None

        with self._writing:
            return self._update(name, change, create)

    def remove_tile(self, name: str, tile_id: str) -> tuple[Example, str]:
        """Take one taught tile out; returns it and the id its Undo needs."""

        def change(ts: TileSet) -> tuple[Example, int]:
            place = next((i for i, e in enumerate(ts.examples) if e.id == tile_id), None)
            if place is None:
                raise ApiError(404, f"set {name!r} has no taught tile {tile_id!r}")
            return ts.remove([tile_id])[0], place

        with self._writing:
            _, (gone, place) = self._update(name, change)
        return gone, self.removed.put(Removed(name, gone, place))

    def undo_remove(self, token: str) -> tuple[str, Example]:
        """Put a removed taught tile back where it was."""
        item = self.removed.pop(token)
        if item is None:
            raise ApiError(410, "nothing to undo: that removal is no longer remembered")

        def change(ts: TileSet) -> None:
            if all(e.id != item.example.id for e in ts.examples):
                if len(ts) >= MAX_EXAMPLES:
                    raise ApiError(409, f"a set holds at most {MAX_EXAMPLES} taught tiles")
                ts.examples.insert(min(item.place, len(ts)), item.example)

        with self._writing:
            self._update(item.name, change)
        return item.name, item.example

    # -- photos ----------------------------------------------------------------------------------
    def remember_read(self, result: HandResult, source: str) -> str | None:
        """Keep a read's tile crops for corrections; its id (None: this reader cuts no crops)."""
        size = self._crop_size()
        if size is None or result.image is None:
            return None
        crops = {}
        for t in result.tiles:
            x0, y0, x1, y1 = (v / result.scale for v in t.box)
            box = t.box if result.scale == 1.0 else (x0, y0, x1, y1)
            crops[t.index] = tile_crop(result.image, replace(t, box=box), size)
        return self.reads.put(ReadCrops(source, crops))

    def correction(self, name: str, read_id: str, tile: int, code: str) -> tuple[Example, TileSet]:
        """Teach ``name`` the corrected tile ``tile`` of the read ``read_id`` as ``code``."""
        read = self.reads.get(read_id)
        if read is None:
            raise ApiError(
                410,
                f"that photo is no longer in the server's memory (it keeps the last {READS_KEPT} "
                "reads): take it again to teach from it",
            )
        crop = read.crops.get(tile)
        if crop is None:
            raise ApiError(404, f"the photo has no tile {tile} (a tile added by hand has no picture)")
        try:
            # one id per tile of a read: the same correction posted twice is taught once
            same = hashlib.sha256(f"{read_id}:{tile}".encode()).hexdigest()[:12]
            example = Example(
                code=code, crop=crop, source=f"{read.source} (corrected)", how="correction", id=same
            )
        except SetError as exc:
            raise ApiError(400, str(exc)) from None
        return example, self.add(name, [example])[0]

    def pair(
        self, name: str, image: np.ndarray, codes: list[list[str]] | None, source: str
    ) -> tuple[TaughtPhoto, list[Example], str]:
        """A teaching photo paired with its codes (422 naming the rows that do not match), its
        taught tiles cut and kept for :meth:`save_preview`: the pairing, the taught tiles (one a
        taught pair, in order) and the preview's id."""
        self.checked(name)

        def paired(reader: PhotoReader) -> tuple[TaughtPhoto, list[Example]]:
            photo = pair_photo(reader, image, codes, source)
            return photo, photo.examples(_model(reader).imgsz[0])

        try:
            photo, examples = self.reader.use(paired)
        except PairingError as exc:
            # bounded whatever was typed (60 KB of codes made a 91 KB answer): each line and each
            # row's codes as the CLI's report cuts them, 20 rows at most
            lines = [for_terminal(line, MAX_LINE) for line in exc.lines[:20]]
            message = "the tiles found do not match the codes: " + "; ".join(lines)
            counts = [{**c, "codes": for_terminal(str(c.get("codes")), MAX_LINE)} for c in exc.counts[:20]]
            # the same facts for the page to word in its language (the lines are the English)
            facts = {"counts": counts, "row_counts": list(exc.row_counts or [])}
            raise ApiError(422, message, lines=lines, **facts) from None
        return photo, examples, self.previews.put(Preview(name, examples))

    def save_preview(self, preview_id: str) -> tuple[Preview, TileSet, Added]:
        item = self.previews.pop(preview_id)
        if item is None:
            raise ApiError(410, "that teaching photo is no longer in the server's memory: pair it again")
        ts, done = self.add(item.name, item.examples, create=True, photo=True)
        return item, ts, done

    def _crop_size(self) -> int | None:
        reader = self.reader.reader
        model = None if reader is None else reader.reader_model()
        return None if model is None else int(model.imgsz[0])


def _model(reader: PhotoReader) -> OnnxModel:
    """The tile reader model, which a taught set's features come from (a stand-in reader in the
    tests may have none)."""
    model = reader.reader_model()
    if model is None:
        raise ApiError(503, "this reader cannot use taught sets (it has no tile reader model)")
    return model

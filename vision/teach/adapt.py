"""Reading with a taught set: the reader's answer weighed against the player's own tiles.

The reader's last layer sees a feature vector per crop (its ``features`` output). A taught set
keeps the features of its crops as cut. For each of the reader's two looks at a tile (as cut,
turned 180°), ``s_c`` is its best cosine similarity to the taught crops of code ``c`` (so a tile
meets a taught crop of either way up); a tile that
looks like a taught crop of ``c`` (``s_c`` above :data:`SIMILAR_AT`) has the logit of ``c`` raised
by ``(s_c - SIMILAR_AT) / TEMPERATURE``, however sure the reader was of another code (the reason
to teach a set: its designs the reader never saw). Codes it looks like no taught crop of, and
codes the set has not taught, are left as the reader reads them.

Chosen by measurement (``scripts/eval_teach.py``; numbers in the model card) on the camerash grids
and on half of the camera frames kept out of training for this, among a mixture of the two
answers, a bonus to the best-matching code only, and a product of experts that also lowers the
codes a tile looks unlike (by up to 1 or 3 logits): lowering cost 0.5-2 points on the frames,
where the same tile photographed again is often less than 0.85 alike, and the others cost up to
20 points on codes the set was not taught (a set taught from two hands knows only some codes).
The features are computed once per crop and reader (cached by example id in the set's folder).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from mahjong_camera_scorer.scoring.output_paths import write_output
from mahjong_camera_scorer.vision.classes import BONUS, NOT_A_TILE
from mahjong_camera_scorer.vision.models import OnnxModel
from mahjong_camera_scorer.vision.read import BoxReader, TileRead, look
from mahjong_camera_scorer.vision.teach.profile import Example, TileSet

#: A tile this similar (cosine) to a taught crop of a code is taken to look like that code.
SIMILAR_AT = 0.85
#: Logits per unit of similarity above :data:`SIMILAR_AT`.
TEMPERATURE = 0.01
#: A box the detector was unsure of this similar to a taught tile, and more like it than like the
#: set's "not a tile" crops, is taken as a tile (:mod:`vision.teach.finding`). On the half of the
#: camera frames the method was chosen on, 0.85 took in 0.75 boxes per draw (2 frames taught)
#: and 2.75 (4 frames), none of them a labelled tile; 0.90: 0.25 and 0.5 ...
FIND_AT = 0.90
#: ... and a slot in a gap between two tiles of a row, or at a row's end, this similar: nothing
#: but the set vouches for these (the detector saw no tile there). At 0.85 the camera frames'
#: row ends (teal mat and the edge of the last tile) came out as taught blank whites, 73 false
#: tiles in one draw; at 0.92 and 0.95 none (scripts/eval_teach.py --protocol --variants; the
#: model card). A gap's tile the set knows well matches at 0.95-1 (the grids with boxes erased).
GAP_AT = 0.92
#: A row's ends are not looked at when reading (above 1: never): at 0.95 they took in no tile on
#: the frames, and reading their two slots costs a reader run on every photo (5-12 ms on 2 busy
#: cores, the most of what a set adds). Teaching looks there (the codes say a tile is missing).
END_AT = 2.0
#: A tile is compared with at most this many taught crops of each code (:func:`spread`).
READ_PER_CODE = 24
#: A taught crop is suspect when another code's taught crops are this much more like it than
#: the other crops of its own code (two codes swapped while teaching, a tile paired wrongly).
SUSPECT_MARGIN = 0.03
#: Two taught crops each read (at least this sure) as the other's code look like a swap.
SWAP_SURE = 0.5
#: Taught crops sent to the reader at once when a set's looks are computed.
LOOK_BATCH = 128


def _unit(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9)
    return out


@lru_cache(maxsize=8)
def _file_hash(path: str, size: int, mtime: float) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def reader_fingerprint(model: OnnxModel) -> str:
    """Which reader the features belong to (a hash of its file)."""
    st = os.stat(model.path)
    return _file_hash(str(model.path), st.st_size, st.st_mtime)


@dataclass(frozen=True)
class CropLooks:
    """What the reader makes of taught crops: the unit features of each crop's two looks,
    (2 x crops, features), all as cut then all turned; and its own code for each crop."""

    features: np.ndarray
    read_as: tuple[str, ...]
    #: the reader's probability for ``read_as`` (its two looks averaged)
    sure: tuple[float, ...] = ()


def crop_looks(model: OnnxModel, crops: list[np.ndarray]) -> CropLooks:
    """The reader's looks at ``crops``, :data:`LOOK_BATCH` at a time (a full set in one batch
    took 4.6-5.7 GB)."""
    if len(crops) > LOOK_BATCH:
        parts = [_crop_looks(model, crops[k : k + LOOK_BATCH]) for k in range(0, len(crops), LOOK_BATCH)]
        return _joined(parts)
    return _crop_looks(model, crops)


def _joined(parts: list[CropLooks]) -> CropLooks:
    """Looks of consecutive runs of crops as one (each part's rows: as cut, then turned)."""
    parts = [p for p in parts if len(p.read_as)]
    if not parts:
        return CropLooks(np.zeros((0, 0), np.float32), ())
    halves = [(p.features[: len(p.read_as)], p.features[len(p.read_as) :]) for p in parts]
    features = np.concatenate([h[0] for h in halves] + [h[1] for h in halves])
    return CropLooks(
        features, tuple(c for p in parts for c in p.read_as), tuple(v for p in parts for v in p.sure)
    )


def _crop_looks(model: OnnxModel, crops: list[np.ndarray]) -> CropLooks:
    if not crops:
        return CropLooks(np.zeros((0, 0), np.float32), ())
    looks = look(model, crops, tta=True)
    if looks.features is None:
        raise ValueError(f"the reader {model.path.name} has no 'features' output: it cannot use a taught set")
    n = len(crops)
    e = np.exp(looks.logits - looks.logits.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    probs = (probs[:n] + probs[n:]) / 2
    best = probs.argmax(axis=1)
    read_as = tuple(model.classes[int(i)] for i in best)
    sure = tuple(float(probs[k, i]) for k, i in enumerate(best))
    return CropLooks(_unit(looks.features.astype(np.float32)), read_as, sure)


@dataclass
class TaughtReader:
    """A taught set ready to adjust the reader's logits, match and find tiles
    (:class:`vision.read.TaughtSet`)."""

    name: str
    #: unit features of the taught crops (as cut), grouped by code: (crops, features)
    features: np.ndarray
    #: each row's class index in the reader's classes
    labels: np.ndarray
    #: where each taught class's rows start in ``features`` (sorted by class)
    starts: np.ndarray
    classes: np.ndarray
    #: how like a taught tile a box the detector was unsure of must look to be taken as a tile
    find_at: float = FIND_AT
    #: ... a slot between two tiles of a row, and one at a row's end
    gap_at: float = GAP_AT
    end_at: float = END_AT
    #: from this similarity on a tile is taken to look like a taught crop (:data:`SIMILAR_AT`)
    similar_at: float = SIMILAR_AT
    _last: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False, compare=False)
    _features_t: np.ndarray | None = field(default=None, repr=False, compare=False)

    @classmethod
    def build(
        cls, name: str, features: np.ndarray, codes: list[str], reader_classes: tuple[str, ...]
    ) -> TaughtReader:
        labels = np.array([reader_classes.index(c) for c in codes], np.int64)
        order = np.argsort(labels, kind="stable")
        labels, features = labels[order], features[order]
        taught, starts = np.unique(labels, return_index=True)
        none = reader_classes.index(NOT_A_TILE) if NOT_A_TILE in reader_classes else -1
        return cls(name, np.ascontiguousarray(features), labels, starts, taught, none_class=none)

    def similarities(self, features: np.ndarray) -> np.ndarray:
        """(tiles, taught classes): each tile's best similarity to each taught class's crops. The
        reader's batch is compared once: :meth:`adjust` and :meth:`match` get the same features
        object in turn (the last one is kept; another thread's batch only costs a recompute)."""
        last = self._last
        if last is not None and last[0] is features:
            return last[1]
        if self._features_t is None or self._features_t.shape[1] != len(self.features):
            # (features, crops) in C order: a product with the transposed view is several times
            # slower (measured: 50 looks against 1,104 crops, 4 against 15-25 ms on 2 busy cores)
            self._features_t = np.ascontiguousarray(self.features.T)
        sims = _unit(features.astype(np.float32)) @ self._features_t
        best = np.maximum.reduceat(sims, self.starts, axis=1)
        self._last = (features, best)
        return best

    def adjust(self, logits: np.ndarray, features: np.ndarray, tiles: int | None = None) -> np.ndarray:
        """The logits of each look raised for the taught codes the tile looks like. ``tiles``:
        how many tiles the looks are of (rows ``i`` and ``i + tiles`` the same tile's two looks):
        a tile looks like a taught crop when either of its looks does, and both looks move."""
        if not len(self.labels) or not len(logits):
            return logits
        sims = self.similarities(features)
        if tiles and len(sims) == 2 * tiles:
            best = np.maximum(sims[:tiles], sims[tiles:])
            sims = np.concatenate([best, best])
        shift = np.maximum((sims - self.similar_at) / TEMPERATURE, 0.0)
        negative = self.classes == self.none_class
        if negative.any():
            # a box at least as like a "not a tile" crop as any taught tile: only "not a tile" rises
            like_none = sims[:, negative].max(axis=1) >= sims[:, ~negative].max(axis=1, initial=-1.0)
            shift[np.ix_(like_none, ~negative)] = 0.0
        out = logits.astype(np.float32).copy()
        out[:, self.classes] += shift
        return out

    def match(self, features: np.ndarray, tiles: int | None = None) -> np.ndarray:
        """(tiles,): each tile's best similarity to the set's taught tiles (either look), or 0
        where a "not a tile" crop of the set is at least as like it: what
        :mod:`vision.teach.finding` takes a box the detector was unsure of as a tile by."""
        n = tiles if tiles else len(features)
        if not len(self.labels) or not len(features):
            return np.zeros(n, np.float32)
        sims = self.similarities(features)
        if tiles and len(sims) == 2 * tiles:
            sims = np.maximum(sims[:tiles], sims[tiles:])
        negative = self.classes == self.none_class
        pos = sims[:, ~negative].max(axis=1) if (~negative).any() else np.zeros(len(sims), np.float32)
        neg = sims[:, negative].max(axis=1) if negative.any() else np.full(len(sims), -1.0, np.float32)
        return np.where(pos > neg, pos, 0.0).astype(np.float32)

    #: the reader's class index of "not a tile" (-1: a reader without it)
    none_class: int = -1

    def find(
        self, reader: BoxReader, image: np.ndarray, readings: list[TileRead], keep: float
    ) -> list[TileRead]:
        """The readings with the boxes this set recognises taken in (:func:`vision.teach.finding.find`)."""
        from mahjong_camera_scorer.vision.teach.finding import find

        return find(self, reader, image, readings, keep)


def _cached(cache: Path, fingerprint: str) -> dict[str, tuple[np.ndarray, np.ndarray, str, float]]:
    """The cache's looks by example id (as cut, turned, read as, sure), when for this reader."""
    try:
        with np.load(cache, allow_pickle=False) as z:
            if str(z["reader"]) != fingerprint:
                return {}
            ids, f, read_as, sure = z["ids"], z["features"], z["read_as"], z["sure"]
    except (OSError, ValueError, KeyError, EOFError):
        return {}  # none yet, stale or broken: computed again
    n = len(ids)
    if f.shape[0] != 2 * n or len(read_as) != n or len(sure) != n:
        return {}
    return {str(ids[k]): (f[k], f[n + k], str(read_as[k]), float(sure[k])) for k in range(n)}


def _assembled(ids: list[str], known: dict[str, tuple[np.ndarray, np.ndarray, str, float]]) -> CropLooks:
    rows = [known[i] for i in ids]
    if not rows:
        return CropLooks(np.zeros((0, 0), np.float32), ())
    features = np.stack([r[0] for r in rows] + [r[1] for r in rows]).astype(np.float32)
    return CropLooks(features, tuple(r[2] for r in rows), tuple(r[3] for r in rows))


def cached_looks(ids: list[str], model: OnnxModel, cache: Path) -> CropLooks | None:
    """:func:`crop_looks` of the examples ``ids`` from ``cache`` alone (no crop needed), or None
    when one of them is not there for this reader."""
    known = _cached(cache, reader_fingerprint(model))
    return _assembled(ids, known) if all(i in known for i in ids) else None


def looks_of(ts: TileSet, model: OnnxModel, cache: Path | None = None) -> CropLooks:
    """:func:`crop_looks` of the set's examples, in their order. With ``cache`` (the set's
    ``features.npz``): the looks of each example are kept by its id for this reader, so only the
    crops a change added are read again (an example's crop never changes under its id)."""
    fingerprint = reader_fingerprint(model)
    known = _cached(cache, fingerprint) if cache is not None else {}
    ids = [e.id for e in ts.examples]
    new = [e for e in ts.examples if e.id not in known]
    if new:
        found = crop_looks(model, [e.crop for e in new])
        n = len(new)
        for k, e in enumerate(new):
            known[e.id] = (found.features[k], found.features[n + k], found.read_as[k], found.sure[k])
    looks = _assembled(ids, known)
    if cache is not None and (new or len(known) != len(ids)):
        _write_cache(cache, fingerprint, ids, looks)
    return looks


def _write_cache(cache: Path, fingerprint: str, ids: list[str], looks: CropLooks) -> None:
    """The cache written as every output is (whole, with the umask's mode: a set shared with a
    group stays readable by it); a cache that cannot be written is computed again next time."""
    buf = io.BytesIO()
    np.savez(
        buf,
        reader=np.array(fingerprint),
        ids=np.array(ids, dtype="U32"),
        features=looks.features.astype(np.float32),
        read_as=np.array(looks.read_as, dtype="U8"),
        sure=np.array(looks.sure, np.float32),
    )
    with contextlib.suppress(OSError):
        write_output(cache, buf.getvalue(), follow_links=False)


def taught_reader(ts: TileSet, model: OnnxModel, cache: Path | None = None) -> TaughtReader:
    """The set as an adjuster for ``model`` (the reader it will be used with)."""
    return reader_of(ts.name, [e.code for e in ts.examples], looks_of(ts, model, cache), model.classes)


def reader_of(name: str, codes: list[str], looks: CropLooks, classes: tuple[str, ...]) -> TaughtReader:
    """The adjuster made of taught crops' codes and :func:`crop_looks`, comparing each tile with
    at most :data:`READ_PER_CODE` crops of a code (:func:`spread`), each as cut (a tile's two looks,
    as cut and turned, meet a taught crop of either way up)."""
    feats = looks.features[: len(codes)]
    keep = [
        i for c in dict.fromkeys(codes) for i in spread(feats, [k for k, x in enumerate(codes) if x == c])
    ]
    return TaughtReader.build(name, feats[keep], [codes[i] for i in keep], classes)


def calibrated(features: np.ndarray, codes: list[str], low: float = 0.75, high: float = 0.92) -> float:
    """A similarity threshold for this set, leave one out: each taught crop that has others of its
    code is compared with the rest of the set; the threshold (``low``..``high``, step 0.01) that
    best separates recognising its own code (its best match is of its code and at least the
    threshold) from taking another's (its best match is another code's, at least the threshold).
    Tried against the fixed :data:`SIMILAR_AT` (``scripts/eval_teach.py --protocol --variants``)."""
    arr = np.array(codes)
    f = _unit(features[: len(codes)].astype(np.float32))
    sims = f @ f.T
    np.fill_diagonal(sims, -1.0)
    same = arr[:, None] == arr[None, :]
    has = same.sum(axis=1) > 1
    if not has.any():
        return SIMILAR_AT
    own = np.where(same, sims, -1.0).max(axis=1)[has]
    other = np.where(same, -1.0, sims).max(axis=1)[has]
    best, at = -1e9, SIMILAR_AT
    for t in np.arange(high, low - 1e-9, -0.01):
        score = int(((own >= t) & (own > other)).sum()) - int(((other >= t) & (other >= own)).sum())
        if score > best:
            best, at = score, float(t)
    return at


def spread(features: np.ndarray, members: list[int], most: int | None = None) -> list[int]:
    """At most ``most`` (:data:`READ_PER_CODE`) of ``members``, chosen to cover their variety:
    the first, then each time the one least like those chosen (farthest-point). A set corrected for
    years can hold hundreds of crops of a code; comparing each tile with all of them would cost
    more than the reading (a full set, 5,000 crops: 33 ms a photo), while a few dozen different
    ones hold what the code looks like in this set."""
    most = READ_PER_CODE if most is None else most
    if len(members) <= most:
        return members
    f = features[members]
    chosen = [0]
    best = f @ f[0]
    for _ in range(most - 1):
        k = int(best.argmin())
        chosen.append(k)
        best = np.maximum(best, f @ f[k])
    return [members[k] for k in sorted(chosen)]


@dataclass(frozen=True)
class Suspect:
    """A taught crop that looks wrong: like another code's taught crops more than its own, or
    read by the reader as the code of a crop that the reader reads as this one's (a swap)."""

    example: Example
    looks_like: str
    #: best similarity to the other crops of its own code (-1: none) and to a ``looks_like`` crop
    own: float
    other: float
    why: str = "neighbours"  # neighbours | swap

    @property
    def message(self) -> str:
        e = self.example
        head = f"taught tile {e.id} ({e.code}, from {e.source or '?'})"
        if self.why == "swap":
            return (
                f"{head} is read as {self.looks_like}, and a tile taught as {self.looks_like} is read as "
                f"{e.code}: two codes swapped? remove the wrong one"
            )
        own = f"{self.own:.2f}" if self.own > -1 else "no other"
        like = (
            "boxes taught as not a tile"
            if self.looks_like == NOT_A_TILE
            else f"taught {self.looks_like} tiles"
        )
        mine = "boxes taught as not a tile" if e.code == NOT_A_TILE else f"{e.code} tiles"
        return (
            f"{head} looks more like the {like} ({self.other:.2f}) than like the other {mine} ({own}): "
            "a wrong code? remove it if so"
        )


def suspects(ts: TileSet, looks: CropLooks) -> list[Suspect]:
    """Taught crops that disagree with the rest of their code (``looks`` from :func:`looks_of`).

    - **neighbours**: the best match among another code's taught crops is at least
      :data:`SIMILAR_AT` and beats the best match among its own code's other crops by
      :data:`SUSPECT_MARGIN`. Not for flowers and seasons (a series differs by a numeral: they
      all look alike) nor for a code taught once (no others to agree with);
    - **swap**: the reader reads it as a code ``b`` while a crop taught as ``b`` is read as this
      crop's code, both at least :data:`SWAP_SURE` sure: the signature of two codes swapped,
      which neighbours cannot see when each code is taught once. A design the reader never saw
      is read wrongly too, but rarely both ways and that surely.

    On the five camerash grids (codes of two random tiles swapped, 80 times a grid): 86 % of the
    swapped tiles are reported when each code is taught once, 92 % twice, 95 % four times, and a
    clean set raises no report (``scripts/eval_teach.py``)."""
    n = len(ts.examples)
    if n < 2:
        return []
    f = looks.features[:n]
    sims = f @ f.T
    np.fill_diagonal(sims, -1.0)
    codes = np.array([e.code for e in ts.examples])
    out: dict[int, Suspect] = {}
    for i, e in enumerate(ts.examples):
        same = codes == e.code
        own = float(sims[i, same].max()) if same.sum() > 1 else -1.0
        other_sims = np.where(same, -1.0, sims[i])
        j = int(other_sims.argmax())
        other = float(other_sims[j])
        if e.code in BONUS or own == -1:
            continue  # a series' flowers differ by a numeral; a code taught once has no others
        if other >= SIMILAR_AT and other > own + SUSPECT_MARGIN:
            out[i] = Suspect(e, str(codes[j]), own, other)
    read_as = looks.read_as
    by_code: dict[str, list[int]] = {}
    for i, c in enumerate(codes):
        by_code.setdefault(str(c), []).append(i)
    for i, e in enumerate(ts.examples):
        b = read_as[i] if i < len(read_as) else e.code
        if i in out or b == e.code or looks.sure[i] < SWAP_SURE:
            continue
        if any(read_as[j] == e.code and looks.sure[j] >= SWAP_SURE for j in by_code.get(b, [])):
            out[i] = Suspect(e, b, -1.0, -1.0, why="swap")
    return [out[i] for i in sorted(out)]

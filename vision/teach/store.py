"""Where taught sets live: one folder per set under the user's data directory (or ``--profile``),
and the one-file form a tournament hands to its referees (``export`` / ``import``).

A set's folder holds ``set.json`` (the name and each example's code, source and date) and
``crops/<id>.png``. Writes never lose what was there: new crops are written before ``set.json``
names them, ``set.json`` is replaced in one rename, and crops are deleted only after it no longer
names them, so a crash leaves at worst an unused crop file behind. An exported set is a zip of the
same files; importing checks every member (names, sizes, pixels, codes) before anything is
written.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import threading
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

try:
    import fcntl
except ImportError:  # not POSIX: a lock between this process's threads only
    fcntl = None  # type: ignore[assignment]

import cv2
import numpy as np

from mahjong_camera_scorer.scoring.fields import show
from mahjong_camera_scorer.scoring.output_paths import (
    PROFILE_ENV as PROFILE_ENV,  # where the tests and the CLI set it
)
from mahjong_camera_scorer.scoring.output_paths import (
    default_sets_root,
    open_lock,
    set_lock_path,
    what_is,
    write_output,
)
from mahjong_camera_scorer.vision.images import PhotoError, decode_image
from mahjong_camera_scorer.vision.teach.profile import (
    MAX_EXAMPLES,
    NAME_RE,
    Example,
    SetError,
    TileSet,
    check_name,
)

FORMAT = "mahjong-score tile set"
VERSION = 1
#: An exported set's members: set.json and crops no larger than this (bytes, pixels a side).
MAX_CROP_BYTES = 256 << 10
MAX_CROP_SIDE = 256
MAX_JSON_BYTES = 4 << 20
#: an example's texts as kept: its source (a photo's name), how and when it was taught (a date);
#: an imported set may hold megabytes in them, which would be listed whole
MAX_SOURCE, MAX_WORD = 200, 40

_LOCK = threading.Lock()
T = TypeVar("T")


def default_root() -> Path:
    """The user's folder of sets (:func:`scoring.output_paths.default_sets_root`)."""
    return default_sets_root()


def _write_atomic(path: Path, data: bytes) -> None:
    """``data`` as ``path``, whole or not at all, with the mode the user's umask gives a new file
    (a set shared with a group stays readable by it): the rule every output follows."""
    write_output(path, data, follow_links=False)


def _png(crop: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".png", crop)
    if not ok:
        raise SetError("a crop could not be encoded as PNG")
    return buf.tobytes()


def _crop_from(data: bytes, what: str) -> np.ndarray:
    if len(data) > MAX_CROP_BYTES:
        raise SetError(f"{what} is too large for a tile crop ({len(data)} bytes)")
    try:
        image, _ = decode_image(data, max_pixels=MAX_CROP_SIDE * MAX_CROP_SIDE, min_side=MAX_CROP_SIDE)
    except PhotoError as exc:
        if exc.reason == "too_small":
            raise SetError(f"{what}: too small for a tile crop (8 pixels a side at least)") from None
        if exc.reason == "too_large":
            raise SetError(
                f"{what}: too large for a tile crop ({MAX_CROP_SIDE}x{MAX_CROP_SIDE} at most)"
            ) from None
        raise SetError(f"{what}: {exc}") from None
    return image


def _document(ts: TileSet) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": ts.name,
        "created": ts.created,
        "note": ts.note,
        "examples": [e.meta() for e in ts.examples] + [_unbroken(b) for b in ts.broken],
    }


def _unbroken(entry: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in entry.items() if k != "problem"}


def _parse_document(data: bytes, what: str) -> dict[str, Any]:
    if len(data) > MAX_JSON_BYTES:
        raise SetError(f"{what} is too large ({len(data)} bytes)")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise SetError(f"{what} is not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SetError(f"{what} is not a {FORMAT} (no 'format': {FORMAT!r})")
    version = doc.get("version")
    if type(version) is not int or version != VERSION:  # True and 1.0 equal 1, and are no version
        raise SetError(f"{what} is version {show(version)}; this program reads version {VERSION}")
    examples = doc.get("examples")
    if not isinstance(examples, list) or len(examples) > MAX_EXAMPLES:
        raise SetError(f"{what}: 'examples' must be a list of at most {MAX_EXAMPLES} entries")
    for e in examples:
        if not isinstance(e, dict) or not all(isinstance(e.get(k), str) for k in ("id", "code")):
            raise SetError(f"{what}: each example needs an 'id' and a 'code' (strings)")
        if not re.fullmatch(r"[0-9a-f]{4,32}", e["id"]) or len(e["code"]) > 8:
            raise SetError(f"{what}: bad example id or code {e['id'][:40]!r} {e['code'][:8]!r}")
    if len({e["id"] for e in examples}) != len(examples):
        raise SetError(f"{what}: two examples share an id")
    return doc


def _tileset(
    doc: dict[str, Any], crops: dict[str, np.ndarray | str], name: str | None = None, skip: bool = False
) -> TileSet:
    """The set ``doc`` describes with its ``crops`` (a crop that could not be read: its error).
    ``skip``: such a taught tile is kept aside in ``broken`` (a saved set: one bad crop must not
    make the rest unusable); else it is an error (an import is checked whole)."""
    examples, broken = [], []
    for e in doc["examples"]:
        crop = crops.get(e["id"], f"the crop of taught tile {e['id']} ({e['code']}) is missing")
        if isinstance(crop, str):
            if not skip:
                raise SetError(crop)
            broken.append({**{k: str(v) for k, v in e.items()}, "problem": crop})
            continue
        examples.append(
            Example(
                code=e["code"],
                crop=crop,
                source=str(e.get("source", ""))[:MAX_SOURCE],
                how=str(e.get("how", "teach"))[:MAX_WORD],
                added=str(e.get("added", ""))[:MAX_WORD],
                id=e["id"],
            )
        )
    return TileSet(
        name=name or str(doc.get("name", "")),
        examples=examples,
        created=str(doc.get("created", "")),
        note=str(doc.get("note", ""))[:500],
        broken=broken,
    )


class SetStore:
    """The taught sets in one folder (``root``), one sub-folder per set.

    Every change is a read-modify-write under the set's lock (:meth:`update`): an ``flock`` on
    ``root/.<name>.lock``, beside the folder rather than in it so that a replace can swap the
    whole folder (the CLI's processes and the server's threads each open it, so it holds
    between threads as between processes). Taking the lock also finishes what a killed writer
    left: its temporary files, a replace cut between its two renames."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else default_root()

    def folder(self, name: str) -> Path:
        return self.root / check_name(name)

    def entries(self) -> tuple[list[str], list[str]]:
        """The sets here by name, and what was skipped (a folder whose name is no set name)."""
        if not self.root.is_dir():
            return [], []
        names, skipped = [], []
        try:
            found = sorted(self.root.iterdir())
        except OSError as exc:
            return [], [f"{self.root}: {exc.strerror or exc}"]
        # an import or a replace killed between its two renames left only ``.NAME.new``: finished
        # here under the set's lock (as opening it by name would), so that the set is listed
        cut = [p.name[1:-4] for p in found if p.name[:1] == "." and p.name.endswith(".new") and p.is_dir()]
        for name in cut:
            with contextlib.suppress(SetError):
                self.exists(name)
        if cut:
            with contextlib.suppress(OSError):
                found = sorted(self.root.iterdir())
        for p in found:
            if p.name.startswith(".") or not (p / "set.json").is_file():
                continue
            if NAME_RE.fullmatch(p.name) and p.name.strip() == p.name:
                names.append(p.name)
            else:
                skipped.append(f"{p}: not a set's folder name (skipped)")
        return names, skipped

    def names(self) -> list[str]:
        """The sets here, by name."""
        return self.entries()[0]

    def exists(self, name: str) -> bool:
        folder = self.folder(name)
        if not (folder / "set.json").is_file() and folder.with_name(f".{name}.new").is_dir():
            with self._locked(name, make=False):
                pass  # a replace cut by a kill: finished under the lock
        return (folder / "set.json").is_file()

    def load(self, name: str) -> TileSet:
        """The set called ``name``; a clear error naming the sets there are when it is missing.
        Read under the set's lock (never half a save); a crop that cannot be read is reported in
        ``broken`` and left out, the rest of the set usable."""
        if not self.exists(name):
            known = ", ".join(self.names()) or "none yet"
            raise SetError(
                f"no taught set {name!r} in {self.root} (sets: {known}); teach one with "
                f"'mahjong-score teach --set {name} PHOTO \"CODES\"'"
            )
        with self._locked(name, make=False) as folder:
            return self._read(name, folder)

    def index(self, name: str) -> list[tuple[str, str]]:
        """Each taught tile's (id, code) from ``set.json`` alone, no crop read (reading with a set
        whose features are cached needs no more)."""
        if not self.exists(name):
            self.load(name)  # the error naming the sets there are
        with self._locked(name, make=False) as folder:
            path = folder / "set.json"
            try:
                doc = _parse_document(path.read_bytes(), str(path))
            except OSError as exc:
                raise SetError(f"cannot read set {name!r}: {exc.strerror or exc}") from None
        return [(e["id"], e["code"]) for e in doc["examples"]]

    def _read(self, name: str, folder: Path) -> TileSet:
        doc_path = folder / "set.json"
        try:
            doc = _parse_document(doc_path.read_bytes(), str(doc_path))
        except OSError as exc:
            raise SetError(f"cannot read set {name!r}: {exc.strerror or exc}") from None
        crops: dict[str, np.ndarray | str] = {}
        for e in doc["examples"]:
            path = folder / "crops" / f"{e['id']}.png"
            try:
                crops[e["id"]] = _crop_from(path.read_bytes(), str(path))
            except FileNotFoundError:
                pass  # reported as missing
            except OSError as exc:
                crops[e["id"]] = f"cannot read {path}: {exc.strerror or exc}"
            except SetError as exc:
                crops[e["id"]] = str(exc)
        return _tileset(doc, crops, name, skip=True)

    def _lock_path(self, name: str) -> Path:
        return set_lock_path(self.root, check_name(name))

    @contextlib.contextmanager
    def _locked(self, name: str, make: bool = True) -> Iterator[Path]:
        """The set's folder, held exclusively (``make``: created when new)."""
        folder = self.folder(name)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            # never through a link: one planted as the lock would create or truncate its target
            lock = os.fdopen(open_lock(self._lock_path(name)), "r+b")
        except OSError as exc:
            raise SetError(
                f"cannot lock set {name!r} in {self.root}: {self._lock_path(name)} {exc.strerror or exc}"
            ) from None
        with lock, _LOCK if fcntl is None else contextlib.nullcontext():
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                self._recover(folder)
                if make:
                    try:
                        (folder / "crops").mkdir(parents=True, exist_ok=True)
                    except OSError as exc:
                        raise SetError(
                            f"cannot write the set's folder {folder}: {exc.strerror or exc}"
                        ) from None
                yield folder
            finally:
                if fcntl is not None:
                    fcntl.flock(lock, fcntl.LOCK_UN)

    @staticmethod
    def _recover(folder: Path) -> None:
        """Under the lock: finish a replace cut between its renames (the new folder is whole
        once it holds ``set.json``), drop a half-written one and temporary files a kill left."""
        new = folder.with_name(f".{folder.name}.new")
        old = folder.with_name(f".{folder.name}.removed")
        with contextlib.suppress(OSError):
            if new.is_dir():
                if not (folder / "set.json").is_file() and (new / "set.json").is_file():
                    if folder.exists():
                        shutil.rmtree(folder)
                    new.rename(folder)
                else:
                    shutil.rmtree(new)
            if old.exists():
                shutil.rmtree(old)
            for tmp in [*folder.glob(".*.tmp"), *folder.glob("crops/.*.tmp")]:
                tmp.unlink()

    @staticmethod
    def _write(ts: TileSet, folder: Path) -> None:
        """New crops first, then ``set.json`` in one rename, then crops no longer named out."""
        crops = folder / "crops"
        try:
            crops.mkdir(parents=True, exist_ok=True)
            for e in ts.examples:
                path = crops / f"{e.id}.png"
                if not path.is_file():
                    _write_atomic(path, _png(e.crop))
            _write_atomic(folder / "set.json", json.dumps(_document(ts), indent=1).encode("utf-8"))
            keep = {f"{e.id}.png" for e in ts.examples} | {f"{b['id']}.png" for b in ts.broken}
            for p in crops.iterdir():
                if p.suffix == ".png" and p.name not in keep:
                    p.unlink()
        except OSError as exc:
            raise SetError(f"cannot write set {ts.name!r} in {folder}: {exc.strerror or exc}") from None

    def save(self, ts: TileSet) -> Path:
        """Write the set as it is (a new set; :meth:`update` changes one that may have changed
        since it was loaded)."""
        with self._locked(ts.name) as folder:
            self._write(ts, folder)
        return folder

    def update(self, name: str, change: Callable[[TileSet], T], create: bool = False) -> tuple[TileSet, T]:
        """Load ``name`` (a new empty set with ``create``), apply ``change`` to it and save it,
        all under the set's lock: two runs teaching one set at once keep both runs' tiles."""
        if not create and not self.exists(name):
            self.load(name)  # the error naming the sets there are
        with self._locked(name) as folder:
            ts = self._read(name, folder) if (folder / "set.json").is_file() else TileSet(name)
            result = change(ts)
            self._write(ts, folder)
        return ts, result

    def replace(self, ts: TileSet) -> Path:
        """Put ``ts`` in place of the set of its name, whole: written to a new folder first, then
        swapped in by two renames (a kill between them is finished by the next open)."""
        with self._locked(ts.name, make=False) as folder:
            new = folder.with_name(f".{folder.name}.new")
            old = folder.with_name(f".{folder.name}.removed")
            try:
                if new.exists():
                    shutil.rmtree(new)
                self._write(ts, new)
                if folder.exists():
                    folder.rename(old)
                new.rename(folder)
                shutil.rmtree(old, ignore_errors=True)
            except OSError as exc:
                raise SetError(f"cannot replace set {ts.name!r}: {exc.strerror or exc}") from None
        return folder

    def remove(self, name: str) -> None:
        """Delete the set's folder."""
        if not self.exists(name):
            self.load(name)  # the error naming the sets there are
        with self._locked(name, make=False) as folder:
            trash = folder.with_name(f".{folder.name}.removed")
            try:
                folder.rename(trash)
                shutil.rmtree(trash)
            except OSError as exc:
                raise SetError(f"cannot remove set {name!r}: {exc.strerror or exc}") from None

    # -- one file for a whole set -------------------------------------------------------------
    def export(self, name: str, dest: str | Path) -> Path:
        """Write the set as one zip file (``set.json`` and ``crops/<id>.png``)."""
        ts = self.load(name)
        dest = Path(dest)
        if dest.is_dir():
            raise SetError(f"{dest} is a folder: give a file name, e.g. {dest / (name + '.mjset')}")
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("set.json", json.dumps(_document(ts), indent=1))
            for e in ts.examples:
                z.writestr(f"crops/{e.id}.png", _png(e.crop))
        try:
            write_output(dest, buf.getvalue())  # through a link, the link kept
        except OSError as exc:
            raise SetError(f"cannot write {dest}: {exc.strerror or exc}") from None
        return dest


def _member(z: zipfile.ZipFile, info: zipfile.ZipInfo, what: str) -> bytes:
    """One member's bytes, or a clear error: encrypted, an unknown compression, corrupt data."""
    if info.flag_bits & 0x1:
        raise SetError(f"{what}: {info.filename[:80]!r} is encrypted (an exported set never is)")
    try:
        return z.read(info)
    except NotImplementedError:
        raise SetError(
            f"{what}: {info.filename[:80]!r} uses a compression method this program cannot read "
            f"({info.compress_type}; an exported set is stored or deflated)"
        ) from None
    except (zlib.error, zipfile.BadZipFile, EOFError, RuntimeError, ValueError) as exc:
        why = "".join(c if c.isprintable() else "?" for c in str(exc)[:120])
        raise SetError(f"{what}: {info.filename[:80]!r} is corrupt ({why})") from None


def read_export(source: str | Path) -> TileSet:
    """A set from an exported file, every member checked before anything is used."""
    path = Path(source)
    if not path.is_file():
        kind = what_is(path)
        raise SetError(f"{path} is {kind}, not an exported set" if kind else f"no such file: {path}")
    limit = MAX_JSON_BYTES + (MAX_EXAMPLES + 1) * MAX_CROP_BYTES
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
            if len(infos) > MAX_EXAMPLES + 2:
                raise SetError(f"{path} holds {len(infos)} files: not an exported set")
            if sum(i.file_size for i in infos) > limit:
                raise SetError(f"{path} unpacks to more than an exported set can hold")
            members = {i.filename: i for i in infos if not i.is_dir()}
            if "set.json" not in members:
                raise SetError(f"{path} is not an exported set (no set.json inside)")
            doc = _parse_document(_member(z, members["set.json"], str(path)), f"{path}: set.json")
            crops: dict[str, np.ndarray | str] = {}
            for e in doc["examples"]:
                member = members.get(f"crops/{e['id']}.png")
                if member is None:
                    raise SetError(f"{path}: the crop of taught tile {e['id']} ({e['code']}) is missing")
                if member.file_size > MAX_CROP_BYTES:
                    raise SetError(f"{path}: crops/{e['id']}.png is too large for a tile crop")
                crops[e["id"]] = _crop_from(_member(z, member, str(path)), f"{path}: crops/{e['id']}.png")
    except zipfile.BadZipFile:
        raise SetError(f"{path} is not an exported set (not a zip file)") from None
    except OSError as exc:
        raise SetError(f"cannot read {path}: {exc.strerror or exc}") from None
    name = str(doc.get("name", ""))
    check_name(name)
    return _tileset(doc, crops, name)

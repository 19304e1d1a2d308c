"""Where a command may write, one rule for every command that writes a file (``photo --annotate``,
``photos --out``, ``session --csv/--html/--out-json``, ``teach --export/--annotate``, ``camera
--headless --out DIR``, ``examples DIR``), checked before any work:

- never a folder, a device, a FIFO, a socket or a dangling link (what a path names is followed
  through links: ``--export /dev/null`` run as root would otherwise replace the device with a
  file, and a dangling link would create a file wherever it points);
- never one of the run's inputs (a photo, a session file, its manifest), even through a link or
  another name for it;
- never a taught set's files (:func:`taught_set_paths`: its folder, ``set.json``, crops, features
  cache, its lock), even with ``--force``: a set is the user's work of an evening;
- never the same file as another output of the run;
- an existing regular file only with ``--force``;
- never a file another run is writing (:func:`guarded_outputs`): two ``photos --out same.csv``
  started together both passed the "exists" check and both wrote, rows of two rule systems mixed.

Outputs are then written whole or not at all (:func:`write_output`): a temporary file beside the
target, renamed over it, with the mode the user's umask gives a new file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from itertools import combinations
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no lock between runs (the checks still hold)
    fcntl = None  # type: ignore[assignment]
_FLOCK: bool = fcntl is not None

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class OutputError(ValueError):
    """An output path that must not be written (the command turns it into its one-line error)."""


def what_is(path: str | Path) -> str | None:
    """What ``path`` names when it is not a regular file ("a folder", "a FIFO (named pipe)", …,
    "a dangling link"); None for a regular file or nothing at all."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a dangling link" if os.path.islink(path) else None
    except OSError:
        return None
    for test, name in _KINDS:
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"


def _keys(path: Path) -> set[object]:
    """What identifies the file a path names: its resolved path and, if it exists, its inode."""
    keys: set[object] = {path.resolve()}
    with contextlib.suppress(OSError):
        st = os.stat(path)
        keys.add((st.st_dev, st.st_ino))
    return keys


def _inside(path: Path, folders: Iterable[Path]) -> Path | None:
    target = path.resolve()
    for folder in folders:
        root = folder.resolve()
        if target == root or root in target.parents:
            return folder
    return None


#: what a taught set leaves beside its folder in the folder of sets (``vision.teach.store``): its
#: lock, and a replace's new folder and the old one on its way out
SET_FILE_SUFFIXES = (".lock", ".new", ".removed")
#: a set's own description in its folder
SET_DOCUMENT = "set.json"


#: Environment variable naming the folder of taught sets (a command's ``--profile`` wins).
PROFILE_ENV = "MAHJONG_SETS"


def default_sets_root() -> Path:
    """The user's folder of taught sets: ``$MAHJONG_SETS``, else the platform's data directory
    (``~/.local/share/mahjong-score/sets`` on Linux). Here, beside the rule that keeps every
    command's outputs out of it, so that the session commands (which read no set) keep out too."""
    env = os.environ.get(PROFILE_ENV)
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("mahjong-score", appauthor=False)) / "sets"


def set_lock_path(root: Path, name: str) -> Path:
    """The lock of set ``name`` in the folder of sets ``root``: beside the set's folder, so that a
    replace can swap the whole folder while it is held."""
    return root / f".{name}.lock"


def taught_set_paths(root: str | Path | None) -> list[Path]:
    """Everything of the taught sets in ``root`` that no output may replace: each set's folder
    (one holding ``set.json`` or ``crops``: a set, or one being made) with all it holds, and each
    set's lock and a replace's new and removed folders. Nothing when there is no such folder;
    another file or folder there (the user's own, when ``--profile`` names a working folder) is
    not a set's."""
    if root is None:
        return []
    folder = Path(root)
    try:
        found = list(folder.iterdir()) if folder.is_dir() else []
    except OSError:
        return [folder]  # a folder of sets that cannot be listed: none of it is written
    return [
        p
        for p in found
        if (p.name.startswith(".") and p.name.endswith(SET_FILE_SUFFIXES))
        or (p / SET_DOCUMENT).exists()
        or (p / "crops").is_dir()
    ]


def open_lock(path: Path) -> int:
    """A lock file's descriptor, the file made when missing and never followed when it is a link
    (a link planted in its place would make the lock truncate or create a file elsewhere);
    :class:`OSError` (``ELOOP``) for a link."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    if os.path.islink(path):  # where O_NOFOLLOW is missing, at least the plain case
        raise OSError(errno.ELOOP, "is a link, not a lock file", str(path))
    return os.open(path, flags, 0o666)


def check_output_paths(
    outputs: list[tuple[str, Path]],
    inputs: Iterable[Path] = (),
    force: bool = False,
    protected: Iterable[Path] = (),
    may_exist: Iterable[Path] = (),
) -> None:
    """Refuse, before anything is read or written, the outputs the rule above forbids.
    ``outputs``: (option, path); ``inputs``: the files the run reads; ``protected``: folders no
    output may be written in and files none may replace (:func:`taught_set_paths`), even with
    ``force``; ``may_exist``: outputs the command appends to (``photos --resume``)."""
    taken: set[object] = set()
    for p in inputs:
        taken |= _keys(Path(p))
    folders = list(protected)
    appended = {Path(p).resolve() for p in may_exist}
    for label, path in outputs:
        kind = what_is(path)
        if kind == "a folder":
            raise OutputError(f"{label} {path} is a folder: give a file name")
        if kind is not None:
            raise OutputError(f"{label} {path} is {kind}: not written (give a regular file's name)")
        if _keys(path) & taken:
            raise OutputError(f"{label} {path} is one of this run's inputs: writing it would destroy it")
        home = _inside(path, folders)
        if home is not None:
            what = "is" if path.resolve() == home.resolve() else "is inside"
            raise OutputError(f"{label} {path} {what} {home}, which is not to be written: give another place")
        if path.exists() and not force and path.resolve() not in appended:
            raise OutputError(f"{label} {path} exists already: give --force to replace it")
    for (la, a), (lb, b) in combinations(outputs, 2):
        if _keys(a) & _keys(b):
            raise OutputError(f"{la} and {lb} are the same file ({a}): give each its own name")


#: the lock beside an output while a run writes it (a name nobody else uses: it is removed after)
LOCK_SUFFIX = ".mahjong-score-lock"


def _lock_file(path: Path) -> Path:
    target = Path(os.path.realpath(path))  # two names of one file share one lock
    return target.with_name(f".{target.name}{LOCK_SUFFIX}")


@contextlib.contextmanager
def lock_outputs(paths: Iterable[Path]) -> Iterator[None]:
    """Hold each output against another run writing it at the same time (any command, any
    process): an ``flock`` on a lock file beside it, taken without waiting; :class:`OutputError`
    naming the output another run holds. The lock files are removed when the run is done (under
    the lock, and a lock taken on a file already removed is taken again)."""
    held: list[tuple[int, Path]] = []
    try:
        for path in dict.fromkeys(Path(p) for p in paths):
            held.append(_take(path))
        yield
    finally:
        for fd, lock in reversed(held):
            with contextlib.suppress(OSError):
                os.unlink(lock)
            os.close(fd)


def _take(path: Path) -> tuple[int, Path]:
    lock = _lock_file(path)
    for _ in range(100):  # another run removing its lock between our open and our flock: again
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            fd = open_lock(lock)
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        if not _FLOCK:
            return fd, lock
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise OutputError(
                f"{path} is being written by another run: wait for it to finish, or give another name"
            ) from None
        with contextlib.suppress(OSError):
            if os.fstat(fd).st_ino == os.lstat(lock).st_ino:
                return fd, lock
        os.close(fd)
    raise OutputError(f"cannot lock {path}: its lock file keeps changing")


@contextlib.contextmanager
def guarded_outputs(
    outputs: list[tuple[str, Path]],
    inputs: Iterable[Path] = (),
    force: bool = False,
    protected: Iterable[Path] = (),
    may_exist: Iterable[Path] = (),
    lock: Iterable[Path] | None = None,
) -> Iterator[None]:
    """:func:`check_output_paths`, then the outputs locked (:func:`lock_outputs`; ``lock``: the
    paths to lock when not every output, e.g. a batch's folder of pictures rather than each
    picture) and checked again under the lock, held while the block writes them. Checked first so
    that no lock file is made where no output may go; checked again since a run that finished
    meanwhile has made the file."""
    inputs, protected, may_exist = list(inputs), list(protected), list(may_exist)
    check_output_paths(outputs, inputs, force, protected, may_exist)
    with lock_outputs([p for _, p in outputs] if lock is None else lock):
        check_output_paths(outputs, inputs, force, protected, may_exist)
        yield


def new_file_mode() -> int:
    """The mode a new file gets under the user's umask. Read from /proc where there is one: setting
    the umask to read it would change it for a moment for every thread (the server's)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            mask = next(int(line.split()[1], 8) for line in f if line.startswith("Umask:"))
    except (OSError, StopIteration, ValueError, IndexError):
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def write_output(path: str | Path, data: bytes, follow_links: bool = True) -> Path:
    """Write ``data`` whole to the file ``path`` names (through a link: the link stays; with
    ``follow_links=False`` a link at ``path`` is replaced, as a store's own files are), by a
    temporary file beside it renamed over it, with the umask's mode. OSError on failure, the
    old file untouched."""
    target = Path(os.path.realpath(path)) if follow_links else Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, new_file_mode())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target

"""Where a command may write, one rule for every command that writes a file (``photo --annotate``,
``photos --out``, ``session --csv/--html/--out-json``, ``teach --export/--annotate``), checked
before any work:

- never a folder, a device, a FIFO or a socket (what a path names is followed through links:
  ``--export /dev/null`` run as root would otherwise replace the device with a file);
- never one of the run's inputs (a photo, a session file, its manifest, a set's own files), even
  through a link or another name for it;
- never the same file as another output of the run;
- an existing regular file only with ``--force``.

Outputs are then written whole or not at all (:func:`write_output`): a temporary file beside the
target, renamed over it, with the mode the user's umask gives a new file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path

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


def check_output_paths(
    outputs: list[tuple[str, Path]],
    inputs: Iterable[Path] = (),
    force: bool = False,
    protected: Iterable[Path] = (),
    may_exist: Iterable[Path] = (),
) -> None:
    """Refuse, before anything is read or written, the outputs the rule above forbids.
    ``outputs``: (option, path); ``inputs``: the files the run reads; ``protected``: folders no
    output may be written in (a taught set's folder); ``may_exist``: outputs the command appends
    to (``photos --resume``)."""
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
            raise OutputError(f"{label} {path} is inside {home}, which this run reads: give another place")
        if path.exists() and not force and path.resolve() not in appended:
            raise OutputError(f"{label} {path} exists already: give --force to replace it")
    for (la, a), (lb, b) in combinations(outputs, 2):
        if _keys(a) & _keys(b):
            raise OutputError(f"{la} and {lb} are the same file ({a}): give each its own name")


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

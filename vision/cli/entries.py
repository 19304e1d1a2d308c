"""What a ``photos`` batch reads: the folder's entries that look like photos, or a manifest's
lines, each with why it is skipped (if it is) and its annotated image's name."""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.vision.images import IMAGE_SUFFIXES


@dataclass(frozen=True)
class Entry:
    """A photo to read: a folder entry that looks like one, or a manifest line. ``skip`` says why
    it is not read (not a photo file), if it is not, and ``error`` what is wrong with its manifest line;
    ``label`` is its name in the CSV (the file name, or the photo as the manifest writes it)."""

    path: Path
    skip: str | None = None
    label: str = ""
    #: a manifest line's own context and rule options (None: the command line's)
    context: HandContext | None = None
    options: dict[str, str] | None = None
    table: str = ""
    hand_no: str = ""
    #: what is wrong with the manifest line (an error row, nothing read)
    error: str | None = None

    @property
    def name(self) -> str:
        return self.label or self.path.name


def entries(folder: Path) -> list[Entry]:
    """Every entry of ``folder`` with a photo's extension, by name. What is not a regular file (a
    folder named ``x.jpg``, a FIFO, a device, a broken link) is kept with the reason it is
    skipped, so it gets a row; a link to a photo is read."""
    return [
        Entry(path, not_a_photo_file(path)) for path in sorted(folder.iterdir()) if _looks_like_photo(path)
    ]


def _looks_like_photo(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_SUFFIXES


def not_a_photo_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as a photo file (a folder, a FIFO, a device, a broken link,
    missing), or None for a regular file or a link to one."""
    try:
        mode = path.stat().st_mode  # follows a link
    except OSError:
        return "a broken link" if path.is_symlink() else "no such file"
    if stat.S_ISREG(mode):
        return None
    what = (
        "a folder"
        if stat.S_ISDIR(mode)
        else "a FIFO (named pipe)"
        if stat.S_ISFIFO(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a device"
    )
    return f"{'a link to ' if path.is_symlink() else ''}{what}, not a photo file"


def annotated_names(paths: list[Path]) -> dict[Path, str]:
    """Each photo's annotated image name: its stem with ``.jpg``, or, where two photos share a
    stem (``a.jpg`` and ``a.png``), the later ones with their extension too (``a-png.jpg``)."""
    out: dict[Path, str] = {}
    used: set[str] = set()
    for p in paths:
        name = f"{p.stem}.jpg"
        if name.lower() in used:
            name = f"{p.stem}-{p.suffix[1:]}.jpg"
            k = 2
            while name.lower() in used:
                name, k = f"{p.stem}-{p.suffix[1:]}-{k}.jpg", k + 1
        used.add(name.lower())
        out[p] = name
    return out

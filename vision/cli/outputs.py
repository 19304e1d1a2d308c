"""Where the photo commands write, checked before any work: no output may overwrite a photo or
another output, and an annotated image must have a name OpenCV can write."""

from __future__ import annotations

import os
from itertools import combinations
from pathlib import Path

from scoring.cli import CliError

#: Annotated images are written with OpenCV, which picks the format from the extension.
ANNOTATION_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


def image_output(value: str, option: str) -> Path:
    """An annotated image's path, or a clear error: an extension OpenCV cannot write, a folder."""
    path = Path(value)
    if path.suffix.lower() not in ANNOTATION_SUFFIXES:
        raise CliError(
            f"{option} {value}: give an image file name ending in {', '.join(ANNOTATION_SUFFIXES)}"
        )
    if path.is_dir():
        raise CliError(f"{option} {value} is a folder: give an image file name")
    return path


def _keys(path: Path) -> set[object]:
    """What identifies the file a path names: its resolved path and, if it exists, its inode."""
    keys: set[object] = {path.resolve()}
    try:
        st = os.stat(path)
        keys.add((st.st_dev, st.st_ino))
    except OSError:
        pass
    return keys


def check_outputs(outputs: list[tuple[str, Path]], inputs: list[Path]) -> None:
    """Refuse, before anything is read or written, outputs that are folders, that are one of the
    input photos (even through a link) or that are the same file as another output."""
    taken: set[object] = set()
    for p in inputs:
        taken |= _keys(p)
    for label, path in outputs:
        if path.is_dir():
            raise CliError(f"{label} {path} is a folder: give a file name")
        if _keys(path) & taken:
            raise CliError(f"{label} {path} is one of the photos: writing it would destroy the photo")
    for (la, a), (lb, b) in combinations(outputs, 2):
        if _keys(a) & _keys(b):
            raise CliError(f"{la} and {lb} are the same file ({a}): give each its own name")

"""Where the photo commands write, checked before any work by the one rule every command that
writes follows (:mod:`scoring.output_paths`): the taught sets' files kept out of reach, the outputs
locked against another run while they are written, and an annotated image's name OpenCV can write."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from mahjong_camera_scorer.scoring.cli import CliError
from mahjong_camera_scorer.scoring.output_paths import OutputError, guarded_outputs, taught_set_paths

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


def sets_root(args: argparse.Namespace) -> Path:
    """The folder of taught sets this run would read (``--profile``, else the user's): no output
    of any command may replace what is in it, whether or not the run reads a set."""
    from mahjong_camera_scorer.vision.teach.store import default_root

    profile = getattr(args, "profile", None)
    return Path(profile) if profile else default_root()


@contextmanager
def guarded(
    outputs: list[tuple[str, Path]],
    inputs: Iterable[Path],
    force: bool = False,
    protected: Iterable[Path] = (),
    may_exist: Iterable[Path] = (),
    sets: Path | None = None,
    lock: Iterable[Path] | None = None,
) -> Iterator[None]:
    """:func:`scoring.output_paths.guarded_outputs` (checked, locked against another run, checked
    again) as a one-line CLI error, the taught sets in ``sets`` protected; so is a further check
    the block makes (:func:`scoring.output_paths.check_output_paths`, e.g. of pictures whose names
    are known only once the block has begun)."""
    try:
        with guarded_outputs(outputs, inputs, force, [*protected, *taught_set_paths(sets)], may_exist, lock):
            yield
    except OutputError as exc:
        raise CliError(str(exc)) from None


def add_force_option(p: argparse.ArgumentParser) -> None:
    """``--force``: the one way to replace an existing file with an output."""
    p.add_argument("--force", action="store_true", help="replace output files that exist already")

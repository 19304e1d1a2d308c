"""The bundled examples (``examples/`` of the checkout, ``mahjong_examples`` when installed) and
copying them out, so that the README's commands (``mahjong-score photo examples/hand.jpg``, the
session sheets, the tables) work wherever the tool was installed."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mahjong_camera_scorer.scoring.output_paths import OutputError, what_is, write_output
from mahjong_camera_scorer.vision.bundled import bundled_dir

#: the import package the wheel carries the examples in (pyproject.toml maps examples/ onto it)
EXAMPLES_PACKAGE = "mahjong_camera_scorer.examples"
#: what the examples are; pyproject.toml's package-data for ``mahjong_examples`` names the same
#: files (tests/test_packaging.py holds the two together)
EXAMPLE_SUFFIXES = (".jpg", ".json", ".csv", ".yaml")


def examples_dir() -> Path:
    return bundled_dir(EXAMPLES_PACKAGE, "examples")


def bundled_examples(folder: Path | None = None) -> list[Path]:
    """The example files, by name. Not the package's ``__init__.py``, nor what ``make run``
    writes beside them in a checkout (``hand-annotated.jpg``)."""
    folder = examples_dir() if folder is None else folder
    return sorted(
        p
        for p in folder.iterdir()
        if p.is_file() and p.suffix in EXAMPLE_SUFFIXES and "-annotated" not in p.stem
    )


@dataclass
class Copied:
    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # there already: never overwritten


def copy_examples(dest: Path, source: Path | None = None) -> Copied:
    """Copy every example into ``dest`` (made if missing). A file already there is kept as it is:
    it may be the user's own edit of an example. A name there that is no regular file (a dangling
    link, which would write wherever it points, a folder, a FIFO) stops the copy before anything
    is written (:class:`scoring.output_paths.OutputError`); each copy is written whole, a link put
    there meanwhile replaced rather than followed."""
    found = bundled_examples(source)
    if not found:
        raise FileNotFoundError(f"no bundled examples in {source or examples_dir()}")
    for path in found:
        target, kind = dest / path.name, what_is(dest / path.name)
        if kind is not None:
            raise OutputError(f"{target} is {kind}: not written (remove it, or give another folder)")
    dest.mkdir(parents=True, exist_ok=True)
    done = Copied()
    for path in found:
        target = dest / path.name
        if target.exists():
            done.kept.append(target)
        else:
            write_output(target, path.read_bytes(), follow_links=False)
            done.written.append(target)
    return done

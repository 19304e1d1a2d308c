"""pyproject.toml's explicit package list and package data against the tree (fast; the install
test, tests/test_wheel.py, proves the built wheel works)."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from vision import __version__
from vision.examples import bundled_examples

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = CONFIG["tool"]["setuptools"]


def _folder(package: str) -> Path:
    """Where setuptools takes ``package`` from: its package-dir mapping, else its dotted path."""
    top, _, rest = package.partition(".")
    base = ROOT / SETUPTOOLS["package-dir"].get(top, top)
    return base.joinpath(*rest.split(".")) if rest else base


def _packaged(package: str, folder: Path) -> set[str]:
    patterns = SETUPTOOLS["package-data"][package]
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and any(fnmatch.fnmatch(p.relative_to(folder).as_posix(), pat) for pat in patterns)
    }


def test_every_package_folder_is_listed_and_every_listed_package_exists() -> None:
    """A new sub-package must be added to the explicit list, or the wheel silently lacks it."""
    listed = set(SETUPTOOLS["packages"])
    for package in listed:
        assert (_folder(package) / "__init__.py").is_file(), package
    found = set()
    for top in ("scoring", "vision", "mjsynth"):
        base = _folder(top)
        for init in base.rglob("__init__.py"):
            found.add(".".join([top, *init.parent.relative_to(base).parts]))
    assert found <= listed, sorted(found - listed)


def test_the_models_travel_and_the_checkpoints_do_not() -> None:
    assert _packaged("mahjong_models", ROOT / "models") == {"detector.onnx", "reader.onnx", "README.md"}


def test_the_page_s_static_files_all_travel() -> None:
    static = ROOT / "vision" / "web" / "static"
    files = {f"static/{p.name}" for p in static.iterdir() if p.is_file() and not p.name.startswith(".")}
    # and the page's words, which the server reads (vision.web.messages)
    assert _packaged("vision.web", ROOT / "vision" / "web") == files | {"messages.json"}


def test_the_packaged_examples_are_the_ones_the_examples_command_copies() -> None:
    names = {p.name for p in bundled_examples(ROOT / "examples")}
    assert "hand.jpg" in names and "session-riichi.yaml" in names
    packaged = _packaged("mahjong_examples", ROOT / "examples") - {"hand-annotated.jpg"}  # make run's output
    assert packaged == names


def test_one_version_source() -> None:
    assert "version" not in CONFIG["project"] and "version" in CONFIG["project"]["dynamic"]
    assert SETUPTOOLS["dynamic"]["version"] == {"attr": "vision.__version__"}
    assert __version__.count(".") == 2

"""pyproject.toml's explicit package list and package data against the tree (fast; the install
test, tests/test_wheel.py, proves the built wheel works)."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from mahjong_camera_scorer.vision import __version__
from mahjong_camera_scorer.vision.examples import bundled_examples

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = CONFIG["tool"]["setuptools"]
#: every package installs under this one name (pyproject.toml), none at the top level of its own
NS = "mahjong_camera_scorer"


def _folder(package: str) -> Path:
    """Where setuptools takes ``package`` from: the longest package-dir mapping it starts with."""
    mapped = [m for m in SETUPTOOLS["package-dir"] if package == m or package.startswith(m + ".")]
    if not mapped:
        return ROOT.joinpath(*package.split("."))
    top = max(mapped, key=len)
    rest = package[len(top) + 1 :]
    base = ROOT / SETUPTOOLS["package-dir"][top]
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
    for top in (f"{NS}.scoring", f"{NS}.vision", f"{NS}.mjsynth"):
        base = _folder(top)
        for init in base.rglob("__init__.py"):
            found.add(".".join([top, *init.parent.relative_to(base).parts]))
    assert found <= listed, sorted(found - listed)


def test_the_models_travel_and_the_checkpoints_do_not() -> None:
    assert _packaged("mahjong_camera_scorer.models", ROOT / "models") == {
        "detector.onnx",
        "detector-small.onnx",
        "reader.onnx",
        "README.md",
    }


def test_the_page_s_static_files_all_travel() -> None:
    static = ROOT / "vision" / "web" / "static"
    files = {f"static/{p.name}" for p in static.iterdir() if p.is_file() and not p.name.startswith(".")}
    # and the page's words, which the server reads (vision.web.messages)
    assert _packaged("mahjong_camera_scorer.vision.web", ROOT / "vision" / "web") == files | {"messages.json"}


def test_the_packaged_examples_are_the_ones_the_examples_command_copies() -> None:
    names = {p.name for p in bundled_examples(ROOT / "examples")}
    assert "hand.jpg" in names and "session-riichi.yaml" in names
    packaged = _packaged("mahjong_camera_scorer.examples", ROOT / "examples") - {
        "hand-annotated.jpg"
    }  # make run's output
    assert packaged == names


def test_one_version_source() -> None:
    assert "version" not in CONFIG["project"] and "version" in CONFIG["project"]["dynamic"]
    assert SETUPTOOLS["dynamic"]["version"] == {"attr": "mahjong_camera_scorer.vision.__version__"}
    assert __version__.count(".") == 2


def test_nothing_installs_at_the_top_level_but_the_tool_s_own_name() -> None:
    """The index has other projects named ``vision`` and ``scoring``: installing this tool beside
    one of them must break neither (issue 37 item 8), so every package is ``mahjong_camera_scorer.*``
    and no folder is mapped to a bare top-level name."""
    assert all(p.startswith(f"{NS}.") for p in SETUPTOOLS["packages"])
    assert all(k.startswith(f"{NS}.") for k in SETUPTOOLS["package-dir"])
    assert all(k.startswith(f"{NS}.") for k in SETUPTOOLS["package-data"])
    assert CONFIG["project"]["scripts"]["mahjong-score"].startswith(f"{NS}.vision.")

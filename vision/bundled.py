"""Where the data the wheel carries is found: a checkout's own folder, else the installed package.

Two folders of the repository travel in the wheel as import packages (``pyproject.toml`` maps
them): ``models/`` as ``mahjong_models`` and ``examples/`` as ``mahjong_examples``. Installed, they
are package data found through :mod:`importlib.resources`, so nothing outside the installed
packages is assumed. Run from a source tree (a worktree on ``PYTHONPATH``, ``python -m
vision.cli`` in a fresh clone) the tree's own folder comes first, even where another checkout's
editable install also provides the package: the models and examples are then this tree's.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

#: the folder holding ``vision/`` (a checkout's root, or site-packages when installed)
_ROOT = Path(__file__).resolve().parent.parent


def in_checkout() -> bool:
    """Is this ``vision`` package running from a source tree? Its root holds ``pyproject.toml``,
    which an installed package's site-packages never does."""
    return (_ROOT / "pyproject.toml").is_file()


def bundled_dir(package: str, folder: str) -> Path:
    """The folder of ``package``'s data: ``folder`` of the checkout when running from one, else
    the installed package's own folder (a wheel installs as plain files: a real path that
    onnxruntime and OpenCV can open). Where neither exists, the path it would have when installed,
    so that an error names a place rather than nothing."""
    if in_checkout() and (_ROOT / folder).is_dir():
        return _ROOT / folder
    try:
        return Path(str(files(package)))
    except ModuleNotFoundError:
        return _ROOT / package

"""The checkout's packages under their installed names, for a script run where the project is not
installed (the accelerator machine of ``scripts/device_run.py``, a bare interpreter).

The project's packages live in the design's folders (``vision/``, ``scoring/``, ``datasets/mjsynth/``,
``models/``, ``examples/``) but install as ``mahjong_camera_scorer.vision``, ``.scoring``,
``.mjsynth``, ``.models`` and ``.examples`` (``pyproject.toml``: names no other project on the
index uses). An install (editable or the wheel) maps the names; without one, importing this module
maps them the same way, from the folders of this checkout. Where the project is installed it does
nothing.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
NAMESPACE = "mahjong_camera_scorer"
#: each installed subpackage and its folder in the checkout (pyproject.toml's package-dir)
FOLDERS = {
    "vision": ROOT / "vision",
    "scoring": ROOT / "scoring",
    "mjsynth": ROOT / "datasets" / "mjsynth",
    "models": ROOT / "models",
    "examples": ROOT / "examples",
}


class _CheckoutFinder(importlib.abc.MetaPathFinder):
    """Finds ``mahjong_camera_scorer.<name>`` in its checkout folder (submodules then follow the
    package's own path)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == NAMESPACE:
            spec = importlib.machinery.ModuleSpec(fullname, None, is_package=True)
            spec.submodule_search_locations = []
            return spec
        head, _, name = fullname.partition(".")
        if head != NAMESPACE or "." in name or name not in FOLDERS:
            return None
        init = FOLDERS[name] / "__init__.py"
        return importlib.util.spec_from_file_location(
            fullname, init, submodule_search_locations=[str(FOLDERS[name])]
        )


def _installed() -> bool:
    try:
        return importlib.util.find_spec(f"{NAMESPACE}.vision") is not None
    except ImportError:
        return False


if not _installed():
    sys.meta_path.append(_CheckoutFinder())

"""Read the test vectors of ``../shared/rules/<name>.md`` at test time (never copied into the repo).

Each spec keeps its vectors in fenced ```yaml blocks holding lists of vectors; this module joins
them. Tests call :func:`load_vectors` at collection time and skip cleanly when ``../shared`` is
absent (a checkout without the shared folder still runs every other test).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
SHARED = (REPO / ".." / "shared").resolve()
#: what a vector says about itself, not a field of its hand (left out by :func:`hand_form`)
VECTOR_KEYS = ("id", "source", "constructed", "expected", "notes")
_BLOCK = re.compile(r"```yaml\n(.*?)```", re.DOTALL)
#: libyaml's safe loader where PyYAML has it: the same values, read ten times faster at collection
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def shared_available() -> bool:
    return (SHARED / "rules").is_dir()


@cache
def _load(name: str) -> tuple[dict[str, Any], ...]:
    text = (SHARED / "rules" / f"{name}.md").read_text(encoding="utf-8")
    out: list[dict[str, Any]] = []
    for block in _BLOCK.findall(text):
        data = yaml.load(block, Loader=_LOADER)
        if isinstance(data, list):
            out.extend(v for v in data if isinstance(v, dict) and "id" in v)
        elif isinstance(data, dict) and "id" in data:
            out.append(data)
    return tuple(out)


def load_vectors(name: str) -> list[dict[str, Any]]:
    """All vectors of one spec (``riichi``, ``mcr``, ``zung-jung``, ``australian``, ``classical``).

    Returns an empty list when ``../shared`` is absent; use :func:`vector_params` in
    ``parametrize`` so that case becomes one clean skip.
    """
    if not shared_available():
        return []
    return list(_load(name))


def hand_form(vector: dict[str, Any], *also: str) -> dict[str, Any]:
    """The vector's structured form: its fields less what it says about itself (and ``also``, a
    test's own keys such as the options it names). Nothing else is dropped: the structured form
    refuses a key it does not know, so a hand field misspelled in a spec fails its test."""
    return {k: v for k, v in vector.items() if k not in VECTOR_KEYS and k not in also}


def vector_params(name: str) -> list[Any]:
    """``pytest.param`` per vector, id = vector id; a single skipped param when shared is absent."""
    vectors = load_vectors(name)
    if not vectors:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"../shared/rules/{name}.md not available"))]
    return [pytest.param(v, id=v["id"]) for v in vectors]

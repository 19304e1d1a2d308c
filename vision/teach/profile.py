"""A taught tile set: crops of a player's own tiles, each with the code the player gave it.

The crops are kept as the reader sees them (96 px squares cut by :mod:`vision.crops`), so a set
outlives the reader: the features it is compared by are computed again from the crops whenever
the reader changes (:mod:`vision.teach.adapt`). Nothing here touches the disk
(:mod:`vision.teach.store` does).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from mahjong_camera_scorer.vision.classes import NOT_A_TILE, TILE_CLASSES

#: Set names: letters, digits, space, dot, dash and underscore; they name a folder.
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}")
#: How an example came into the set.
HOW = ("teach", "correction")
#: A set holds at most this many crops (a standard photo has 46; a correction adds one).
MAX_EXAMPLES = 5000
#: The codes an example may have: a tile's, or :data:`vision.classes.NOT_A_TILE` for a box the
#: player said holds no tile (a negative: boxes like it are read as not a tile).
EXAMPLE_CODES = (*TILE_CLASSES, NOT_A_TILE)


class SetError(ValueError):
    """A set that cannot be used as asked (bad name, unknown code, missing set, bad file)."""


def check_name(name: str) -> str:
    """The set's name, or a clear error: it becomes a folder name and a file name."""
    if not isinstance(name, str) or not NAME_RE.fullmatch(name) or name.strip() != name:
        raise SetError(
            f"bad set name {name!r}: use 1-64 letters, digits, spaces, '.', '-' or '_', starting with a "
            "letter or digit"
        )
    return name


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Example:
    """One taught tile: its crop (BGR, the reader's square input) and the code the player gave."""

    code: str
    crop: np.ndarray = field(repr=False)
    #: where it came from: the photo's file name, or the page the correction was made on
    source: str = ""
    how: str = "teach"
    added: str = field(default_factory=now)
    id: str = field(default_factory=lambda: secrets.token_hex(6))

    def __post_init__(self) -> None:
        if self.code not in EXAMPLE_CODES:
            raise SetError(f"{self.code!r} is not a tile code the reader knows")
        if self.how not in HOW:
            raise SetError(f"an example is added by {' or '.join(HOW)}, not {self.how!r}")
        if not re.fullmatch(r"[0-9a-f]{4,32}", self.id):
            raise SetError(f"bad example id {self.id!r}")
        c = self.crop
        if not (isinstance(c, np.ndarray) and c.dtype == np.uint8 and c.ndim == 3 and c.shape[2] == 3):
            raise SetError("an example's crop must be a colour image")

    def meta(self) -> dict[str, Any]:
        """Everything but the pixels (what ``set.json`` holds)."""
        return {"id": self.id, "code": self.code, "source": self.source, "how": self.how, "added": self.added}


@dataclass
class TileSet:
    """A player's set: its name and its taught examples, in the order they were added."""

    name: str
    examples: list[Example] = field(default_factory=list)
    created: str = field(default_factory=now)
    note: str = ""
    #: taught tiles whose crop could not be read (each ``set.json``'s entry with a ``problem``):
    #: reported and left out of reading, kept on disk until removed (``--remove-tile ID``)
    broken: list[dict[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_name(self.name)

    def add(self, examples: list[Example]) -> None:
        if len(self.examples) + len(examples) > MAX_EXAMPLES:
            raise SetError(f"a set holds at most {MAX_EXAMPLES} taught tiles ({self.name!r} has {len(self)})")
        self.examples.extend(examples)

    def remove(self, ids: list[str]) -> list[Example]:
        """Take these examples out (an unknown id is an error, and nothing is removed)."""
        known = {e.id for e in self.examples} | {b["id"] for b in self.broken}
        missing = [i for i in ids if i not in known]
        if missing:
            raise SetError(f"set {self.name!r} has no taught tile {missing[0]!r}")
        gone = [e for e in self.examples if e.id in ids]
        self.examples = [e for e in self.examples if e.id not in ids]
        self.broken = [b for b in self.broken if b["id"] not in ids]
        return gone

    def codes(self) -> dict[str, int]:
        """How many examples of each code, in the reader's class order."""
        out: dict[str, int] = {}
        for e in self.examples:
            out[e.code] = out.get(e.code, 0) + 1
        return {c: out[c] for c in EXAMPLE_CODES if c in out}

    def __len__(self) -> int:
        return len(self.examples)

"""A hand given as a photo: the small interface the session reads photos through.

Scoring stays pure Python: it never imports the photo pipeline. The session asks a
:class:`PhotoHandReader` (any callable ``path -> PhotoHand``) for what a photo shows; the command
line passes the one in :mod:`vision.session_photo`, found by name only when a session has a photo,
so ``python -m scoring session`` works without the models as long as every hand is typed.

A reading with flagged tiles or warnings is never scored silently: the sheet marks the hand for
the referee to confirm (``confirmed: true`` in the file scores it as read).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.session.model import SessionError

#: where the photo pipeline's adapter lives (imported by name, on demand)
VISION_ADAPTER = "mahjong_camera_scorer.vision.session_photo"


@dataclass(slots=True)
class PhotoHand:
    """What the photo pipeline read: the hand as the photo shows it (the session gives it its
    context), and what to check."""

    hand: Hand | None  # None: no hand could be read (``error`` says why)
    tiles: str = ""  # the tiles as read, for the sheet
    flagged: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def needs_confirmation(self) -> bool:
        return bool(self.flagged or self.warnings or self.error or self.hand is None)


PhotoHandReader = Callable[[Path], PhotoHand]


def vision_reader() -> PhotoHandReader:
    """The photo pipeline's reader, or a clear error when it is not installed."""
    try:
        module = importlib.import_module(VISION_ADAPTER)
    except ImportError as exc:
        raise SessionError(
            f"this session has photos, but the photo pipeline cannot be loaded ({exc}); "
            "type the hands instead, or install the vision extras"
        ) from None
    reader: Callable[[Path], PhotoHand] = module.read_photo_hand
    return reader

"""The photo pipeline behind :mod:`scoring.session.photo`: photo → the hand it shows, and what to check.

The session scores a photo's hand itself, in its own context (seats, dora, counters), so this reads
the photo without rules (:func:`vision.pipeline.read_and_score`) and renders the
:class:`vision.result.HandResult` as a :class:`PhotoHand` (:func:`vision.render.photo_hand`). The
models are loaded once a process.
"""

from __future__ import annotations

from pathlib import Path

from scoring.session.photo import PhotoHand
from vision.pipeline import PhotoError, read_and_score
from vision.render import photo_hand


def read_photo_hand(path: Path) -> PhotoHand:
    """What ``path`` shows; an unreadable photo is a :class:`PhotoHand` with its error, never raised."""
    try:
        result = read_and_score(path)
    except PhotoError as exc:
        return PhotoHand(None, error=str(exc))
    return photo_hand(result)

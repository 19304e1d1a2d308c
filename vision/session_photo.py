"""The photo pipeline behind :mod:`scoring.session.photo`: photo → the hand it shows, and what to check.

The session scores a photo's hand itself, in its own context (seats, dora, counters), so this reads
the photo without rules (:func:`vision.pipeline.read_and_score`) and renders the
:class:`vision.result.HandResult` as a :class:`PhotoHand` (:func:`photo_hand`: the session's view of
the one result, as the page and the CLI have theirs in :mod:`vision.render`). The models are loaded
once a process.
"""

from __future__ import annotations

from pathlib import Path

from mahjong_camera_scorer.scoring.session.photo import PhotoHand
from mahjong_camera_scorer.vision.pipeline import PhotoError, read_and_score
from mahjong_camera_scorer.vision.result import HandResult


def read_photo_hand(path: Path) -> PhotoHand:
    """What ``path`` shows; an unreadable photo is a :class:`PhotoHand` with its error, never raised."""
    try:
        result = read_and_score(path)
    except PhotoError as exc:
        return PhotoHand(None, error=str(exc))
    return photo_hand(result)


def photo_hand(result: HandResult) -> PhotoHand:
    """What a session needs of a photo: the hand as it shows it (the session gives it its
    context), the tiles as read, and everything to check before it is scored."""
    flagged = [
        f"{r.code} at x={r.box[0]:.0f} y={r.box[1]:.0f} (confidence {r.confidence:.2f})"
        for r in result.flagged
    ]
    return PhotoHand(
        result.hand,
        tiles=" ".join(r.code for r in result.in_hand),
        flagged=flagged,
        warnings=result.warnings + result.problems,
        error=result.hand_error,
    )

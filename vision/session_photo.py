"""The photo pipeline behind :mod:`scoring.session.photo`: photo → the hand it shows, and what to check.

This is the session's one call into the pipeline (:func:`_read`); when the pipeline gets a single
``read_and_score`` entry point, only that function changes. The reader (both models) is loaded once
for a whole session.
"""

from __future__ import annotations

from pathlib import Path

from scoring.session.photo import PhotoHand
from vision.pipeline import PhotoError, PhotoReader, PhotoResult, mend_notes

_READER: PhotoReader | None = None


def _read(path: Path) -> PhotoResult:
    """The one call site of the photo pipeline."""
    global _READER
    if _READER is None:
        _READER = PhotoReader()
    return _READER.read_photo(path)


def read_photo_hand(path: Path) -> PhotoHand:
    """What ``path`` shows; an unreadable photo is a :class:`PhotoHand` with its error, never raised."""
    try:
        result = _read(path)
    except PhotoError as exc:
        return PhotoHand(None, error=str(exc))
    layout = result.layout
    ignored = {t.index for t in layout.ignored}
    flagged = [
        f"{r.code} at x={r.box[0]:.0f} y={r.box[1]:.0f} (confidence {r.confidence:.2f})"
        for r in result.flagged
        if r.index not in ignored
    ]
    warnings = mend_notes(result) + list(layout.problems)
    tiles = " ".join(r.code for r in result.readings if r.index not in ignored)
    return PhotoHand(layout.to_dict(), tiles=tiles, flagged=flagged, warnings=warnings)

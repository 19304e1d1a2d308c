"""Draw what was read on the photo: each box with its code, flagged tiles in red (``?`` read with
low confidence, ``!`` named by a check of :mod:`vision.checks`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from mahjong_camera_scorer.vision.read import TileRead

OK_COLOUR = (60, 200, 60)  # BGR
FLAG_COLOUR = (40, 40, 230)
BACK_COLOUR = (200, 140, 40)


def draw(
    image: np.ndarray,
    readings: Sequence[TileRead],
    out: Path | None = None,
    factor: float = 1.0,
    warned: set[int] | frozenset[int] = frozenset(),
) -> np.ndarray:
    """Boxes and labels drawn on a copy of ``image``; written to ``out`` when given (JPEG/PNG).
    ``factor``: the boxes' pixels per pixel of ``image`` (a photo decoded reduced is drawn on as
    decoded, never decoded again at full size). ``warned``: the readings (by index) a check
    names, drawn like low-confidence ones."""
    canvas = image.copy()
    scale = max(image.shape[:2]) / 1000
    thick = max(1, round(2 * scale))
    for r in readings:
        x0, y0, x1, y1 = (round(v / factor) for v in r.box)
        named = r.index in warned
        colour = FLAG_COLOUR if r.flagged or named else BACK_COLOUR if r.code == "back" else OK_COLOUR
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, thick)
        label = f"{r.code}{'?' if r.flagged else ''}{'!' if named else ''}"
        fs = 0.5 * max(scale, 0.6)
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, fs, thick)
        ty = y0 - 4 if y0 - th - 6 > 0 else y1 + th + 4
        cv2.rectangle(canvas, (x0, ty - th - 3), (x0 + tw + 4, ty + 3), colour, -1)
        cv2.putText(
            canvas, label, (x0 + 2, ty), cv2.FONT_HERSHEY_SIMPLEX, fs, (255, 255, 255), thick, cv2.LINE_AA
        )
    if out is not None:
        write_image(canvas, out)
    return canvas


def write_image(canvas: np.ndarray, out: Path) -> None:
    """Save a drawn picture; ValueError when OpenCV cannot (an extension it does not know)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        written = cv2.imwrite(str(out), canvas)
    except cv2.error:
        written = False
    if not written:
        raise ValueError(f"OpenCV could not write {out} (unknown image extension?)")

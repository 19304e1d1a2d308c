"""What the mjsynth tests may rely on here: which artwork sources are installed, and fast styles."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.artwork import DEFAULT_SHARED
from mahjong_camera_scorer.mjsynth.procedural import ProceduralSource

SHARED = DEFAULT_SHARED
HAS_SHARED = (SHARED / "artwork" / "fluffystuff" / "Regular" / "Man1.svg").is_file()
HAS_FONTS = ProceduralSource().available()
HAS_DEBIAN = Path("/usr/share/kmahjongglib/tilesets/default.svgz").is_file()

needs_fonts = pytest.mark.skipif(not HAS_FONTS, reason="CJK fonts missing: run scripts/install_artwork.sh")
needs_shared = pytest.mark.skipif(not HAS_SHARED, reason="../shared/artwork/fluffystuff not present")
needs_debian = pytest.mark.skipif(
    not HAS_DEBIAN, reason="Debian tilesets not installed: run scripts/install_artwork.sh"
)

#: Styles the scene tests draw with: procedural faces render in milliseconds.
FAST_STYLES = ("proc-classic", "proc-western", "proc-hk", "proc-bold")


def hue_share(face: np.ndarray, lo: int, hi: int, region: tuple[slice, slice] = np.s_[:, :]) -> float:
    """Share of saturated ink pixels with an OpenCV hue in [lo, hi] (red wraps: pass lo > hi)."""
    hsv = cv2.cvtColor(face[region], cv2.COLOR_BGR2HSV)
    h, ink = hsv[..., 0], (hsv[..., 1] > 80) & (hsv[..., 2] > 40)
    sel = ((h >= lo) | (h <= hi)) if lo > hi else ((h >= lo) & (h <= hi))
    return float((ink & sel).mean())


def marked_crop(code: int) -> np.ndarray:
    """A stand-in real crop whose top third is dark: which way up it lies can be seen in any crop."""
    face = np.full((320, 240, 3), 225, np.uint8)
    face[:100] = 40
    cv2.putText(face, str(code), (60, 220), cv2.FONT_HERSHEY_SIMPLEX, 3, (0, 0, 180), 6)
    return face

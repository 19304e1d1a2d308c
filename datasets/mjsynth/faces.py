"""What a tile face is, for every module that makes or uses one.

A face is the flat front of a tile as a BGR ``uint8`` image of ``FACE_H x FACE_W`` pixels, edge to edge,
in the face's own background colour; a *style* is a named set of such faces from one *source*. The
artwork registry (``artwork``) gathers the sources; the procedural renderer (``procedural``) is one of
them and borrows faces from the registry (its 1-bamboo birds). Both need these definitions, so they live
here, below both: each of the two imports this module and the registry imports the renderer, never the
other way round (``FaceLibrary`` is the renderer's view of the registry).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from mahjong_camera_scorer.vision.classes import BACK, TILE_CLASSES

#: Canonical face size (width, height): 3:4 like real tiles; big enough for tiles ~300 px tall on screen.
FACE_W, FACE_H = 144, 192

#: Face classes (everything but ``back``; a face-down tile is drawn by the tile body, not from a face image).
FACE_CODES: tuple[str, ...] = tuple(c for c in TILE_CLASSES if c != BACK)


@dataclass
class Style:
    """A named tile style: where its faces come from and which codes it has."""

    name: str
    source: str  # fluffystuff | kde | gnome | xmahjongg | procedural
    codes: set[str]
    note: str = ""
    #: code -> how that face is made (e.g. "recoloured 5m"), for the coverage table.
    derived: dict[str, str] = field(default_factory=dict)


class Source:
    """A provider of faces for one or more styles."""

    name = "source"

    def available(self) -> bool:
        raise NotImplementedError

    def styles(self) -> list[Style]:
        raise NotImplementedError

    def render(self, style: str, code: str) -> np.ndarray:
        raise NotImplementedError


class FaceLibrary(Protocol):
    """Faces by style and code (the artwork registry): what a source that borrows faces may ask."""

    @property
    def styles(self) -> dict[str, Style]: ...

    def face(self, style: str, code: str) -> np.ndarray: ...


def recolour_ink(
    face: np.ndarray, colour: tuple[int, int, int], bg: tuple[int, int, int] | None = None
) -> np.ndarray:
    """Repaint the ink of a face (whatever differs from its background) in ``colour``, keeping its shading.

    This is how a red five is made from a style's plain five, and how bird drawings change colour.
    """
    f = face.astype(np.float32)
    if bg is None:
        border = np.concatenate([f[:4].reshape(-1, 3), f[-4:].reshape(-1, 3), f[:, :4].reshape(-1, 3)])
        bg = tuple(np.median(border, axis=0))
    d = np.linalg.norm(f - np.array(bg, np.float32), axis=2)
    ink = np.clip((d - 25) / 60, 0, 1)[..., None]
    lum = f.mean(axis=2, keepdims=True) / 255.0
    # darker ink stays darker: modulate the target colour by the ink's luminance (kept within 0.45..1)
    target = np.array(colour, np.float32) * (0.45 + 0.55 * np.clip(lum / max(lum.max(), 1e-3) * 1.6, 0, 1))
    out = f * (1 - ink) + target * ink
    recoloured: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return recoloured

"""A photo's decoded pixels and how they map to the photo's own pixels: :class:`Photo`.

A large JPEG is decoded reduced (DCT scaling, nearly free: :func:`vision.images.decode_image`), so
the pixels the models look at are not the photo's. Every box a user sees is in the photo's own
pixels; :class:`Photo` maps the two where pixels are touched (a box found by the detector, a crop
cut for the reader), once, so that no step rewrites boxes afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import Field, dataclass, field, replace
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np

Box = tuple[float, float, float, float]


class _Boxed(Protocol):
    """A dataclass with a box (a detection, a reading, the detector's second look)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def box(self) -> Box: ...


B = TypeVar("B", bound=_Boxed)


@dataclass(frozen=True)
class Photo:
    """A photo's decoded pixels (BGR) and ``scale``, photo pixels per decoded pixel (1 unless a
    large JPEG was decoded reduced); :attr:`shape` is the photo's own (h, w, c)."""

    pixels: np.ndarray = field(repr=False)
    scale: float = 1.0

    @property
    def shape(self) -> tuple[int, ...]:
        """The photo's own (height, width, channels), which every box of a scene refers to."""
        if self.scale == 1.0:
            return tuple(self.pixels.shape)
        h, w = self.pixels.shape[:2]
        return (round(h * self.scale), round(w * self.scale), *self.pixels.shape[2:])

    def to_photo(self, box: Sequence[float]) -> Box:
        s = self.scale
        return (box[0] * s, box[1] * s, box[2] * s, box[3] * s)

    def to_pixels(self, box: Sequence[float]) -> Box:
        s = self.scale
        return (box[0] / s, box[1] / s, box[2] / s, box[3] / s)

    def in_photo(self, items: Iterable[B]) -> list[B]:
        """Detections or readings with their boxes from decoded pixels to the photo's."""
        if self.scale == 1.0:
            return list(items)
        return [replace(x, box=self.to_photo(x.box)) for x in items]

    def in_pixels(self, items: Iterable[B]) -> list[B]:
        """Detections or readings with their boxes from the photo's pixels to the decoded ones:
        where a crop is cut."""
        if self.scale == 1.0:
            return list(items)
        return [replace(x, box=self.to_pixels(x.box)) for x in items]

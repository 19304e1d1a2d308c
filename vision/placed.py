"""What the geometry of a hand needs to know of a tile: :class:`Placed`.

The layout, the table's rows, the faint-box checks and the gap finder look at tiles as boxes with
a code, an orientation and the way the tile points (:class:`vision.read.TileRead` is one; a tile
seen in the hand's frame, :class:`vision.layout.Framed`, another; tests build their own). One
protocol, so that each of those modules takes typed tiles and gives back the same type it was
given (a ``TypeVar`` bound to it), with no ``Any`` and no ``getattr`` defaults standing in for a
missing attribute.
"""

from __future__ import annotations

from dataclasses import Field
from typing import Any, ClassVar, Protocol, TypeVar

Box = tuple[float, float, float, float]


class Placed(Protocol):
    """A tile where it lies: its box (``xyxy``), its code, its orientation (``upright``,
    ``sideways``, ``upside_down``), which way its top points (degrees clockwise, 0/90/180/270)
    and how sure the reader is of that (0..1). A dataclass, so that a step can give back a
    changed copy (:func:`dataclasses.replace`)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def box(self) -> Box: ...

    @property
    def code(self) -> str: ...

    @property
    def orientation(self) -> str: ...

    @property
    def turn(self) -> int: ...

    @property
    def turn_confidence(self) -> float: ...


#: a tile type the geometry gives back as it was given
P = TypeVar("P", bound=Placed)

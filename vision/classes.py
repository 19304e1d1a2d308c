"""The one list of tile classes that the detector, the reader and the data generator share.

Index order is the model's output order: changing it invalidates every shipped model, so new
classes may only be appended (and the models retrained).
"""

from __future__ import annotations

SUITED: tuple[str, ...] = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10))
HONOURS: tuple[str, ...] = tuple(f"{n}z" for n in range(1, 8))
RED_FIVES: tuple[str, ...] = ("0m", "0p", "0s")
BONUS: tuple[str, ...] = tuple(f"{n}f" for n in range(1, 9))
BACK = "back"

#: Reader classes: 34 kinds, the three red fives, 8 flowers/seasons and a face-down tile.
TILE_CLASSES: tuple[str, ...] = SUITED + HONOURS + RED_FIVES + BONUS + (BACK,)

#: The reader's answer for a box that holds no whole tile (clutter, a key cap, a tile's side, part
#: of a tile cut by the frame): such boxes are dropped before the layout and listed as rejected.
NOT_A_TILE = "none"
#: Reader classes of the models trained on real photos: the tile classes plus :data:`NOT_A_TILE`
#: (appended, so a reader without it still reads the same indices).
READER_CLASSES: tuple[str, ...] = (*TILE_CLASSES, NOT_A_TILE)

#: Detector classes: a tile showing its face, and a face-down tile.
DETECTOR_CLASSES: tuple[str, ...] = ("tile", "back")

#: Orientation labels the reader and the layout use.
ORIENTATIONS: tuple[str, ...] = ("upright", "sideways", "upside_down")

assert len(TILE_CLASSES) == 46

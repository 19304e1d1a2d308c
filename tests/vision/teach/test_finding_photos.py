"""Tiles missed on purpose in a real photo (the bundled example): teaching finds them again from
the typed codes, a taught set finds them while reading, and a "not a tile" crop suppresses its box."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.models import DETECTOR_FILE, MODELS_DIR, READER_FILE
from mahjong_camera_scorer.vision.pipeline import PhotoReader
from mahjong_camera_scorer.vision.teach.adapt import taught_reader
from mahjong_camera_scorer.vision.teach.codes import parse_rows
from mahjong_camera_scorer.vision.teach.profile import Example, TileSet
from mahjong_camera_scorer.vision.teach.teaching import pair_photo

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "hand.jpg"
CODES = "345m 55888p 44s | 4s | ?11p?"
READ = ["3m", "4m", "5m", "5p", "5p", "8p", "8p", "8p", "4s", "4s", "4s", "back", "1p", "1p", "back"]

pytestmark = [
    pytest.mark.skipif(
        not (MODELS_DIR / DETECTOR_FILE).is_file() or not (MODELS_DIR / READER_FILE).is_file(),
        reason="models missing",
    ),
    pytest.mark.models,
    pytest.mark.slow,
]


class Missing(PhotoReader):
    """The shipped models, with the detector's boxes on some tiles taken out (faint ones too)."""

    erase: tuple[tuple[float, ...], ...] = ()

    def find_boxes(self, image: np.ndarray, mend_boxes: bool = True) -> tuple[list[Detection], None]:
        found, _ = super().find_boxes(image, mend_boxes)
        return [d for d in found if not any(_centre_in(d.box, e) for e in self.erase)], None


def _centre_in(box: tuple[float, ...], other: tuple[float, ...]) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return other[0] <= cx <= other[2] and other[1] <= cy <= other[3]


@pytest.fixture(scope="module")
def reader() -> Missing:
    return Missing(closer=False)


@pytest.fixture(scope="module")
def image() -> np.ndarray:
    return cv2.imread(str(EXAMPLE))


@pytest.fixture(scope="module")
def whole(reader: Missing, image: np.ndarray):
    reader.erase = ()
    photo = pair_photo(reader, image, parse_rows(CODES))
    assert [p.code for p in photo.pairs] == READ and not photo.recovered
    return photo


@pytest.mark.parametrize("place", [0, 3, 14])
def test_a_tile_the_detector_missed_is_recovered_from_the_codes(
    reader: Missing,
    image: np.ndarray,
    whole,
    place: int,
) -> None:
    reader.erase = (whole.pairs[place].tile.box,)
    try:
        photo = pair_photo(reader, image, parse_rows(CODES))
    finally:
        reader.erase = ()
    assert [p.code for p in photo.pairs] == READ
    (r,) = photo.recovered
    assert r.how == "gap" and photo.pairs[place].found == "gap"
    box, truth = np.array(photo.pairs[place].tile.box), np.array(whole.pairs[place].tile.box)
    width = truth[2] - truth[0]
    centre, truth_centre = (box[:2] + box[2:]) / 2, (truth[:2] + truth[2:]) / 2
    # on the tile missed: the row's pitch puts the box's centre on it; its sides may differ from the
    # detector's box (a flat back at the row's end is boxed with its side showing)
    assert np.abs(centre - truth_centre).max() < 0.25 * width
    assert np.abs(box - truth).max() < 0.35 * width
    assert any("recovered" in line for line in photo.recovery_lines())


def test_a_blank_white_painted_and_missed_is_taught_as_typed(
    reader: Missing, image: np.ndarray, whole
) -> None:
    """A plain ivory face (what a blank white dragon is) where the 5p was, no box on it."""
    painted = image.copy()
    x0, y0, x1, y1 = (int(v) for v in whole.pairs[3].tile.box)
    mx, my = (x1 - x0) // 8, (y1 - y0) // 10
    painted[y0 + my : y1 - my, x0 + mx : x1 - mx] = (200, 225, 235)
    reader.erase = (whole.pairs[3].tile.box,)
    try:
        photo = pair_photo(reader, painted, parse_rows("345m 5z5888p 44s | 4s | ?11p?"))
    finally:
        reader.erase = ()
    assert photo.pairs[3].code == "5z" and photo.pairs[3].found == "gap"
    assert len(photo.examples(96)) == 15


def test_a_taught_set_finds_a_tile_the_detector_missed(reader: Missing, image: np.ndarray, whole) -> None:
    ts = TileSet("home", whole.examples(96))
    tr = taught_reader(ts, reader.rdr)
    reader.erase = (whole.pairs[6].tile.box,)
    try:
        without = reader.read(image, tileset=None).tiles
        seen = reader.read(image, tileset=tr).tiles
    finally:
        reader.erase = ()
    assert len(without) == 14
    found = [t for t in seen if t.found_by == "set"]
    assert len(seen) == 15 and [t.code for t in found] == ["8p"]
    assert found[0].to_json()["found_by"] == "set"


def test_not_a_tile_suppresses_boxes_like_it(reader: Missing, image: np.ndarray, whole) -> None:
    crops = whole.examples(96)
    negative = Example("none", crops[0].crop, "test")  # the player marked the 3m's box: not a tile
    ts = TileSet("home", [*crops[1:], negative])
    seen = reader.read(image, tileset=taught_reader(ts, reader.rdr))
    first = whole.pairs[0].tile.box
    assert not any(_centre_in(t.box, first) for t in seen.tiles)
    assert any(_centre_in(r.box, first) for r in seen.rejected)
    assert len(seen.tiles) == 14


def test_a_hand_on_a_table_teaches_the_hand_only(reader: Missing, image: np.ndarray, whole) -> None:
    """Another player's row (the hand's row again, smaller: farther away) above the hand: the codes
    typed are the hand's; the layout leaves the other row out (vision.table).

    The detector shipped since issue 22 boxes only a few of that row's tiles (3 of 15, where the
    earlier one boxed all: models/README.md, known failure modes); whatever it boxes there is left
    out, and only that.
    """
    boxes = [p.tile.box for p in whole.pairs]
    x0, y0 = int(min(b[0] for b in boxes)) - 5, int(min(b[1] for b in boxes)) - 5
    x1, y1 = int(max(b[2] for b in boxes)) + 5, int(max(b[3] for b in boxes)) + 5
    other = cv2.resize(image[y0:y1, x0:x1], None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)
    table = image.copy()
    h, w = other.shape[:2]
    top = max(0, y0 - h - 60)
    table[top : top + h, 100 : 100 + w] = other
    photo = pair_photo(reader, table, parse_rows(CODES))
    assert [p.code for p in photo.pairs] == READ
    found_above = [
        d for d in reader.find_boxes(table)[0] if d.box[3] <= top + h + 1 and d.score >= reader.conf
    ]
    assert photo.left_out and len(photo.left_out) <= len(found_above)
    assert all(t.box[3] <= top + h + 1 for t in photo.left_out)
    assert any("left out" in line for line in photo.recovery_lines())
